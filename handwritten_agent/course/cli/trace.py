"""Looking at a trace from a terminal:
``python -m handwritten_agent trace show|html|diagnose FILE``.

- ``show FILE [--run ID]``  the table of steps of every run (or one), then the findings
- ``html FILE [-o OUT]``    a self-contained HTML page (default: FILE with ``.html``)
- ``diagnose FILE``         only the findings, one per line, exit status 1 when there is an error

Left out: following a file as it grows (``tail -f`` does that for the raw lines).
"""

from __future__ import annotations

import argparse
import sys
import warnings
from pathlib import Path

from ...tracing.diagnose import diagnose, format_findings
from ...tracing.html import write_html
from ...tracing.reading import read_trace
from ...tracing.table import format_steps


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "action",
        choices=["show", "html", "diagnose"],
        help="show：步骤表 + 诊断；html：生成页面；diagnose：只看诊断（有错误时退出码为 1）",
    )
    parser.add_argument("file", help="handwritten_agent.tracing.Tracer 写的 JSONL trace 文件")
    parser.add_argument("--run", default=None, metavar="REQUEST_ID", help="只看这一次运行")
    parser.add_argument(
        "-o", "--output", default=None, help="html：页面写到哪里（默认：FILE.html）"
    )


def main(args: argparse.Namespace) -> int:
    path = Path(args.file)
    if not path.exists():
        print(f"出错了：找不到 trace 文件 {path}", file=sys.stderr)
        return 2
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        trace = read_trace(path)
    for warning in caught:
        print(f"注意：{warning.message}", file=sys.stderr)
    try:
        source = trace.run(args.run) if args.run else trace
    except ValueError as exc:
        print(f"出错了：{exc}", file=sys.stderr)
        return 2
    if args.action == "html":
        out = Path(args.output) if args.output else path.with_suffix(".html")
        write_html(source, str(out), title=f"Agent 运行记录：{path.name}")
        print(f"已写入：{out}")
        return 0
    findings = diagnose(source)
    if args.action == "show":
        print(format_steps(source, width=70))
        print()
    print(format_findings(findings))
    return 1 if args.action == "diagnose" and any(f.severity == "error" for f in findings) else 0


__all__ = ["add_arguments", "main"]
