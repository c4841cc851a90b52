"""``python -m handwritten_agent …``: the course's command line.

The command line itself lives in ``course/cli``. It is found through the ``handwritten_agent.cli``
entry point that ``pyproject.toml`` declares (the same way ``connect()`` finds the course's own
server), so nothing in the teaching code imports ``course/``.

Left out: every command (``course.cli``).
"""

from __future__ import annotations

import sys
from importlib.metadata import entry_points

CLI_GROUP = "handwritten_agent.cli"


def main(argv: list[str] | None = None) -> int:
    """Run the command line registered as ``course`` in the ``handwritten_agent.cli`` group."""
    found = [point for point in entry_points(group=CLI_GROUP) if point.name == "course"]
    if not found:
        print(
            f"找不到课程的命令行（入口点 {CLI_GROUP}:course）。"
            "请在项目目录里用 pip install -e . 安装（make install 会做这一步）。",
            file=sys.stderr,
        )
        return 2
    return found[0].load()(argv)


if __name__ == "__main__":
    sys.exit(main())
