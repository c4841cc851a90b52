"""Tools in nested bullet lists whose items hold one fact each: a bare tool name, then its facts one
level down.

    - get_weather
      - 描述：查询某个城市的天气
      - 参数：
        - city
          - 类型：string
          - 必填：是
        - date（字符串，可选）：日期，可选值：today、tomorrow

A bare name (``get_weather``, `` `get_weather` ``, ``**get_weather**``) with a description or a
parameter label under it is a tool; under the parameter label, a bare name with labelled facts (类型
/type, 必填/required,说明/description, 可选值/enum …) is a parameter, and any other item is read as
a parameter phrase (``toolprompt_words``). ``tree_tools`` returns the tools and the spans of their
lists, so the other readers skip that text.

Unlike ``toolprompt_layouts`` (a tool on a line of its own with the rest of its line or section as
text), this reads the list's nesting. Left out: a tree whose tool line also carries its description
(``- get_weather：…`` with facts under it is read by ``toolprompt_layouts``) and facts written as
continuation lines without a marker.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .toolprompt_words import (
    _NOT_PARAMETERS,
    _PARAM_IDENT,
    _TYPE_ONLY,
    IDENT,
    OPTIONAL_MARK,
    REQUIRED_MARK,
    Found,
    Param,
    enum_in,
    json_type,
    parameter_phrases,
)

_ITEM = re.compile(r"^(?P<indent>[ \t]*)(?:[-*•+]|\d+[.)、])[ \t]+(?P<text>\S.*?)[ \t]*$")
_BARE = re.compile(rf"^(?:\*\*)?`?(?P<name>{IDENT})`?(?:\*\*)?[ \t]*[:：]?$")
_LABEL = re.compile(r"^(?:\*\*)?(?P<label>[^:：*`]{1,16}?)(?:\*\*)?[ \t]*[:：][ \t]*(?P<value>.*)$")
_DESCRIPTION_WORDS = re.compile(
    r"^(?:描述|说明|功能|用途|作用|含义|简介|description|desc|purpose|summary)$", re.I
)
_PARAMETER_WORDS = re.compile(
    r"^(?:(?:输入)?参数(?:列表|说明)?|parameters|params|arguments|args|inputs?)$", re.I
)
_TYPE_WORDS = re.compile(r"^(?:类型|参数类型|type)$", re.I)
_REQUIRED_WORDS = re.compile(r"^(?:必填|是否必填|必需|是否必需|必须|required)$", re.I)
_OPTIONAL_WORDS = re.compile(r"^(?:可选|是否可选|optional)$", re.I)
_ENUM_WORDS = re.compile(
    r"^(?:可选值|取值|取值范围|枚举|枚举值|允许的值|enum|values|allowed values|options|choices)$",
    re.I,
)
_YES = re.compile(r"^(?:是|是的|yes|y|true|✓|✔|√|✅|必填|必需|required)[。.]?$", re.I)
_NO = re.compile(r"^(?:否|不是|no|n|false|✗|✘|×|❌|可选|选填|optional|非必填)[。.]?$", re.I)
_NOTHING = re.compile(r"^\s*[（(]?\s*(?:无|没有|不需要|none|n/a|-|—|/)\s*[)）]?\s*[。.]?\s*$", re.I)


@dataclass
class _Node:
    indent: int
    text: str
    start: int  # offset of the line
    end: int  # offset after the line
    children: list[_Node] = field(default_factory=list)

    @property
    def last(self) -> int:
        return self.children[-1].last if self.children else self.end


def _forest(text: str) -> list[_Node]:
    """The bullet items of ``text`` as trees by indentation; a line that is not an item ends the
    lists above it.
    """
    roots: list[_Node] = []
    stack: list[_Node] = []
    position = 0
    for line in text.splitlines(keepends=True):
        match = _ITEM.match(line.rstrip("\n"))
        if match:
            node = _Node(
                len(match.group("indent").expandtabs(4)),
                match.group("text"),
                position,
                position + len(line),
            )
            while stack and stack[-1].indent >= node.indent:
                stack.pop()
            (stack[-1].children if stack else roots).append(node)
            stack.append(node)
        elif line.strip():
            stack.clear()
        position += len(line)
    return roots


def _bare_name(node: _Node) -> str | None:
    match = _BARE.match(node.text)
    name = match.group("name") if match else None
    if not name or name.lower() in _NOT_PARAMETERS or name.lower() in _TYPE_ONLY:
        return None
    return name


def _labelled(node: _Node) -> tuple[str, str] | None:
    match = _LABEL.match(node.text)
    return (match.group("label").strip(), match.group("value").strip()) if match else None


def _parameter(name: str, facts: list[_Node]) -> Param:
    """A parameter from a bare name and its labelled facts one level down."""
    param = Param(name)
    for fact in facts:
        pair = _labelled(fact)
        if not pair:
            continue
        label, value = pair
        if _TYPE_WORDS.match(label):
            param.type = json_type(value.split()[0] if value else "") or param.type
        elif _REQUIRED_WORDS.match(label):
            param.required = (
                True if _YES.match(value) else False if _NO.match(value) else param.required
            )
        elif _OPTIONAL_WORDS.match(label):
            param.required = (
                False if _YES.match(value) else True if _NO.match(value) else param.required
            )
        elif _ENUM_WORDS.match(label):
            param.enum = enum_in(f"可选值：{value}") or param.enum
        elif _DESCRIPTION_WORDS.match(label):
            param.description = value
            if param.required is None:
                param.required = (
                    True
                    if REQUIRED_MARK.search(value[:12])
                    else False
                    if OPTIONAL_MARK.search(value[:12])
                    else None
                )
            param.enum = param.enum or enum_in(value)
    return param


def _parameters(items: list[_Node]) -> list[Param]:
    params: list[Param] = []
    for item in items:
        name = _bare_name(item)
        if name and item.children and re.fullmatch(_PARAM_IDENT, name):
            params.append(_parameter(name, item.children))
        elif not _NOTHING.match(item.text):
            params.extend(parameter_phrases("- " + item.text)[0])
    return params


def _tool(node: _Node) -> tuple[Found, bool] | None:
    """A tool from a bare-name item whose children say what it does or what it takes; and whether
    they name its parameters.
    """
    name = _bare_name(node)
    if not name or not node.children:
        return None
    tool = Found(node.start, name)
    described = has_parameters = False
    for child in node.children:
        pair = _labelled(child)
        if pair and _DESCRIPTION_WORDS.match(pair[0]):
            tool.description, described = pair[1], True
        elif pair and _PARAMETER_WORDS.match(pair[0]):
            has_parameters = True
            if pair[1] and not _NOTHING.match(pair[1]):
                tool.params.extend(parameter_phrases(pair[1])[0])
            tool.params.extend(_parameters(child.children))
        elif re.match(r"[`*]*[A-Za-z_]", child.text) and (
            child.children or re.search(r"[(（:：]", child.text)
        ):
            found = _parameters(
                [child]
            )  # a parameter right under the tool, without a label above it
            tool.params.extend(found)
            has_parameters = has_parameters or bool(found)
    return (tool, has_parameters) if described or has_parameters else None


def tree_tools(text: str) -> tuple[list[Found], list[tuple[int, int]]]:
    """Tools in nested bullet lists (see the module docstring), and the spans of the items that hold
    them.

    A bare name with only a description under it ("- style / - 描述：正式") is a tool only in a list
    where another tool names its parameters: many prompts nest their rules the same way.
    """
    found: list[Found] = []
    spans: list[tuple[int, int]] = []

    def visit(nodes: list[_Node], depth: int) -> None:
        candidates = [(node, _tool(node)) for node in nodes]
        if any(tool and tool[1] for _, tool in candidates):
            for node, tool in candidates:
                if tool:
                    found.append(tool[0])
                    spans.append((node.start, node.last))
        for node, tool in candidates:
            if not tool and depth < 3:
                visit(node.children, depth + 1)

    visit(_forest(text), 0)
    return found, spans
