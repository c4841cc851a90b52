"""Correct, another way: collect the current round and flush it when a user message arrives (the head skipped with itertools.dropwhile), no indices."""

import copy
import sqlite3
from handwritten_agent.course.exercises.check.day4 import MEMORY_SCHEMA, memory_db
from handwritten_agent.memory import (SUMMARY_HEADING, SUMMARY_PROMPT, ContextTooLong, budget_line, count_tokens, render_transcript,
                                      summary_message, summary_text)

import itertools


def split_rounds(messages):
    body = list(itertools.dropwhile(lambda m: m["role"] == "system", messages))
    rounds, current = [], []
    for message in body:
        if message["role"] == "user" and current:
            rounds.append(current)
            current = []
        current.append(message)
    if current:
        rounds.append(current)
    return rounds


ARGS = (split_rounds,)
