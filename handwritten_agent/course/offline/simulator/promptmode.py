"""The simulator without a ``tools`` parameter: tools described in the system prompt, calls as text.

On Day 2 the learner makes a model call tools with nothing but words. The system prompt lists the
tools and asks for one JSON object per call (or for the text ReAct format); the model answers with
text; the learner's code parses it, runs the tool and sends the result back as another message.
This module plays the model's side of that exchange, in four steps:

1. **Read the prompt** (``toolprompt.read_tool_prompt``). Learners write these prompts by hand, so
   the tools are recovered from whatever they wrote: JSON tool definitions (bare, OpenAI-style, a
   list, a Python ``repr``, inside ``` fences or not), the seed's lines (``工具名称：X`` / ``描述：
   …`` / ``参数说明：`` / `` - city (string): …``), a heading followed by a parameters schema (the
   package's ``prompting`` format), or signature lines (``- get_weather(city: str): …``). The
   example reply in the prompt says which keys carry the tool name and the arguments
   (``name``/``arguments`` by default, or ``tool_name``, ``tool``/``args``,
   ``action``/``action_input``…). ``Action Input`` in the prompt means the text ReAct format.
2. **Read the conversation** (``read_exchange``). The request is the last user message that is not
   a tool result; after it come the simulator's own earlier calls (re-read from its text) and the
   results sent back ("工具结果：calculate 返回 46", "Observation: …", "工具 X 返回：…", a JSON
   envelope, a ``tool`` message). Each result is paired with the call before it.
3. **Plan** with the shared planner, one call per turn (``parallel=False``).
4. **Write the reply**: the call as JSON text in the chosen messiness profile, or
   ``Thought/Action/Action Input`` for ReAct, or the answer in words (``Final Answer:`` in ReAct).
   Faults spoil the first call after the request, as in native mode (``malformed_json``: the
   text stops mid-call; ``unknown_tool``: a plausible name that was not offered;
   ``string_arguments``: the arguments as a JSON string), or every turn (``repeat_forever``: the
   first planned call again and again; ``empty_reply``: nothing at all). When the learner's code
   answers a failed attempt -- it could not parse it, or the tool does not exist -- the next reply
   is the same call written cleanly, without the messiness profile, so a retry loop is seen to work.

The simulator never writes ``Observation:`` itself: only running the tool can produce one. The
``stop`` sequences of the request are applied to the text, as a model's server does.

Left out: several calls in one reply (one call per turn is what such prompts ask for), tool specs
given only in a user message, free-text Action Inputs for tools with more than one parameter, and
understanding free-form corrections from the user: a user message that is not a tool result (or the
answer to a question the simulator asked) starts a new request.
"""

from __future__ import annotations

import json
import re
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ....messages import message_text
from ....tokens import count_message_tokens, estimate_tokens
from ..backend import ChatRequest, Completion
from . import messiness
from . import planner as _planner
from .phrasing import action_phrase, expression_argument, expression_words
from .planner import PlannedCall
from .preflight import preflight
from .text import language as _language
from .toolprompt import (  # noqa: F401 - re-exported: the prompt reader is part of this API
    ARGS_KEYS,
    CHINESE_REACT,
    IDENTIFIER,
    NAME_KEYS,
    THOUGHT_KEYS,
    ReactLabels,
    ReplyFormat,
    ToolPrompt,
    looks_like_tool_prompt,
    read_tool_prompt,
)

PROMPT_FAULTS = frozenset(
    {"malformed_json", "unknown_tool", "string_arguments", "repeat_forever", "empty_reply"}
)

# ----------------------------------------------------------------------------- what was said so far

_REACT_LABEL = re.compile(
    r"^[ \t]*(Question|Thought|Action[ \t]*Input|Action|Observation|Final["
    r" \t]*Answer|问题|思考|行动输入|行动|观察|最终答案)[ \t]*[:：][ \t]*",
    re.M | re.I,
)
_LABEL_KIND = {
    "question": "question",
    "问题": "question",
    "thought": "thought",
    "思考": "thought",
    "actioninput": "input",
    "行动输入": "input",
    "action": "action",
    "行动": "action",
    "observation": "observation",
    "观察": "observation",
    "finalanswer": "final",
    "最终答案": "final",
}

_Q = r"[`'\"“‘]?"
_QE = r"[`'\"”’]?"
_OBSERVATION_PREFIXES = [
    re.compile(
        rf"^工具结果\s*[:：]\s*{_Q}({IDENTIFIER}){_QE}\s*(?:返回(?:了)?(?:结果)?|的结果)\s*(?:为|"
        rf"是)?\s*[:：]?\s*"
    ),
    re.compile(
        rf"^(?:你调用的|调用)?工具\s*{_Q}({IDENTIFIER}){_QE}\s*(?:的)?(?:执行|调用)?(?:返回(?:"
        rf"了)?(?:结果)?|结果)\s*(?:为|是)?\s*[:：]?\s*"
    ),
    re.compile(
        r"^(?:工具(?:执行|调用)?结果|工具返回|调用结果|执行结果|函数(?:返回|结果)|Tool\s"
        r"+(?:result|output)|"
        rf"Function\s+(?:result|output)|Result)\s*(?:[(（]\s*({IDENTIFIER})\s*[)）])?\s*[:：]\s*",
        re.I,
    ),
    re.compile(
        rf"^(?:Tool|Function)\s+{_Q}({IDENTIFIER}){_QE}\s+(?:returned|result|output)\s*[:：]?\s*",
        re.I,
    ),
]
_ASKS_ORIGINAL = re.compile(
    r"[。.；;，"
    r",\s]*请(?:根据|结合|基于)[^“\"「]{0,30}?(?:回复|回答)[^“\"「]{0,12}?[:：]?\s*[“\""
    r"「『](.+?)[”\"」』]",
    re.S,
)
_ENVELOPE_KEYS = {"success", "data", "error", "result", "output", "observation", "tool_result"}
_WRAPPER_KEYS = {
    "tool",
    "tool_name",
    "name",
    "result",
    "output",
    "observation",
    "tool_result",
    "content",
}
_PARSE_FEEDBACK = re.compile(
    r"无法解析|解析失败|不是(?:一个)?(?:合法|有效|正确)的\s*JSON|JSON\s*(?:格式)?(?:错误|不合法|无"
    r"效)|格式(?:不正确|错误|有误)|"
    r"could\s*n[o']?t\s+(?:be\s+)?parse|failed\s+to\s+parse|not\s+(?:a\s+)?valid\s+JSON|invalid\s"
    r"+(?:JSON|format)|parse\s+error",
    re.I,
)


@dataclass(frozen=True)
class _Attempt:
    """One call the simulator made earlier; ``call`` is None when its text could not be read
    back.
    """

    call: PlannedCall | None


@dataclass(frozen=True)
class _Observation:
    name: str | None
    text: str


@dataclass(frozen=True)
class _Feedback:
    text: str


@dataclass
class Exchange:
    """The conversation since the request, as the planner needs it."""

    request: str = ""
    # the request before it, when the simulator asked a question in between
    earlier_request: str | None = None
    results: list[tuple[PlannedCall, str]] = field(default_factory=list)
    unpaired: list[int] = field(
        default_factory=list
    )  # results whose call was not seen: arguments unknown
    attempts: int = 0  # calls written since the request, readable or not
    retry: bool = False  # the last attempt failed and was answered: write the next call cleanly
    # the conversation ends in a bare "Thought:" for the model to continue
    continues_thought: bool = False


def _envelope(text: str) -> _Observation | None:
    if not text.startswith("{"):
        return None
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        return None
    if not isinstance(value, dict) or not (set(value) & (_ENVELOPE_KEYS | {"tool", "tool_name"})):
        return None
    name = next(
        (value[k] for k in ("tool", "tool_name", "name") if isinstance(value.get(k), str)), None
    )
    inner_key = next(
        (k for k in ("result", "output", "observation", "tool_result", "content") if k in value),
        None,
    )
    if inner_key and set(value) <= _WRAPPER_KEYS:
        inner = value[inner_key]
        return _Observation(
            name, inner if isinstance(inner, str) else json.dumps(inner, ensure_ascii=False)
        )
    return _Observation(name, text)


def _observation(text: str) -> tuple[_Observation, str | None] | None:
    """A tool result in one of the usual wrappings, and the original question if it repeats one."""
    stripped = text.strip()
    for pattern in _OBSERVATION_PREFIXES:
        match = pattern.match(stripped)
        if match:
            rest = stripped[match.end() :]
            question = None
            asks = _ASKS_ORIGINAL.search(rest)
            if asks:
                question = asks.group(1).strip()
                rest = rest[: asks.start()]
            return _Observation(match.group(1), rest.strip()), question
    envelope = _envelope(stripped)
    return (envelope, None) if envelope else None


def _react_segments(text: str) -> list[tuple[str, str]]:
    """``[(kind, value)]`` for the ReAct labels in ``text`` (kind:
    question/thought/action/input/observation/final).
    """
    matches = list(_REACT_LABEL.finditer(text))
    segments = []
    for index, match in enumerate(matches):
        end = matches[index + 1].start() if index + 1 < len(matches) else len(text)
        kind = _LABEL_KIND[re.sub(r"\s+", "", match.group(1)).lower()]
        segments.append((kind, text[match.end() : end].strip()))
    return segments


def _read_arguments(text: str, prompt: ToolPrompt, name: str) -> dict[str, Any] | None:
    """Arguments from their text (JSON, messy JSON, a JSON string, or a bare value for a
    one-parameter tool).
    """
    text = text.strip().strip("`").removeprefix("json").strip()
    if not text:
        return {}
    value: Any = text
    for _ in range(2):  # a JSON string holding JSON: decode twice
        if not isinstance(value, str):
            break
        try:
            value, _end = messiness.loads_lenient(value) if value[:1] in "{｛[\"'“" else (value, 0)
        except (ValueError, RecursionError):
            return None
    if isinstance(value, dict):
        return value
    spec = next((tool for tool in prompt.tools if tool["name"] == name), None)
    properties = list((spec or {}).get("parameters", {}).get("properties", {}))
    if isinstance(value, str) and len(properties) == 1:
        return {properties[0]: value}
    return {} if value in ("", None) else None


def _read_json_call(text: str, prompt: ToolPrompt) -> _Attempt | None:
    """The call in one of the simulator's own JSON replies, or a failed attempt, or None for plain
    words.
    """
    for _, _, value in messiness.iter_json_values(text):
        found = prompt.reply.read(value)
        if found:
            name, arguments = found
            if isinstance(arguments, str):
                arguments = _read_arguments(arguments, prompt, name)
            return _Attempt(PlannedCall(name, arguments) if isinstance(arguments, dict) else None)
    key = "|".join(re.escape(k) for k in dict.fromkeys((prompt.reply.name_key, "name")))
    if re.search(rf"[{{｛][^}}｝]*?[\"'“]?(?:{key})[\"'”]?\s*[:：]", text):
        return _Attempt(None)  # a call that was cut off or garbled
    return None


def _react_events(segments: list[tuple[str, str]], prompt: ToolPrompt) -> list[Any]:
    events: list[Any] = []
    pending_action: str | None = None
    for kind, value in segments:
        if kind == "action":
            if pending_action is not None:
                events.append(_Attempt(None))
            pending_action = value.strip().strip("`'\"")
        elif kind == "input" and pending_action is not None:
            arguments = _read_arguments(value, prompt, pending_action)
            events.append(
                _Attempt(PlannedCall(pending_action, arguments) if arguments is not None else None)
            )
            pending_action = None
        elif kind == "observation":
            if pending_action is not None:
                events.append(_Attempt(None))
                pending_action = None
            events.append(_Observation(None, value))
    if pending_action is not None:
        events.append(_Attempt(None))
    return events


def _events(role: str, text: str, message: dict[str, Any], prompt: ToolPrompt) -> list[Any]:
    """What one message after the request contributes: calls, observations, parse-error feedback."""
    if role == "tool" or role == "function":
        return [_Observation(message.get("name"), text.strip())]
    segments = _react_segments(text)
    if any(kind in ("action", "observation") for kind, _ in segments):
        return _react_events(segments, prompt)
    if role == "assistant":
        attempt = _read_json_call(text, prompt)
        return [attempt] if attempt else []
    observed = _observation(
        text
    )  # from a user message, or a system message some loops use for results
    if observed:
        return [observed[0]]
    if _PARSE_FEEDBACK.search(text):
        return [_Feedback(text)]
    return []


def _is_followup(turns: list[tuple[str, str, dict[str, Any]]], index: int) -> bool:
    """Whether user message ``index`` answers the model (a tool result, or feedback on its last
    reply) rather than asking something new. Feedback counts only right after a reply that tried to
    call a tool.
    """
    stripped = turns[index][1].strip()
    if _observation(stripped):
        return True
    segments = _react_segments(stripped)
    if segments and segments[0][0] in ("observation", "thought", "action"):
        return True
    previous = turns[index - 1] if index > 0 else None
    tried_a_call = (
        previous is not None
        and previous[0] == "assistant"
        and re.search(r"[{｛]|Action", previous[1]) is not None
    )
    return tried_a_call and _PARSE_FEEDBACK.search(stripped) is not None


def read_exchange(messages: list[dict[str, Any]], prompt: ToolPrompt) -> Exchange:
    """The request, the results so far (paired with the calls that produced them), and whether to
    retry cleanly.
    """
    leading = next(
        (i for i, m in enumerate(messages) if m.get("role") not in ("system", "developer")),
        len(messages),
    )
    turns = [(m.get("role", ""), message_text(m), m) for m in messages[leading:]]
    request_at = next(
        (
            i
            for i in range(len(turns) - 1, -1, -1)
            if turns[i][0] == "user" and not _is_followup(turns, i)
        ),
        None,
    )
    exchange = Exchange()
    events: list[Any] = []
    if request_at is not None:
        request_text = turns[request_at][1]
        segments = _react_segments(request_text)
        if segments and segments[0][0] == "question":  # a whole scratchpad in one user message
            exchange.request = segments[0][1]
            events += _react_events(segments[1:], prompt)
        else:
            exchange.request = request_text.strip()
        before = turns[request_at - 1] if request_at > 0 else None
        if before and before[0] == "assistant" and before[1].rstrip().endswith(("？", "?")):
            exchange.earlier_request = next(
                (
                    turns[i][1].strip()
                    for i in range(request_at - 2, -1, -1)
                    if turns[i][0] == "user" and not _is_followup(turns, i)
                ),
                None,
            )
    following = turns[request_at + 1 :] if request_at is not None else turns
    for role, text, message in following:
        if (
            not exchange.request and role == "user"
        ):  # e.g. "工具 X 返回了结果…请根据这个结果回答用户最初的问题“…”"
            observed = _observation(text)
            if observed and observed[1]:
                exchange.request = observed[1]
        events += _events(role, text, message, prompt)
    if turns:
        exchange.continues_thought = bool(re.search(r"(?:Thought|思考)\s*[:：]\s*$", turns[-1][1]))

    known = set(prompt.tool_names)
    pending: deque[_Attempt] = deque()
    for event in events:
        if isinstance(event, _Attempt):
            pending.append(event)
            exchange.attempts += 1
            exchange.retry = False
        elif isinstance(event, _Observation):
            if pending:
                call = pending.popleft().call
            else:  # a result handed back without the call (the seed sends a fresh request with it)
                name = event.name or (next(iter(known)) if len(known) == 1 else "")
                call = PlannedCall(name, {}) if name else None
                if call:
                    exchange.unpaired.append(len(exchange.results))
            if call is None:  # the answer to a garbled call: nothing the planner can use
                exchange.retry = True
                continue
            exchange.results.append((call, event.text))
            exchange.retry = (
                call.name not in known
            )  # a tool that does not exist: try again, properly
        elif isinstance(event, _Feedback):
            pending.clear()
            exchange.retry = True
    return exchange


# ------------------------------------------------------------------------------ the reply


def _compact(arguments: dict[str, Any]) -> str:
    return json.dumps(arguments, ensure_ascii=False)


def _call_thought(
    call: PlannedCall, exchange: Exchange, language: str, spec: dict[str, Any] | None = None
) -> str:
    """One sentence of reasoning, the way a person would think it: what to find out and with which
    tool ("要回答这个问题，先用 calculator 算出 17 乘以 9。"). It has no braces, so the only JSON in
    a ReAct reply is the Action Input (a parser that grabs the first ``{…}`` is not misled)."""
    done = [c.name for c, _ in exchange.results]
    expression = expression_argument(call.arguments)
    if expression:
        task = (
            f"算出 {expression_words(expression, 'zh')}"
            if language == "zh"
            else f"work out {expression_words(expression, 'en')}"
        )
    else:
        task = action_phrase(spec or {"name": call.name}, call.arguments, language)
        if task.startswith("调用 ") or task.startswith("call "):
            task = ""
    if language == "zh":
        lead = (
            f"已经拿到 {done[-1]} 的结果，接下来用 {call.name}"
            if done
            else f"要回答这个问题，先用 {call.name}"
        )
        return f"{lead}{' ' + task if task else ''}。"
    lead = (
        f"I have the result of {done[-1]}; next I use {call.name}"
        if done
        else f"To answer this, I first use {call.name}"
    )
    return f"{lead}{' to ' + task if task else ''}."


def _final_thought(kind: str, language: str) -> str:
    zh = {
        "final": "我已经拿到需要的结果，可以回答用户了。",
        "clarify": "还缺少必要的信息，需要先问用户。",
        "fallback": "这个请求用不上工具，直接回答。",
    }
    en = {
        "final": "I now know the final answer.",
        "clarify": "I need more information from the user first.",
        "fallback": "No tool is needed for this request.",
    }
    return (zh if language == "zh" else en).get(
        kind, zh["final"] if language == "zh" else en["final"]
    )


def unknown_tool_name(name: str, known: Iterable[str]) -> str:
    """A plausible tool name that is not offered (the ``unknown_tool`` fault): ``get_weather`` →
    ``weather``.
    """
    known = set(known)
    for candidate in (name.removeprefix("get_"), f"{name}_tool", f"{name}_v2", f"tool_{name}"):
        if candidate and candidate not in known:
            return candidate
    return f"{name}_{len(known)}"


def _cut_at_stop(text: str, stop: list[str] | None) -> str:
    cuts = [text.find(s) for s in stop or [] if s]
    cuts = [c for c in cuts if c >= 0]
    return text[: min(cuts)] if cuts else text


def _write_call(
    call: PlannedCall,
    prompt: ToolPrompt,
    exchange: Exchange,
    faults: frozenset[str],
    flags: frozenset[str],
    language: str,
) -> str:
    name, arguments = call.name, call.arguments
    spoil = (
        exchange.attempts == 0
    )  # faults spoil the first call after the request; the retry is correct
    if exchange.retry:
        flags = frozenset()  # told its reply failed, the model writes the call cleanly
    if spoil and "unknown_tool" in faults:
        name = unknown_tool_name(name, prompt.tool_names)
    wire_arguments: Any = (
        _compact(arguments) if spoil and "string_arguments" in faults else arguments
    )
    spec = next((t for t in prompt.tools if t.get("name") == call.name), None)
    thought = _call_thought(PlannedCall(name, arguments), exchange, language, spec)
    if prompt.react:
        labels = prompt.react
        if spoil and "malformed_json" in faults:
            action_input = (
                messiness.truncated_json(arguments, name="", arguments=arguments)
                if arguments
                else "{"
            )
        else:
            action_input = messiness.render_json(wire_arguments, flags)
        head = "" if exchange.continues_thought else f"{labels.thought}{labels.colon}"
        return (
            f"{head}{thought}\n{labels.action}{labels.colon}{name}\n"
            f"{labels.action_input}{labels.colon}{action_input}"
        )
    value = prompt.reply.build(name, wire_arguments, thought)
    if spoil and "malformed_json" in faults:
        return messiness.truncated_json(value, name=name, arguments=wire_arguments)
    return messiness.render_reply(value, flags, tool_name=name, language=language)


def _write_answer(
    answer: str, kind: str, prompt: ToolPrompt, exchange: Exchange, language: str
) -> str:
    if not prompt.react:
        return answer
    labels = prompt.react
    head = "" if exchange.continues_thought else f"{labels.thought}{labels.colon}"
    return f"{head}{_final_thought(kind, language)}\n{labels.final_answer}{labels.colon}{answer}"


def system_prompt(messages: list[dict[str, Any]]) -> str:
    """The text of the system (or developer) messages before the conversation starts."""
    texts = []
    for message in messages:
        if message.get("role") not in ("system", "developer"):
            break
        texts.append(message_text(message))
    return "\n\n".join(texts)


def reply_text(request: ChatRequest, *, now: datetime | None = None) -> str:
    """The text of the simulator's reply to a prompt-JSON or ReAct request (before ``stop`` is
    applied).
    """
    system_text = system_prompt(request.messages)
    prompt = read_tool_prompt(system_text)
    exchange = read_exchange(request.messages, prompt)
    options = frozenset(request.options)
    faults = options & PROMPT_FAULTS
    flags = messiness.profile_flags(options)
    if "empty_reply" in faults:
        return ""

    def plan(results: list[tuple[PlannedCall, str]]) -> _planner.Plan:
        return _planner.plan_turn(
            exchange.request, prompt.tools, results, parallel=False, tool_choice="auto", now=now
        )

    if (
        exchange.earlier_request
        and plan([]).kind == "fallback"
        and _planner.answers_question(
            exchange.earlier_request,
            exchange.request,
            lambda text: _planner.plan_turn(
                text, prompt.tools, [], parallel=False, tool_choice="auto", now=now
            ),
        )
    ):
        # The user is answering the question the simulator asked: read it with the request it
        # completes (a question of its own that adds nothing to that request is answered alone).
        exchange.request = _planner.completed_request(exchange.earlier_request, exchange.request)
    language = _language(exchange.request or system_text)
    for (
        index
    ) in exchange.unpaired:  # a result without its call: the call is the one the planner would make
        name = exchange.results[index][0].name
        expected = _planner.plan_turn(
            exchange.request,
            prompt.tools,
            exchange.results[:index],
            parallel=True,
            tool_choice="auto",
            now=now,
        )
        call = next((c for c in expected.calls if c.name == name), None)
        if call:
            exchange.results[index] = (call, exchange.results[index][1])

    if "repeat_forever" in faults:
        first = plan([])
        if first.calls:
            return _write_call(first.calls[0], prompt, exchange, faults, flags, language)
    turn = plan(exchange.results)
    turn = preflight(
        turn,
        exchange.request,
        prompt.tools,
        exchange.results,
        request.messages,  # the last look
        now or datetime.now(),
        fixed=False,
        parallel=False,
    )  # before a side effect
    if turn.calls:
        return _write_call(turn.calls[0], prompt, exchange, faults, flags, language)
    return _write_answer(turn.answer or "", turn.kind, prompt, exchange, language)


def respond(request: ChatRequest, *, now: datetime | None = None) -> Completion:
    """Answer a request that has no ``tools`` parameter but a tool prompt in its system message."""
    content = _cut_at_stop(reply_text(request, now=now), request.stop)
    return Completion(
        content=content,
        tool_calls=[],
        finish_reason="stop",
        prompt_tokens=count_message_tokens(request.messages),
        completion_tokens=estimate_tokens(content),
    )
