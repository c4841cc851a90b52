"""The Day 7 service next to its floor: 50 concurrent runs through HTTP and SSE vs the same 50 runs
in-process.

Ours: ``python -m handwritten_agent service --workers 4`` started as its own process, the way a
learner runs it (on the offline simulator, which it serves in a thread of that process). 50 clients
at once each send ``POST /v1/runs`` and read the run's event stream until its ``end`` event; a run's
time is from the POST to that event. Each run has a session of its own that no earlier round
used, so, like the floor's, it carries no history. Floor: the same office agent
(``OfficeAssistant``: tools, policy, memory window, trace file) on the same simulator, the same
50 requests submitted at once to a pool of the same 4 threads in this process; a run's time is
from the submit to ``agent.run`` returning. Both times include the wait for a free worker (50
runs, 4 at a time), so what differs is the service's own cost: HTTP, the SQLite writes (the run,
every event, the session), and the SSE stream (polling the store every ``sse_poll_seconds``).

Where PostgreSQL runs here (``course.postgres``), the same rounds also go to the service on a
throw-away PostgreSQL database: one replica with 4 workers, and two replicas with 2 workers each
behind one database, each run posted to one replica and streamed from the other (its events reach
that stream through ``LISTEN/NOTIFY``).

The requests are read-only office questions (free rooms at a given hour, reading one email), so no
run waits for a person; both sides report the tools each run ran, and a round whose two sides did
different work stops the benchmark. Five rounds, each the floor first and then each service, after
one warm-up run on each service. Besides the pooled p50 ratio, each round's own ratio (its
service p50 over the floor p50 measured just before it) is reported, as their median and range: a
machine that gets busier or quieter during the benchmark moves both sides of a round together, so
the per-round ratios show how far one figure can be trusted. Where ``/proc`` is readable (Linux),
each round's CPU time is reported too — the service processes' (user + system, from
``/proc/<pid>/stat``) against the floor's (this process's, around its pool) — a figure a busy
machine moves much less than a latency; the bench's own 50 clients and the database server's CPU are
not in it.

Left out: runs that pause for a confirmation (their time is a person's), a load balancer in front
of the replicas, and a real model (its seconds per call would hide everything measured here).
"""

from __future__ import annotations

import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from .registry import Context, Figure, Stats, Unavailable, benchmark

RUNS, WORKERS, ROUNDS = 50, 4, 5
FLOOR_IS = (
    "the same office agent runs in-process, submitted at once to a pool of the same 4 threads"
)


def _messages(count: int) -> list[str]:
    asks = [f"明天下午 {n % 5 + 1} 点到 {n % 5 + 2} 点有哪些会议室是空的？" for n in range(count)]
    return [ask if n % 3 else f"帮我读一下邮件 M00{n % 2 + 1}" for n, ask in enumerate(asks)]


def _settings(folder: Path, workers: int) -> Any:
    from ...config import load_settings
    from ...service import ServiceSettings

    return ServiceSettings(
        db_path=str(folder / "service.sqlite3"),
        llm=load_settings({"LLM_PROVIDER": "offline"}, dotenv=False),
        workers=workers,
    )


Timed = tuple[float, tuple[str, ...]]
"""A run's time in ms and the tools it ran, in order: both sides must have done the same work."""


def _cpu_seconds(pid: int | None = None) -> float | None:
    """User + system CPU time of process ``pid`` so far (this process's when ``None``); ``None``
    where another process's cannot be read (no ``/proc``).
    """
    if pid is None:
        times = os.times()
        return times.user + times.system
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime


def _floor_round(
    folder: Path, messages: list[str], workers: int
) -> tuple[list[Timed], float | None]:
    """The floor's runs, and the CPU seconds this process spent on them."""
    from ...service.agents import OfficeAssistant
    from ...service.store import User

    factory = OfficeAssistant(_settings(folder, workers))
    user = User(id="u_bench", role="行政助理", name="张明")  # the service's bench user's role

    def one(index: int, start: float) -> Timed:
        agent = factory(
            user, f"s{index}", lambda event: None, f"run_floor_{time.monotonic_ns()}_{index}"
        )
        result = agent.run(messages[index], [], run_id=f"run_floor_{index}_{time.monotonic_ns()}")
        if result.stop_reason != "final":
            raise RuntimeError(f"floor run {index} ended {result.stop_reason}: {result.error}")
        ran = tuple(
            record.call.name
            for step in result.steps
            for record in step.calls
            if record.result is not None and record.result.success
        )
        return (time.perf_counter() - start) * 1000, ran

    one(0, time.perf_counter())  # warm-up: the simulator's first answers, imports
    with ThreadPoolExecutor(workers) as pool:
        cpu = _cpu_seconds()
        start = time.perf_counter()
        timed = list(pool.map(lambda i: one(i, start), range(len(messages))))
        return timed, _minus(_cpu_seconds(), cpu)


def _minus(after: float | None, before: float | None) -> float | None:
    return None if after is None or before is None else after - before


def _run_over_http(
    client: Any, session: str, message: str, index: int, start: float, stream: Any = None
) -> Timed:
    """POST the run through ``client``, read its events through ``stream`` (another replica's
    client; default ``client``) until ``end``.
    """
    run = client.post("/v1/runs", json={"session_id": session, "message": message})
    run.raise_for_status()
    end = None
    ran: list[str] = []
    reader = stream or client
    with reader.stream("GET", f"/v1/runs/{run.json()['id']}/events", timeout=120) as response:
        event = None
        for line in response.iter_lines():
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: ") and event == "tool_result":
                result = json.loads(line[6:])
                if result.get("success"):
                    ran.append(result["name"])
            elif line.startswith("data: ") and event == "end":
                end = json.loads(line[6:])
                break
    if end is None or end["status"] != "completed":
        said = client.get(f"/v1/runs/{run.json()['id']}").json().get("error")
        raise RuntimeError(f"service run {index} ended {end}: {said}")
    return (time.perf_counter() - start) * 1000, tuple(ran)


class _ServiceProcess:
    """``python -m handwritten_agent service`` on a free port, in a folder of its own, with one
    user.
    """

    def __init__(
        self, folder: Path, workers: int, *, db: str | None = None, token: str | None = None
    ):
        """``db``: a ``postgresql://`` URL several processes share (default: a SQLite file in
        ``folder``); ``token``: the bench user's, when an earlier process on ``db`` made them.
        """
        import httpx

        from ...service.store import Store

        folder.mkdir(parents=True, exist_ok=True)
        db = db or str(folder / "service.sqlite3")
        if token is None:
            store = Store(db)
            _, token = store.add_user("张明", "行政助理")
            if hasattr(store, "close"):
                store.close()
        self.token = token
        env = {**os.environ, "LLM_PROVIDER": "offline"}
        for name in (
            "LLM_BASE_URL",
            "LLM_API_KEY",
            "LLM_MODEL",
            "LLM_FALLBACK_MODEL",
            "LLM_FALLBACK_BASE_URL",
            "LLM_FALLBACK_PROVIDER",
        ):
            env.pop(name, None)
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "handwritten_agent",
                "service",
                "--port",
                "0",
                "--db",
                str(db),
                "--workers",
                str(workers),
            ],
            cwd=folder,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        line = self.process.stdout.readline() if self.process.stdout else ""
        found = re.search(r"http://[\d.]+:\d+", line)
        if not found:
            self.process.kill()
            _, errors = self.process.communicate(timeout=30)
            said = line.strip() or (errors or "")[-500:]
            raise Unavailable(f"服务没有启动：{said}")
        self.url = found.group(0)
        self.client = httpx.Client(
            base_url=self.url,
            headers={"Authorization": f"Bearer {token}"},
            timeout=120,
            limits=httpx.Limits(max_connections=RUNS + 10, max_keepalive_connections=RUNS + 10),
        )

    def cpu_seconds(self) -> float | None:
        return _cpu_seconds(self.process.pid)

    def stop(self) -> None:
        if getattr(self, "client", None) is not None:
            self.client.close()
        self.process.terminate()
        try:
            self.process.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.communicate()


def _round(
    replicas: list[_ServiceProcess], messages: list[str], label: str
) -> tuple[list[Timed], float | None]:
    """Every message at once, each in a session of its own that no earlier round used (like the
    floor's runs, none has a history to send along). Run ``i`` is posted to replica ``i mod n``
    and its events read from the next replica: with two, every stream crosses processes. Also the
    CPU seconds the replicas spent in the round.
    """
    count = len(replicas)
    before = [replica.cpu_seconds() for replica in replicas]

    def one(i: int, start: float) -> Timed:
        post, read = replicas[i % count], replicas[(i + 1) % count]
        return _run_over_http(post.client, f"{label}_s{i}", messages[i], i, start, read.client)

    with ThreadPoolExecutor(len(messages)) as pool:
        start = time.perf_counter()
        timed = list(pool.map(lambda i: one(i, start), range(len(messages))))
    spent = [_minus(replica.cpu_seconds(), b) for replica, b in zip(replicas, before)]
    return timed, None if None in spent else sum(s for s in spent if s is not None)


def _same_work(messages: list[str], served: list[Timed], in_process: list[Timed]) -> None:
    """Both sides ran the same tools for every message, and each ran at least one: a floor whose
    agent saw no tools (a wrong role, say) answers in a third of the time and proves nothing.
    """
    for message, (_, ours), (_, floor) in zip(messages, served, in_process):
        if ours != floor or not floor:
            raise RuntimeError(
                f"the two sides did different work for {message!r}: service ran {list(ours)},"
                f" in-process ran {list(floor)}"
            )


@benchmark(
    "service",
    title=(
        "The service: concurrent runs through HTTP + SSE vs the same runs in-process (same worker"
        " count)"
    ),
    order=30,
)
def service_vs_in_process(ctx: Context) -> list[Figure]:
    runs = min(RUNS, max(2, ctx.n))
    messages = _messages(runs)
    floor: list[float] = []
    floor_walls: list[float] = []
    floor_rounds: list[float] = []  # each round's floor p50
    floor_cpu: list[float | None] = []  # each round's floor CPU seconds
    with tempfile.TemporaryDirectory(prefix="bench_service_") as folder, ExitStack() as stack:
        root = Path(folder)
        deployments = _deployments(root, stack)
        for replicas in deployments.values():
            _round(replicas, messages[:1], "warm-up")
        ours: dict[str, list[float]] = {name: [] for name in deployments}
        cpus: dict[str, list[float | None]] = {name: [] for name in deployments}
        round_ratios: dict[str, list[float]] = {name: [] for name in deployments}
        walls: dict[str, list[float]] = {name: [] for name in deployments}
        bar = ctx.progress(ROUNDS * (1 + len(deployments)), "service")
        for index in range(ROUNDS):
            in_process, cpu = _floor_round(root / f"floor{index}", messages, WORKERS)
            floor_cpu.append(cpu)
            floor += [ms for ms, _ in in_process]
            floor_walls.append(max(ms for ms, _ in in_process))
            floor_rounds.append(Stats.of(ms for ms, _ in in_process).median)
            bar.update(1)
            for name, replicas in deployments.items():
                served, cpu = _round(replicas, messages, f"{name.split()[0]}{index}")
                cpus[name].append(cpu)
                ours[name] += [ms for ms, _ in served]
                walls[name].append(max(ms for ms, _ in served))
                round_ratios[name].append(
                    Stats.of(ms for ms, _ in served).median / floor_rounds[-1]
                )
                bar.update(1)
                _same_work(messages, served, in_process)
        bar.close()
    floor_stats = Stats.of(floor)
    figures = []
    for name in deployments:
        stats = Stats.of(ours[name])
        per_round = sorted(round_ratios[name])
        ratio = (
            f"ratio p50 {stats.median / floor_stats.median:.2f}x, p95"
            f" {stats.p95 / floor_stats.p95:.2f}x; per round p50 ratio median"
            f" {statistics.median(per_round):.2f}x, range {per_round[0]:.2f}-{per_round[-1]:.2f}x"
            f"{_cpu_note(cpus[name], floor_cpu)}"
        )
        figures += [
            Figure(
                "service",
                f"one of {runs} concurrent runs, POST to the SSE end event ({name}, offline"
                " simulator)",
                "ms",
                stats,
                floor_stats,
                FLOOR_IS,
                note=f"{ROUNDS} rounds; {ratio}",
            ),
            Figure(
                "service",
                f"all {runs} runs, first POST to the last end event ({name})",
                "ms",
                Stats.of(walls[name]),
                Stats.of(floor_walls),
                FLOOR_IS,
                note=f"{ROUNDS} rounds",
            ),
        ]
    return figures


def _cpu_note(ours: list[float | None], floor: list[float | None]) -> str:
    """Median CPU seconds per round of the service and of the floor, and their ratio ("" where a
    process's CPU time could not be read)."""
    if not ours or None in ours or None in floor:
        return ""
    service = statistics.median(s for s in ours if s is not None)
    base = statistics.median(s for s in floor if s is not None)
    ratio = f" ({service / base:.2f}x)" if base > 0 else ""
    return f"; CPU per round: service {service:.2f} s, floor {base:.2f} s{ratio}"


def _deployments(root: Path, stack: ExitStack) -> dict[str, list[_ServiceProcess]]:
    """The services measured, by name: SQLite with 4 workers; where PostgreSQL runs here, one
    replica with 4 workers and two replicas with 2 workers each on one database (the same 4
    workers in all). Each process is stopped when ``stack`` closes.
    """

    def started(process: _ServiceProcess) -> _ServiceProcess:
        stack.callback(process.stop)
        return process

    found = {f"SQLite, {WORKERS} workers": [started(_ServiceProcess(root / "sqlite", WORKERS))]}
    from .. import postgres

    if postgres.missing() is not None:
        return found
    server = stack.enter_context(postgres.PostgresServer())
    one = server.create_database()
    found[f"PostgreSQL, 1 replica, {WORKERS} workers"] = [
        started(_ServiceProcess(root / "pg1", WORKERS, db=one))
    ]
    two = server.create_database()
    first = started(_ServiceProcess(root / "pg2a", WORKERS // 2, db=two))
    found[f"PostgreSQL, 2 replicas, {WORKERS // 2} workers each, streams from the other one"] = [
        first,
        started(_ServiceProcess(root / "pg2b", WORKERS // 2, db=two, token=first.token)),
    ]
    return found
