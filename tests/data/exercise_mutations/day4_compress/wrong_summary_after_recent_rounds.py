"""Puts the summary after the two recent rounds: the model reads the old events as the latest thing said."""

import copy
import sqlite3
from handwritten_agent.course.exercises.check.day4 import MEMORY_SCHEMA, memory_db
from handwritten_agent.memory import (SUMMARY_HEADING, SUMMARY_PROMPT, ContextTooLong, budget_line, count_tokens, render_transcript,
                                      summary_message, summary_text)

def split_rounds(messages: list[dict]) -> list[list[dict]]:
    start = 0
    while start < len(messages) and messages[start]["role"] == "system":
        start += 1  # 开头部分：不算一轮
    rounds: list[list[dict]] = []
    for message in messages[start:]:
        if message["role"] == "user" or not rounds:
            rounds.append([message])  # user 消息开启一轮（最前面的第一条消息也是）
        else:
            rounds[-1].append(message)  # 调用、调用结果和回答都留在这一轮里
    return rounds


def compress_history(messages: list[dict], client, budget: int) -> list[dict]:
    if count_tokens(messages) <= budget:
        return list(messages)  # 放得下：什么都不用做
    head, previous = [], None
    for message in messages:
        if message["role"] != "system":
            break
        if message["content"].startswith(SUMMARY_HEADING):
            previous = summary_text(message)  # 之前的摘要：再次交给模型
        else:
            head.append(message)
    rounds = split_rounds(messages)
    older, recent = rounds[:-2], [m for round_ in rounds[-2:] for m in round_]
    if not older:
        return list(messages)  # 除了最后两轮，没有更早的内容
    fixed = count_tokens(head + [summary_message("")] + recent)
    room = int(0.6 * (budget - fixed))  # 低水位线：留出 40% 的空间给后面的轮次
    reply = client.complete([
        {"role": "system", "content": SUMMARY_PROMPT + "\n" + budget_line(room)},
        {"role": "user", "content": render_transcript(older, previous_summary=previous)},
    ])
    return head + recent + [summary_message(reply.content)]


ARGS = (compress_history,)
