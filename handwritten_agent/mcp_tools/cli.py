"""The MCP server's command line: ``python -m handwritten_agent.mcp_tools [--http --port N]
[--tools office|day3|all]`` (the course's ``python -m handwritten_agent mcp-serve`` registers the
same arguments).

Over stdio (the default) the server reads JSON-RPC on stdin and writes on stdout until stdin closes;
with ``--http`` it serves streamable HTTP at ``http://HOST:PORT/mcp/`` until Ctrl+C. The office
tools act as ``--user`` on a fresh database in ``--folder`` (default: a new temporary folder), with
the course's fixed clock.

argparse's own words (``usage:``, errors) are Chinese too (``cli_parser.ChineseParser``).

Left out: choosing the clock, and serving the Day 5 policy (the client's gate applies it).
"""

from __future__ import annotations

import argparse
import sys

from ..cli_parser import ChineseParser


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The server's options, with ``run`` as the parser's ``func``."""
    parser.add_argument(
        "--http", action="store_true", help="用 streamable HTTP 服务（默认：stdio）"
    )
    parser.add_argument("--host", default="127.0.0.1", help="--http 监听的地址（默认 127.0.0.1）")
    parser.add_argument("--port", type=int, default=8766, help="--http 监听的端口（默认 8766）")
    parser.add_argument(
        "--tools",
        choices=["office", "day3", "all"],
        default="all",
        help="office：办公助手的工具；day3：第 3 天的四个工具；all：全部（默认）",
    )
    parser.add_argument("--user", default="E001", help="办公工具以哪位员工的身份执行（默认 E001）")
    parser.add_argument(
        "--folder", default=None, help="办公数据库放在哪个文件夹（默认：新建一个临时文件夹）"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Serve the chosen tools until stdin closes (stdio) or Ctrl+C (``--http``)."""
    import anyio

    from .startup import skip_slow_optional_imports

    skip_slow_optional_imports()  # before the SDK loads: the server starts in about a second
    from .server import build_server, course_registry, serve_http, serve_stdio

    server = build_server(course_registry(args.tools, user=args.user, folder=args.folder))
    if args.http:
        print(
            f"MCP 服务器：http://{args.host}:{args.port}/mcp/（Ctrl+C 停止）",
            file=sys.stderr,
            flush=True,
        )
        serve_http(server, args.host, args.port)
    else:
        anyio.run(serve_stdio, server)
    return 0


def main(
    argv: list[str] | None = None,
    *,
    parser_class: type[argparse.ArgumentParser] = ChineseParser,
    prog: str = "python -m handwritten_agent.mcp_tools",
) -> int:
    """Parse ``argv`` (default: the process's arguments) and serve."""
    parser = parser_class(prog=prog, description="把课程的工具作为 MCP 服务器提供。")
    add_arguments(parser)
    return run(parser.parse_args(argv))


__all__ = ["add_arguments", "main", "run"]
