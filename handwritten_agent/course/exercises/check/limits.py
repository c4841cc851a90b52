"""Time limits for a learner's code inside a check, in the same thread (a Jupyter kernel, pytest).

``time_limit(seconds)`` raises ``CallTimedOut`` (a ``BaseException``, so a learner's ``except
Exception`` cannot swallow it) in the calling thread when the block has not finished in time. Limits
nest: an inner limit never extends an outer one.

Two ways, chosen per call:

- In the main thread, where ``SIGALRM`` exists and no other timer is armed: ``signal.setitimer``.
  The handler raises in the main thread, which also interrupts ``time.sleep`` and waits on a lock.
- Otherwise (another thread, Windows, a timer someone else armed): a watchdog thread that injects
  the exception with ``PyThreadState_SetAsyncExc``. It interrupts Python loops but not a blocking C
  call. The watchdog exits as soon as the block ends, so no thread is left behind.

Both raise again every half second while the block keeps running, so an answer that catches
``BaseException`` in a loop is stopped once a repeat lands outside its ``try`` (a loop that has no
line outside it is not stopped: a known limit). Left out: memory limits and killing threads the
learner's code started itself.
"""

from __future__ import annotations

import ctypes
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

_REPEAT = 0.5


class CallTimedOut(BaseException):
    """The learner's code did not finish within its time limit."""


_deadlines: list[float] = []  # outermost first; only the innermost (smallest) is armed
_lock = threading.Lock()


def _can_use_signal() -> bool:
    if (
        not hasattr(signal, "setitimer")
        or threading.current_thread() is not threading.main_thread()
    ):
        return False
    if _deadlines:  # ours: the handler is already installed
        return signal.getsignal(signal.SIGALRM) is _on_alarm
    return signal.getitimer(signal.ITIMER_REAL)[0] == 0 and signal.getsignal(signal.SIGALRM) in (
        signal.SIG_DFL,
        signal.SIG_IGN,
        None,
    )


def _on_alarm(signum: int, frame: Any) -> None:
    raise CallTimedOut()


def _arm(deadline: float) -> None:
    signal.setitimer(signal.ITIMER_REAL, max(deadline - time.monotonic(), 0.001), _REPEAT)


@contextmanager
def _by_signal(seconds: float) -> Iterator[None]:
    deadline = time.monotonic() + seconds
    outer = min(_deadlines) if _deadlines else None
    previous = signal.getsignal(signal.SIGALRM)
    if outer is None:
        signal.signal(signal.SIGALRM, _on_alarm)
    _deadlines.append(min(deadline, outer) if outer is not None else deadline)
    try:
        _arm(_deadlines[-1])
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        _deadlines.pop()
        if outer is not None:
            _arm(_deadlines[-1])
        else:
            signal.signal(signal.SIGALRM, previous)


@contextmanager
def _by_watchdog(seconds: float) -> Iterator[None]:
    target = threading.get_ident()
    finished = threading.Event()

    def watch() -> None:
        wait = seconds
        while not finished.wait(max(wait, 0.0)):
            with _lock:
                if finished.is_set():
                    return
                ctypes.pythonapi.PyThreadState_SetAsyncExc(
                    ctypes.c_ulong(target), ctypes.py_object(CallTimedOut)
                )
            wait = _REPEAT

    watchdog = threading.Thread(target=watch, name="exercise-time-limit", daemon=True)
    watchdog.start()
    try:
        yield
    finally:
        with _lock:
            finished.set()
            # an exception injected but not yet raised would surface later in the checker: clear it
            ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(target), None)
        watchdog.join()


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Run the block with a time limit of ``seconds``; raise ``CallTimedOut`` when it runs longer.

    A block that swallowed every ``CallTimedOut`` and then returned late also raises it on exit.
    """
    started = time.monotonic()
    way = _by_signal if _can_use_signal() else _by_watchdog
    with way(seconds):
        yield
    if time.monotonic() - started > seconds + _REPEAT * 4:
        raise CallTimedOut()
