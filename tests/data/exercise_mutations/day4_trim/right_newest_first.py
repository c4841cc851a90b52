"""Correct, another way: walk the rounds from the newest back and stop at the first that no longer fits, then put the kept ones back in order."""

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


def trim(messages, budget):
    head = []
    for message in messages:
        if message["role"] != "system":
            break
        head.append(message)
    kept = []
    for round_ in reversed(split_rounds(messages)):
        if count_tokens(head + [m for r in [round_] + kept for m in r]) > budget:
            break
        kept.insert(0, round_)
    rounds = split_rounds(messages)
    if rounds and not kept:
        needed = count_tokens(head + rounds[-1])
        raise ContextTooLong(f"头部加最新一轮要 {needed} 个 token，预算只有 {budget}：请调大预算或缩短内容。", tokens=needed, budget=budget)
    if not rounds and count_tokens(head) > budget:
        needed = count_tokens(head)
        raise ContextTooLong(f"头部就要 {needed} 个 token，预算只有 {budget}。", tokens=needed, budget=budget)
    return head + [m for r in kept for m in r]


ARGS = (trim,)
