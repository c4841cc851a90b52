"""Day 4 · memory: what the model sees of a conversation, and what it remembers about a user.

One idea per module:

- ``count_tokens``   the course's token estimate for a request (``handwritten_agent.tokens``),
                     calibrated against a real tokenizer in ``calibration``
- ``rounds``         ``split_rounds``: the unit memory keeps or drops, so a tool call never loses
                     its result
- ``window``         ``trim_messages``: drop whole oldest rounds until the request fits its budget
                     (``Window`` as a policy); ``context_budget``: the budget from a context window
                     (not the API's ``max_tokens``)
- ``summary``        ``compress``: older rounds become one summary the model writes, down to a
                     low-water mark (``Summarizer`` as a policy)
- ``caching``        ``CallLog``: every model call recorded, with the prefix a provider's prompt
                     cache could reuse
- ``conversation``   ``Conversation``: one user's session, history across ``ask`` calls, a policy
                     before every model call
- ``longterm``       ``LongTermMemory``: facts per user in SQLite, FTS5 trigram search that works
                     for Chinese
- ``tools``          ``memory_tools``: ``remember_fact``/``recall_facts`` bound to the session's
                     user

A memory policy (记忆策略) is any callable ``messages -> messages``; ``Agent(..., memory=policy)``
applies it to a copy before every model call. Left out: embeddings and vector search (so recall
finds words, not meanings: "坚果" does not find "花生"), memories shared between users, updating or
reconciling memories that contradict each other, extracting memories without the user asking, and
token counts exact for a particular provider.
"""

from __future__ import annotations

from ..tokens import count_message_tokens as count_tokens
from .caching import CallLog
from .conversation import KNOWN_FACTS_HEADING, Conversation, known_facts_message
from .longterm import LongTermMemory, Memory, MemoryRejected
from .rounds import pairing_problems, split_head, split_rounds
from .summary import (
    LOW_WATER,
    SUMMARY_HEADING,
    SUMMARY_PROMPT,
    Summarizer,
    budget_line,
    compress,
    render_transcript,
    summarize,
    summary_message,
    summary_text,
)
from .tools import memory_tools
from .window import ContextTooLong, Window, context_budget, trim_messages

__all__ = [
    "CallLog",
    "ContextTooLong",
    "Conversation",
    "KNOWN_FACTS_HEADING",
    "LOW_WATER",
    "LongTermMemory",
    "Memory",
    "MemoryRejected",
    "SUMMARY_HEADING",
    "SUMMARY_PROMPT",
    "Summarizer",
    "Window",
    "budget_line",
    "compress",
    "context_budget",
    "count_tokens",
    "known_facts_message",
    "memory_tools",
    "pairing_problems",
    "render_transcript",
    "split_head",
    "split_rounds",
    "summarize",
    "summary_message",
    "summary_text",
    "trim_messages",
]
