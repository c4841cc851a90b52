"""JSON text as models and clients send it: bounded loading, and Chinese words for what is wrong
with it.

A model's arguments and a client's request body are JSON *text* from outside the program. This
module reads it safely (``loads_bounded``: nesting has a limit, the same on every Python version)
and says what is wrong in Chinese: ``describe_json_error`` translates ``json``'s English error
messages (given the error itself, it also reads the text around the error's position), and
``json_type_name`` / ``json_type_zh`` name a value's JSON type (the one table of Chinese type names
the package uses: tool validation errors, the parser's messages, the service's 400s).

Left out: JSON repair (``parsing``), schema validation (``tools``, with ``jsonschema``).
"""

from __future__ import annotations

import json
from typing import Any

JSON_ERRORS_ZH = (
    ("Expecting ',' delimiter", "缺少逗号"),
    ("Expecting ':' delimiter", "缺少冒号"),
    ("Illegal trailing comma", "最后一项后面多了一个逗号"),  # Python 3.13+ wording
    ("Expecting property name", "键名必须用双引号括起来"),
    ("Expecting value", "缺少值或出现了非法的值"),
    ("Unterminated string", "字符串缺少结束的引号"),
    ("Extra data", "JSON 后面还有多余的内容"),
    ("Invalid \\escape", "字符串里有非法的转义符"),
    ("Invalid control character", "字符串里有未转义的控制字符（例如换行）"),
    ("nested too deeply", "嵌套层数太多"),
    ("is not valid JSON", "出现了 NaN 或 Infinity 这类 JSON 不支持的数字"),
)
"""``json`` error messages (English, and worded differently across Python versions) → one Chinese
reason each.
"""


CLOSERS_ZH = {"{": "右花括号", "[": "右方括号"}
"""What closes each container, in Chinese (for "a comma or the closing bracket is missing")."""


def describe_json_error(error: str | json.JSONDecodeError) -> str:
    """The Chinese reason for a ``json`` decoding error.

    Give the ``json.JSONDecodeError`` itself when you have it: its text and position say more than
    its message. After a value, ``json`` reports only "Expecting ',' delimiter", though a closing
    bracket would do as well; with the text it is known which one (``}`` in an object, ``]`` in an
    array), whether the text simply ended there, and whether a "missing value" or "missing key" is
    really a comma before a closing bracket (Python before 3.13 words a trailing comma that way).
    With the message alone (``exc.msg``, or any text containing it) the reason names both brackets.
    """
    if isinstance(error, json.JSONDecodeError):
        return _describe_at(error.msg, error.doc, error.pos)
    return _describe_message(error)


def _describe_message(message: str) -> str:
    reason = next((zh for en, zh in JSON_ERRORS_ZH if en in message), "不是合法的 JSON")
    return "缺少逗号、} 或 ]" if reason == "缺少逗号" else reason


def _describe_at(message: str, doc: str, pos: int) -> str:
    if not doc.strip():
        return "文字是空的，没有 JSON"
    before, after = doc[:pos].rstrip(), doc[pos:].strip()
    if before.endswith(",") and after[:1] in ("}", "]") and _names_missing_item(message):
        return "最后一项后面多了一个逗号"
    reason = _describe_message(message)
    if "Expecting ',' delimiter" in message:
        closer = CLOSERS_ZH.get(_innermost_open(doc, pos) or "")
        reason = f"缺少逗号或{closer}" if closer else reason
    return f"{reason}，文字到这里就结束了" if not after and reason != "不是合法的 JSON" else reason


def _names_missing_item(message: str) -> bool:
    return any(en in message for en in ("Expecting property name", "Expecting value"))


def _innermost_open(text: str, end: int) -> str | None:
    """The ``{`` or ``[`` still open at ``end`` (outside strings), or None."""
    stack: list[str] = []
    in_string = escaped = False
    for ch in text[:end]:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            stack.append(ch)
        elif ch in "]}" and stack:
            stack.pop()
    return stack[-1] if stack else None


MAX_JSON_DEPTH = 200
"""JSON nested deeper than this is refused, the same way on every Python version (``json``'s own
limit is the interpreter's recursion limit: 3.11 fails near 1,000 levels, 3.13 still parses 5,000,
and then ``json.dumps`` of it fails later). No tool call or API request nests anywhere near this."""


def json_depth(text: str) -> int:
    """The deepest ``[``/``{`` nesting outside strings, by one linear scan."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def loads_bounded(text: str | bytes, *, max_depth: int = MAX_JSON_DEPTH, **options: Any) -> Any:
    """``json.loads`` that refuses nesting deeper than ``max_depth`` with a ``ValueError`` instead
    of a ``RecursionError`` (or a value too deep to process later). ``options`` go to
    ``json.loads``."""
    if isinstance(text, (bytes, bytearray)):
        text = text.decode("utf-8")
    if text.count("[") + text.count("{") > max_depth and json_depth(text) > max_depth:
        raise ValueError(f"JSON 嵌套层数太多（超过 {max_depth} 层）")
    try:
        return json.loads(text, **options)
    except RecursionError as exc:
        raise ValueError("JSON 嵌套层数太多") from exc


def json_type_name(value: Any) -> str:
    """The JSON name of a value's type (``null``, ``boolean``, ``integer``, ``number``, ``string``,
    ``array``, ``object``).
    """
    if value is None:
        return "null"
    for python_type, name in (
        (bool, "boolean"),
        (int, "integer"),
        (float, "number"),
        (str, "string"),
        (list, "array"),
        (dict, "object"),
    ):
        if isinstance(value, python_type):
            return name
    return type(value).__name__


JSON_TYPES_ZH = {
    "null": "null",
    "boolean": "布尔值",
    "integer": "整数",
    "number": "数字",
    "string": "字符串",
    "array": "数组",
    "object": "对象",
}
"""The Chinese name of each JSON type (JSON Schema's names as keys)."""


def json_type_zh(value_or_type: Any) -> str:
    """The Chinese name of a JSON type: give a schema type name (``"integer"``) or a value (``3`` →
    整数).
    """
    name = (
        value_or_type
        if isinstance(value_or_type, str) and value_or_type in JSON_TYPES_ZH
        else json_type_name(value_or_type)
    )
    return JSON_TYPES_ZH.get(name, name)


__all__ = [
    "CLOSERS_ZH",
    "JSON_ERRORS_ZH",
    "JSON_TYPES_ZH",
    "MAX_JSON_DEPTH",
    "describe_json_error",
    "json_depth",
    "json_type_name",
    "json_type_zh",
    "loads_bounded",
]
