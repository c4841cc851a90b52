"""``ToolCache``: a registry wrapper that caches read-only tools for a while and cuts long results
short.

The reference articles' two cheapest cost controls (001 §8.3): results of tools that only *read*
(weather, exchange rates, a meeting room's free slots) may be reused for some minutes, and a result
longer than a threshold is truncated before it fills the model's context. Both are done here, in
front of ``dispatch``, without touching the loop: ``Agent(client, ToolCache(registry), …)``.

Only tools whose level is ``L1`` (read-only) and that declare no side effects are cached, and only
successful results. Each hit and each truncation is reported into the run
(``reporting.report("tool_cache", …)``, an event the tracer folds into the next ``tool_result``
line), so that line says ``status: "cached"`` with the entry's age, or ``truncated.original_chars``.

Left out: sharing a cache between users or processes (make one ``ToolCache`` per user/session: a
cached result is whoever asked first's), invalidation when data changes (the TTL is the only bound),
and size limits on the cache itself.
"""

from __future__ import annotations

import copy
import json
import time
from collections.abc import Callable, Iterator
from typing import Any

from .messages import call_key
from .reporting import report
from .text import shorten
from .tools import Tool, ToolRegistry, ToolResult


def tool_level(tool: Any) -> str | None:
    """A tool's permission level as text ("L1"), or None for an object that is not a ``Tool``."""
    level = getattr(tool, "level", None)
    return str(getattr(level, "value", level)) if level is not None else None


class ToolCache:
    """Looks like a ``ToolRegistry`` to the Agent; caches read-only results for ``ttl`` seconds,
    truncates long ones.
    """

    def __init__(
        self,
        registry: ToolRegistry,
        *,
        ttl: float = 300.0,
        max_chars: int | None = 2000,
        levels: tuple[str, ...] = ("L1",),
        clock: Callable[[], float] = time.monotonic,
    ):
        if ttl < 0 or (max_chars is not None and max_chars < 50):
            raise ValueError(
                f"ttl 不能为负（收到 {ttl}），max_chars 至少 50 或者 None（收到 {max_chars}）。"
            )
        self.registry, self.ttl, self.max_chars, self.levels = (
            registry,
            ttl,
            max_chars,
            tuple(levels),
        )
        self.clock = clock
        self._entries: dict[str, tuple[float, ToolResult]] = {}
        self.hits = self.misses = self.truncated = 0

    # the registry interface the Agent and a gate use
    def get(self, name: str) -> Tool | None:
        return self.registry.get(name)

    def names(self) -> list[str]:
        return self.registry.names()

    def schemas(self) -> list[dict[str, Any]]:
        return self.registry.schemas()

    def register(self, tool_or_fn: Any) -> Tool:
        return self.registry.register(tool_or_fn)

    def __contains__(self, name: object) -> bool:
        return name in self.registry

    def __iter__(self) -> Iterator[Tool]:
        return iter(self.registry)

    def __len__(self) -> int:
        return len(self.registry)

    def cacheable(self, name: str) -> bool:
        tool = self.registry.get(name)
        return (
            tool is not None
            and self.ttl > 0
            and tool_level(tool) in self.levels
            and not getattr(tool, "side_effects", False)
        )

    def dispatch(self, name: str, arguments: dict[str, Any] | str | None = None) -> ToolResult:
        key = call_key(name, arguments)
        now = self.clock()
        if self.cacheable(name):
            entry = self._entries.get(key)
            if entry is not None and now - entry[0] <= self.ttl:
                self.hits += 1
                self._note(
                    **{
                        "cache.hit": True,
                        "cache.age_s": round(now - entry[0], 3),
                        "cache.ttl_s": self.ttl,
                    }
                )
                return self._truncate(copy.deepcopy(entry[1]))
            self.misses += 1
            result = self.registry.dispatch(name, arguments)
            if result.success:
                self._entries[key] = (now, copy.deepcopy(result))
            self._note(**{"cache.hit": False})
            return self._truncate(result)
        return self._truncate(self.registry.dispatch(name, arguments))

    def clear(self) -> None:
        self._entries.clear()

    def _truncate(self, result: ToolResult) -> ToolResult:
        if self.max_chars is None or not result.success:
            return result
        text = (
            result.data
            if isinstance(result.data, str)
            else json.dumps(result.data, ensure_ascii=False, default=str)
        )
        if len(text) <= self.max_chars:
            return result
        self.truncated += 1
        self._note(
            **{"truncated.original_chars": len(text), "truncated.kept_chars": self.max_chars}
        )
        kept = shorten(text, self.max_chars, one_line=False, show_length=True)
        return ToolResult(
            True,
            kept + "（结果过长，只保留了开头部分；需要其余内容时请缩小查询范围。）",
            None,
            result.exception,
        )

    def _note(self, **fields: Any) -> None:
        report("tool_cache", **fields)

    def __repr__(self) -> str:
        return f"ToolCache({self.registry!r}, ttl={self.ttl:g}, max_chars={self.max_chars})"


__all__ = ["ToolCache", "tool_level"]
