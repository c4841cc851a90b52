"""The course's tools over MCP as a sub-command:
``python -m handwritten_agent mcp-serve [--http --port N] [--tools office|day3|all]``.

The arguments and the server are ``mcp_tools.cli``'s; this module only adds them to the course's
command line.

Left out: anything of its own — ``python -m handwritten_agent.mcp_tools`` serves the same.
"""

from __future__ import annotations

from typing import Any

from ...mcp_tools import cli
from ...mcp_tools.cli import add_arguments, run


def register(sub: Any) -> None:
    """Add ``mcp-serve`` to the course's sub-commands."""
    serve = sub.add_parser(
        "mcp-serve",
        help="把课程的工具作为 MCP 服务器提供（stdio 或 streamable HTTP）",
        description="把课程的工具（办公工具、第 3 天的工具）作为 MCP 服务器提供，schema 不变。",
    )
    add_arguments(serve)


def main(argv: list[str] | None = None) -> int:
    """``mcp-serve`` on its own."""
    return cli.main(argv, prog="python -m handwritten_agent mcp-serve")


__all__ = ["add_arguments", "main", "register", "run"]
