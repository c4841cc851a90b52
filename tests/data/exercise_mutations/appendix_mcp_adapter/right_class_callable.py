"""Right, another style: a callable class per remote tool, the Tool list built first and handed to
ToolRegistry at once; only WireError-like failures are not special-cased (every Exception becomes a
failure), and a result without text blocks is an empty string."""

import json

from handwritten_agent.mcp_tools.adapter import definition_hash
from handwritten_agent.tools import Tool, ToolRegistry, ToolResult


class RemoteTool:
    def __init__(self, connection, name, timeout):
        self.connection, self.name, self.timeout = connection, name, timeout

    def __call__(self, **arguments):
        try:
            answer = self.connection.call_tool(self.name, arguments, timeout=self.timeout)
        except Exception as error:  # noqa: BLE001
            return ToolResult.fail(f"{self.name} 没有调用成功（{type(error).__name__}：{error}）")
        parts = []
        for block in answer.get("content") or []:
            if block.get("type") == "text":
                parts.append(block["text"])
        joined = "\n".join(parts)
        if answer.get("isError") is True:
            return ToolResult.fail(f"{self.name} 失败了：{joined}")
        try:
            value = json.loads(joined)
        except json.JSONDecodeError:
            value = joined
        return ToolResult.ok(value)


def adapt_server(connection, server, timeout):
    tools = []
    for entry in connection.list_tools():
        hints = entry.get("annotations") or {}
        only_reads = hints.get("readOnlyHint") is True
        tools.append(
            Tool(
                entry["name"],
                entry.get("description") or "",
                entry["inputSchema"],
                RemoteTool(connection, entry["name"], timeout),
                level="L1" if only_reads else "L2",
                side_effects=not only_reads,
                untrusted=True,
                metadata=dict(
                    mcp_server=server, mcp_name=entry["name"], mcp_hash=definition_hash(entry)
                ),
            )
        )
    return ToolRegistry(tools)


ARGS = (adapt_server,)
