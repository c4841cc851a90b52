"""One long-lived thread that makes every call into the local model, one call at a time, in order of
arrival.

Why one thread and not a lock: llama.cpp is not thread-safe, so calls must be serialized, but
*which* thread makes them matters too. The llama-cpp-python wheels build llama.cpp with OpenMP, and
OpenMP (libgomp) keeps a team of worker threads for every thread that has called it, for that
thread's whole life. Once a process holds more of those threads than it has CPUs, libgomp stops
spinning at its barriers and sleeps at each one, and a token's many small barriers then cost more
than its arithmetic. On a 2-core machine, generation fell from 35 to 24 tokens/s as soon as a second
calling thread existed: a server that generates on a new thread per streaming request and on a
thread-pool thread for the other requests ends up there. Calls made from one thread keep one team.

``call(fn)`` runs a function there and returns its result; ``iterate(start)`` runs a generator there
and hands its items to the caller as they are made. Closing the caller's iterator (a client that
left) makes the thread close the generator after the item it is making, so a generation that yields
once per token stops within one token. A generator nobody reads any more (and nobody closed) runs to
its own end, so a stalled consumer never blocks the requests behind it. An exception in ``fn`` or
the generator is raised in the caller.

Left out: priorities, timeouts (a generation is bounded by its ``max_tokens``), and more than one
thread (one model, one thread).
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

T = TypeVar("T")

_ITEM, _ERROR, _END = "item", "error", "end"


class ModelThread:
    """A daemon thread, started on first use, that runs submitted work one job at a time."""

    def __init__(self, name: str = "model"):
        self.name = name
        self._thread: threading.Thread | None = None
        self._jobs: queue.Queue[Callable[[], None] | None] = (
            queue.Queue()
        )  # the current thread's own queue
        self._start_lock = threading.Lock()
        self._pending = 0  # jobs submitted and not yet finished
        self._pending_lock = threading.Lock()

    @property
    def busy(self) -> bool:
        """True while a job runs or waits (a generation in progress, say)."""
        return self._pending > 0

    @property
    def ident(self) -> int | None:
        """The thread's id while it is alive (``threading.get_ident()`` inside a job), else None."""
        thread = self._thread
        return thread.ident if thread is not None and thread.is_alive() else None

    def call(self, fn: Callable[[], T]) -> T:
        """Run ``fn()`` on the thread after the jobs before it, and return its result (or raise its
        exception).
        """
        if (
            threading.get_ident() == self.ident
        ):  # already on the thread (a job calling back): run it here
            return fn()
        done = threading.Event()
        outcome: dict[str, Any] = {}

        def job() -> None:
            try:
                outcome["value"] = fn()
            except BaseException as exc:  # noqa: BLE001 - handed to the caller, which raises it
                outcome["error"] = exc
            finally:
                done.set()

        self._submit(job)
        done.wait()
        if "error" in outcome:
            raise outcome["error"]
        return outcome["value"]

    def iterate(self, start: Callable[[], Iterator[T]]) -> Iterator[T]:
        """Run the generator ``start()`` on the thread; yield its items here as they come.

        Nothing is submitted until the first item is asked for. Closing this iterator stops the
        generator after the item it is working on.
        """
        items: queue.Queue[tuple[str, Any]] = queue.Queue()
        cancelled = threading.Event()

        def job() -> None:
            try:
                generator = start()
                try:
                    for item in generator:
                        items.put((_ITEM, item))
                        if cancelled.is_set():
                            break
                finally:
                    close = getattr(generator, "close", None)
                    if callable(close):
                        close()  # also after a break: the generator's own cleanup stops the work
            except BaseException as exc:  # noqa: BLE001 - handed to the caller, which raises it
                items.put((_ERROR, exc))
            finally:
                items.put((_END, None))

        if (
            threading.get_ident() == self.ident
        ):  # already on the thread: a plain generator, no hand-over
            yield from start()
            return
        self._submit(job)
        try:
            while True:
                kind, value = items.get()
                if kind == _END:
                    return
                if kind == _ERROR:
                    raise value
                yield value
        finally:
            cancelled.set()

    def stop(self) -> None:
        """End the thread once the jobs before this call are done (its OpenMP team goes with it).

        Returns when it has ended. The next ``call`` or ``iterate`` starts a new thread, which never
        runs alongside the old one. A job cannot stop its own thread (it would wait for itself).
        """
        if threading.get_ident() == self.ident:
            raise RuntimeError(
                f"ModelThread.stop() was called from a job on the {self.name!r} thread itself."
            )
        with self._start_lock:
            if self._thread is None:
                return
            self._jobs.put(None)
            self._thread.join()
            self._thread = None

    def _submit(self, job: Callable[[], None]) -> None:
        with self._start_lock:
            if self._thread is None or not self._thread.is_alive():
                self._jobs = (
                    queue.Queue()
                )  # a new thread gets a new queue: nothing left over is run twice
                self._thread = threading.Thread(
                    target=self._serve, args=(self._jobs,), name=self.name, daemon=True
                )
                self._thread.start()
            with self._pending_lock:
                self._pending += 1
            self._jobs.put(job)

    def _serve(self, jobs: queue.Queue[Callable[[], None] | None]) -> None:
        while True:
            job = jobs.get()
            if job is None:
                return
            try:
                job()  # never raises: every job reports its own outcome
            finally:
                with self._pending_lock:
                    self._pending -= 1
