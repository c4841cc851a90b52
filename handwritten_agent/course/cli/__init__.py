"""Command line: ``python -m handwritten_agent serve|model|bench|users|service|eval|doctor|checklist
|trace|mcp-serve|reading-time …``.

- ``serve [--port N] [--host H] [--backend offline|local] [--model PATH]`` runs the
  OpenAI-compatible server in the foreground until Ctrl+C.
- ``model fetch [--model PATH]`` assembles (or checks) the local model file; ``model path`` prints
  it; ``model check`` runs a several-token prompt in a child process and says whether the llama.cpp
  build works; ``model cmake-args [--level portable]`` prints the build options for this CPU;
  ``model rebuild`` recompiles with them.
- ``bench [--only NAME] [--n N] [--json PATH]`` measures each figure next to its floor (see
  ``bench``).
- ``users add NAME --role ROLE [--db PATH]`` adds a service user and prints their token once (last
  line).
- ``service [--port N] [--db PATH]`` runs the Day 7 office-assistant service until Ctrl+C.
- ``eval [--model NAME] [--repeat K] [--json PATH] [--cases office|extra|all]`` scores the office
  assistant on ten cases, or twelve extra ones (``evaluation``); after a very low score of a real
  model it points to ``doctor``.
- ``doctor [--base-url URL] [--model NAME]`` checks that a server really does tool calling
  (``doctor``).
- ``checklist [--json PATH]`` checks the release checklist against the course agent and code
  (``checklist``).
- ``trace show|html|diagnose FILE`` looks at a JSONL trace (see ``tracing.cli``).
- ``mcp-serve [--http --port N] [--tools office|day3|all]`` serves the course's tools over MCP
  (``cli.mcp``).
- ``reading-time [--root PATH]`` prints each day's time estimated from the notebooks' content
  (``reading_time``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ...cli_parser import ChineseParser


def _serve(args: argparse.Namespace) -> int:
    from ..offline import serve_forever

    return serve_forever(
        host=args.host, port=args.port, backend=args.backend, model_path=args.model
    )


def _model(args: argparse.Namespace) -> int:
    from ..offline import model_fetch

    if args.action == "fetch":
        path = model_fetch.fetch(model_path=args.model, progress=True)
        print(f"模型已就绪：{path}")
        return 0
    if args.action == "check":
        from ..offline.model_check import main_check

        return main_check(args.model)
    if args.action == "cmake-args":
        from ..offline.build_flags import cmake_args_text

        print(cmake_args_text(args.level))
        return 0
    if args.action == "rebuild":
        from ..offline.model_check import rebuild

        return rebuild(args.level)
    print(model_fetch.model_path(args.model))
    return 0


def _bench(args: argparse.Namespace) -> int:
    from .. import bench

    return bench.main(args)


def _eval(args: argparse.Namespace) -> int:
    from ..doctor import eval_hint
    from ..evaluation.cli import main as eval_main

    code = eval_main(args)
    try:  # a very low score of a real model: point to the doctor (a server that drops the tools)
        report = json.loads(Path(args.json).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return code
    hint = eval_hint(report) if code == 0 and isinstance(report, dict) else None
    if hint:
        print(hint)
    return code


def _doctor(args: argparse.Namespace) -> int:
    from ..doctor import main as doctor_main

    return doctor_main(args)


def _checklist(args: argparse.Namespace) -> int:
    from ..checklist import main as checklist_main

    return checklist_main(args)


def _trace(args: argparse.Namespace) -> int:
    from .trace import main as trace_main

    return trace_main(args)


def build_parser() -> ChineseParser:
    parser = ChineseParser(
        prog="python -m handwritten_agent",
        description="手写 Agent 课程的命令行工具。每个命令后面加 -h 看它的用法。",
    )
    sub = parser.add_subparsers(
        dest="command", required=True, metavar="命令", help="要执行的命令，是下面之一"
    )

    serve = sub.add_parser(
        "serve",
        help="启动 OpenAI 兼容服务器（离线模拟器或本地模型）",
        description="在前台启动 OpenAI 兼容的服务器，Ctrl+C 停止。",
    )
    serve.add_argument(
        "--host", default="127.0.0.1", help="监听的地址（默认 127.0.0.1：只有本机能访问）"
    )
    serve.add_argument(
        "--port", type=int, default=8765, help="监听的端口（默认 8765；0 表示自动选一个空闲端口）"
    )
    serve.add_argument(
        "--backend",
        choices=["offline", "local"],
        default="offline",
        help=(
            "offline：离线课程模拟器（规则引擎，默认）；local：在 CPU 上运行的本地模型（先 make"
            " local）"
        ),
    )
    serve.add_argument(
        "--model",
        default=None,
        help="--backend local 使用的 GGUF 文件（默认：model fetch 拼好的课程模型）",
    )
    serve.set_defaults(func=_serve)

    model = sub.add_parser(
        "model",
        help="本地模型：拼装、检查、编译选项",
        description=(
            "本地模型：fetch 拼装并校验，path 打印路径，check 检查编译出的 llama.cpp 能否运行，"
            "cmake-args 打印本机的编译选项，rebuild 用这些选项重新编译。"
        ),
    )
    model.add_argument(
        "action",
        choices=["fetch", "path", "check", "cmake-args", "rebuild"],
        help=(
            "fetch：拼装并校验模型文件；path：打印模型文件的路径；check：在子进程里试运行模型；"
            "cmake-args：打印本机的编译选项；rebuild：用这些选项重新编译 llama-cpp-python"
        ),
    )
    model.add_argument("--model", default=None, help="用这个 GGUF 文件代替课程模型")
    model.add_argument(
        "--level",
        choices=["cpu", "portable"],
        default="cpu",
        help=(
            "cmake-args / rebuild：cpu = 本机 CPU 的全部指令集但不用 AMX（默认）；portable = 再关掉"
            " AVX-512"
        ),
    )
    model.set_defaults(func=_model)

    from ..bench import (
        add_arguments as bench_arguments,
    )  # light: the benchmarks themselves load when run

    bench = sub.add_parser(
        "bench",
        help="性能基准：每个数字和它的地板并排（表格 + JSON）",
        description="性能基准：每个数字和它的地板并排，打印表格并写成 JSON。",
    )
    bench_arguments(bench)
    bench.set_defaults(func=_bench)

    from .service import add_arguments as service_arguments

    service_arguments(sub)

    from ..evaluation.cli import add_arguments as eval_arguments

    evaluation = sub.add_parser(
        "eval",
        help="用 10 个办公请求（--cases extra：另外 12 个）给办公助手打分（表格 + JSON）",
        description=(
            "用 10 个办公请求（--cases extra：另外 12 个）给办公助手打分，打印表格并写成 JSON。"
        ),
    )
    eval_arguments(evaluation)
    evaluation.set_defaults(func=_eval)

    from ..checklist import add_arguments as checklist_arguments

    checklist = sub.add_parser(
        "checklist",
        help="发布前检查清单：对课程的 Agent 和代码逐项检查",
        description="发布前检查清单：对课程的 Agent 和代码逐项检查，全部通过时退出码为 0。",
    )
    checklist_arguments(checklist)
    checklist.set_defaults(func=_checklist)

    from ..doctor import add_arguments as doctor_arguments

    doctor = sub.add_parser(
        "doctor",
        help="检查一个 OpenAI 兼容服务端能不能真正做工具调用（每项给出结论和原因）",
        description=(
            "对 .env（或 --base-url/--model）指定的服务端发几个小请求：能否应答、工具定义是否送达"
            "模型、强制调用的参数是否符合定义、返回格式、流式输出。全部通过时退出码为 0。"
        ),
    )
    doctor_arguments(doctor)
    doctor.set_defaults(func=_doctor)

    from .trace import add_arguments as trace_arguments

    trace = sub.add_parser(
        "trace",
        help="查看 JSONL trace：步骤表、HTML 页面、诊断结果",
        description=(
            "查看 handwritten_agent.tracing.Tracer 写的 JSONL trace：步骤表、HTML 页面、诊断结果。"
        ),
    )
    trace_arguments(trace)
    trace.set_defaults(func=_trace)

    from .mcp import register as mcp_register

    mcp_register(sub)

    from .reading_time import register as reading_time_register

    reading_time_register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except (ModuleNotFoundError, OSError, RuntimeError, ValueError) as exc:
        # a missing [local] extra, a bad --model path, a busy port, a duplicate user: the message
        # says what to do
        print(f"出错了：{exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
