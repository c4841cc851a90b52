"""Command line: ``python -m handwritten_agent.course.exercises build|check [--root DIR]``.

- ``build`` writes ``exercises/dayN_exercises.ipynb`` from every ``solutions/dayN_solutions.ipynb``
  (``--force`` also overwrites a notebook that holds a learner's work, which it otherwise keeps).
- ``check`` writes nothing; it exits 1 and names the files when ``exercises/`` is out of date.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .build import LearnerWork, MarkerError, build, orphans, pairs, stale


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m handwritten_agent.course.exercises",
                                     description="generate exercises/ from solutions/ (one source for both)")
    parser.add_argument("action", choices=["build", "check"])
    parser.add_argument("--root", type=Path, default=Path("."), help="课程仓库目录（默认：当前目录）")
    parser.add_argument("--force", action="store_true", help="build：即使练习 notebook 里有你写的答案也覆盖它")
    args = parser.parse_args(argv)

    if not pairs(args.root):
        print(f"no solutions/*_solutions.ipynb under {args.root.resolve()}; run this from the course repository "
              f"or pass --root", file=sys.stderr)
        return 2
    try:
        if args.action == "build":
            changed = build(args.root, force=args.force)
            for path in changed:
                print(f"wrote {path}")
            print(f"{len(pairs(args.root))} exercises notebook(s) up to date ({len(changed)} rewritten)")
            extra = orphans(args.root)
            for path in extra:
                print(f"warning: {path} has no solutions notebook; delete it if it is obsolete", file=sys.stderr)
            return 0
        out_of_date = stale(args.root) + orphans(args.root)
    except (MarkerError, LearnerWork) as exc:
        for path in getattr(exc, "written", []):
            print(f"wrote {path}")
        print(f"error: {exc}", file=sys.stderr)
        return 1
    if out_of_date:
        for path in out_of_date:
            print(f"out of date: {path}", file=sys.stderr)
        print("exercises/ does not match solutions/. If you changed solutions/, run `python -m handwritten_agent.course.exercises "
              "build` (or `make exercises`) and commit the result. If you are doing the exercises, this is expected: "
              "check your answers with `make check-exercises`.", file=sys.stderr)
        return 1
    print(f"exercises/ is up to date ({len(pairs(args.root))} notebook(s))")
    return 0


if __name__ == "__main__":
    sys.exit(main())
