"""Helpers shared by the simulator's tests: tool schemas, and a conversation run to its answer.

- ``tool``         a function schema alone (``name``, ``description``, ``parameters``), the shape
                   ``plan_turn`` reads;
- ``fn``           the same wrapped as a chat-completions tool (``{"type": "function", ...}``), the
                   shape ``CourseSimulator.complete`` reads;
- ``run_request``  one request sent to a simulator, every tool call it makes answered with a canned
                   result, until it answers in text or the turns run out; the calls and the answer;
- ``converse``     several user messages of one conversation, each run to its answer the same way;
                   the calls and the answer of each;
- ``summarizer``   a ``ChatModel`` that answers with the simulator, in process: what ``compress``
                   calls to write a summary, without a server.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from handwritten_agent.course.offline.backend import ChatRequest
from handwritten_agent.course.offline.simulator import CourseSimulator
from handwritten_agent.messages import ChatResult
from handwritten_agent.scripted import FunctionClient

Call = tuple[str, dict[str, Any]]
# what a tool answers: a canned result by tool name, or a function of (name, arguments)
Results = Mapping[str, Any] | Callable[[str, dict[str, Any]], Any]

# the result of a tool with no canned one, unless the caller names another
DEFAULT_RESULT = {"success": True, "data": {"id": "R1"}}


def tool(
    name: str, description: str, properties: dict[str, Any], required: list[str] | None = None
) -> dict[str, Any]:
    """A function schema; every property is required unless ``required`` says otherwise."""
    return {
        "name": name,
        "description": description,
        "parameters": {
            "type": "object",
            "properties": properties,
            "required": list(properties) if required is None else required,
        },
    }


def fn(
    name: str,
    description: str,
    properties: dict[str, Any] | None = None,
    required: list[str] | None = None,
    **params: tuple[str, str],
) -> dict[str, Any]:
    """``tool(...)`` wrapped as a chat-completions tool. The properties are given as JSON schemas,
    or in short as keywords ``key=(type, description)``; every one is required unless ``required``
    says otherwise.
    """
    if properties is not None and params:
        raise TypeError("give the properties as a dict or as keywords, not both")
    if properties is None:
        properties = {
            key: {"type": kind, "description": said} for key, (kind, said) in params.items()
        }
    return {"type": "function", "function": tool(name, description, properties, required)}


def run_request(
    simulator: CourseSimulator,
    tools: list[dict[str, Any]],
    request: str,
    results: Results | None = None,
    *,
    default: Any = DEFAULT_RESULT,
    turns: int = 4,
    system: str | None = None,
) -> tuple[list[Call], str]:
    """The calls made and the final answer ("" when ``turns`` replies all call tools).

    Each call is answered from ``results``: by its tool's name (``default`` for a name it lacks), or
    by calling it with the name and the arguments. A result that is a string is the tool message as
    it is; any other is sent as JSON. ``system``, if given, is a system message before the request.
    """
    [(calls, answer)] = converse(
        simulator, tools, [request], results, default=default, turns=turns, system=system
    )
    return calls, answer


def converse(
    simulator: CourseSimulator,
    tools: list[dict[str, Any]],
    requests: list[str],
    results: Results | None = None,
    *,
    default: Any = DEFAULT_RESULT,
    turns: int = 4,
    system: str | None = None,
) -> list[tuple[list[Call], str]]:
    """Each of ``requests`` said in turn in one conversation and run to its answer as
    ``run_request`` runs one (``turns`` replies at most each): the calls and the answer of each.
    An answer stays in the conversation before the next request.
    """
    messages: list[dict[str, Any]] = [{"role": "system", "content": system}] if system else []
    rounds: list[tuple[list[Call], str]] = []
    for request in requests:
        messages.append({"role": "user", "content": request})
        calls: list[Call] = []
        answer = ""
        for _ in range(turns):
            completion = simulator.complete(
                ChatRequest(model="course-sim", messages=messages, tools=tools)
            )
            if not completion.tool_calls:
                answer = completion.content or ""
                messages.append({"role": "assistant", "content": answer})
                break
            messages.append(
                {"role": "assistant", "content": None, "tool_calls": completion.tool_calls}
            )
            for call in completion.tool_calls:
                name = call["function"]["name"]
                arguments = json.loads(call["function"]["arguments"])
                calls.append((name, arguments))
                if callable(results):
                    result = results(name, arguments)
                else:
                    result = (results or {}).get(name, default)
                content = (
                    result if isinstance(result, str) else json.dumps(result, ensure_ascii=False)
                )
                messages.append({"role": "tool", "tool_call_id": call["id"], "content": content})
        rounds.append((calls, answer))
    return rounds


def summarizer(simulator: CourseSimulator | None = None) -> FunctionClient:
    """A chat model that is ``simulator`` (a new one by default) called in process, for as many
    calls as a test makes: its summary mode writes what ``compress`` asks for."""
    simulator = simulator or CourseSimulator()

    def answer(messages: list[dict[str, Any]], tools: Any) -> ChatResult:
        reply = simulator.complete(ChatRequest(model="course-sim", messages=list(messages)))
        return ChatResult(content=reply.content or "")

    return FunctionClient(answer, max_calls=10**6)
