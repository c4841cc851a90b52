"""The confirmation card: a paused tool call shown in the notebook with 批准 / 拒绝 buttons (ipywidgets).

Seed 003's interaction: when the gate pauses a call, the person sees one card per call — the tool,
its level, the arguments (masked), a one-line summary of the effect, and, when untrusted text entered
the run before it, which tool result that was — and two buttons. Here:

- ``ConfirmationCard(request)``: the card for one ``ConfirmationRequest``. Clicking 批准 or 拒绝 (or
  calling ``card.approve()`` / ``card.reject("原因")`` from code, which is what CI does) records the
  decision once, disables the buttons and says what was decided. The reason field's text goes with a
  rejection to the model ("用户拒绝了此操作：<原因>"). The decision carries the arguments' fingerprint,
  so it cannot be applied to other arguments.
- ``ConfirmationPanel(agent, paused)`` (``confirm(agent, paused)`` builds and shows it): the cards of a
  paused run; when every card is decided it resumes the run and prints the rest of it below the
  cards — and if the run pauses again, shows the new cards under it, until the run ends.

``decider`` says who is clicking (a ``User``); without it, it is the user who started the run (enough
for L2, not for an L3 call, which needs the approver role).

Left out: a trace view (Day 6), styling beyond a border and a level badge, and any way to edit the
arguments on the card (an edited call is a new call: the model must ask again).
"""

from __future__ import annotations

import html
from typing import Any, Callable

import ipywidgets as widgets

from .confirmation import ConfirmationRequest
from .display import format_event
from .permissions.decisions import Decision, User, approve, reject
from .permissions.levels import Level
from .text import shorten

CARD_CLASS = "ha-confirmation-card"
"""CSS class of every card (and ``ha-confirmation-output`` of a panel's output area), for tests and styling."""


def _badge(level: str) -> str:
    try:
        parsed = Level.of(level)
    except ValueError:
        return html.escape(str(level))
    return (f'<span style="background:{parsed.info.color};color:white;border-radius:4px;padding:1px 6px;'
            f'font-size:90%">{html.escape(parsed.label)}</span>')


def _arguments_table(arguments: dict[str, Any]) -> str:
    rows = "".join(f'<tr><td style="padding:2px 10px 2px 0;color:#555"><code>{html.escape(str(key))}</code></td>'
                   f'<td style="padding:2px 0">{html.escape(shorten(value, 300))}</td></tr>' for key, value in arguments.items())
    return f'<table style="border-collapse:collapse">{rows or "<tr><td>（没有参数）</td></tr>"}</table>'


class ConfirmationCard:
    """One paused call, with 批准 / 拒绝 buttons. Display it with ``display(card)`` (or as a cell's last value)."""

    def __init__(self, request: ConfirmationRequest, *, decider: User | None = None,
                 on_decision: Callable[[ConfirmationCard], None] | None = None):
        self.request, self.decider, self.on_decision = request, decider, on_decision
        self.decision: Decision | None = None
        who = f"（以 {decider} 的身份决定）" if decider is not None else ""
        self.header = widgets.HTML(f"<b>待确认的工具调用</b>：<code>{html.escape(request.tool)}</code> {_badge(request.level)} "
                                   f'<span style="color:#555">{html.escape(request.who_decides)}{html.escape(who)}</span>')
        self.summary = widgets.HTML(f"<div style='font-size:110%;margin:4px 0'>{html.escape(request.summary or request.tool)}</div>"
                                    + (f"<div style='color:#555'>为什么要确认：{html.escape(request.reason)}</div>" if request.reason else "")
                                    + (f"<div style='color:#b45309'>⚠ {html.escape(request.provenance_line)}</div>"
                                       if request.provenance_line else ""))
        self.arguments = widgets.HTML(_arguments_table(request.arguments))
        self.reason = widgets.Text(placeholder="拒绝原因（会告诉模型）", description="原因：", layout=widgets.Layout(width="60%"))
        self.approve_button = widgets.Button(description="批准", button_style="success", icon="check", tooltip="批准这次调用（只执行一次）")
        self.reject_button = widgets.Button(description="拒绝", button_style="danger", icon="times", tooltip="拒绝：不执行，并把原因告诉模型")
        self.status = widgets.HTML("")
        self.approve_button.on_click(lambda _button: self.approve())
        self.reject_button.on_click(lambda _button: self.reject())
        self.widget = widgets.VBox([self.header, self.summary, self.arguments, self.reason,
                                    widgets.HBox([self.approve_button, self.reject_button]), self.status],
                                   layout=widgets.Layout(border="1px solid #d0d7de", padding="8px", margin="6px 0", width="auto"))
        self.widget.add_class(CARD_CLASS)

    @property
    def decided(self) -> bool:
        return self.decision is not None

    def approve(self, by: User | None = None) -> Decision:
        """批准 (the same as clicking the button). A card is decided once; later clicks change nothing."""
        if self.decision is None:
            self._decide(approve(by or self.decider, arguments_sha256=self.request.arguments_sha256), "✅ 已批准")
        return self.decision  # type: ignore[return-value]

    def reject(self, reason: str | None = None, by: User | None = None) -> Decision:
        """拒绝, with ``reason`` (default: the text in the reason field)."""
        if self.decision is None:
            text = (reason if reason is not None else self.reason.value).strip() or "未说明原因"
            self._decide(reject(text, by or self.decider, arguments_sha256=self.request.arguments_sha256), f"❌ 已拒绝：{html.escape(text)}")
        return self.decision  # type: ignore[return-value]

    def _decide(self, decision: Decision, shown: str) -> None:
        self.decision = decision
        self.approve_button.disabled = self.reject_button.disabled = self.reason.disabled = True
        self.status.value = f"<b>{shown}</b>"
        if self.on_decision is not None:
            self.on_decision(self)

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)

    def __repr__(self) -> str:
        state = "未决定" if self.decision is None else self.decision.verdict
        return f"ConfirmationCard({self.request.tool}, {self.request.level}, {state})"


def format_permission(event: Any) -> str:
    """A line for a ``permission`` event of the gate (other events as ``display.format_event``)."""
    if event.kind != "permission":
        return format_event(event)
    from .permissions.audit import DECISIONS_ZH

    data = event.data
    who = f"，决定人 {data['decided_by']}" if data.get("decided_by") else ""
    return f"  🔒 权限：{data.get('tool')} {data.get('level') or ''} → {DECISIONS_ZH.get(data.get('decision'), data.get('decision'))}{who}"


def print_permission_event(event: Any) -> None:
    """``print_event`` that also shows the gate's decisions; use it as ``Agent(on_event=print_permission_event)``."""
    if event.kind == "run_start" and not event.data.get("resumed"):
        return
    print(format_permission(event))


class ConfirmationPanel:
    """The cards of a paused run; when all are decided, the run resumes and its rest is printed under them."""

    def __init__(self, agent: Any, paused: Any, *, decider: User | None = None, max_rounds: int = 5):
        if getattr(paused, "stop_reason", None) != "needs_confirmation":
            raise ValueError(f"这个运行没有在等待确认（stop_reason={getattr(paused, 'stop_reason', None)!r}），没有卡片可显示。")
        self.agent, self.decider, self.max_rounds = agent, decider, max_rounds
        self.results = [paused]
        self.cards: list[ConfirmationCard] = []
        self.output = widgets.Output()
        self.output.add_class("ha-confirmation-output")
        self.widget = widgets.VBox([])
        self._round: list[ConfirmationCard] = []
        self._show(paused)

    @property
    def result(self) -> Any:
        """The latest result: the paused run until every card is decided, then the resumed run."""
        return self.results[-1]

    @property
    def done(self) -> bool:
        return self.result.stop_reason != "needs_confirmation"

    def _show(self, paused: Any) -> None:
        self._round = [ConfirmationCard(request, decider=self.decider, on_decision=self._on_decision) for request in paused.pending]
        self.cards += self._round
        note = widgets.HTML(f"<b>运行暂停</b>：{len(self._round)} 个调用等待决定，全部决定后自动继续。")
        self.widget.children = [*self.widget.children[:-1], note, *[card.widget for card in self._round], self.output]

    def _on_decision(self, card: ConfirmationCard) -> None:
        if not all(c.decided for c in self._round):
            return
        decisions = {c.request.id: c.decision for c in self._round}
        with self.output:
            print("—— 全部决定，继续运行 ——")
            resumed = None
            for event in self.agent.iter_resume(self.result, decisions):
                if event.kind != "run_start":
                    print(format_permission(event))
                resumed = event.run if event.kind == "stop" else resumed
            if resumed is not None and resumed.answer and resumed.stop_reason != "final":
                print(f"回答：{resumed.answer}")
        if resumed is None:
            return
        self.results.append(resumed)
        if resumed.stop_reason == "needs_confirmation":
            if len(self.results) > self.max_rounds:
                with self.output:
                    print(f"已经连续暂停 {self.max_rounds} 次，不再显示新的卡片：请检查是什么在反复请求确认。")
                return
            self.output = widgets.Output()
            self.output.add_class("ha-confirmation-output")
            self.widget.children = [*self.widget.children, self.output]
            self._show(resumed)

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)

    def __repr__(self) -> str:
        return f"ConfirmationPanel({len(self.cards)} 张卡片, stop_reason={self.result.stop_reason})"


def confirm(agent: Any, paused: Any, *, decider: User | None = None) -> ConfirmationPanel:
    """Show the cards of a paused run (in a notebook) and return the panel; it resumes the run when all are decided."""
    panel = ConfirmationPanel(agent, paused, decider=decider)
    try:
        from IPython.display import display

        display(panel)
    except ImportError:  # pragma: no cover - IPython comes with ipywidgets
        pass
    return panel


__all__ = ["CARD_CLASS", "ConfirmationCard", "ConfirmationPanel", "confirm", "format_permission", "print_permission_event"]
