"""ModelThread: every job on one thread, one job at a time, results and errors handed back, early
stops honoured.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

from handwritten_agent.course.offline.model_thread import ModelThread


class Recorder:
    """Jobs that note which thread ran them and fail the test if two ever overlap."""

    def __init__(self) -> None:
        self.threads: list[int] = []
        self.running = 0
        self.overlaps = 0
        self._lock = threading.Lock()

    def job(self, value: int, seconds: float = 0.002) -> int:
        with self._lock:
            self.running += 1
            self.overlaps += self.running > 1
            self.threads.append(threading.get_ident())
        time.sleep(seconds)
        with self._lock:
            self.running -= 1
        return value * 2

    def tokens(self, count: int, made: list[int], closed: list[bool]) -> Iterator[int]:
        try:
            for index in range(count):
                self.job(index, 0.001)
                made.append(index)
                yield index
        finally:
            closed.append(True)


@pytest.fixture
def worker() -> Iterator[ModelThread]:
    thread = ModelThread(name="test-model")
    yield thread
    thread.stop()


def test_calls_from_many_threads_run_on_one_thread_one_at_a_time(worker: ModelThread) -> None:
    recorder = Recorder()
    with ThreadPoolExecutor(max_workers=6) as pool:
        results = list(pool.map(lambda n: worker.call(lambda: recorder.job(n)), range(30)))
    assert results == [n * 2 for n in range(30)]
    assert len(set(recorder.threads)) == 1 and recorder.threads[0] != threading.get_ident()
    assert recorder.overlaps == 0


def test_generators_and_calls_share_the_thread_and_never_overlap(worker: ModelThread) -> None:
    recorder = Recorder()

    def read_all(_: int) -> list[int]:
        return list(worker.iterate(lambda: recorder.tokens(5, [], [])))

    with ThreadPoolExecutor(max_workers=4) as pool:
        streams = [pool.submit(read_all, n) for n in range(4)]
        calls = [pool.submit(worker.call, lambda: recorder.job(7)) for _ in range(4)]
        assert [s.result() for s in streams] == [[0, 1, 2, 3, 4]] * 4
        assert [c.result() for c in calls] == [14] * 4
    assert len(set(recorder.threads)) == 1 and recorder.overlaps == 0


def test_errors_reach_the_caller_and_the_thread_goes_on(worker: ModelThread) -> None:
    def refuse() -> Iterator[int]:
        raise ValueError("too long for the context")
        yield 0  # a generator that fails before its first item

    def break_midway() -> Iterator[int]:
        yield 1
        raise RuntimeError("lost the model")

    with pytest.raises(ZeroDivisionError):
        worker.call(lambda: 1 / 0)
    with pytest.raises(ValueError, match="too long"):
        next(iter(worker.iterate(refuse)))
    got: list[int] = []
    with pytest.raises(RuntimeError, match="lost the model"):
        for item in worker.iterate(break_midway):
            got.append(item)
    assert got == [1]
    assert worker.call(lambda: "still here") == "still here"


def test_closing_the_reader_stops_the_generator_within_one_item(worker: ModelThread) -> None:
    recorder, made, closed = Recorder(), [], []
    stream = worker.iterate(lambda: recorder.tokens(1000, made, closed))
    assert [next(stream) for _ in range(3)] == [0, 1, 2]
    stream.close()
    worker.call(lambda: None)  # queued behind the generator: returns once it has stopped
    assert closed == [True]
    assert len(made) <= 5, made  # items made while the reader was leaving, not the 1000 asked for


def test_a_reader_that_stalls_does_not_block_the_jobs_behind_it(worker: ModelThread) -> None:
    made: list[int] = []
    stream = worker.iterate(lambda: Recorder().tokens(20, made, []))
    assert next(stream) == 0  # then the reader never reads again and never closes
    assert (
        worker.call(lambda: "next request") == "next request"
    )  # would hang if the reader held the thread
    assert made == list(
        range(20)
    )  # the abandoned generation ran to its own end (bounded, like max_tokens)
    stream.close()


def test_nothing_is_submitted_before_the_first_item_is_asked_for(worker: ModelThread) -> None:
    started: list[bool] = []

    def gen() -> Iterator[int]:
        started.append(True)
        yield 1

    stream = worker.iterate(gen)
    worker.call(lambda: None)
    assert started == []
    assert list(stream) == [1] and started == [True]


def test_a_job_may_call_back_into_its_own_thread(worker: ModelThread) -> None:
    def outer() -> list[int]:
        inner = worker.call(lambda: threading.get_ident())
        streamed = list(worker.iterate(lambda: iter([threading.get_ident()])))
        return [threading.get_ident(), inner, *streamed]

    ids = worker.call(outer)
    assert len(set(ids)) == 1


def test_busy_while_a_job_runs_or_waits(worker: ModelThread) -> None:
    release = threading.Event()
    assert not worker.busy
    with ThreadPoolExecutor(max_workers=1) as pool:
        running = pool.submit(worker.call, release.wait)
        deadline = time.monotonic() + 5
        while not worker.busy and time.monotonic() < deadline:
            time.sleep(0.001)
        assert worker.busy
        release.set()
        assert running.result() is True
    assert not worker.busy


def test_stop_ends_the_thread_and_the_next_call_starts_a_new_one(worker: ModelThread) -> None:
    first = worker.call(threading.get_ident)
    alive = {t.ident for t in threading.enumerate()}
    assert first in alive
    worker.stop()
    assert worker.ident is None and first not in {t.ident for t in threading.enumerate()}
    second = worker.call(threading.get_ident)
    assert second != first or worker.ident == second  # a fresh thread (the OS may reuse an id)
    assert worker.ident == second


def test_jobs_never_overlap_across_a_stop(worker: ModelThread) -> None:
    recorder = Recorder()
    with ThreadPoolExecutor(max_workers=4) as pool:
        futures = [pool.submit(worker.call, lambda n=n: recorder.job(n, 0.005)) for n in range(12)]
        for _ in range(3):
            time.sleep(0.01)
            worker.stop()
        assert [f.result() for f in futures] == [n * 2 for n in range(12)]
    assert recorder.overlaps == 0


def test_a_job_cannot_stop_its_own_thread(worker: ModelThread) -> None:
    with pytest.raises(RuntimeError, match="itself"):
        worker.call(worker.stop)
    assert worker.call(lambda: 5) == 5
