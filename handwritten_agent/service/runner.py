"""Runs in the background: each run is the Day 3 loop in a worker thread, its events written to the
store as they happen — a few at a time (``EventLog``): an event the loop follows at once with
another (a model's reply before its tool call, ``final`` before ``stop``) waits for it, so a run
commits about four times, not once per event; a ``tool_call`` is committed before its tool runs, and
the run's last events with its end.

A run is started by ``submit``, paused by the permission gate (``requires_action``, its state stored
as JSON), resumed by ``decide`` once every pending request has a decision — also after the service
was restarted, because everything needed is in the database — and stopped by ``cancel`` at its next
event. A client that disconnects does not stop a run: nothing here depends on a request staying
open. An event is masked before it is stored (``mask_event``: secrets and personal data, the trace's
rules), so the events table and the SSE stream never hold a key the user pasted or the model
repeated.

Status from the loop's stop reason: ``final`` → ``completed``; ``needs_confirmation`` →
``requires_action``; ``cancelled`` → ``cancelled``; anything else (``error``, ``max_steps``,
``timeout``, ``budget``) → ``failed``, with the reason kept in ``stop_reason`` and ``error``.

Several processes may share one database (``uvicorn --workers N``, or two hosts on one file system):
a run is held by the manager that took it — queued in its pool, then running — and that manager
renews the run's lease (``heartbeat``) every ``heartbeat_seconds``. A lease not renewed for
``lease_seconds`` belonged to a process that died: at start-up and at every heartbeat, any manager
marks such a *running* run failed, and takes such a *queued* run over and runs it (nothing of it had
started). A decision or a cancel may arrive at any process: everything they need is in the database.
The same holds for replicas on several hosts sharing one PostgreSQL database: orphaned runs are
taken with ``FOR UPDATE SKIP LOCKED``, so two replicas never take the same one.

A run whose process died *while it ran* — perhaps inside a tool call — is never re-run by another
process: whether that call's side effect (an email, a booking) happened is unknown, and running it
again could do it twice. The run is failed with ``RESTART_MESSAGE`` (its events up to the
interrupted ``tool_call`` stay, so the user sees how far it got) and the user decides whether to
submit it again. A *paused* run loses nothing: its state is in the database, and a decision made on
any replica resumes it there.

A cancel can arrive at any moment, also while a run (or a resumed run) is just starting: a
``StopRun`` that leaves the agent instead of ending it through the loop still ends the run
``cancelled``, with its ``stop`` event, never ``failed``.

A session's conversation is handed to each run, and a run that completes appends its own exchange to
it (``Store.finish``). The agent's hooks read that history as the run starts (``start_run``):
untrusted tool results and summaries of them in earlier turns still count in this one.

Left out: priorities and per-user quotas (the pool is first come, first served), and retrying a run
that a crash interrupted mid-way (it is marked failed: re-running could repeat a side effect).
"""

from __future__ import annotations

import logging
import os
import threading
import uuid
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from functools import lru_cache
from typing import Any, Protocol

from ..agent import Agent, AgentEvent, RunResult, StopRun
from ..masking import walk_json
from ..text import shorten
from ..tracing.redact import Redactor
from .store import Store, User

log = logging.getLogger("handwritten_agent.service")

RESTART_MESSAGE = (
    "服务在这个运行进行中重启了，运行被中断。为避免重复执行有副作用的操作，"
    "它不会自动重跑：请重新提交。"
)


class AgentFactory(Protocol):
    """Builds the agent for one run (or one resume) of one user in one session; every event must
    reach ``on_event``.
    """

    def __call__(
        self, user: User, session_id: str, on_event: Callable[[AgentEvent], None], run_id: str
    ) -> Agent: ...


class DecisionMaker(Protocol):
    """A stored decision row (``decision``, ``reason``, ``decided_by`` …) and the user who made it →
    what the gate understands.
    """

    def __call__(self, row: dict[str, Any], decider: User) -> Any: ...


def event_data(event: AgentEvent) -> dict[str, Any]:
    """An agent event as the JSON the API sends: what a front end shows, never the whole message
    list.
    """
    return event.to_dict()


IDENTIFIERS = frozenset(
    {
        "id",
        "call_id",
        "tool_call_id",
        "request_id",
        "run_id",
        "user_id",
        "decided_by",
        "arguments_sha256",
    }
)
"""Fields that name things (ids, fingerprints): never masked, or a request could not be found or
bound again.
"""

GATE_EVENTS = frozenset({"needs_confirmation", "permission"})
"""Events the permission gate wrote: personal data in them already follows the policy's masking (a
card may keep an address it must show); only secrets are masked again."""


@lru_cache(maxsize=2)
def _redactor(personal_data: bool) -> Redactor:
    return Redactor(personal_data=personal_data)


def mask_event(kind: str, data: Any) -> Any:
    """``data`` of an event as it may be stored: secrets (by format, and the values of ``.env``'s
    secret variables) and personal data masked with the trace's rules (``tracing.Redactor``),
    identifiers left as they are.
    """
    redact = _redactor(kind not in GATE_EVENTS)

    def field(name: str, item: Any) -> Any:
        if name in IDENTIFIERS and isinstance(item, str):
            return item
        return redact.field(name, item)

    return walk_json(data, redact.text, field)


HELD_EVENTS = frozenset({"model_call", "permission", "final", "stop"})
"""Events the loop follows at once with another event, with nothing slow and no side effect in
between (``model_call`` → a ``tool_call`` or ``final``; a ``permission`` report → its
``tool_result`` or ``needs_confirmation``; ``final`` → ``stop``; ``stop`` → the run's end). They
wait in memory and are committed with the next event, so a run commits a few times, not once per
event. Every other event — a ``tool_call`` about to run, its result, a ``needs_confirmation``, a
retry report before a wait, and anything unknown — is committed before the loop goes on; the run's
last events are committed with its end (``Store.finish``)."""


class EventLog:
    """A run's events on their way to the store: held ones (``HELD_EVENTS``) wait, any other one is
    committed together with them, in one transaction that also reads whether a cancel was asked
    for. A cancel made in this process is seen at every event; one made in another process at the
    next commit — still before any tool runs, since a ``tool_call`` is always committed first.
    """

    def __init__(self, store: Store, run_id: str, cancelled: Callable[[str], bool]):
        self.store, self.run_id, self._cancelled = store, run_id, cancelled
        self._held: list[tuple[str, dict[str, Any]]] = []

    def __call__(self, event: AgentEvent) -> None:
        self._held.append((event.kind, mask_event(event.kind, event_data(event))))
        stop_asked = False
        if event.kind not in HELD_EVENTS:
            events, self._held = self._held, []
            stop_asked = self.store.add_events(self.run_id, events)
        if event.kind != "stop" and (stop_asked or self._cancelled(self.run_id)):
            raise StopRun("cancelled", "运行已被取消。")

    def take(self) -> list[tuple[str, dict[str, Any]]]:
        """The events not stored yet (for ``Store.finish``, which stores them with the run's
        end).
        """
        events, self._held = self._held, []
        return events


def status_for(stop_reason: str) -> str:
    return {
        "final": "completed",
        "needs_confirmation": "requires_action",
        "cancelled": "cancelled",
    }.get(stop_reason, "failed")


class RunManager:
    """Starts, resumes and cancels runs on a bounded pool of worker threads."""

    def __init__(
        self,
        store: Store,
        make_agent: AgentFactory,
        make_decision: DecisionMaker,
        *,
        workers: int = 4,
        lease_seconds: float = 30.0,
        heartbeat_seconds: float = 5.0,
    ):
        if heartbeat_seconds >= lease_seconds:
            raise ValueError(
                f"heartbeat_seconds（{heartbeat_seconds}）要比 lease_seconds（{lease_seconds}）短，"
                "否则活着的运行也会被当成中断。"
            )
        self.store, self.make_agent, self.make_decision = store, make_agent, make_decision
        self.worker = f"w{os.getpid()}_{uuid.uuid4().hex[:6]}"
        self.lease_seconds, self.heartbeat_seconds = lease_seconds, heartbeat_seconds
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="run")
        self._futures: dict[str, Future] = {}
        self._active: set[str] = set()
        self._cancels: set[str] = set()
        """Runs a cancel was asked for through this process (the store has it too)."""
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._unwritten: dict[str, str] = {}
        """Runs whose failure could not be stored yet (run id → reason): written at the next
        heartbeat.
        """
        self._heart = threading.Thread(
            target=self._beat, name=f"heartbeat-{self.worker}", daemon=True
        )
        self._heart.start()

    # ----------------------------------------------------------------------- life cycle

    def recover(self) -> None:
        """At start-up (and at every heartbeat): running runs whose process died (lease expired) are
        marked failed; queued runs whose lease expired are taken over and started; paused runs wait
        as before. Runs another live process holds are left to it."""
        with self._lock:
            unwritten = dict(self._unwritten)
        for (
            run_id,
            error,
        ) in unwritten.items():  # a failure the store could not take at the time (a full disk)
            self._write_failure(run_id, error)
        self.store.fail_stale(self.lease_seconds, RESTART_MESSAGE)
        for run_id in self.store.adopt_queued(self.lease_seconds, self.worker):
            self._start(run_id, self._execute)
        for run in self.store.runs_with_status(
            "requires_action"
        ):  # decided, but the resume never started
            self.decide(run, "")

    def _beat(self) -> None:
        while not self._stopping.wait(self.heartbeat_seconds):  # bounded by shutdown()
            try:
                with self._lock:
                    active = sorted(self._active)
                self.store.heartbeat(active, self.worker)
                self.recover()
            except Exception:  # noqa: BLE001 - a busy or vanished database: try again at the next beat
                log.warning(
                    "heartbeat of %s failed; trying again at the next beat",
                    self.worker,
                    exc_info=True,
                )
                continue

    def shutdown(self, wait: bool = True) -> None:
        self._stopping.set()
        self._pool.shutdown(wait=wait, cancel_futures=False)

    def wait(self, run_id: str, timeout: float | None = None) -> None:
        """Block until the run's current phase (start or resume) has finished (for tests and
        scripts).
        """
        with self._lock:
            future = self._futures.get(run_id)
        if future is not None:
            future.result(timeout)

    # ----------------------------------------------------------------------- operations

    def submit(self, run_id: str, *, leased: bool = False) -> None:
        """Queue a new run in this process's pool (taking its lease, unless ``leased``: the run was
        created with this manager's ``worker`` already holding it).
        """
        if not leased:
            self.store.lease(run_id, self.worker)
        self._start(run_id, self._execute)

    def cancel(self, run: dict[str, Any]) -> dict[str, Any]:
        """Ask a run to stop. A queued or paused run stops at once; a running one at its next
        event.
        """
        with self._lock:  # seen by the run at its next event if it runs in this process
            self._cancels.add(run["id"])
        self.store.request_cancel(run["id"])
        stopped_now = self.store.cancel_waiting(run["id"], "运行已被取消。")
        with self._lock:  # kept only while the run may still be running in this process
            if stopped_now or run["id"] not in self._active:
                self._cancels.discard(run["id"])
        return self.store.get_run(run["id"]) or run

    def decide(self, run: dict[str, Any], request_id: str) -> None:
        """Called after a decision was stored: resume the run once every pending request has one.
        Also called at every heartbeat for the paused runs, so a run whose decisions were stored but
        whose resume never started (the process stopped in between, or starting it failed) is
        resumed, not left waiting for a decision it has.
        """
        decided = self.store.decisions(run["id"])
        if (
            run["pending"]
            and all(request["id"] in decided for request in run["pending"])
            and self.store.claim(
                run["id"], from_status=("requires_action",), to_status="running", worker=self.worker
            )
        ):
            self._start(run["id"], self._resume)

    # ----------------------------------------------------------------------- the work

    def _start(self, run_id: str, work: Callable[[str], None]) -> None:
        def tracked(run_id: str) -> None:
            try:
                work(run_id)
            except Exception as exc:  # noqa: BLE001 - e.g. the store failed (a full disk): say why, fail the run with it
                log.exception(
                    "run %s failed in its worker: %s: %s", run_id, type(exc).__name__, exc
                )
                self._write_failure(
                    run_id, f"运行失败：{type(exc).__name__}: {shorten(str(exc), 300)}"
                )
            finally:
                with self._lock:
                    self._cancels.discard(run_id)
                    if run_id not in self._unwritten:  # a failure not yet written keeps its lease
                        self._active.discard(run_id)

        with self._lock:  # active from now on: a run waiting for a free thread keeps its lease
            self._active.add(run_id)
            self._futures[run_id] = self._pool.submit(tracked, run_id)

    def _agent_for(self, run: dict[str, Any], log: EventLog) -> tuple[Agent, User]:
        owner = self.store.user(run["user_id"])
        if owner is None:
            raise RuntimeError(f"运行的发起人 {run['user_id']} 已经不在数据库里了。")
        return self.make_agent(owner, run["session_id"], log, run["id"]), owner

    def _cancel_asked_here(self, run_id: str) -> bool:
        with self._lock:
            return run_id in self._cancels

    def _execute(self, run_id: str) -> None:
        if not self.store.claim(
            run_id, from_status=("queued",), to_status="running", worker=self.worker
        ):
            return  # cancelled before it started, or another worker has it
        run = self.store.get_run(run_id)
        assert run is not None
        outbox = EventLog(self.store, run_id, self._cancel_asked_here)
        try:
            agent, owner = self._agent_for(run, outbox)
            history = self.store.history(owner, run["session_id"])
            run["history_len"] = len(
                history
            )  # stored with the run if it pauses: its own messages start after these
            result = agent.run(run["message"], history, run_id=run_id)
        # a cancel that arrived as the run started: it left the agent instead of ending the loop
        except StopRun as exc:
            self._stopped(run_id, exc, outbox.take())
            return
        except (
            Exception
        ) as exc:  # building the agent failed (e.g. a bad .env): the run fails with the reason
            self._fail(run_id, exc, outbox.take())
            return
        self._finish(run, owner, result, outbox.take())

    def _resume(self, run_id: str) -> None:
        run = self.store.get_run(run_id)
        assert run is not None and run["state"]
        outbox = EventLog(self.store, run_id, self._cancel_asked_here)
        try:
            agent, owner = self._agent_for(run, outbox)
            paused = RunResult.from_json(run["state"])
            decided = self.store.decisions(run_id)
            decisions = {
                request.id: self.make_decision(
                    decided[request.id], self._decider(decided[request.id])
                )
                for request in paused.pending
            }
            result = agent.resume(paused, decisions)
        except StopRun as exc:  # a cancel that raced the decision
            self._stopped(run_id, exc, outbox.take())
            return
        except Exception as exc:
            self._fail(run_id, exc, outbox.take())
            return
        self._finish(run, owner, result, outbox.take())

    def _decider(self, row: dict[str, Any]) -> User:
        decider = self.store.user(row["decided_by"])
        if decider is None:
            raise RuntimeError(
                f"做出决定的用户 {row['decided_by']} 已经不在数据库里了：无法确认这个决定是谁做的。"
            )
        return decider

    def _finish(
        self,
        run: dict[str, Any],
        owner: User,
        result: RunResult,
        events: list[tuple[str, dict[str, Any]]],
    ) -> None:
        status = status_for(result.stop_reason)
        fields: dict[str, Any] = {
            "status": status,
            "stop_reason": result.stop_reason,
            "answer": result.answer,
            "error": result.error,
            "pending": [request.to_dict() for request in result.pending],
        }
        if status == "requires_action":
            fields["state"], fields["history_len"] = result.to_json(), run.get("history_len") or 0
        history = None
        if (
            status == "completed"
        ):  # the session remembers only finished exchanges: this run's own, appended
            messages = [m for m in result.messages if m.get("role") != "system"]
            history = (owner, run["session_id"], messages[run.get("history_len") or 0 :])
        if status == "failed":
            log.warning("run %s failed: %s: %s", run["id"], result.stop_reason, result.error)
        self.store.finish(
            run["id"], self.worker, history=history, events=events, **fields
        )  # False: our lease expired and the run was failed; that stands

    def _stopped(self, run_id: str, exc: StopRun, events: list[tuple[str, dict[str, Any]]]) -> None:
        self.store.finish(
            run_id,
            self.worker,
            events=events,
            status=status_for(exc.reason),
            stop_reason=exc.reason,
            error=exc.message,
            pending=[],
            stop_event={"stop_reason": exc.reason, "error": exc.message},
        )

    def _fail(self, run_id: str, exc: Exception, events: list[tuple[str, dict[str, Any]]]) -> None:
        log.warning("run %s failed: %s: %s", run_id, type(exc).__name__, exc)
        error = f"运行失败：{type(exc).__name__}: {shorten(str(exc), 300)}"
        self.store.finish(
            run_id,
            self.worker,
            events=events,
            status="failed",
            stop_reason="error",
            error=error,
            stop_event={"stop_reason": "error", "error": error},
        )

    def _write_failure(self, run_id: str, error: str) -> None:
        """Mark the run failed with ``error``; if the store cannot take it now, keep it and try at
        the next heartbeat (meanwhile the run keeps its lease, so it is not mistaken for one a
        restart interrupted)."""
        try:
            self.store.finish(
                run_id,
                self.worker,
                status="failed",
                stop_reason="error",
                error=error,
                stop_event={"stop_reason": "error", "error": error},
            )
        except Exception:  # noqa: BLE001 - still failing: keep the reason, keep the lease
            log.exception(
                "could not mark run %s failed (%s); trying again at the next heartbeat",
                run_id,
                error,
            )
            with self._lock:
                self._unwritten[run_id] = error
                self._active.add(run_id)
            return
        with self._lock:
            self._unwritten.pop(run_id, None)
            self._active.discard(run_id)


__all__ = [
    "AgentFactory",
    "RESTART_MESSAGE",
    "RunManager",
    "event_data",
    "mask_event",
    "status_for",
]
