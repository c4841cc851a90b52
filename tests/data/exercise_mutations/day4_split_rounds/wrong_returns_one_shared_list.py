"""Collects the rounds in a module-level list cleared at the start of each call: each call is right, but the list returned earlier changes when split_rounds runs again."""

import copy
import sqlite3
from handwritten_agent.course.exercises.check.day4 import MEMORY_SCHEMA, memory_db
from handwritten_agent.memory import (SUMMARY_HEADING, SUMMARY_PROMPT, ContextTooLong, budget_line, count_tokens, render_transcript,
                                      summary_message, summary_text)

ROUNDS: list = []


def split_rounds(messages: list[dict]) -> list[list[dict]]:
    start = 0
    while start < len(messages) and messages[start]["role"] == "system":
        start += 1  # 开头部分：不算一轮
    rounds = ROUNDS
    rounds.clear()
    for message in messages[start:]:
        if message["role"] == "user" or not rounds:
            rounds.append([message])  # user 消息开启一轮（最前面的第一条消息也是）
        else:
            rounds[-1].append(message)  # 调用、调用结果和回答都留在这一轮里
    return rounds


ARGS = (split_rounds,)
