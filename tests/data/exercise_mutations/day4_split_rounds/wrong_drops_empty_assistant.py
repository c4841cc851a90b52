"""Skips messages without content and without tool calls (an empty assistant reply): the rounds no longer add up to the messages after the head."""

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
        if not message.get("content") and not message.get("tool_calls") and message["role"] == "assistant":
            continue
        if message["role"] == "user" or not rounds:
            rounds.append([message])  # user 消息开启一轮（最前面的第一条消息也是）
        else:
            rounds[-1].append(message)  # 调用、调用结果和回答都留在这一轮里
    return rounds


ARGS = (split_rounds,)
