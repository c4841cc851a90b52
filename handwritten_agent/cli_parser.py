"""An ``argparse`` parser whose help and errors are Chinese: the course's command line speaks one
language.

``argparse`` writes its own words in English: ``usage:``, ``positional arguments``, ``options``,
``show this help message and exit`` and error messages such as ``the following arguments are
required``. ``ChineseParser`` is an ``ArgumentParser`` that writes them in Chinese; sub-commands
made with ``add_subparsers`` are ``ChineseParser`` too (argparse builds them with the parent's
class). Option names, choices and metavars stay as they are: they are what the user types.

Left out: argparse's rarer messages (a conflicting option string, a version action) keep their
English wording behind the Chinese prefix; translating every message of every Python version is not
worth it.
"""

from __future__ import annotations

import argparse
import re
import sys
from typing import Any, NoReturn

USAGE = "用法："
POSITIONALS = "位置参数"
OPTIONS = "选项"
HELP = "显示这段帮助并退出"

_TYPE_NAMES = {"int": "整数", "float": "数", "Path": "路径", "str": "文字"}

# argparse's error messages (3.10–3.13 wordings) -> Chinese; each pattern is tried on the whole
# message in turn.
_ERRORS: list[tuple[re.Pattern[str], Any]] = [
    (
        re.compile(r"^the following arguments are required: (.+)$"),
        lambda m: f"缺少必填的参数：{m[1]}",
    ),
    (
        re.compile(r"^one of the arguments (.+) is required$"),
        lambda m: f"下面的参数必须给一个：{m[1]}",
    ),
    (re.compile(r"^unrecognized arguments: (.+)$"), lambda m: f"不认识的参数：{m[1]}"),
    (
        re.compile(r"^ambiguous option: (\S+) could match (.+)$"),
        lambda m: f"选项 {m[1]} 有歧义，可能是：{m[2]}",
    ),
    (
        re.compile(r"^argument (.+?): invalid choice: (.+?) \(choose from (.+)\)$"),
        lambda m: f"参数 {m[1]}：{m[2]} 不是可选的值（可选：{m[3]}）",
    ),
    (
        re.compile(r"^argument (.+?): invalid (\w+) value: (.+)$"),
        lambda m: f"参数 {m[1]}：{m[3]} 不是合法的{_TYPE_NAMES.get(m[2], m[2])}",
    ),
    (
        re.compile(r"^argument (.+?): expected one argument$"),
        lambda m: f"参数 {m[1]} 后面要跟一个值",
    ),
    (
        re.compile(r"^argument (.+?): expected at least one argument$"),
        lambda m: f"参数 {m[1]} 后面至少要跟一个值",
    ),
    (
        re.compile(r"^argument (.+?): expected at most one argument$"),
        lambda m: f"参数 {m[1]} 后面最多跟一个值",
    ),
    (
        re.compile(r"^argument (.+?): ignored explicit argument (.+)$"),
        lambda m: f"参数 {m[1]} 不接受值（收到 {m[2]}）",
    ),
    (
        re.compile(r"^argument (.+?): not allowed with argument (.+)$"),
        lambda m: f"参数 {m[1]} 不能和 {m[2]} 一起用",
    ),
]


def chinese_error(message: str) -> str:
    """argparse's English error message in Chinese (unknown ones are returned unchanged)."""
    for pattern, translate in _ERRORS:
        match = pattern.match(message)
        if match:
            return translate(match)
    return message


_HEADING = re.compile(
    r"(?m)^(\S[^\n]*[\u4e00-\u9fff]):$"
)  # a section heading argparse ended with an ASCII colon


class ChineseHelpFormatter(argparse.HelpFormatter):
    """The default formatter with a Chinese ``用法：`` line and full-width colons after Chinese
    headings.
    """

    def add_usage(
        self, usage: str | None, actions: Any, groups: Any, prefix: str | None = None
    ) -> None:
        super().add_usage(usage, actions, groups, USAGE if prefix is None else prefix)

    def format_help(self) -> str:
        return _HEADING.sub(r"\1：", super().format_help())


class ChineseParser(argparse.ArgumentParser):
    """``argparse.ArgumentParser`` with Chinese section titles, ``-h`` help, usage line and error
    messages.
    """

    def __init__(self, *args: Any, add_help: bool = True, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", ChineseHelpFormatter)
        super().__init__(*args, add_help=False, **kwargs)
        self._positionals.title = POSITIONALS
        self._optionals.title = OPTIONS
        self.add_help = add_help
        if add_help:
            prefix = self.prefix_chars[0]
            self.add_argument(
                f"{prefix}h",
                f"{prefix * 2}help",
                action="help",
                default=argparse.SUPPRESS,
                help=HELP,
            )

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}：错误：{chinese_error(message)}\n")


__all__ = ["ChineseHelpFormatter", "ChineseParser", "chinese_error"]
