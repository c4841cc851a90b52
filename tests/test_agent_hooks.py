"""The Agent's hooks: memory before every model call, a gate before every tool call (refuse, pause,
resume), StopRun.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from datetime import datetime

import pytest
from well_formed import assert_well_formed

from handwritten_agent.agent import Agent
from handwritten_agent.confirmation import ConfirmationRequest, arguments_sha256
from handwritten_agent.hooks import HookContext
from handwritten_agent.messages import ToolCall
from handwritten_agent.run import NeedsConfirmation, RunResult, StopRun
from handwritten_agent.scenarios import basic_registry
from handwritten_agent.scripted import ScriptedClient, call, calls, reply
from handwritten_agent.tools import Tool, ToolRegistry, ToolResult, tool

NOW = datetime(2026, 3, 12, 14, 30)


# --------------------------------------------------------------------------- memory


def test_memory_runs_on_a_copy_before_every_model_call_and_is_reported():
    seen: list[int] = []

    def keep_system_and_last_two(messages: list[dict]) -> list[dict]:
        seen.append(len(messages))
        # a policy may change its copy; the run's history must not change
        messages[0]["content"] = "changed"
        return messages[:1] + messages[-2:]

    client = ScriptedClient([calls(call("calculator", {"expression": "2*3"}, id="c1")), reply("6")])
    events: list = []
    history = [{"role": "user", "content": "早"}, {"role": "assistant", "content": "早上好"}]
    result = Agent(
        client, basic_registry(NOW), memory=keep_system_and_last_two, on_event=events.append
    ).run("2 乘 3", history)
    assert seen == [4, 6]  # before each of the two model calls
    assert [len(r["messages"]) for r in client.requests] == [3, 3]
    assert result.messages[0]["content"] != "changed" and len(result.messages) == 7
    memory_events = [e for e in events if e.kind == "memory"]
    assert [(e.data["messages_before"], e.data["messages_after"]) for e in memory_events] == [
        (4, 3),
        (6, 3),
    ]
    assert all(e.data["tokens_after"] <= e.data["tokens_before"] for e in memory_events)
    model_calls = [e for e in events if e.kind == "model_call"]
    assert [len(e.messages) for e in model_calls] == [
        3,
        3,
    ]  # the event records what was actually sent


def test_memory_that_changes_nothing_is_not_reported_and_a_failing_memory_ends_the_run():
    events: list = []
    Agent(
        ScriptedClient([reply("好")]),
        basic_registry(NOW),
        memory=lambda m: m,
        on_event=events.append,
    ).run("你好")
    assert not [e for e in events if e.kind == "memory"]

    def too_long(messages: list[dict]) -> list[dict]:
        raise ValueError("放不下")

    result = Agent(ScriptedClient([reply("好")]), basic_registry(NOW), memory=too_long).run("你好")
    assert result.stop_reason == "error" and "放不下" in result.error and result.steps == []


# ----------------------------------------------------------------------- a small gate for the tests


@tool
def send_mail(to: str, subject: str) -> str:
    """发送一封邮件。

    Args:
        to: 收件人邮箱，例如：a@example.com
        subject: 邮件标题，例如：会议通知
    """
    SENT.append((to, subject))
    return f"已发送给 {to}"


@tool
def lookup(city: str) -> str:
    """查询城市信息。

    Args:
        city: 城市名，例如：北京
    """
    return f"{city}：晴"


@tool
def secret_admin() -> str:
    """只有管理员能用的工具。"""
    return "secret"


SENT: list[tuple[str, str]] = []


class MailGate:
    """Mail needs a decision; secret_admin is never shown; an approval is bound to the arguments it
    approved.
    """

    def __init__(self) -> None:
        self.checked: list[str] = []

    def visible_tools(self, tools: list[Tool], context: HookContext) -> list[Tool]:
        return [t for t in tools if t.name != "secret_admin"]

    def check_call(self, call: ToolCall, context: HookContext) -> ToolResult | None:
        self.checked.append(call.name)
        if call.name == "secret_admin":
            context.report("permission", decision="denied")
            return ToolResult.fail("没有权限调用这个工具。")
        if call.name != "send_mail":
            return None
        if context.decision is None:
            raise NeedsConfirmation(
                ConfirmationRequest(
                    id=f"req_{call.id}",
                    run_id=context.run_id,
                    tool_call_id=call.id,
                    tool=call.name,
                    arguments=call.args,
                    arguments_sha256=arguments_sha256(call),
                    summary=f"将向 {call.args['to']} 发送邮件《{call.args['subject']}》",
                )
            )
        if (
            context.request.arguments_sha256 != arguments_sha256(call)
            or context.request.tool_call_id != call.id
        ):
            raise NeedsConfirmation(context.request)  # not the call that was approved: keep waiting
        verdict, reason = context.decision
        if verdict == "approve":
            context.report("permission", decision="approved")
            return None
        context.report("permission", decision="rejected")
        return ToolResult.fail(f"用户拒绝了此操作：{reason}")


@pytest.fixture(autouse=True)
def clear_outbox():
    SENT.clear()


def mail_agent(*replies, **options) -> tuple[Agent, ScriptedClient, MailGate]:
    client, gate = ScriptedClient(replies), MailGate()
    return (
        Agent(client, ToolRegistry([send_mail, lookup, secret_admin]), hooks=[gate], **options),
        client,
        gate,
    )


def test_hidden_tools_are_not_sent_and_a_refusal_reaches_the_model_as_the_result():
    events: list = []
    agent, client, _ = mail_agent(
        calls(call("secret_admin", {}, id="s1")), reply("我没有这个权限。"), on_event=events.append
    )
    result = agent.run("用一下管理员工具")
    assert [t["function"]["name"] for t in client.requests[0]["tools"]] == ["send_mail", "lookup"]
    assert (
        result.stop_reason == "final"
        and json.loads(result.messages[-2]["content"])["error"] == "没有权限调用这个工具。"
    )
    assert result.tool_calls[0].executed is False
    assert [e.data for e in events if e.kind == "permission"] == [{"decision": "denied"}]


def test_a_gated_call_pauses_the_run_while_the_other_calls_of_the_step_run():
    agent, client, _ = mail_agent(
        calls(
            call("lookup", {"city": "北京"}, id="a"),
            call("send_mail", {"to": "z@example.com", "subject": "通知"}, id="b"),
            call("lookup", {"city": "上海"}, id="c"),
        )
    )
    paused = agent.run("查北京和上海，再发邮件")
    assert paused.stop_reason == "needs_confirmation" and paused.answer is None and SENT == []
    assert [r.tool for r in paused.pending] == ["send_mail"] and paused.pending[
        0
    ].summary == "将向 z@example.com 发送邮件《通知》"
    assert [m.get("tool_call_id") for m in paused.messages[-2:]] == [
        "a",
        "c",
    ]  # the ungated calls ran
    assert client.remaining == 0


def test_approve_runs_the_call_once_and_answers_in_call_order():
    agent, client, gate = mail_agent(
        calls(
            call("lookup", {"city": "北京"}, id="a"),
            call("send_mail", {"to": "z@example.com", "subject": "通知"}, id="b"),
            call("lookup", {"city": "上海"}, id="c"),
        ),
        reply("已发送。"),
    )
    paused = agent.run("查北京和上海，再发邮件")
    done = agent.resume(paused, {paused.pending[0].id: ("approve", "")})
    assert (
        done.stop_reason == "final"
        and done.answer == "已发送。"
        and SENT == [("z@example.com", "通知")]
    )
    assert_well_formed(done.messages)
    assert done.run_id == paused.run_id and len(done.steps) == 2
    assert (
        paused.stop_reason == "needs_confirmation" and len(paused.steps[0].calls) == 2
    )  # the paused result is unchanged
    assert (
        client.requests[1]["messages"] == done.messages[:-1]
    )  # the model saw a well-formed history


def test_reject_reaches_the_model_and_the_same_call_is_not_run_again_in_the_run():
    mail = {"to": "z@example.com", "subject": "通知"}
    agent, client, _ = mail_agent(
        calls(call("send_mail", mail, id="m1")),
        calls(call("send_mail", mail, id="m2")),
        reply("好的，不发了。"),
    )
    paused = agent.run("发邮件")
    done = agent.resume(paused, {paused.pending[0].id: ("reject", "今天不发")})
    assert SENT == [] and done.stop_reason == "final"
    rejected = [json.loads(m["content"]) for m in done.messages if m["role"] == "tool"]
    assert rejected[0]["error"] == "用户拒绝了此操作：今天不发"
    assert (
        rejected[1]["repeated"] is True and rejected[1]["error"] == "用户拒绝了此操作：今天不发"
    )  # asked again: not run, not re-asked
    assert_well_formed(done.messages)


def test_every_pending_call_needs_a_decision_and_only_a_paused_run_resumes():
    agent, _, _ = mail_agent(
        calls(call("send_mail", {"to": "a@example.com", "subject": "x"}, id="m1"))
    )
    paused = agent.run("发")
    with pytest.raises(ValueError, match="缺少"):
        agent.resume(paused, {})
    with pytest.raises(ValueError, match="不认识"):
        agent.resume(paused, {paused.pending[0].id: ("approve", ""), "req_other": ("approve", "")})
    done_agent, _, _ = mail_agent(reply("好"))
    with pytest.raises(ValueError, match="needs_confirmation"):
        done_agent.resume(done_agent.run("你好"), {})


def test_a_decision_for_other_arguments_keeps_the_call_waiting():
    agent, _, _ = mail_agent(
        calls(call("send_mail", {"to": "a@example.com", "subject": "x"}, id="m1")), reply("done")
    )
    paused = agent.run("发")
    tampered = RunResult.from_json(paused.to_json())
    tampered.paused[0].call = ToolCall(
        "m1", "send_mail", json.dumps({"to": "everyone@example.com", "subject": "x"})
    )
    again = agent.resume(tampered, {paused.pending[0].id: ("approve", "")})
    assert again.stop_reason == "needs_confirmation" and SENT == []


def test_paused_run_resumes_from_json_in_another_process(tmp_path):
    agent, _, _ = mail_agent(
        calls(
            call("lookup", {"city": "北京"}, id="a"),
            call("send_mail", {"to": "z@example.com", "subject": "通知"}, id="b"),
        )
    )
    paused = agent.run("查北京再发邮件")
    state = tmp_path / "paused.json"
    state.write_text(paused.to_json(), encoding="utf-8")
    script = textwrap.dedent(f"""
        import json, sys
        sys.path.insert(0, {str(__import__("pathlib").Path(__file__).parent)!r})
        from test_agent_hooks import mail_agent, SENT, assert_well_formed
        from handwritten_agent.run import RunResult
        from handwritten_agent.scripted import reply
        paused = RunResult.from_json(open({str(state)!r}, encoding="utf-8").read())
        agent, _, _ = mail_agent(reply("邮件已发送，北京晴。"))
        done = agent.resume(paused, {{paused.pending[0].id: ("approve", "")}})
        assert_well_formed(done.messages)
        outcome = {{"stop": done.stop_reason, "sent": SENT, "answer": done.answer}}
        outcome["steps"] = len(done.steps)
        print(json.dumps(outcome, ensure_ascii=False))
    """)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == {
        "stop": "final",
        "sent": [["z@example.com", "通知"]],
        "answer": "邮件已发送，北京晴。",
        "steps": 2,
    }


# --------------------------------------------------------------------------- StopRun


def test_stop_run_from_on_event_ends_the_run_with_its_reason():
    def budget(event):
        if event.kind == "model_call":
            raise StopRun("budget", "预算用完了")

    client = ScriptedClient([calls(call("calculator", {"expression": "2*3"}, id="c1")), reply("6")])
    events: list = []
    agent = Agent(client, basic_registry(NOW), on_event=lambda e: (events.append(e), budget(e)))
    result = agent.run("2 乘 3")
    assert (result.stop_reason, result.error, result.answer) == ("budget", "预算用完了", None)
    assert client.remaining == 1 and result.tool_calls == []
    assert [e.kind for e in events] == ["run_start", "model_call", "stop"]


def test_stop_run_on_the_final_event_keeps_the_answer():
    def budget(event):
        if event.kind == "final":
            raise StopRun("budget", "预算用完了")

    result = Agent(ScriptedClient([reply("好")]), basic_registry(NOW), on_event=budget).run("你好")
    assert (result.stop_reason, result.answer) == ("budget", "好")


def test_other_exceptions_from_on_event_propagate():
    def broken(event):
        raise KeyError("bug in the caller")

    with pytest.raises(KeyError):
        Agent(ScriptedClient([reply("好")]), basic_registry(NOW), on_event=broken).run("你好")


def test_function_client_replies_from_the_conversation():
    from handwritten_agent.scripted import FunctionClient

    def model(messages, tools):
        last = messages[-1]
        if last["role"] == "user":
            return calls(call("calculator", {"expression": "6*7"}, id="c1"))
        return f"结果是 {json.loads(last['content'])['data']}"

    client = FunctionClient(model)
    result = Agent(client, basic_registry(NOW)).run("6 乘 7")
    assert result.answer == "结果是 42" and len(client.requests) == 2


def test_before_model_sees_exactly_what_is_sent_and_may_stop_the_run_before_the_call():
    class OnlyCalculator:
        def prepare_messages(self, messages: list[dict], context: HookContext) -> list[dict]:
            return messages[-1:]

        def visible_tools(self, tools: list[Tool], context: HookContext) -> list[Tool]:
            return [t for t in tools if t.name == "calculator"]

    class Watch:
        def __init__(self, stop_at: int):
            self.stop_at, self.seen = stop_at, []

        def before_model(self, messages: list[dict], tools: list[dict], context: HookContext):
            self.seen.append(([m["role"] for m in messages], context.shown, len(tools)))
            if context.step == self.stop_at:
                raise StopRun("budget", "到此为止")

    watch = Watch(stop_at=2)
    client = ScriptedClient([calls(call("calculator", {"expression": "2*3"}, id="c1")), reply("6")])
    agent = Agent(client, basic_registry(NOW), hooks=[OnlyCalculator(), watch])
    result = agent.run("2 乘 3")
    assert watch.seen == [(["user"], ("calculator",), 1), (["tool"], ("calculator",), 1)]
    assert result.stop_reason == "budget" and len(client.requests) == 1  # no second model call
    assert result.steps[0].shown == ["calculator"]
    assert agent.hooks.find(Watch) is watch and agent.hooks.find(StopRun) is None
    assert list(agent.hooks) == [agent.hooks.hooks[0], watch] and len(agent.hooks) == 2
