"""Command line: ``python -m handwritten_agent serve|model|bench …``.

- ``serve [--port N] [--host H] [--backend offline|local] [--model PATH]`` runs the OpenAI-compatible
  server in the foreground until Ctrl+C.
- ``model fetch [--model PATH]`` assembles (or checks) the local model file; ``model path`` prints it.
- ``bench [--only NAME] [--n N] [--json PATH]`` measures each figure next to its floor (see ``bench``).
- ``trace show|html|diagnose FILE`` looks at a JSONL trace (see ``tracing.cli``).
"""

from __future__ import annotations

import argparse
import sys


def _serve(args: argparse.Namespace) -> int:
    from .offline import serve_forever

    return serve_forever(host=args.host, port=args.port, backend=args.backend, model_path=args.model)


def _model(args: argparse.Namespace) -> int:
    from .offline import model_fetch

    if args.action == "fetch":
        path = model_fetch.fetch(model_path=args.model, progress=True)
        print(f"模型已就绪：{path}")
        return 0
    print(model_fetch.model_path(args.model))
    return 0


def _bench(args: argparse.Namespace) -> int:
    from . import bench

    return bench.main(args)


def _trace(args: argparse.Namespace) -> int:
    from .tracing import cli

    return cli.main(args)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m handwritten_agent", description="手写 Agent course tools")
    sub = parser.add_subparsers(dest="command", required=True)

    serve = sub.add_parser("serve", help="run the OpenAI-compatible server (offline simulator or local model)")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8765, help="port to listen on (default 8765; 0 picks a free one)")
    serve.add_argument("--backend", choices=["offline", "local"], default="offline")
    serve.add_argument("--model", default=None, help="GGUF file for --backend local (default: the fetched course model)")
    serve.set_defaults(func=_serve)

    model = sub.add_parser("model", help="manage the local model file")
    model.add_argument("action", choices=["fetch", "path"])
    model.add_argument("--model", default=None, help="use this GGUF file instead of the course model")
    model.set_defaults(func=_model)

    from .bench import add_arguments as bench_arguments  # light: the benchmarks themselves load when run

    bench = sub.add_parser("bench", help="benchmarks, each figure next to its floor (table + JSON)")
    bench_arguments(bench)
    bench.set_defaults(func=_bench)

    from .tracing.cli import add_arguments as trace_arguments

    trace = sub.add_parser("trace", help="look at a JSONL trace: a table of steps, an HTML page, the findings")
    trace_arguments(trace)
    trace.set_defaults(func=_trace)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except (ModuleNotFoundError, OSError, RuntimeError) as exc:
        # a missing [local] extra, a bad --model path, a busy port: the message says what to do
        print(f"出错了：{exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
