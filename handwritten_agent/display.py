"""Showing a run in a notebook or a terminal: a few Chinese lines per step or event.

Unlike ``agent.py`` (the loop), nothing here changes a run; it only formats ``RunResult``, ``Step``
and ``AgentEvent``. ``Agent(on_event=print_event)`` shows a run as it happens; ``print_run(result)``
shows it after.

Left out: HTML and widgets (the confirmation card lives in ``widgets``), and colours.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .messages import ToolCall
from .run import ending_zh
from .text import shorten

if TYPE_CHECKING:
    from .run import AgentEvent, RunResult, Step, ToolCallRecord


def format_call(call: ToolCall) -> str:
    return f"{call.name}({shorten(call.arguments, 120)})"


def format_record(record: ToolCallRecord) -> str:
    result = record.result
    body = f"成功 {shorten(result.data)}" if result.success else f"失败 {shorten(result.error)}"
    if record.repeated:
        tag = "重复调用，未执行，返回上次结果："
    elif not record.executed:
        tag = "未执行："
    else:
        tag = f"{record.duration_ms:g} ms，"
    return f"    ← [{record.call.id}] {tag}{body}"


def format_step(step: Step) -> str:
    """A few lines for one step: what the model said or asked, then each tool result."""
    lines = [f"第 {step.index} 步 · 模型 {step.model_ms:g} ms"]
    if step.reply.content:
        lines.append(f"  assistant: {shorten(step.reply.content, 300)}")
    lines += [
        f"  → [{record.call.id}] {format_call(record.call)}\n{format_record(record)}"
        for record in step.calls
    ]
    return "\n".join(lines)


def format_run(result: RunResult) -> str:
    """The whole run, step by step, ending with how and why it stopped."""
    parts = [format_step(step) for step in result.steps]
    ending = (
        f"结束：{ending_zh(result.stop_reason)}（stop_reason={result.stop_reason}），"
        f"{len(result.steps)} 步，{len(result.tool_calls)}"
        f" 次工具调用，{result.duration_ms:g} ms"
    )
    if result.pending:
        ending += "\n  等待确认：" + "；".join(
            getattr(r, "summary", "") or getattr(r, "tool", "") for r in result.pending
        )
    if result.error:
        ending += f"\n  error: {result.error}"
    if result.answer:
        ending += f"\n  answer: {result.answer}"
    return "\n".join(parts + [ending])


def print_run(result: RunResult) -> None:
    print(format_run(result))


def format_event(event: AgentEvent) -> str:
    """One line (or two) per event; ``Agent(on_event=print_event)`` shows a run as it happens."""
    if event.kind == "model_call" and event.reply is not None:
        wants = "、".join(call.name for call in event.reply.tool_calls)
        if wants:
            said = f"调用 {wants}"
        elif (event.reply.content or "").strip():
            said = f"回答 {shorten(event.reply.content)}"
        else:
            said = "回复为空（没有文字，也没有工具调用）"
        return f"第 {event.step} 步 · 模型 {event.duration_ms:g} ms：{said}"
    if event.kind == "tool_call" and event.call is not None:
        return f"  → [{event.call.id}] {format_call(event.call)}"
    if event.kind == "tool_result" and event.record is not None:
        return format_record(event.record)
    if event.kind == "needs_confirmation":
        request = event.data.get("request") or {}
        return f"  ⏸ 等待确认：{request.get('summary') or request.get('tool', '')}"
    if event.kind == "memory":
        d = event.data
        return (
            f"  记忆：发送前 {d.get('messages_before')} 条消息（约 {d.get('tokens_before')}"
            f" token）→ 实际发送 {d.get('messages_after')} 条（约 {d.get('tokens_after')} token）"
        )
    if event.kind == "prompt_tools":  # the client went on with the tools in the prompt
        return f"  ⚠ {event.data.get('note')}"
    if event.kind == "answer_reviewed":
        return f"  ↩ 回答被退回，模型再试一次：{shorten(event.data.get('note'), 100)}"
    if event.kind == "final":
        return f"最终回答：{event.answer}"
    if event.kind == "stop" and event.run is not None:
        run = event.run
        return f"结束：{ending_zh(run.stop_reason)}（stop_reason={run.stop_reason}）" + (
            f"：{run.error}" if run.error else ""
        )
    if event.kind == "run_start":
        return "（继续运行）" if event.data.get("resumed") else "开始运行"
    shown = {k: v for k, v in event.to_dict().items() if k not in ("step", "ts")}
    return f"  {event.kind}：{shorten(shown)}"


def print_event(event: AgentEvent) -> None:
    if event.kind == "run_start":
        return  # nothing worth a line: the first model call follows at once
    print(format_event(event))


__all__ = [
    "format_call",
    "format_event",
    "format_record",
    "format_run",
    "format_step",
    "print_event",
    "print_run",
]
