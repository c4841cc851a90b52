"""Tools introduced in a prompt's running text: headings, label lines, bold names, list items,
signatures and sentences — every layout but JSON (``toolprompt``), YAML-like blocks and tables
(``toolprompt_blocks``), tags and bullet trees.

Learners and tutorials lay a tool prompt out in many ways, so nothing here knows any one layout. A
tool is introduced by a heading (``### get_weather``), a label line (``工具名称：X`` / ``Tool: X``),
a bold name, a list item (``- get_weather：…``, ``1. get_weather — …``), a signature
(``get_weather(city: str)``, ``def …``, ``function get_weather(city?: string): object;``) or a
sentence (``工具 get_weather：…`` / ``get_weather 工具用于…``). A signature's description and its
parameters' descriptions, allowed values and types may come from the comment lines right above it
(``// …``, a JSDoc block with ``@param {string} city …``) or from the lines under it. Its section
runs to the next tool, the next heading, or the next paragraph of plain prose. In a section the
description comes first; every parameter phrase after it gives a parameter (``toolprompt_words``). A
list item whose text is a type or a required mark, or that sits under a tool's parameter label or
deeper than the tool, is a parameter, not a tool.

Left out: tools described only across several sentences without their name next to a tool word
("第二个工具用来查天气，它的名字是 …"); a heading counts as a tool only when its section has
parameters (or says it has none), since "## Tools" and "## Output" name no tool — or when it is
named like code (snake_case, camelCase) at the level of headings that are tools.
"""

from __future__ import annotations

import re
from typing import Any

from .toolprompt_words import (
    _NOT_PARAMETERS,
    _PARAMS_WORD,
    _TYPE_ONLY,
    IDENT,
    OPTIONAL_MARK,
    REQUIRED_MARK,
    Found,
    Param,
    _first_type,
    json_type,
    parameter_phrases,
)

# --------------------------------------------------------- sections: headings, labels, lists, prose

_LABELS = r"工具名称|工具名|函数名称|函数名|工具|函数|名称|Tool\s*name|Tool|Name|Function"
_TS_RETURN = (
    r"(?:void|any|unknown|object|string|number|boolean|Promise<[^>\n]*>|Record<[^>\n]*>|\w+\[\])"
    r"(?![\w\u4e00-\u9fff])"
)
_COMMENT = re.compile(
    r"^[ \t]*(?P<mark>//+|#(?!#)|--|/\*+|\*(?!\*))[ \t]?(?P<text>.*?)[ \t]*(?:\*/)?[ \t]*$"
)
_JSDOC_PARAM = re.compile(
    r"@param[ \t]+(?:\{(?P<type>[^}]*)\}[ \t]*)?(?P<name>\[?[A-Za-z_]\w*\]?)[ \t]*(?:-["
    r" \t]*)?(?P<text>.*)$"
)
_MENTIONS = [  # (kind, pattern); the group "name" is the tool, "rest" what follows on the line
    (
        "heading",
        re.compile(
            r"^[ \t]*#{1,6}[ \t]*(?:\d+[.)、]["
            r" \t]*)?(?:(?:工具|函数|Tool|Function)(?![A-Za-z0-9_])[ \t]*[:：]?["
            rf" \t]*)?[`*]*(?P<name>{IDENT})[`*]*"
            rf"[ \t]*(?:[(（：:—–-][ \t]*(?P<rest>.*))?$",
            re.M,
        ),
    ),
    (
        "label",
        re.compile(
            rf"^[ \t]*(?:[-*•][ \t]*)?(?:\d+[.)、][ \t]*)?(?:\*\*)?(?:{_LABELS})(?:\*\*)?["
            rf" \t]*[:：][ \t]*[`'\"“*]*(?P<name>{IDENT})"
            rf"[`'\"”*]*[ \t]*(?:$|[（(，,;；。:：—–-][ \t]*(?P<rest>.*)$)",
            re.M | re.I,
        ),
    ),
    (
        "prose",
        re.compile(
            r"(?:^|(?<=[。；;！!]))[ \t]*(?:[-*•][ \t]*|\d+[.)、]["
            rf" \t]*)?(?:工具|函数|tool|function)[ \t]*[`'\"“*]*(?P<name>{IDENT})[`'\"”*]*"
            rf"[ \t]*[：:，,（(—–][ \t]*(?P<rest>.*)$",
            re.M | re.I,
        ),
    ),
    (
        "prose",
        re.compile(
            r"(?:^|(?<=[。；;！!]))[ \t]*(?:[-*•][ \t]*|\d+[.)、]["
            rf" \t]*)?[`'\"“*]*(?P<name>{IDENT})[`'\"”*]*[ \t]*(?:工具|函数)"
            rf"[ \t]*(?:[：:，,（(—–]|用于|用来|可以|能够|负责|的(?:作用|功能|用途)是)["
            rf" \t]*(?P<rest>.*)$",
            re.M,
        ),
    ),
    (
        "bold",
        re.compile(
            rf"^[ \t]*(?:[-*•][ \t]*|\d+[.)、][ \t]*)?\*\*[`]?(?P<name>{IDENT})[`]?\*\*["
            r" \t]*(?:[(（：:—–-][ \t]*(?P<rest>.*))?$",
            re.M,
        ),
    ),
    (
        "signature",
        re.compile(
            r"^[ \t]*(?:[-*•]|\d+[.)、])?[ \t]*`?(?P<def>(?:export[ \t]+)?(?:async["
            rf" \t]+)?(?:def|function|func|fn)[ \t]+)?(?P<name>{IDENT})["
            r" \t]*\((?P<signature>[^()]*)\)`?[ \t]*"
            rf"(?:->[ \t]*[\w\[\], ]+[ \t]*|:[ \t]*{_TS_RETURN}[ \t]*)?(?:;|\{{[ \t]*\}}?)?[ \t]*"
            rf"(?:[:：—–-]+[ \t]*(?P<rest>.*))?$",
            re.M,
        ),
    ),
    (
        "item",
        re.compile(
            rf"^(?P<indent>[ \t]*)(?:[-*•+]|\d+[.)、])[ \t]*[`'\"]?(?P<name>{IDENT})[`'\"]?["
            r" \t]*(?:[:：—–]|[ \t]-[ \t])[ \t]*(?P<rest>\S.*)$",
            re.M,
        ),
    ),
]
_DESCRIPTION_LABEL = re.compile(
    r"^[ \t]*(?:[-*•][ \t]*)?(?:描述|说明|功能|用途|作用|Description|Purpose)[ \t]*[:：]["
    r" \t]*(.*)$",
    re.I | re.M,
)
_NO_PARAMETERS = re.compile(
    r"无参数|不需要参数|没有参数|不需要任何参数|无需参数|参数\s*[:：]\s*(?:无|没有)|no"
    r" (?:parameters|arguments)|takes no",
    re.I,
)
_SIG_PARAM = re.compile(r"^\s*([A-Za-z_]\w*)\s*(\?)?\s*(?:[:：]\s*([^=]*?))?\s*(?:=\s*(.*?))?\s*$")
_RESERVED = {
    "thought",
    "action",
    "action_input",
    "observation",
    "final_answer",
    "tool_name",
    "tool_input",
    "function_call",
}


def _indent(text: str, at: int) -> int:
    line_start = text.rfind("\n", 0, at) + 1
    line = text[line_start:]
    return len(line) - len(line.lstrip(" \t"))


def _mentions(text: str) -> list[tuple[int, int, str, re.Match[str]]]:
    """Every place a tool seems introduced, as (start, end of line, kind, match), earliest first,
    one per line.
    """
    by_line: dict[int, tuple[int, int, str, re.Match[str]]] = {}
    for kind, pattern in _MENTIONS:
        for match in pattern.finditer(text):
            name = match.group("name")
            if (
                name.lower() in _RESERVED
                or name.lower() in _NOT_PARAMETERS
                or name.lower() in _TYPE_ONLY
            ):
                continue
            line_start = text.rfind("\n", 0, match.start("name")) + 1
            if kind == "signature" and _signature_is_parameter(match.group("signature")):
                continue
            if kind == "signature" and not (
                re.match(r"\s*(?:[-*•]|\d+[.)、])", match.group(0))
                or match.group("rest")
                or match.group("def")
                or _typed_signature(match.group("signature"))
            ):
                continue
            if kind == "signature" and line_start in by_line and by_line[line_start][2] == "prose":
                del by_line[
                    line_start
                ]  # "function get_weather(city: string)" is a signature, not a sentence
            if line_start not in by_line:
                line_end = text.find("\n", match.start("name"))
                by_line[line_start] = (
                    line_start,
                    line_end if line_end >= 0 else len(text),
                    kind,
                    match,
                )
    return sorted(by_line.values(), key=lambda item: item[0])


def _typed_signature(signature: str) -> bool:
    """A line that is only ``name(a: str, b?: int)`` (or ``name()``) is a signature even without a
    list marker.
    """
    parts = [part for part in re.split(r",(?![^\[]*\])", signature) if part.strip()]
    return all(re.match(r"\s*[A-Za-z_]\w*\s*\??\s*[:：]\s*\S", part) for part in parts)


def _signature_is_parameter(signature: str) -> bool:
    words = [w.strip().lower() for w in re.split(r"[,，]", signature) if w.strip()]
    return bool(words) and all(
        json_type(w) or OPTIONAL_MARK.search(w) or REQUIRED_MARK.search(w) for w in words
    )


def _signature_params(signature: str) -> list[Param] | None:
    params = []
    for part in filter(str.strip, re.split(r",(?![^\[]*\])", signature)):
        match = _SIG_PARAM.match(part)
        if not match:
            return None
        name, question, type_text, default = match.groups()
        type_text = (type_text or "").strip()
        maybe = type_text.endswith("?") or re.search(
            r"\|\s*(?:None|null|undefined)\b", type_text
        )  # "string?", "int | None"
        bare_type = re.sub(r"\s*\|\s*(?:None|null|undefined)\b|\?$", "", type_text).strip()
        param = Param(name, json_type(bare_type) or "string")
        literal = re.findall(r"[\"']([^\"']+)[\"']", type_text)
        if len(literal) >= 2:
            param.enum = literal
        param.required = not (
            question
            or maybe
            or default is not None
            or re.search(r"optional|None|可选", type_text, re.I)
        )
        params.append(param)
    return params


def section_tools(
    text: str, schemas: list[tuple[int, int, dict[str, Any]]], tables: list[tuple[int, int]] = ()
) -> list[Found]:  # type: ignore[assignment]
    """Tools introduced by headings, label lines, bold names, list items, signatures and sentences.

    ``schemas`` are JSON Schemas found in the text (one inside a section is that tool's parameters);
    ``tables`` are the spans of tables (blanked out of ``text``): one inside a section is its
    parameter part.
    """
    mentions = []
    for mention in _mentions(
        text
    ):  # list items that are parameters of the tool above are not tools
        start, _, kind, match = mention
        rest = (match.groupdict().get("rest") or "").strip()
        previous = mentions[-1][0] if mentions else None
        if kind == "item" and _looks_like_parameter(
            rest, previous, start, text, _indent(text, match.start("name"))
        ):
            continue
        mentions.append(mention)
    found: list[Found] = []
    bare_headings: list[tuple[int, Found]] = []
    lists: dict[
        int, tuple[int, int]
    ] = {}  # id(tool) of a list-item tool -> (list block, indentation)
    list_block = 0
    leads = [
        _leading_comments(text, start) if kind == "signature" else (start, "")
        for start, _, kind, _ in mentions
    ]
    for number, (start, line_end, kind, match) in enumerate(mentions):
        name = match.group("name")
        indent = _indent(text, match.start("name"))
        next_start = leads[number + 1][0] if number + 1 < len(mentions) else len(text)
        end = _section_end(text, line_end, next_start, indent, kind)
        rest = (match.groupdict().get("rest") or "").strip()
        body = text[line_end:end]
        comments = leads[number][1]
        if (
            comments or kind == "signature"
        ):  # "// …" above a signature, or a docstring under it: its description and parameters
            body = _as_parameter_lines(comments + "\n" + _uncomment(body))
        tool = Found(start, name)
        if kind == "signature":
            params = _signature_params(match.group("signature"))
            if params is None:
                continue
            tool.params = params
        description, parameter_text = _split_description(rest, body)
        tool.description = description
        if kind != "signature":
            tool.params, tool.required = parameter_phrases(parameter_text)
        else:
            _merge_described(tool.params, parameter_phrases(parameter_text)[0])
        block = [schema for at, _, schema in schemas if start <= at < end]
        if block and not tool.params:
            tool.schema = block[0]
        has_parameter_part = bool(
            tool.params
            or block
            or any(start <= at < end for at, _ in tables)
            or re.search(rf"(?:^|\n)[ \t]*(?:[-*•][ \t]*)?(?:{_PARAMS_WORD.pattern})", body, re.I)
            or _PARAMS_WORD.search(rest)
        )
        if kind == "heading" and not has_parameter_part:
            # "## Tools", "## Output" name no tool; "## get_current_time" with only a description
            # is one when a sibling heading is a tool (decided below)
            bare_headings.append((_heading_level(text, start), tool))
            continue
        tool.strong = (
            kind != "item" or bool(tool.params) or bool(_NO_PARAMETERS.search(rest + body))
        )
        found.append(tool)
        if kind == "item":
            lists[id(tool)] = (list_block, indent)
        if end < next_start:
            list_block += 1  # prose between this tool and the next: a new list begins after it
    # a tool without parameters in a list of tools with parameters is a tool too, however bare its
    # line
    strong_lists = {lists[id(tool)] for tool in found if id(tool) in lists and tool.strong}
    for tool in found:
        if lists.get(id(tool)) in strong_lists:
            tool.strong = True
    # a heading without parameters at the level of tool headings, named like code, is a tool that
    # takes none ("## get_current_time" beside "## get_weather")
    tool_levels = {_heading_level(text, tool.position) for tool in found} - {0}
    for level, tool in bare_headings:
        if level in tool_levels and _CODE_NAME.fullmatch(tool.name):
            tool.strong = True
            found.append(tool)
    return found


_CODE_NAME = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+|[a-z]+(?:[A-Z][a-z0-9]*)+")
"""snake_case with an underscore or camelCase: a name written as code, never a section title such
as "Tools" or "Output"."""


def _heading_level(text: str, start: int) -> int:
    """How many ``#`` open the line at ``start`` (0: not a Markdown heading)."""
    line = text[start : text.find("\n", start) if "\n" in text[start:] else len(text)]
    marks = re.match(r"[ \t]*(#{1,6})", line)
    return len(marks.group(1)) if marks else 0


def _leading_comments(text: str, start: int) -> tuple[int, str]:
    """The comment lines right above a signature line (``// …``, ``# …``, a JSDoc block): where they
    start, and their text.
    """
    lines: list[tuple[int, str, str]] = []
    position = start
    while position > 0:
        previous = text.rfind("\n", 0, position - 1) + 1
        match = _COMMENT.match(text[previous : position - 1])
        if not match or not text[previous : position - 1].strip():
            break
        lines.insert(0, (previous, match.group("mark"), match.group("text")))
        position = previous
    while lines and lines[0][1] == "*":  # " * …" lines count only inside a "/** … */" block
        lines.pop(0)
    if not lines:
        return start, ""
    return lines[0][0], "\n".join(line for _, _, line in lines if line.strip("/*# "))


def _uncomment(body: str) -> str:
    """A signature's body without comment markers or docstring quotes."""
    out = []
    for line in body.splitlines():
        match = _COMMENT.match(line)
        out.append(match.group("text") if match else line.replace('"""', "").replace("'''", ""))
    return "\n".join(out)


def _as_parameter_lines(text: str) -> str:
    """JSDoc ``@param {string} city 城市`` as the parameter phrase ``city (string)：城市``
    (``[city]`` is optional).
    """

    def phrase(match: re.Match[str]) -> str:
        name = match.group("name")
        optional = name.startswith("[")
        meta = ", ".join(filter(None, [match.group("type") or "", "可选" if optional else ""]))
        return f"{name.strip('[]')}" + (f" ({meta})" if meta else "") + f"：{match.group('text')}"

    return "\n".join(_JSDOC_PARAM.sub(phrase, line) for line in text.splitlines())


def _merge_described(params: list[Param], described: list[Param]) -> None:
    """A signature's parameters completed from the lines that describe them: description, allowed
    values, a required mark.
    """
    by_name = {param.name: param for param in described}
    for param in params:
        words = by_name.get(param.name)
        if words is None:
            continue
        param.description = param.description or words.description
        param.enum = param.enum or words.enum
        if (
            param.type == "string" and words.type != "string"
        ):  # an untyped signature, typed by its docs ("@param {integer} n")
            param.type = words.type
        if words.required is not None:
            param.required = words.required


def _looks_like_parameter(
    rest: str, previous: int | None, start: int, text: str, indent: int
) -> bool:
    """A list item that is a parameter of the tool introduced at ``previous``, not a tool of its
    own.
    """
    meta = re.match(r"\s*[(（]([^)）]*)[)）]", rest)
    if meta and (
        _first_type(meta.group(1))
        or REQUIRED_MARK.search(meta.group(1))
        or OPTIONAL_MARK.search(meta.group(1))
    ):
        return True
    if re.match(
        r"\s*(?:string|str|int|integer|number|float|boolean|bool|array|list|object|字符串|整数|数字"
        r"|布尔)\b",
        rest,
        re.I,
    ):
        return True
    if previous is None:
        return False
    between = text[previous:start]
    return "\n" in between and (
        indent > _indent(text, previous)
        or bool(
            re.search(
                rf"(?:^|\n)[ \t]*(?:[-*•][ \t]*)?(?:{_PARAMS_WORD.pattern})["
                r" \t]*(?:[(（][^)）\n]*[)）])?[ \t]*[:：]?[ \t]*(?:\n|$)",
                between,
                re.I,
            )
        )
    )


def _section_end(text: str, line_end: int, next_start: int, indent: int, kind: str) -> int:
    """Where a tool's section stops: the next tool, a heading, or a paragraph of plain prose after a
    blank line.
    """
    position = line_end
    blank = False
    while position < next_start:
        newline = text.find("\n", position + 1)
        line = text[position + 1 : newline if 0 <= newline < next_start else next_start]
        stripped = line.strip()
        if stripped.startswith("#"):
            return position
        if not stripped:
            blank = True
        elif (
            blank
            and _indent(text, position + 1) <= indent
            and not re.match(r"(?:[-*•+|]|\d+[.)、]|```|[{\[])", stripped)
            and not _DESCRIPTION_LABEL.match(line)
            and not re.match(rf"(?:{_PARAMS_WORD.pattern}|必填参数)", stripped, re.I)
        ):
            return position
        if newline < 0 or newline >= next_start:
            return next_start
        position = newline
    return next_start


def _split_description(rest: str, body: str) -> tuple[str, str]:
    """A tool's description and the text that holds its parameters, from its line's tail and its
    section body.
    """
    label = _DESCRIPTION_LABEL.search(body)
    words = re.search(rf"[。.；;，,]?\s*(?:{_PARAMS_WORD.pattern})(?:[：:\s]|$)", rest, re.I)
    inline, tail = (rest[: words.start()], rest[words.start() :]) if words else (rest, "")
    description = re.sub(
        r"(?:它|并且|还|共)?(?:有|包括|包含|接受|需要)(?:一个|两个|三个|以下|如下)?的?$",
        "",
        inline.strip(" \t:：-—–，,。"),
    ).strip(" ，,")
    if label and not description:
        description = label.group(1).strip()
        body = body[: label.start()] + body[label.end() :]
    if not description:
        first = next((line.strip() for line in body.splitlines() if line.strip()), "")
        if (
            first
            and not re.match(r"(?:[-*•+|]|\d+[.)、]|```|[{\[])", first)
            and not re.match(rf"(?:{_PARAMS_WORD.pattern})\s*[:：(（]", first, re.I)
        ):
            description = first.strip("\"'` ")
            body = body.replace(first, "", 1)
    return description, tail + "\n" + body
