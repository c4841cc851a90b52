"""FallbackClient: the next model only after a 429, a 5xx or a timeout; the context fitted first;
every switch reported.
"""

from __future__ import annotations

import pytest

from handwritten_agent.agent import Agent
from handwritten_agent.course.offline import serve
from handwritten_agent.fallback import FallbackClient
from handwritten_agent.llm import (
    AuthenticationFailed,
    BadRequest,
    ChatClient,
    ConnectionFailed,
    RateLimited,
    RequestTimeout,
    ServerError,
)
from handwritten_agent.scenarios import basic_registry
from handwritten_agent.scripted import ScriptedClient


class Failing:
    def __init__(self, error: Exception, model: str = "primary"):
        self.error, self.model, self.calls = error, model, 0

    def complete(self, messages, tools=None, **options):
        self.calls += 1
        raise self.error


@pytest.mark.parametrize(
    "error",
    [RateLimited("429", status=429), ServerError("500", status=500), RequestTimeout("timeout")],
)
def test_switches_on_429_5xx_and_timeout(error):
    backup = ScriptedClient(["备用模型的回答"])
    backup.model = "backup"
    seen: list[dict] = []
    client = FallbackClient([Failing(error), backup], on_switch=seen.append)
    assert client.complete([{"role": "user", "content": "你好"}]).content == "备用模型的回答"
    assert [(s["from_model"], s["to_model"], s["error_type"]) for s in seen] == [
        ("primary", "backup", type(error).__name__)
    ]
    assert client.switches == seen


@pytest.mark.parametrize(
    "error",
    [
        BadRequest("400", status=400),
        AuthenticationFailed("401", status=401),
        ConnectionFailed("refused"),
        ValueError("bug"),
    ],
)
def test_does_not_switch_on_the_callers_own_errors(error):
    backup = ScriptedClient(["不应该被问到"])
    client = FallbackClient([Failing(error), backup])
    with pytest.raises(type(error)):
        client.complete([{"role": "user", "content": "你好"}])
    assert backup.remaining == 1 and client.switches == []


def test_the_last_error_is_raised_when_every_model_fails():
    first, second = (
        Failing(ServerError("500", status=500)),
        Failing(RateLimited("429", status=429), model="backup"),
    )
    with pytest.raises(RateLimited):
        FallbackClient([first, second]).complete([{"role": "user", "content": "你好"}])
    assert (first.calls, second.calls) == (1, 1)


def test_the_context_is_fitted_to_the_fallbacks_window_first():
    history = [{"role": "system", "content": "sys"}] + [
        {"role": role, "content": f"{role} {i}"}
        for i in range(10)
        for role in ("user", "assistant")
    ]
    history.append({"role": "user", "content": "最新的问题"})
    backup = ScriptedClient(["ok"])

    def keep_last_three(messages, tools, window):
        assert window == 100
        return messages[:1] + messages[-3:]

    client = FallbackClient(
        [Failing(ServerError("503", status=503)), backup],
        context_windows=[None, 100],
        fit=keep_last_three,
    )
    client.complete(history)
    assert backup.requests[0]["messages"] == history[:1] + history[-3:]
    assert (client.switches[0]["messages_before"], client.switches[0]["messages_after"]) == (22, 4)


def test_an_agent_on_a_failing_real_server_finishes_on_the_fallback():
    """The primary is the offline server answering every request with HTTP 500 (after the client's
    own retries).
    """
    with serve() as server:
        primary = ChatClient(
            server.base_url, "k", "course-sim:server_error", max_retries=1, backoff=0.01
        )
        backup = ChatClient(server.base_url, "k", "course-sim", max_retries=0)
        client = FallbackClient([primary, backup])
        result = Agent(client, basic_registry()).run("17 乘以 9 等于多少？")
    assert result.stop_reason == "final" and "153" in result.answer
    assert [s["to_model"] for s in client.switches] == [
        "course-sim",
        "course-sim",
    ]  # one switch per model call of the run
    assert all(step.reply.model.startswith("course-sim") for step in result.steps)


def test_the_default_fit_leaves_room_for_the_reply():
    """Messages that would just fill the fallback's window are trimmed further: the reply needs its
    room too.
    """
    from handwritten_agent.memory import context_budget
    from handwritten_agent.tokens import count_message_tokens as estimate_messages

    history = [{"role": "system", "content": "sys"}]
    for i in range(40):
        history += [
            {"role": "user", "content": f"第 {i} 个问题：会议室什么时候有空？"},
            {"role": "assistant", "content": f"第 {i} 个回答：下午三点以后都空着。"},
        ]
    history.append({"role": "user", "content": "最新的问题"})
    window = (
        estimate_messages(history) + 10
    )  # the whole history fits the window, but leaves no room to answer
    backup = ScriptedClient(["ok"])
    client = FallbackClient(
        [Failing(ServerError("503", status=503)), backup], context_windows=[None, window]
    )
    client.complete(history, max_tokens=200)
    sent = backup.requests[0]["messages"]
    assert estimate_messages(sent) <= context_budget(window, 200) < estimate_messages(history)
    assert sent[0] == history[0] and sent[-1] == history[-1]


def test_a_switch_and_a_retry_are_events_of_the_run_with_nothing_wired(offline_server):
    """The fallback client and the chat client report into the run they are part of: every iter_run
    caller and every hook sees a ``retry`` and a ``fallback`` event before the step's
    ``model_call``; outside a run, nothing.
    """
    from handwritten_agent.reporting import report

    flaky = ChatClient(
        offline_server.base_url,
        "test",
        "course-sim:rate_limit",
        max_retries=1,
        backoff=0.0,
        max_wait=0.0,
    )
    backup = ScriptedClient(["备用模型的回答"])
    client = FallbackClient([Failing(ServerError("500", status=500)), flaky, backup])
    events = list(Agent(client, basic_registry(), max_steps=2).iter_run("你好"))
    kinds = [e.kind for e in events]
    assert kinds.index("fallback") < kinds.index("retry") < kinds.index("model_call"), kinds
    fallback = next(e for e in events if e.kind == "fallback")
    retry = next(e for e in events if e.kind == "retry")
    assert (fallback.step, fallback.data["from_model"], fallback.data["status"]) == (
        1,
        "primary",
        500,
    )
    assert (retry.step, retry.data["status"], retry.data["attempt"]) == (1, 429, 1)
    assert report("retry", status=429) is False  # called outside a run: recorded nowhere
