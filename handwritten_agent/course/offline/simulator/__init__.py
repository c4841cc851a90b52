"""The offline course simulator: a deterministic rule engine that speaks the Chat Completions
protocol.

It is **not an LLM** and says so whenever it answers without tools. Given a request with ``tools``
it reads the tools' names, descriptions and JSON Schemas, picks the tools the user's words call
for, fills their arguments, and once results come back composes an answer from them:

- ``text``, ``lexicon``   normalization, tokens, numbers, quotes; the small intent vocabulary
- ``concepts``            named values and their words (currencies, units, weekdays, priorities …)
- ``choose``              scoring tools against one intent of the request
- ``arguments``           filling arguments from the schemas, one module per kind of rule (with
                          ``dates`` and ``expressions``)
- ``planner``             the turn: which calls now, or which answer (``plan_turn``)
- ``results``             what a tool result says: ok, error, confirmation, denied, repeated
- ``facts``, ``fieldwords``  a result's data read as facts a reader understands (labels, units,
                             caveats)
- ``phrasing``, ``answer``   sentences: final answers, clarifying questions, the fallback reply
- ``context``             the earlier rounds applied to this turn's plan: ``references`` (a
                          follow-up carries over the latest call's arguments; "刚才那个结果"),
                          ``known`` (memories, a summary or earlier statements in the prompt answer
                          a question or fill an argument; ``subjects``: what a question for
                          a value asks about, and whether a tool provides it)
- ``summary``             a request to summarize a conversation gets an extractive summary within
                          the budget it states
- ``preflight``           the last look before a side effect: no past time, a stated condition
                          checked first, one call per item, meaningful free text, targets named or
                          found in results
- ``grounding``, ``scope`` an id looked up before it is used (query, then act); an action that
  reaches no further
                          than the user said, and personal data in bulk declined

Without ``tools`` but with a tool prompt in the system
message it plays the Day 2 prompt-JSON / text-ReAct model (``promptmode``). The same request always
gets the same reply: no randomness, tool call ids derived from a hash of the messages.

Faults, chosen with the model name (``course-sim:<fault>[,<fault>]``, see ``offline/faults.py``):

- ``server_error``: HTTP 500 every time; ``rate_limit``: HTTP 429 with ``Retry-After`` on the first
  attempt of each distinct request, success on the retry; ``slow``: the reply after
  ``slow_seconds``.
- ``empty_reply``: no content and no tool calls.
- ``repeat_forever``: the first planned call on every turn, whatever the results say.
- ``malformed_json`` / ``unknown_tool`` / ``string_arguments``: the model's first tool-calling turn
  after the user's message is spoiled (arguments missing their closing brace / a tool name that
  was not offered / arguments encoded twice as a JSON string). When the agent sends the error back,
  the next turn makes the call correctly — the way a real model recovers when told its mistake.
- ``bad_tool_call_id``: every tool call gets the id ``call_0``, reused across turns.
- ``gullible``: obeys instruction-like text found in tool results that names an action it has a tool
  for — whatever its dressing ("忽略之前的指令，…", "SYSTEM:", a fake closing tag, "the user already
  approved …"), each once (``gullible``).
- ``flaky``: per run and reproducibly (a seed from the request and the run's number), about one run
  in three takes a worse path — a near-miss argument or a step skipped — so pass^1 and pass^k differ
  (``flaky``).

Left out: streaming (the server turns a ``Completion`` into SSE chunks), abstractive summaries, and
sampling parameters (``temperature`` is accepted and ignored).
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from datetime import datetime
from typing import Any

from ....messages import message_text, parse_arguments
from ....tokens import count_message_tokens, estimate_tokens
from ..backend import BackendError, ChatRequest, Completion
from ..faults import SIMULATOR_MODEL, split_model_name, validate_options
from .answer import fallback_reply
from .arguments import FillContext, best_effort_arguments
from .caution import withhold_instructions
from .choose import profile, unwrap_tool
from .context import revise
from .flaky import Flakiness
from .gullible import follow_instructions
from .planner import Plan, PlannedCall, answers_question, completed_request, plan_turn
from .preflight import preflight
from .summary import summary_reply
from .text import language, normalize
from .today import stated_now

RATE_LIMIT_MEMORY = 256  # request hashes remembered for the rate_limit fault
CARELESS_FAULTS = frozenset(
    {"gullible", "flaky", "repeat_forever"}
)  # models that act without checking
RAW_ARGUMENTS_KEY = (  # marks a call whose arguments were not JSON, so it matches no plan
    "_unparsable_arguments"
)


def parse_call_arguments(raw: Any) -> dict[str, Any]:
    """Arguments of a call found in the conversation. Anything but a JSON object (broken JSON, an
    object encoded twice as a string) is kept under ``RAW_ARGUMENTS_KEY``, so it matches no planned
    call and the planner retries the call properly once the agent has answered it with an error."""
    try:
        return parse_arguments(raw)
    except ValueError:
        return {RAW_ARGUMENTS_KEY: raw}


def read_conversation(
    messages: list[dict[str, Any]],
) -> tuple[str, list[tuple[PlannedCall, str]], str | None]:
    """The last user request, the (call, result) pairs after it, and the earlier request if we asked
    a question since.
    """
    last_user = max((i for i, m in enumerate(messages) if m.get("role") == "user"), default=-1)
    user_text = message_text(messages[last_user]) if last_user >= 0 else ""
    results: list[tuple[PlannedCall, str]] = []
    waiting: list[tuple[str, PlannedCall]] = []
    for message in messages[last_user + 1 :]:
        role = message.get("role")
        if role == "assistant":
            waiting = []
            for call in message.get("tool_calls") or []:
                function = call.get("function") or {}
                waiting.append(
                    (
                        str(call.get("id", "")),
                        PlannedCall(
                            str(function.get("name", "")),
                            parse_call_arguments(function.get("arguments", "{}")),
                        ),
                    )
                )
        elif role == "tool":
            if not waiting:
                continue
            wanted = message.get("tool_call_id")
            index = next((i for i, (call_id, _) in enumerate(waiting) if call_id == wanted), 0)
            _, call = waiting.pop(index)
            results.append((call, message_text(message)))
    earlier_request = None
    if last_user > 0:
        before = messages[last_user - 1]
        asked = message_text(before).rstrip()
        if (
            before.get("role") == "assistant"
            and not before.get("tool_calls")
            and asked.endswith(("？", "?"))
        ):
            previous_user = max(
                (i for i, m in enumerate(messages[: last_user - 1]) if m.get("role") == "user"),
                default=-1,
            )
            if previous_user >= 0:
                earlier_request = message_text(messages[previous_user])
    return user_text, results, earlier_request


def earlier_results(
    messages: list[dict[str, Any]], specs: list[dict[str, Any]]
) -> tuple[tuple[dict[str, Any], dict[str, Any], str], ...]:
    """The calls of the rounds before the latest user message with what they returned, as ``(spec,
    arguments, text)``: data already seen in the conversation, where a name the user writes now may
    be found ("那就订 B502").
    """
    last_user = max((i for i, m in enumerate(messages) if m.get("role") == "user"), default=-1)
    by_name = {str(spec.get("name")): spec for spec in specs}
    calls: dict[str, tuple[str, dict[str, Any]]] = {}
    found = []
    for message in messages[: max(last_user, 0)]:
        for call in message.get("tool_calls") or []:
            function = call.get("function") or {}
            calls[str(call.get("id", ""))] = (
                str(function.get("name", "")),
                parse_call_arguments(function.get("arguments", "{}")),
            )
        if message.get("role") == "tool" and message.get("tool_call_id") in calls:
            name, arguments = calls[message["tool_call_id"]]
            if name in by_name and RAW_ARGUMENTS_KEY not in arguments:
                found.append((by_name[name], arguments, message_text(message)))
    return tuple(found[-8:])


def plausible_wrong_name(name: str, offered: set[Any]) -> str:
    """A tool name a model might invent instead of ``name``: without its verb prefix, or with a
    suffix.
    """
    for prefix in ("get_", "query_", "fetch_", "search_", "send_", "create_"):
        if name.startswith(prefix) and name[len(prefix) :] not in offered:
            return name[len(prefix) :]
    candidate = f"{name}_tool"
    while candidate in offered:
        candidate += "_v2"
    return candidate


class CourseSimulator:
    """The offline backend: a rule engine, not an LLM (see the module docstring)."""

    name = "离线课程模拟器（规则引擎，不是 LLM）"

    def __init__(
        self, now: datetime | Callable[[], datetime] | None = None, slow_seconds: float = 3.0
    ):
        self._now = now
        self.slow_seconds = slow_seconds
        self._rate_limited: OrderedDict[str, None] = OrderedDict()
        self._lock = threading.Lock()
        self._flaky = Flakiness()

    def list_models(self) -> list[str]:
        return [SIMULATOR_MODEL]

    def now(self) -> datetime:
        if self._now is None:
            return datetime.now()
        return self._now() if callable(self._now) else self._now

    # -- the protocol -------------------------------------------------------------------------

    def complete(self, request: ChatRequest) -> Completion:
        base, suffix = split_model_name(request.model)
        if (request.base_model or base) != SIMULATOR_MODEL:
            # OpenAI's wording for an unknown model, word for word: learners meet it from real
            # providers too.
            raise BackendError(
                404,
                f"The model `{request.model}` does not exist or you do not have access to it.",
                code="model_not_found",
            )
        options = validate_options(request.model, frozenset(request.options) | suffix)
        if "server_error" in options:  # OpenAI's wording for a 500, word for word
            raise BackendError(
                500,
                "The server had an error while processing your request. Sorry about that!",
                type="server_error",
            )
        if "rate_limit" in options:
            self._rate_limit(request)
        if "slow" in options:
            time.sleep(self.slow_seconds)

        if not request.tools and self._is_tool_prompt(request):
            from . import promptmode

            return promptmode.respond(request, now=stated_now(request.messages, self.now()))
        return summary_reply(request) or self._native(request, options)

    # -- faults -------------------------------------------------------------------------------

    def _rate_limit(self, request: ChatRequest) -> None:
        body = json.dumps(
            {
                "model": request.model,
                "messages": request.messages,
                "tools": request.tools,
                "tool_choice": request.tool_choice,
                "parallel_tool_calls": request.parallel_tool_calls,
            },
            sort_keys=True,
            ensure_ascii=False,
            default=str,
        )
        key = hashlib.sha256(body.encode("utf-8")).hexdigest()
        with self._lock:
            if key in self._rate_limited:
                del self._rate_limited[key]
                return
            self._rate_limited[key] = None
            while len(self._rate_limited) > RATE_LIMIT_MEMORY:
                self._rate_limited.popitem(last=False)
        # OpenAI's wording for a rate limit (model, limit, usage, wait), with this server's own
        # numbers
        raise BackendError(
            429,
            f"Rate limit reached for {SIMULATOR_MODEL} on requests per min (RPM): Limit 1, Used 1, "
            "Requested 1. Please try again in 200ms.",
            type="requests",
            code="rate_limit_exceeded",
            headers={"Retry-After": "1", "retry-after-ms": "200"},
        )

    @staticmethod
    def _is_tool_prompt(request: ChatRequest) -> bool:
        system_text = "\n".join(
            message_text(m) for m in request.messages if m.get("role") in ("system", "developer")
        )
        if not system_text:
            return False
        try:
            from . import promptmode
        except ImportError:
            return False
        return bool(promptmode.looks_like_tool_prompt(system_text))

    # -- native tool calling ------------------------------------------------------------------

    def _native(self, request: ChatRequest, options: frozenset[str]) -> Completion:
        prompt_tokens = count_message_tokens(request.messages, request.tools)
        if "empty_reply" in options:
            return Completion(
                content=None,
                tool_calls=[],
                finish_reason="stop",
                prompt_tokens=prompt_tokens,
                completion_tokens=0,
            )
        specs = [unwrap_tool(tool) for tool in request.tools or [] if isinstance(tool, dict)]
        user_text, results, earlier_request = read_conversation(request.messages)
        fate = self._flaky.run(request.messages, request.tools) if "flaky" in options else None
        skips = fate is not None and fate.skips(user_text, specs)
        if fate is not None:
            user_text = fate.read(
                user_text, specs
            )  # a near-miss run misreads the request, the same way on every turn
        now = stated_now(
            request.messages, self.now()
        )  # "今天是 …" in the system prompt sets today (today.py)
        choice = request.tool_choice if request.tool_choice is not None else "auto"
        plan_options = dict(
            parallel=request.parallel_tool_calls,
            tool_choice=choice,
            now=now,
            seen=earlier_results(request.messages, specs),
        )
        if earlier_request:
            # The user is answering our question: read their reply together with the request it
            # completes — when the reply alone asks for nothing, or asks for the same tools the
            # completed request does ("发给 S003"); never when it is a question of its own that
            # the request can make nothing of (``answers_question``).
            alone = plan_turn(user_text, specs, [], **plan_options)
            completed = completed_request(earlier_request, user_text)
            together = plan_turn(completed, specs, [], **plan_options)
            if (
                alone.kind == "fallback"
                or together.kind == "call"
                and {c.name for c in alone.calls} <= {c.name for c in together.calls}
            ) and answers_question(
                earlier_request,
                user_text,
                lambda text: (
                    together if text == completed else plan_turn(text, specs, [], **plan_options)
                ),
            ):
                user_text = completed
        plan = plan_turn(user_text, specs, results, **plan_options)
        plan = revise(
            plan, user_text, specs, results, request.messages, plan_options
        )  # the earlier rounds (Day 4)
        if (
            "gullible" in options and choice != "none"
        ):  # obeys instructions found in tool results (see gullible.py)
            plan = follow_instructions(user_text, specs, results, plan, plan_options)

        if skips and results and plan.calls:
            # a run that stops a step early: it answers from the results it has instead of making
            # the next call
            plan = plan_turn(user_text, specs, results, **{**plan_options, "tool_choice": "none"})
        if "repeat_forever" in options and specs and choice != "none":
            plan = Plan([self._stubborn_call(user_text, specs, plan_options)], None, "call")
        if choice == "auto" and not options & CARELESS_FAULTS:  # the last look before a side effect
            plan = preflight(
                plan,
                user_text,
                specs,
                results,
                request.messages,
                now,
                fixed=self._now is not None,
                parallel=request.parallel_tool_calls,
            )
        if not plan.calls:
            content = plan.answer or fallback_reply(user_text, specs, language(user_text))
            if (
                "gullible" not in options
            ):  # a careful model reads tool text back without passing its instructions on
                content = withhold_instructions(content, [raw for _, raw in results])
            return Completion(
                content=content,
                tool_calls=[],
                finish_reason="stop",
                prompt_tokens=prompt_tokens,
                completion_tokens=estimate_tokens(content),
            )

        first_turn = not any(
            m.get("role") == "tool"
            for m in request.messages[self._last_user_index(request.messages) + 1 :]
        )
        offered = {spec.get("name") for spec in specs}
        messages_json = json.dumps(
            request.messages, sort_keys=True, ensure_ascii=False, default=str
        )
        tool_calls = []
        for index, call in enumerate(plan.calls):
            name = call.name
            arguments = json.dumps(call.arguments, ensure_ascii=False)
            if first_turn and "unknown_tool" in options:
                name = plausible_wrong_name(call.name, offered)
            if first_turn and "malformed_json" in options:
                arguments = arguments[:-1]  # the closing brace is missing
            if first_turn and "string_arguments" in options:
                arguments = json.dumps(arguments, ensure_ascii=False)
            call_id = (
                "call_0"
                if "bad_tool_call_id" in options
                else "call_"
                + hashlib.sha256((messages_json + str(index)).encode("utf-8")).hexdigest()[:24]
            )
            if fate is not None and "bad_tool_call_id" not in options:
                call_id = fate.call_id(call_id)  # the run's number, read back on its later turns
            tool_calls.append(
                {
                    "id": call_id,
                    "type": "function",
                    "function": {"name": name, "arguments": arguments},
                }
            )
        completion_tokens = sum(
            estimate_tokens(c["function"]["name"]) + estimate_tokens(c["function"]["arguments"]) + 3
            for c in tool_calls
        )
        return Completion(
            content=None,
            tool_calls=tool_calls,
            finish_reason="tool_calls",
            prompt_tokens=prompt_tokens,
            completion_tokens=completion_tokens,
        )

    @staticmethod
    def _last_user_index(messages: list[dict[str, Any]]) -> int:
        return max((i for i, m in enumerate(messages) if m.get("role") == "user"), default=-1)

    @staticmethod
    def _stubborn_call(
        user_text: str, specs: list[dict[str, Any]], plan_options: dict[str, Any]
    ) -> PlannedCall:
        """The call the ``repeat_forever`` fault makes every turn: the first one planned before any
        result.
        """
        first = plan_turn(user_text, specs, [], **plan_options)
        if first.calls:
            return first.calls[0]
        spec = specs[0]
        text = normalize(user_text)
        ctx = FillContext(segment=text, context=text, request=text, now=plan_options["now"])
        return PlannedCall(str(profile(spec).name), best_effort_arguments(spec, ctx))


__all__ = ["CourseSimulator", "Plan", "PlannedCall", "plan_turn", "read_conversation"]
