"""The confirmation card: a paused tool call shown in the notebook with 批准 / 拒绝 buttons
(ipywidgets).

Article 003's interaction: when the gate pauses a call, the person sees one card per call — the
tool, its level, who may decide, the arguments (masked), a one-line summary of the effect, and, when
untrusted text entered the run before it, which tool result that was — and two buttons. Here:

- ``ConfirmationCard(request)``: the card for one ``ConfirmationRequest``. Clicking 批准 or 拒绝 (or
  calling ``card.approve()`` / ``card.reject("原因")`` from code) records the decision once,
  disables the buttons and says what was decided and by whom. The reason field's text goes with a
  rejection to the model ("用户拒绝了此操作：<原因>"). The decision carries the arguments'
  fingerprint, so it cannot be applied to other arguments. A card knows who is looking at it
  (``decider``) and what the gate allows: someone who may not approve (an L3 call, not the approver
  role) sees 批准 disabled, why, and — when the panel knows approvers — a button that hands the
  request to one of them.
- ``ConfirmationPanel(agent, paused)`` (``confirm(agent, paused)`` builds and shows it): the cards
  of a paused run under a status line; when every card is decided it resumes the run and prints the
  rest of it below the cards (names, not ids; endings in words) — and if the run pauses again, shows
  the new cards under it, until the run ends. The status line follows the run: waiting, then how it
  ended.

A notebook cell is often run twice. ``confirm`` for a paused run that already has a panel (same run,
same requests, same person) shows that panel again, decided as it was — not a new card for a request
already answered; a card for a request the gate's audit log says was decided elsewhere starts
decided. ``panel.click("批准")`` does what a click does on every card still waiting and says so, and
leaves a card the learner already decided as they decided it — so a cell that clicks for Run All
works whichever way the learner clicked first. ``panel.outcome`` says in one line what was decided
and how the run ended.

Left out: a trace view (Day 6), styling beyond a border and a level badge, and any way to edit the
arguments on the card (an edited call is a new call: the model must ask again).
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable
from typing import Any

import ipywidgets as widgets

from .confirmation import ConfirmationRequest
from .display import format_event
from .permissions.audit import DECISIONS_ZH
from .permissions.decisions import Decision, User, approve, reject
from .permissions.gate import PolicyGate
from .permissions.levels import Level
from .run import ENDINGS_ZH, ending_zh
from .text import shorten

CARD_CLASS = "ha-confirmation-card"
"""CSS class of every card (and ``ha-confirmation-output`` of a panel's output area), for tests and
styling.
"""


APPROVE_LABEL, REJECT_LABEL = "批准", "拒绝"


def _badge(level: str) -> str:
    try:
        parsed = Level.of(level)
    except ValueError:
        return html.escape(str(level))
    return (
        f'<span style="background:{parsed.info.color};color:white;border-radius:4px;padding:1px'
        f' 6px;font-size:90%">{html.escape(parsed.label)}</span>'
    )


def _arguments_table(arguments: dict[str, Any]) -> str:
    rows = "".join(
        '<tr><td style="padding:2px 10px 2px'
        f' 0;color:#555"><code>{html.escape(str(key))}</code></td><td style="padding:2px'
        f' 0">{html.escape(shorten(value, 300))}</td></tr>'
        for key, value in arguments.items()
    )
    return (
        "<table"
        f' style="border-collapse:collapse">{rows or "<tr><td>（没有参数）</td></tr>"}</table>'
    )


def _person(user: Any) -> str:
    """张明（行政助理）; an id when there is no name."""
    if isinstance(user, User):
        return f"{user.name or user.id}（{user.role}）"
    return str(user) if user else "未知"


class ConfirmationCard:
    """One paused call, with 批准 / 拒绝 buttons. Display it with ``display(card)`` (or as a cell's
    last value).

    ``decider``: who is looking at the card (None: the user who started the run, ``starter``).
    ``gate``: the permission gate, asked who may decide. ``approvers``: people the card may hand the
    request to.
    """

    def __init__(
        self,
        request: ConfirmationRequest,
        *,
        decider: User | None = None,
        on_decision: Callable[[ConfirmationCard], None] | None = None,
        gate: PolicyGate | None = None,
        starter: User | None = None,
        approvers: Iterable[User] = (),
        on_hand_off: Callable[[ConfirmationCard, User], None] | None = None,
    ):
        self.request, self.on_decision, self.gate, self.on_hand_off = (
            request,
            on_decision,
            gate,
            on_hand_off,
        )
        self.starter = starter if starter is not None else getattr(gate, "user", None)
        self.decider = decider
        # whom this card can be handed to: people who may approve it, never the one looking at it
        # (an approver's own card offers no 交给 herself, so a click cannot add card after card)
        viewer_id = getattr(self.viewer, "id", None)
        self.approvers = [
            person
            for person in approvers
            if self._allowed(person, approve=True) and person.id != viewer_id
        ]
        self.decision: Decision | None = None
        self.handed_to: User | None = None

        self.header = widgets.HTML(
            f"<b>待确认的工具调用</b>：<code>{html.escape(request.tool)}</code>"
            f" {_badge(request.level)}"
        )
        self.who = widgets.HTML(self._who_html())
        self.summary = widgets.HTML(
            "<div style='font-size:110%;margin:4px"
            f" 0'>{html.escape(request.summary or request.tool)}</div>"
            + (
                f"<div style='color:#555'>为什么要确认：{html.escape(request.reason)}</div>"
                if request.reason
                else ""
            )
            + (
                "<div class='ha-provenance' style='color:#b45309;margin-top:4px'><b>⚠ 调用从哪来"
                "</b>："
                f"{html.escape(request.provenance_line)}</div>"
                if request.provenance_line
                else ""
            )
        )
        self.arguments = widgets.HTML(_arguments_table(request.arguments))
        self.reason = widgets.Text(
            placeholder="拒绝原因（会告诉模型）",
            description="原因：",
            layout=widgets.Layout(width="60%"),
        )
        self.approve_button = widgets.Button(
            description=APPROVE_LABEL,
            button_style="success",
            icon="check",
            tooltip="批准这次调用（只执行一次）",
        )
        self.reject_button = widgets.Button(
            description=REJECT_LABEL,
            button_style="danger",
            icon="times",
            tooltip="拒绝：不执行，并把原因告诉模型",
        )
        self.hand_off_buttons = [
            widgets.Button(
                description=f"交给 {person.name or person.id}（{person.role}）审批",
                icon="share",
                tooltip="把这个请求交给有审批权的人：他会看到一张自己的卡片",
                layout=widgets.Layout(width="auto"),
            )
            for person in self.approvers
        ]
        self.status = widgets.HTML("")
        self.approve_button.on_click(lambda _button: self.approve())
        self.reject_button.on_click(lambda _button: self.reject())
        for person, button in zip(self.approvers, self.hand_off_buttons):
            button.on_click(lambda _button, person=person: self.hand_off(person))
        if not self.may_approve:
            self.approve_button.disabled = True
            self.approve_button.tooltip = self._cannot_approve()
        if not self._allowed(self.viewer, approve=False):
            self.reject_button.disabled = self.reason.disabled = True
        self.widget = widgets.VBox(
            [
                self.header,
                self.who,
                self.summary,
                self.arguments,
                self.reason,
                widgets.HBox([self.approve_button, self.reject_button, *self.hand_off_buttons]),
                self.status,
            ],
            layout=widgets.Layout(
                border="1px solid #d0d7de", padding="8px", margin="6px 0", width="auto"
            ),
        )
        self.widget.add_class(CARD_CLASS)
        self._settled_elsewhere()

    # ------------------------------------------------------------------ who may do what

    @property
    def viewer(self) -> User | None:
        """Who the card's buttons act for: the decider, else the user who started the run."""
        return self.decider or self.starter

    def _allowed(self, person: Any, *, approve: bool) -> bool:
        if self.gate is None:
            return True  # no gate to ask: the buttons stay enabled, the resumed run's gate decides
        return self.gate.may_decide(
            person,
            approve=approve,
            level=self.request.level,
            approver_role=self.request.approver_role,
        )

    @property
    def may_approve(self) -> bool:
        return self._allowed(self.viewer, approve=True)

    def _who_html(self) -> str:
        if self.request.approver_role and Level.of(self.request.level) == Level.L3:
            rule = (
                f"谁能批准：有「{self.request.approver_role}」角色的人"
                "（发起人本人除外，本人只能撤回）"
            )
        else:
            rule = (
                f"谁来确认：发起人 {_person(self.starter)}" if self.starter else "谁来确认：发起人"
            )
        viewer = f"；现在操作这张卡片的是 {_person(self.viewer)}" if self.viewer is not None else ""
        hint = ""
        if (
            self.gate is not None
            and not self.may_approve
            and not self.approvers
            and self.request.approver_role
        ):
            hint = (
                "<div style='color:#555'>你不能批准它。"
                f"要交给审批人：由有「{html.escape(self.request.approver_role)}」角色的人运行"
                " <code>confirm(agent, paused, decider=审批人)</code>（第 7"
                " 天的服务会把它放进审批人的待办）。</div>"
            )
        return f'<div style="color:#555">{html.escape(rule + viewer)}</div>{hint}'

    def _cannot_approve(self) -> str:
        return (
            f"{_person(self.viewer)} 不能批准这个 {self.request.level}"
            f" 操作：{self.request.who_decides}。"
            "可以拒绝（撤回这个请求），或者交给审批人。"
        )

    # ------------------------------------------------------------------ deciding

    @property
    def decided(self) -> bool:
        return self.decision is not None

    @property
    def waiting(self) -> bool:
        """Still waiting for this card's own decision (not decided, not handed to someone else)."""
        return self.decision is None and self.handed_to is None

    def approve(self, by: User | None = None) -> Decision | None:
        """批准 (the same as clicking the button). Returns the decision, or None when this person
        may not approve.
        """
        if not self.waiting:
            return self._unchanged()
        person = by or self.viewer
        if not self._allowed(person, approve=True):
            self.status.value = f"<b>⛔ {html.escape(self._cannot_approve())}</b>"
            return None
        self._decide(
            approve(by or self.decider, arguments_sha256=self.request.arguments_sha256),
            f"✅ {_person(person)} 已批准",
        )
        return self.decision

    def reject(self, reason: str | None = None, by: User | None = None) -> Decision | None:
        """拒绝, with ``reason`` (default: the text in the reason field)."""
        if not self.waiting:
            return self._unchanged()
        person = by or self.viewer
        if not self._allowed(person, approve=False):
            self.status.value = (
                f"<b>⛔ {html.escape(_person(person))}"
                f" 不能决定这个请求：{html.escape(self.request.who_decides)}。</b>"
            )
            return None
        text = (reason if reason is not None else self.reason.value).strip() or "未说明原因"
        self.reason.value = text
        self._decide(
            reject(text, by or self.decider, arguments_sha256=self.request.arguments_sha256),
            f"❌ {_person(person)} 已拒绝：{html.escape(text)}",
        )
        return self.decision

    def hand_off(self, person: User) -> None:
        """Give the request to an approver (the same as clicking 交给…审批): this card is done, the
        panel shows theirs.
        """
        if not self.waiting:
            self._unchanged()
            return
        self.handed_to = person
        self._disable()
        self.status.value = (
            f"<b>↪ 已交给 {html.escape(_person(person))}审批：下面是给 TA 的卡片。</b>"
        )
        if self.on_hand_off is not None:
            self.on_hand_off(self, person)

    @property
    def state_text(self) -> str:
        """What happened to this card, in one line of Chinese."""
        if self.decision is not None:
            who = _person(self.decision.by or self.viewer)
            if self.decision.approved:
                return f"{who}批准了 {self.request.tool}"
            return f"{who}拒绝了 {self.request.tool}（原因：{self.decision.reason}）"
        if self.handed_to is not None:
            return f"{self.request.tool} 已交给 {_person(self.handed_to)}审批"
        return f"{self.request.tool} 还在等待决定"

    def _unchanged(self) -> Decision | None:
        print(f"这张卡片已经有了结果：{self.state_text}。这次没有再改变它。")
        return self.decision

    def _decide(self, decision: Decision, shown: str) -> None:
        self.decision = decision
        self._disable()
        self.status.value = f"<b>{shown}</b>"
        if self.on_decision is not None:
            self.on_decision(self)

    def _disable(self) -> None:
        self.approve_button.disabled = self.reject_button.disabled = self.reason.disabled = True
        for button in self.hand_off_buttons:
            button.disabled = True

    def _settled_elsewhere(self) -> None:
        """A request the gate's audit log already shows decided (in code, another panel, another
        process) starts decided.
        """
        audit = getattr(getattr(self.gate, "policy", None), "audit", None)
        earlier = audit.settled(self.request.id) if audit is not None else None
        if not earlier:
            return
        people = [p for p in (self.starter, self.decider, *self.approvers) if isinstance(p, User)]
        who = next((p for p in people if p.id == earlier.get("decided_by")), None)
        by = who or User(str(earlier.get("decided_by")), "?")
        verdict = earlier.get("verdict")
        self.decision = (
            approve(by, arguments_sha256=self.request.arguments_sha256)
            if verdict == "approve"
            else reject(
                str(earlier.get("reason") or ""), by, arguments_sha256=self.request.arguments_sha256
            )
        )
        self._disable()
        name = _person(who) if who else str(earlier.get("decided_by"))
        shown = (
            "批准" if verdict == "approve" else f"拒绝（{earlier.get('reason') or '未说明原因'}）"
        )
        self.status.value = (
            f"<b>这个请求之前已经决定过：{html.escape(name)} {html.escape(shown)}。"
            "不会再执行一次。</b>"
        )

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)

    def __repr__(self) -> str:
        return f"ConfirmationCard({self.request.tool}, {self.request.level}, {self.state_text})"


def format_permission(event: Any) -> str:
    """A line for a ``permission`` event of the gate, with the decider's name (other events as
    ``display.format_event``; the ``stop`` event as how the run ended, in words)."""
    if event.kind == "stop" and event.run is not None:
        run = event.run
        return f"结束：{ending_zh(run.stop_reason)}" + (f"（{run.error}）" if run.error else "")
    if event.kind != "permission":
        return format_event(event)
    data = event.data
    name = data.get("decided_by_name") or data.get("decided_by")
    who = (
        f"，决定人 {name}" + (f"（{data['decided_role']}）" if data.get("decided_role") else "")
        if name
        else ""
    )
    level = f"（{data['level']}）" if data.get("level") else ""
    return (
        f"  🔒 权限：{data.get('tool')}{level} →"
        f" {DECISIONS_ZH.get(data.get('decision'), data.get('decision'))}{who}"
    )


def print_permission_event(event: Any) -> None:
    """``print_event`` that also shows the gate's decisions; use it as
    ``Agent(on_event=print_permission_event)``.
    """
    if event.kind == "run_start" and not event.data.get("resumed"):
        return
    print(format_permission(event))


_NOT_APPLIED = ("not_authorized", "approval_mismatch", "invalid_decision")
"""Gate decisions that leave a call waiting: the panel says why, instead of showing the same card
again silently.
"""

_PANELS: dict[tuple[str, tuple[str, ...], str], ConfirmationPanel] = {}
"""Panels by (run id, request ids, who decides): ``confirm`` shows the same panel again for the same
paused run.
"""


class ConfirmationPanel:
    """The cards of a paused run; when all are decided, the run resumes and its rest is printed
    under them.
    """

    def __init__(
        self,
        agent: Any,
        paused: Any,
        *,
        decider: User | None = None,
        approvers: Iterable[User] = (),
        max_rounds: int = 5,
    ):
        if getattr(paused, "stop_reason", None) != "needs_confirmation":
            ending = ending_zh(str(getattr(paused, "stop_reason", None)))
            raise ValueError(f"这个运行没有在等待确认（它已经结束：{ending}），没有卡片可显示。")
        self.agent, self.decider, self.max_rounds = agent, decider, max_rounds
        self.gate = agent.hooks.find(PolicyGate)  # asked who may decide
        self.approvers = list(approvers)
        self.results = [paused]
        self.cards: list[ConfirmationCard] = []
        self.output = widgets.Output()
        self.output.add_class("ha-confirmation-output")
        self.note = widgets.HTML("")
        self.widget = widgets.VBox([self.note])
        self._round: list[ConfirmationCard] = []
        self._show(paused)

    @property
    def result(self) -> Any:
        """The latest result: the paused run until every card is decided, then the resumed run."""
        return self.results[-1]

    @property
    def done(self) -> bool:
        return self.result.stop_reason != "needs_confirmation"

    @property
    def waiting(self) -> list[ConfirmationCard]:
        """The cards still waiting for a decision."""
        return [card for card in self._round if card.waiting]

    @property
    def outcome(self) -> str:
        """What was decided on the cards, by whom, and how the run ended (or that it still waits),
        in Chinese.
        """
        decided = (
            "；".join(card.state_text for card in self.cards if card.decision is not None)
            or "还没有人做决定"
        )
        if self.waiting:
            return f"{decided}。运行还在等待：先在卡片上点「{APPROVE_LABEL}」或「{REJECT_LABEL}」。"
        return f"{decided}。运行结束：{ending_zh(self.result.stop_reason)}。"

    def click(self, label: str, reason: str | None = None) -> None:
        """Do what clicking ``label`` (批准 or 拒绝) does on every card still waiting, as the person
        each card is for. A card already decided (a learner's own click) stays as it is, and this
        says so."""
        if label not in (APPROVE_LABEL, REJECT_LABEL):
            raise ValueError(f"只能点「{APPROVE_LABEL}」或「{REJECT_LABEL}」，收到的是 {label!r}。")
        waiting = self.waiting
        if not waiting:
            print(f"卡片都已经有了结果：{self.outcome}这一格没有再点。")
            return
        for card in waiting:
            print(f"代码替 {_person(card.viewer)} 点了「{label}」：{card.request.tool}")
            if label == APPROVE_LABEL:
                card.approve()
            else:
                card.reject(reason)

    def hand_off(self, person: User) -> None:
        """Hand every waiting card this person may approve to ``person`` (the same as clicking 交给…
        审批).
        """
        for card in self.waiting:
            if not card.may_approve:
                print(
                    f"代码替 {_person(card.viewer)} 点了「交给"
                    f" {person.name or person.id}（{person.role}）审批」：{card.request.tool}"
                )
                card.hand_off(person)

    # ------------------------------------------------------------------ showing and resuming

    def _card(self, request: ConfirmationRequest, decider: User | None) -> ConfirmationCard:
        return ConfirmationCard(
            request,
            decider=decider,
            on_decision=self._on_decision,
            gate=self.gate,
            approvers=self.approvers,
            on_hand_off=self._on_hand_off,
        )

    def _show(self, paused: Any) -> None:
        self._round = [self._card(request, self.decider) for request in paused.pending]
        self.cards += self._round
        self.widget.children = [
            *self.widget.children,
            *[card.widget for card in self._round],
            self.output,
        ]
        self._update_note()
        if self._round and not self.waiting and all(card.decided for card in self._round):
            with self.output:
                print("这些调用之前已经有过决定：运行不会因为这张卡片再继续一次。")

    def _update_note(self) -> None:
        waiting = len(self.waiting)
        if waiting:
            text = f"<b>运行暂停</b>：{waiting} 个调用等待决定，全部决定后自动继续。"
        elif self.done:
            ending = html.escape(ending_zh(self.result.stop_reason))
            text = f"<b>运行已结束</b>：{ending}（过程打印在卡片下方）。"
        else:
            text = "<b>已决定</b>：卡片上的调用都有了结果。"
        self.note.value = text

    def _on_hand_off(self, card: ConfirmationCard, person: User) -> None:
        new = self._card(card.request, person)
        self._round.append(new)
        self.cards.append(new)
        children = list(self.widget.children)
        children.insert(children.index(card.widget) + 1, new.widget)
        self.widget.children = children
        self._update_note()

    def _on_decision(self, card: ConfirmationCard) -> None:
        if self.waiting:
            self._update_note()
            return
        decisions = {
            c.request.id: c.decision for c in self._round if c.decision is not None
        }  # a handed-off card has none
        if len(decisions) < len({c.request.id for c in self._round}):
            self._update_note()
            return
        with self.output:
            print("—— 全部决定，继续运行 ——")
            resumed, refused = None, []
            for event in self.agent.iter_resume(self.result, decisions):
                if event.kind == "permission" and event.data.get("decision") in _NOT_APPLIED:
                    refused.append(event.data.get("reason") or "")
                if event.kind != "run_start":
                    print(format_permission(event))
                resumed = event.run if event.kind == "stop" else resumed
            if resumed is not None and resumed.answer and resumed.stop_reason != "final":
                print(f"回答：{resumed.answer}")
            for reason in refused:
                print(f"这个决定没有生效：{reason}")
        if resumed is None:
            return
        self.results.append(resumed)
        if resumed.stop_reason == "needs_confirmation":
            if len(self.results) > self.max_rounds:
                with self.output:
                    print(
                        f"已经连续暂停 {self.max_rounds} 次，不再显示新的卡片："
                        "看看上面每一轮在等什么。"
                    )
                self._update_note()
                return
            self.output = widgets.Output()
            self.output.add_class("ha-confirmation-output")
            self._show(resumed)
        else:
            self._update_note()

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)

    def __repr__(self) -> str:
        return f"ConfirmationPanel({len(self.cards)} 张卡片，{self.outcome})"


def confirm(
    agent: Any, paused: Any, *, decider: User | None = None, approvers: Iterable[User] = ()
) -> ConfirmationPanel:
    """Show the cards of a paused run (in a notebook) and return the panel; it resumes the run when
    all are decided.

    The same paused run shown again (a cell run twice) gives the same panel, decided as it was.
    ``decider``: who is deciding (default: who started the run); ``approvers``: people an L3 request
    can be handed to from the card.
    """
    key = (
        getattr(paused, "run_id", ""),
        tuple(request.id for request in getattr(paused, "pending", [])),
        getattr(decider, "id", "") or "",
    )
    panel = _PANELS.get(key)
    if panel is None:
        panel = ConfirmationPanel(agent, paused, decider=decider, approvers=approvers)
        _PANELS[key] = panel
    try:
        from IPython.display import display

        display(panel)
    except ImportError:  # pragma: no cover - IPython comes with ipywidgets
        pass
    return panel


__all__ = [
    "CARD_CLASS",
    "ENDINGS_ZH",
    "ConfirmationCard",
    "ConfirmationPanel",
    "confirm",
    "ending_zh",
    "format_permission",
    "print_permission_event",
]
