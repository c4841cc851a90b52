"""A calculator tool that never runs the expression as code.

A calculator that calls ``eval`` on model output (a common shortcut in agent tutorials) — even with
``__builtins__`` emptied, that can be escaped (attribute chains reach ``object.__subclasses__()``)
or used to hang the process (``9**9**9**9``). Here the expression is only *parsed* with
``ast.parse`` into a tree, and a small interpreter walks that tree, accepting a whitelist of node
types: numbers, ``+ - * / // % **``, parentheses, unary ``+``/``-``, a few ``math`` functions called
by name, and the constants ``pi``, ``e`` and ``tau``. Everything else (names, attributes, lambdas,
subscripts, strings, comparisons …) is refused before anything is computed. Limits on length, node
count, exponent and the size of every intermediate result keep each call fast and small.

Input is normalised first, so the model (or a learner) may write ``×``, ``÷``, ``^`` for power and
full-width digits and operators (``１２＋３``).

Left out: variables, user-defined functions, big integers beyond 1e100, complex numbers, units.
"""

from __future__ import annotations

import ast
import math
import unicodedata
from collections.abc import Callable
from typing import Any

from ..tools import ToolError, tool

MAX_LENGTH = 200
"""Longest accepted expression, in characters (after normalisation)."""
MAX_NODES = 100
"""Most syntax-tree nodes in one expression; bounds the work and the recursion depth."""
MAX_EXPONENT = 10_000
"""Largest absolute exponent accepted by ``**``."""
MAX_MAGNITUDE = 1e100
"""Largest absolute value of any intermediate or final result."""
SIGNIFICANT_DIGITS = 12
"""Float results are rounded to this many significant digits, so 0.1 + 0.2 gives 0.3."""

_BINARY: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b,
    ast.FloorDiv: lambda a, b: a // b,
    ast.Mod: lambda a, b: a % b,
}

_FUNCTIONS: dict[
    str, tuple[Callable[..., Any], int, int]
] = {  # name -> (function, min args, max args)
    "sqrt": (math.sqrt, 1, 1),
    "abs": (abs, 1, 1),
    "round": (round, 1, 2),
    "sin": (math.sin, 1, 1),
    "cos": (math.cos, 1, 1),
    "tan": (math.tan, 1, 1),
    "asin": (math.asin, 1, 1),
    "acos": (math.acos, 1, 1),
    "atan": (math.atan, 1, 1),
    "log": (math.log, 1, 2),
    "log10": (math.log10, 1, 1),
    "log2": (math.log2, 1, 1),
    "exp": (math.exp, 1, 1),
    "floor": (math.floor, 1, 1),
    "ceil": (math.ceil, 1, 1),
    "degrees": (math.degrees, 1, 1),
    "radians": (math.radians, 1, 1),
    "min": (min, 1, 10),
    "max": (max, 1, 10),
}
_CONSTANTS = {"pi": math.pi, "e": math.e, "tau": math.tau}
_REPLACEMENTS = {"×": "*", "÷": "/", "^": "**", "−": "-", "·": "*", "–": "-", "—": "-"}


def normalize(expression: str) -> str:
    """Full-width characters to ASCII (NFKC), then ×÷^ and dash look-alikes to Python operators."""
    text = unicodedata.normalize("NFKC", expression)
    for old, new in _REPLACEMENTS.items():
        text = text.replace(old, new)
    return text.strip()


def evaluate(expression: str) -> int | float:
    """The value of ``expression``; raises ``ToolError`` with a Chinese message the model can
    relay.
    """
    if (
        len(expression) > MAX_LENGTH
    ):  # checked before any other work, so huge inputs are rejected at once
        raise ToolError(
            f"表达式太长（{len(expression)} 个字符），最多 {MAX_LENGTH} 个字符。请拆成几步计算。"
        )
    text = normalize(expression)
    if not text:
        raise ToolError("表达式为空。请给出要计算的算式，例如：17 * 9")
    if len(text) > MAX_LENGTH:
        raise ToolError(
            f"表达式太长（{len(text)} 个字符），最多 {MAX_LENGTH} 个字符。请拆成几步计算。"
        )
    try:
        tree = ast.parse(text, mode="eval")  # parsing only: nothing is compiled or executed
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        raise ToolError(
            f"无法解析表达式 {text!r}：不是合法的算式。只支持数字、+ - * / // % **、"
            "括号和常用数学函数。"
        ) from exc
    nodes = sum(1 for _ in ast.walk(tree))
    if nodes > MAX_NODES:
        raise ToolError(
            f"表达式太复杂（{nodes} 个语法节点，最多 {MAX_NODES} 个）。请拆成几步计算。"
        )
    try:
        value = _eval(tree.body)
    except ZeroDivisionError as exc:
        raise ToolError(
            f"除数不能为零：{text} 中出现了除以 0（或 0 的负数次幂），无法计算。"
        ) from exc
    except OverflowError as exc:
        raise ToolError(
            "结果太大，超出了计算器的范围（任何一步的绝对值都不能超过 10 的"
            f" {round(math.log10(MAX_MAGNITUDE))} 次方）。"
        ) from exc
    except (ValueError, TypeError) as exc:  # math domain errors such as sqrt(-1) or log(0)
        raise ToolError(
            f"数学上无定义：{text}。例如负数不能开平方、不能开分数次方，0 和负数没有对数。"
        ) from exc
    if isinstance(value, float):
        value = float(f"{value:.{SIGNIFICANT_DIGITS}g}")
    return value


def _eval(node: ast.AST) -> int | float:
    if isinstance(node, ast.Constant):
        if type(node.value) not in (
            int,
            float,
        ):  # bool, str, bytes, complex, None … are not numbers here
            raise ToolError(f"不支持的常量 {node.value!r}：只能使用数字。")
        return _checked(node.value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.UAdd, ast.USub)):
        operand = _eval(node.operand)
        return _checked(-operand if isinstance(node.op, ast.USub) else +operand)
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        return _checked(_BINARY[type(node.op)](_eval(node.left), _eval(node.right)))
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
        return _checked(_power(_eval(node.left), _eval(node.right)))
    if isinstance(node, ast.Name) and node.id in _CONSTANTS:
        return _CONSTANTS[node.id]
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in _FUNCTIONS
        and not node.keywords
    ):
        return _checked(_call(node.func.id, [_eval(arg) for arg in node.args]))
    raise ToolError(_refusal(node))


def _power(base: int | float, exponent: int | float) -> int | float:
    """``base ** exponent`` after checking, without computing it, that the result stays in range."""
    if abs(exponent) > MAX_EXPONENT:
        raise ToolError(f"指数 {exponent} 太大，指数的绝对值最多为 {MAX_EXPONENT}。")
    if base == 0 and exponent < 0:
        raise ZeroDivisionError("0 的负数次幂")
    if base != 0 and exponent * math.log10(abs(base)) > math.log10(MAX_MAGNITUDE):
        raise OverflowError("乘方的结果太大")
    if base < 0 and not float(exponent).is_integer():
        raise ValueError("负数的分数次幂不是实数")
    return base**exponent


def _call(name: str, args: list[int | float]) -> int | float:
    function, least, most = _FUNCTIONS[name]
    if not least <= len(args) <= most:
        count = str(least) if least == most else f"{least} 到 {most}"
        raise ToolError(f"函数 {name} 需要 {count} 个参数，收到了 {len(args)} 个。")
    if name == "round" and len(args) == 2 and (not isinstance(args[1], int) or abs(args[1]) > 15):
        raise ToolError(
            "round 的第二个参数是保留的小数位数，必须是 -15 到 15 之间的整数，"
            "例如：round(3.14159, 2)"
        )
    return function(*args)


def _checked(value: Any) -> int | float:
    if isinstance(value, complex):
        raise ValueError("结果不是实数")
    if isinstance(value, float) and math.isnan(value):
        raise ValueError("结果不是数字")
    if abs(value) > MAX_MAGNITUDE:
        raise OverflowError("中间结果太大")
    return value


def _refusal(node: ast.AST) -> str:
    allowed = "数字、+ - * / // % **、括号、函数 " + "、".join(_FUNCTIONS) + "、常量 pi、e、tau"
    if isinstance(node, ast.Name):
        return f"不认识的名称 {node.id!r}。只支持：{allowed}。"
    if isinstance(node, ast.Call):
        called = node.func.id if isinstance(node.func, ast.Name) else ast.unparse(node.func)[:40]
        return f"不支持调用 {called!r}。只支持：{allowed}（函数不能用关键字参数）。"
    return f"不支持的语法（{type(node).__name__}）。只支持：{allowed}。"


@tool(timeout=2.0)
def calculator(expression: str) -> int | float:
    """计算一个数学表达式并返回数值结果，例如“17 乘以 9 等于多少”时计算 17 * 9。
    支持 + - * / // % **（乘方）和括号，以及 sqrt、abs、round、sin、cos、log 等函数和常量 pi、e。

    Args:
        expression: 要计算的算式，只含数字、运算符和函数，
            例如：17 * 9、(3 + 5) / 2、sqrt(2)、100 * 7.2
    """
    return evaluate(expression)
