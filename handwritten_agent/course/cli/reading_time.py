"""How long each day takes, estimated from the notebooks' content, as a sub-command:
``python -m handwritten_agent reading-time [--root PATH]``.

The counting, the rates and their sources are ``course.reading_time``'s; this module only adds the
command to the course's command line.

Left out: anything of its own.
"""

from __future__ import annotations

import argparse
from typing import Any


def _run(args: argparse.Namespace) -> int:
    from ..reading_time import main

    return main(args)


def register(sub: Any) -> None:
    """Add ``reading-time`` to the course's sub-commands."""
    from ..reading_time import add_arguments

    parser = sub.add_parser(
        "reading-time",
        help="按内容估算每天的用时（说明、代码、运行、练习各多少分钟）",
        description=(
            "按 notebook 的内容估算每天的用时：说明的汉字和英文词、要读要运行的代码行、实测的运行"
            "时间、练习要写的代码行，各按一个注明来源的速度折算，合计四舍五入到一刻钟。"
            "这是估算，不是真人计时。"
        ),
    )
    add_arguments(parser)
    parser.set_defaults(func=_run)


__all__ = ["register"]
