"""Pinned descriptions: a foreign tool is used only as it was when a person approved it.

A tool description is text the model reads and obeys, written by whoever runs the server — who can
change it at any time ("rug pull": harmless when approved, an instruction later). ``PinnedTools``
records each foreign tool's definition hash (name + description + input schema,
``adapter.definition_hash``) when ``approve()`` is called, then:

- ``visible_tools``: a foreign tool that was never approved, or whose listed definition changed, is
  not shown to the model (its new description never reaches it);
- ``check_call``: before each call, asks the server for its current definitions (``current()``, a
  fresh ``tools/list``) and refuses the call, in Chinese, when the tool changed since approval —
  until a person looks at the new text and calls ``approve()`` again.

Tools without ``metadata["mcp_server"]`` (the course's own) are left alone.

Left out: storing pins across processes (keep ``pins`` and pass it back), and asking the person
inside the run (the refusal says what to do; Day 5's confirmation flow could carry it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ..tools import Tool, ToolResult


class PinnedTools:
    """A hook: foreign tools run only while their definition is the one approved."""

    def __init__(
        self,
        current: Callable[[], dict[str, str]] | None = None,
        pins: dict[str, str] | None = None,
    ):
        self.current = current
        self.pins: dict[str, str] = dict(pins or {})
        """Remote tool name → the definition hash a person approved."""
        self.changed: list[str] = []
        """Remote names of tools refused because they changed (for the notebook and tests)."""

    def approve(self, tools: Iterable[Tool]) -> None:
        """A person read these tools' descriptions and schemas: pin them as they are now."""
        for item in tools:
            if "mcp_server" in item.metadata:
                self.pins[item.metadata["mcp_name"]] = item.metadata["mcp_hash"]

    def _pinned(self, item: Tool, current_hash: str | None = None) -> bool:
        if "mcp_server" not in item.metadata:
            return True
        name = item.metadata["mcp_name"]
        return self.pins.get(name) is not None and self.pins[name] == (
            current_hash or item.metadata.get("mcp_hash")
        )

    def visible_tools(self, tools: list[Tool], context: Any) -> list[Tool]:
        return [item for item in tools if self._pinned(item)]

    def check_call(self, call: Any, context: Any) -> ToolResult | None:
        item = context.tool
        if item is None or "mcp_server" not in item.metadata:
            return None
        name = item.metadata["mcp_name"]
        current_hash = item.metadata.get("mcp_hash")
        if self.current is not None:
            try:
                current_hash = self.current().get(name)
            except (
                Exception
            ) as exc:  # a server that cannot say what the tool is now is not trusted with a call
                return ToolResult.fail(
                    f"无法确认 MCP 工具 {item.name} 的当前定义（{type(exc).__name__}：{exc}），"
                    "这次调用没有执行。"
                )
        if self._pinned(item, current_hash):
            return None
        self.changed.append(name)
        context.report(
            "mcp_pin", tool=item.name, approved=self.pins.get(name), current=current_hash
        )
        if name not in self.pins:
            return ToolResult.fail(f"MCP 工具 {item.name} 还没有经过人工审核，这次调用没有执行。")
        return ToolResult.fail(
            f"MCP 工具 {item.name} 的描述或参数在批准之后被服务器改过，这次调用没有执行。"
            "需要有人重新审核它的新描述并再次批准后才能使用。"
        )


__all__ = ["PinnedTools"]
