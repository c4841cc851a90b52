"""Command line: ``python -m handwritten_agent.course.exercises build|check [--root DIR]``.

- ``build`` writes ``exercises/dayN_exercises.ipynb`` from every ``solutions/dayN_solutions.ipynb``
  (``--force`` also overwrites a notebook that holds a learner's work, which it otherwise keeps).
- ``check`` writes nothing; it exits 1 and names the files when ``exercises/`` is out of date.
"""

from __future__ import annotations

import sys
from pathlib import Path

from ...cli_parser import ChineseParser
from .build import LearnerWork, MarkerError, build, orphans, pairs, stale


def main(argv: list[str] | None = None) -> int:
    parser = ChineseParser(
        prog="python -m handwritten_agent.course.exercises",
        description="从 solutions/ 生成 exercises/（练习和参考答案出自同一个来源）。",
    )
    parser.add_argument(
        "action",
        choices=["build", "check"],
        help=(
            "build：重新生成 exercises/；check：只检查 exercises/ 是否和 solutions/ 一致，不写文件"
        ),
    )
    parser.add_argument(
        "--root", type=Path, default=Path("."), help="课程仓库目录（默认：当前目录）"
    )
    parser.add_argument(
        "--force", action="store_true", help="build：即使练习 notebook 里有你写的答案也覆盖它"
    )
    args = parser.parse_args(argv)

    if not pairs(args.root):
        print(
            f"{args.root.resolve()} 下没有 solutions/*_solutions.ipynb：请在课程仓库的目录里运行，"
            "或者用 --root 指定它。",
            file=sys.stderr,
        )
        return 2
    try:
        if args.action == "build":
            changed = build(args.root, force=args.force)
            for path in changed:
                print(f"已写入 {path}")
            print(
                f"{len(pairs(args.root))} 个练习 notebook 都是最新的（这次重写了 "
                f"{len(changed)} 个）"
            )
            extra = orphans(args.root)
            for path in extra:
                print(
                    f"注意：{path} 没有对应的 solutions notebook；如果它已经过时，请删掉它",
                    file=sys.stderr,
                )
            return 0
        out_of_date = stale(args.root) + orphans(args.root)
    except (MarkerError, LearnerWork) as exc:
        for path in getattr(exc, "written", []):
            print(f"已写入 {path}")
        print(f"出错了：{exc}", file=sys.stderr)
        return 1
    if out_of_date:
        for path in out_of_date:
            print(f"过期了：{path}", file=sys.stderr)
        print(
            "exercises/ 和 solutions/ 不一致。如果你改了 solutions/，请运行 `python -m"
            " handwritten_agent.course.exercises build`（或 `make"
            " exercises`）并提交结果；如果你正在做练习，这是正常的：用 `make check-exercises`"
            " 检查你的答案。",
            file=sys.stderr,
        )
        return 1
    print(f"exercises/ 是最新的（{len(pairs(args.root))} 个 notebook）")
    return 0


if __name__ == "__main__":
    sys.exit(main())
