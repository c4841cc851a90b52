"""The ``flaky`` fault: sometimes a worse path, chosen per run from a seed, so pass^1 and pass^k
differ offline.

A real model given the same request twice does not always do the same thing: one run in a few
misreads a number or stops a step early. The evaluation's pass^k (a case passes only when all k runs
pass) exists to show that, and a deterministic simulator would hide it. Under ``course-sim:flaky``:

- every new run of a request (its first model call after the user's message) gets a number ``k``:
  the first run of that request is 0, the next 1, and so on, counted by this simulator instance.
  ``k`` is written into the run's tool call ids (``…_r3``), so the later turns of the run read it
  back;
- the run's seed is a hash of the request and ``k``. With probability ``BAD_RUN_RATE`` the run goes
  wrong in one of two ways, chosen by the same seed:

  - ``near_miss``: the request is misread once, the same way on every turn of the run — an id's last
    digit, a count, an hour, or "明天" read as the next value (room_301 → room_302, 15 人 → 16 人,
    3 点 → 4 点, 明天 → 后天);
  - ``skip``: the run stops a step early — once the first results are back, it answers from them
    instead of making the next call (a booking it looked up a room for is never made).

So the same evaluation run twice on a fresh server gives the same scores (reproducible), while the k
repeats of one case differ among themselves.

Left out: flakiness in prompt-JSON mode, and runs that go wrong in other ways (wrong tool, garbled
reply — the other faults do those on every run).
"""

from __future__ import annotations

import hashlib
import random
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from ....messages import message_text
from .arguments import classify, params_of, patterns_of
from .text import normalize

BAD_RUN_RATE = 0.3
# of the runs that go wrong, the share that skips a step (the rest misread a value; with none to
# misread, they skip)
SKIP_SHARE = 0.3
MEMORY = 512  # requests whose run count is remembered
_RUN_ID = re.compile(r"_r(\d+)$")
_NEXT_DAY = {
    "今天": "明天",
    "明天": "后天",
    "后天": "大后天",
    "today": "tomorrow",
    "tomorrow": "the day after tomorrow",
}
_COUNT = re.compile(
    r"(?<![\d.:\-/A-Za-z_])(\d{1,4})(?=\s*(?:个|位|名|人|台|把|张|件|份|本|套|元|块|点|天|小时"
    r"|people|persons|units|pcs))"
)


@dataclass(frozen=True)
class FlakyRun:
    """One run's fate: its number ``k``, whether it goes wrong, and how."""

    k: int
    bad: bool
    kind: str  # "near_miss" | "skip" | ""
    seed: int

    def call_id(self, base: str) -> str:
        return f"{base}_r{self.k}"

    def read(self, text: str, specs: list[dict[str, Any]]) -> str:
        """The request as this run reads it: misread once when the run is a near miss (see the
        module docstring).
        """
        if not self.bad or self.kind != "near_miss":
            return text
        return near_miss(text, specs, random.Random(self.seed))

    def skips(self, text: str, specs: list[dict[str, Any]]) -> bool:
        """Whether this run stops a step early: a skip run, or a near miss with nothing in the
        request to misread.
        """
        return self.bad and (
            self.kind == "skip"
            or near_miss(text, specs, random.Random(self.seed)) == normalize(text)
        )


def _ids(text: str, specs: list[dict[str, Any]]) -> list[tuple[int, int, str]]:
    found = []
    for spec in specs:
        for param in params_of(spec):
            items = param.schema.get("items") if param.type == "array" else None
            target = (
                param
                if not isinstance(items, dict)
                else param.__class__(param.name, {**items, "description": param.description}, False)
            )
            if classify(target) != "pattern":
                continue
            for regex in patterns_of(target):
                for match in regex.finditer(text):
                    value = match.group(0)
                    digits = re.search(r"(\d)(?!.*\d)", value)
                    if digits:
                        shifted = (
                            value[: digits.start()]
                            + str((int(digits.group(1)) + 1) % 10)
                            + value[digits.end() :]
                        )
                        found.append((match.start(), match.end(), shifted))
    return found


def near_miss(text: str, specs: list[dict[str, Any]], rng: random.Random) -> str:
    """``text`` with one value read as its neighbour: an id, a count, an hour or a relative day (see
    the module docstring).
    """
    text = normalize(text)
    candidates = _ids(text, specs)
    candidates += [(m.start(1), m.end(1), str(int(m.group(1)) + 1)) for m in _COUNT.finditer(text)]
    candidates += [
        (m.start(), m.end(), _NEXT_DAY[m.group(0)]) for m in re.finditer("|".join(_NEXT_DAY), text)
    ]
    if not candidates:
        return text
    start, end, replacement = sorted(set(candidates))[rng.randrange(len(set(candidates)))]
    return text[:start] + replacement + text[end:]


class Flakiness:
    """The run counter of one simulator instance (thread-safe) and each run's fate."""

    def __init__(self, rate: float = BAD_RUN_RATE):
        self.rate = rate
        self._runs: OrderedDict[str, int] = OrderedDict()
        self._lock = threading.Lock()

    def run(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None) -> FlakyRun:
        """The fate of the run these messages belong to: a new run counts up, a later turn reads its
        number back.
        """
        last_user = max((i for i, m in enumerate(messages) if m.get("role") == "user"), default=-1)
        key = hashlib.sha256(
            (message_text(messages[last_user]) if last_user >= 0 else "").encode("utf-8")
        ).hexdigest()
        k = None
        for message in messages[last_user + 1 :]:
            for call in message.get("tool_calls") or []:
                found = _RUN_ID.search(str(call.get("id", "")))
                if found:
                    k = int(found.group(1))
                    break
            if k is not None or message.get("role") == "assistant":
                break
        if k is None:
            with self._lock:
                k = self._runs.pop(key, -1) + 1
                self._runs[key] = k
                while len(self._runs) > MEMORY:
                    self._runs.popitem(last=False)
        seed = int(hashlib.sha256(f"{key}:{k}".encode()).hexdigest()[:12], 16)
        rng = random.Random(seed)
        bad = rng.random() < self.rate
        kind = ("skip" if rng.random() < SKIP_SHARE else "near_miss") if bad else ""
        return FlakyRun(k, bad, kind, seed)


__all__ = ["BAD_RUN_RATE", "FlakyRun", "Flakiness", "near_miss"]
