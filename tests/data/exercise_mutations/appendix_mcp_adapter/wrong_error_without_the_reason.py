"""Reports isError as "工具出错了" without the text the server gave: the model cannot tell why."""

import json
from handwritten_agent.mcp_tools.adapter import definition_hash
from handwritten_agent.tools import Tool, ToolRegistry, ToolResult

def remote_call(connection, name, timeout):
    """一个远程工具的函数：用 name 发 tools/call，把回答变成 ToolResult；永远不抛异常。"""
    def call(**arguments):
        try:
            result = connection.call_tool(name, arguments, timeout=timeout)
        except Exception as exc:  # 服务器出错、超时、连接关了：都变成模型读得到的失败结果
            return ToolResult.fail(f"调用 MCP 工具 {name} 失败：{exc}")
        texts = [block.get("text", "") for block in result.get("content", []) if block.get("type") == "text"]
        text = "\n".join(texts)
        if result.get("isError"):
            return ToolResult.fail(f"MCP 工具 {name} 出错了。")
        try:
            return ToolResult.ok(json.loads(text))
        except ValueError:  # 不是 JSON：文字本身就是结果
            return ToolResult.ok(text)

    return call


def adapt_server(connection, server, timeout=5.0):
    """把 MCP 服务器 tools/list 列出的每个工具变成注册表里的 Tool，返回一个新的 ToolRegistry。"""
    registry = ToolRegistry()
    for entry in connection.list_tools():
        read_only = (entry.get("annotations") or {}).get("readOnlyHint") is True
        registry.register(Tool(
            name=entry["name"],
            description=entry.get("description", ""),
            parameters=entry["inputSchema"],  # 原样：required、enum 都留着
            fn=remote_call(connection, entry["name"], timeout),  # 名字在这里固定下来
            level="L1" if read_only else "L2",  # 外来工具默认要人确认
            side_effects=not read_only,
            untrusted=True,  # 描述和结果都是别人写的文字
            metadata={"mcp_server": server, "mcp_name": entry["name"], "mcp_hash": definition_hash(entry)},
        ))
    return registry


ARGS = (adapt_server,)
