"""Rounds: the unit a memory policy keeps or drops, so that a tool call never loses its result.

A conversation is a list of messages, but not every cut through that list is a valid conversation.
An assistant message with ``tool_calls`` must be followed by one tool message per call, and a tool
message must answer a call just before it — the API rejects anything else with a 400. So memory
never cuts between messages; it cuts between **rounds**:

- the system messages at the start (the *head*) are not a round: they are always kept;
- a round starts at a user message and runs to the next user message, so it holds the question,
  every assistant step with its calls, every tool message answering them, and the answer;
- messages before the first user message (after the head) form a round of their own.

``pairing_problems`` says what is wrong with a list of messages in the words of the API's error, so
a policy can check its own output (and a test can check every policy's).

Left out: multi-modal content and the Responses API's item types.
"""

from __future__ import annotations

from typing import Any

from ..messages import find_pairing_problems, latest_user_index

Message = dict[str, Any]


def split_head(messages: list[Message]) -> tuple[list[Message], list[Message]]:
    """The leading system (or developer) messages, and the rest."""
    end = 0
    while end < len(messages) and messages[end].get("role") in ("system", "developer"):
        end += 1
    return list(messages[:end]), list(messages[end:])


def split_rounds(messages: list[Message]) -> list[list[Message]]:
    """The rounds of a conversation (the head of system messages is not a round; see the module
    docstring).

    Every round but possibly the first starts with a user message; an assistant message with
    ``tool_calls`` and the tool messages answering it are always in the same round, because only a
    user message starts a new one. Joining the head and all rounds gives back the input.
    """
    _, rest = split_head(messages)
    rounds: list[list[Message]] = []
    for message in rest:
        if message.get("role") == "user" or not rounds:
            rounds.append([message])
        else:
            rounds[-1].append(message)
    return rounds


def join(head: list[Message], rounds: list[list[Message]]) -> list[Message]:
    return list(head) + [message for round_ in rounds for message in round_]


def pairing_problems(messages: list[Message]) -> list[str]:
    """What the API would reject about tool pairing, in Chinese; an empty list when every call is
    answered.

    The rule is ``messages.find_pairing_problems``: every tool message answers a call of the
    assistant message right before the run of tool messages it belongs to; every call of that
    assistant message gets a tool message before any other message follows (also at the end).
    """
    return [problem.describe() for problem in find_pairing_problems(messages)]


__all__ = ["Message", "join", "latest_user_index", "pairing_problems", "split_head", "split_rounds"]
