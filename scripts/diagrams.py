"""The course's pictures, drawn as hand-written SVG: ``python scripts/diagrams.py`` writes them to
notebooks/images/.

One module per day in ``scripts/pictures/`` (``day1.py``, ``day3.py``, …), each with a ``PICTURES``
dict of file name → function returning SVG text, over the primitives in ``pictures/svg.py``.
``--check`` exits 1 when a committed picture differs from what the script draws (the tests run it).

Left out: data pictures (plots of a run's measurements): notebooks draw those with matplotlib from
their own outputs.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import pictures  # noqa: E402  (the folder next to this script)

OUT = Path(__file__).resolve().parents[1] / "notebooks" / "images"


def all_pictures() -> dict:
    """Every day's ``PICTURES``, merged; a name drawn twice is a mistake."""
    found: dict = {}
    for module in sorted(
        m.name for m in pkgutil.iter_modules(pictures.__path__) if m.name.startswith("day")
    ):
        for name, draw in importlib.import_module(f"pictures.{module}").PICTURES.items():
            if name in found:
                raise SystemExit(f"{name} is drawn twice")
            found[name] = draw
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="写出（或检查）notebooks/images/ 里课程的 SVG 图。"
    )
    parser.add_argument(
        "--check", action="store_true", help="已提交的图和脚本画出的不一样时，退出码为 1"
    )
    args = parser.parse_args(argv)
    stale = []
    for name, draw in all_pictures().items():
        path, svg = OUT / name, draw()
        if args.check:
            if not path.is_file() or path.read_text(encoding="utf-8") != svg:
                stale.append(name)
        else:
            OUT.mkdir(parents=True, exist_ok=True)
            path.write_text(svg, encoding="utf-8")
            print(f"已写入 {path.relative_to(OUT.parents[1])}")
    if stale:
        print(
            "这些图片和 scripts/diagrams.py 画出的不一致，请运行 python scripts/diagrams.py："
            + "、".join(stale)
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
