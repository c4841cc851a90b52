"""Caches the result under (number of messages, budget): another conversation of the same length gets the first one's messages back."""

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


_CACHE = {}


def trim(messages: list[dict], budget: int) -> list[dict]:
    if (len(messages), budget) in _CACHE:
        return list(_CACHE[(len(messages), budget)])
    head = []
    for message in messages:
        if message["role"] != "system":
            break
        head.append(message)
    rounds = split_rounds(messages)
    for start in range(len(rounds)):  # 从最旧的开始整轮丢弃，直到放得下
        kept = head + [m for round_ in rounds[start:] for m in round_]
        if count_tokens(kept) <= budget:
            _CACHE[(len(messages), budget)] = kept
            return kept
    needed = count_tokens(head + (rounds[-1] if rounds else []))
    if not rounds and needed <= budget:
        return list(head)
    raise ContextTooLong(f"system 消息加最新的一轮需要 {needed} 个 token，超过了预算 {budget}。"
                         "请调大 budget，或者缩短 system prompt 和这一轮的内容。", tokens=needed, budget=budget)


ARGS = (trim,)
