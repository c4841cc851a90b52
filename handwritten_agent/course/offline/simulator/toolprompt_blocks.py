"""Tools in the two block layouts of a prompt's text: YAML-like blocks and pipe tables.

- ``yaml_tools``: indentation blocks of ``key: value`` lines (``- name: get_weather`` /
  ``get_weather:``, with ``description`` and ``parameters`` as a mapping of parameters or as a
  JSON-Schema ``properties``);
- ``table_tools``: pipe tables, each column known by its header (工具/参数/类型/必填/说明/可选值 …),
  as a table of tools, of parameters of the tool named in its caption or above it, or both at once.

Each returns the tools it read and the spans it consumed, so the other readers skip that text.
Left out: YAML anchors, multi-line scalars and quoting rules beyond plain quotes; HTML tables.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .toolprompt_words import (
    _NOT_PARAMETERS,
    _PARAM_IDENT,
    _TYPE_ONLY,
    IDENT,
    Found,
    Param,
    enum_in,
    inline_parameters,
    json_type,
    read_meta,
)

_TRUE_CELL = re.compile(
    r"^(?:是|yes|y|true|✓|✔|√|✅|☑|☑️|✔️|必填|必需|必须|必选|required|是的|需要)$", re.I
)
_FALSE_CELL = re.compile(
    r"^(?:否|no|n|false|✗|✘|×|❌|✖|✖️|可选|选填|optional|非必填|不是|不需要|-|—|–)$", re.I
)
_NOTHING = re.compile(
    r"^\s*[（(]?\s*(?:无|没有|不需要|none|n/a|-|—|–|/)\s*[)）]?\s*[。.]?\s*$", re.I
)

# ------------------------------------------------------------------------------ YAML-like blocks

_YAML_LINE = re.compile(
    r"^(?P<indent>[ \t]*)(?P<dash>-[ \t]+)?(?P<key>[A-Za-z_\u4e00-\u9fff][\w\u4e00-\u9fff .\-]*?)["
    r" \t]*:(?:[ \t]+(?P<value>.*?))?[ \t]*$"
)
_YAML_ITEM = re.compile(r"^(?P<indent>[ \t]*)-[ \t]+(?P<value>.*?)[ \t]*$")


def _scalar(text: str | None) -> Any:
    if text is None or text == "":
        return None
    text = text.strip()
    if text.startswith("[") and text.endswith("]"):
        return [_scalar(part) for part in re.split(r"\s*,\s*", text[1:-1].strip()) if part]
    if text.startswith("{") and text.endswith(
        "}"
    ):  # a flow mapping: {type: string, enum: [a, b], description: …}
        pairs = re.split(
            r"\s*,\s*(?=[A-Za-z_\u4e00-\u9fff][\w\u4e00-\u9fff]*\s*:(?:\s|$))", text[1:-1].strip()
        )
        mapping = {}
        for pair in pairs:
            key, colon, value = pair.partition(":")
            if not colon or not key.strip():
                return text
            mapping[key.strip().strip("'\"")] = _scalar(value.strip())
        return mapping
    if (text[0] in "'\"") and text[-1] == text[0] and len(text) > 1:
        return text[1:-1]
    lowered = text.lower()
    if lowered in ("true", "yes"):
        return True
    if lowered in ("false", "no"):
        return False
    return text


def _parse_yaml(lines: list[str]) -> Any:
    """A small YAML subset: mappings and lists by indentation, flow lists, quoted and bare
    scalars.
    """

    def block(index: int, indent: int) -> tuple[Any, int]:
        result: Any = None
        while index < len(lines):
            line = lines[index]
            if not line.strip() or line.strip().startswith("#"):
                index += 1
                continue
            current = len(line) - len(line.lstrip())
            if current < indent:
                break
            match = _YAML_LINE.match(line)
            item = _YAML_ITEM.match(line)
            if item and (not match or match.group("dash")):
                if result is None:
                    result = []
                if not isinstance(result, list):
                    break
                inner_indent = current + len(line.lstrip()) - len(line.lstrip()[1:].lstrip())
                if match:  # "- key: value" opens a mapping inside the list
                    lines[index] = " " * inner_indent + line.lstrip()[1:].lstrip()
                    value, index = block(index, inner_indent)
                    result.append(value)
                else:
                    result.append(_scalar(item.group("value")))
                    index += 1
                continue
            if not match:
                break
            if result is None:
                result = {}
            if not isinstance(result, dict):
                break
            key, value = match.group("key").strip(), match.group("value")
            index += 1
            if value in (None, "", "|", ">"):
                following = next(
                    (lines[i] for i in range(index, len(lines)) if lines[i].strip()), ""
                )
                same_level_list = (
                    following.lstrip().startswith("- ")
                    and len(following) - len(following.lstrip()) == current
                )
                nested, index = block(
                    index, current if same_level_list else current + 1
                )  # "key:" then "- item" at its level
                result[key] = nested
            else:
                result[key] = _scalar(value)
        return result, index

    value, _ = block(0, 0)
    return value


_YAML_START = re.compile(
    r"^(?P<indent>[ \t]*)(?:-[ \t]+)?(?:name|tool|function|tool_name|工具名称|工具名|名称)[ \t]*:["
    rf" \t]*[`'\"]?{IDENT}[`'\"]?[ \t]*$"
    rf"|^(?P<indent2>[ \t]*)(?:-[ \t]+)?[`'\"]?{IDENT}[`'\"]?[ \t]*:[ \t]*$",
    re.M | re.I,
)


def _yaml_params(value: Any) -> tuple[list[Param], list[str] | None]:
    """Parameters from a parsed ``parameters`` value: a mapping name → properties, a list of ``-
    name: …`` items, or a JSON-Schema-like ``{properties, required}``."""
    required = None
    if isinstance(value, dict) and ("properties" in value or value.get("type") == "object"):
        required = (
            [str(v) for v in value.get("required") or []]
            if isinstance(value.get("required"), list)
            else []
        )
        value = value.get("properties") or {}
    entries: list[tuple[str, Any]] = []
    if isinstance(value, dict):
        entries = [(str(k), v) for k, v in value.items()]
    elif isinstance(value, list):
        entries = [(str(v.get("name")), v) for v in value if isinstance(v, dict) and v.get("name")]
    params = []
    for name, props in entries:
        if not re.fullmatch(_PARAM_IDENT, name):
            continue
        param = Param(name)
        if isinstance(props, dict):
            type_word = str(props.get("type") or props.get("类型") or "")
            param.type = json_type(type_word) or "string"
            description = str(
                props.get("description")
                or props.get("desc")
                or props.get("描述")
                or props.get("说明")
                or ""
            )
            flag = props.get("required", props.get("必填"))
            if isinstance(flag, bool):
                param.required = flag
            elif flag is not None:
                param.required = bool(_TRUE_CELL.match(str(flag).strip()))
            elif props.get("optional") is True:
                param.required = False
            enum = props.get("enum") or props.get("可选值") or props.get("values")
            param.enum = (
                [str(v) for v in enum]
                if isinstance(enum, list)
                else enum_in(f"可选值：{enum}")
                if enum
                else None
            )
            read_meta(param, "", description) if not type_word else None
            param.description = description
            if param.enum is None:
                param.enum = enum_in(description)
        elif isinstance(props, str):
            read_meta(param, "", props)
        params.append(param)
    return params, required


def yaml_tools(text: str) -> tuple[list[Found], list[tuple[int, int]]]:
    """Tools in YAML-like blocks, and the spans those blocks cover."""
    found: list[Found] = []
    spans: list[tuple[int, int]] = []
    lines = text.splitlines(keepends=True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))
    index = 0
    while index < len(lines):
        match = _YAML_START.match(lines[index].rstrip("\n"))
        if not match:
            index += 1
            continue
        base = len(lines[index]) - len(lines[index].lstrip())
        end = index + 1
        while end < len(lines) and (
            not lines[end].strip()
            or len(lines[end]) - len(lines[end].lstrip()) > base
            or (
                lines[end].lstrip().startswith("- ")
                and len(lines[end]) - len(lines[end].lstrip()) == base
                and _YAML_LINE.match(lines[end].rstrip("\n"))
            )
        ):
            if not lines[end].strip() and (
                end + 1 >= len(lines)
                or len(lines[end + 1]) - len(lines[end + 1].lstrip()) <= base
                and not lines[end + 1].lstrip().startswith("- ")
            ):
                break
            end += 1
        chunk = [
            (
                line.rstrip("\n")[base:]
                if len(line) - len(line.lstrip()) >= base
                else line.rstrip("\n")
            )
            for line in lines[index:end]
        ]
        tools = _tools_in_yaml(_parse_yaml(chunk))
        for tool in tools:
            found.append(Found(offsets[index], **tool))
        if tools:
            spans.append((offsets[index], offsets[end]))
        index = max(
            end, index + 1
        )  # the whole block was read: a later line of it starts nothing new
    return found, spans


_NAME_KEYS = ("name", "tool", "function", "tool_name", "工具名称", "工具名", "名称")
_PARAMETER_KEYS = ("parameters", "params", "arguments", "args", "参数", "input_schema")
_DESCRIPTION_KEYS = ("description", "desc", "描述", "说明", "用途", "功能")


def _yaml_tool(name: Any, props: dict[str, Any]) -> dict[str, Any] | None:
    description = next((props[k] for k in _DESCRIPTION_KEYS if props.get(k)), "")
    has_parameters = any(k in props for k in _PARAMETER_KEYS)
    if (
        not isinstance(name, str)
        or not re.fullmatch(IDENT, name.strip())
        or not (description or has_parameters)
    ):
        return None
    params, required = _yaml_params(next((props[k] for k in _PARAMETER_KEYS if k in props), None))
    if isinstance(props.get("required"), list):
        required = [str(v) for v in props["required"]]
    return {
        "name": name.strip(),
        "description": str(description),
        "params": params,
        "required": required,
    }


def _tools_in_yaml(value: Any, depth: int = 0) -> list[dict[str, Any]]:
    """Tool-like mappings anywhere in a parsed block: ``- name: x`` items with a description or
    parameters, or ``x:`` keys whose value has them (``tools:`` wrappers and headings like ``可用工
    具:`` are looked through).
    """
    if depth > 4:
        return []
    tools: list[dict[str, Any]] = []
    if isinstance(value, list):
        for item in value:
            if isinstance(item, dict):
                name = next((item[k] for k in _NAME_KEYS if isinstance(item.get(k), str)), None)
                tool = _yaml_tool(name, item) if name else None
                tools += [tool] if tool else _tools_in_yaml(item, depth + 1)
    elif isinstance(value, dict):
        name = next((value[k] for k in _NAME_KEYS if isinstance(value.get(k), str)), None)
        tool = _yaml_tool(name, value) if name else None
        if tool:
            return [tool]
        for key, inner in value.items():
            tool = (
                _yaml_tool(key, inner)
                if isinstance(inner, dict) and key not in _PARAMETER_KEYS
                else None
            )
            tools += (
                [tool]
                if tool
                else _tools_in_yaml(inner, depth + 1)
                if isinstance(inner, (list, dict))
                else []
            )
    return tools


# ------------------------------------------------------------------------------ tables

_TABLE_ROW = re.compile(r"^[ \t]*\|?(.+\|.+?)\|?[ \t]*$")
_RULE_ROW = re.compile(r"^[ \t]*\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)+\|?[ \t]*$")
_COLUMNS = [  # (kind, header words), checked in this order for each header cell
    (
        "tool_description",
        r"(?:工具|函数|tool|function)\s*(?:的)?\s*(?:描述|说明|用途|功能|作用"
        r"|description|desc|purpose)",
    ),
    (
        "description",
        r"(?:参数|param(?:eter)?|argument|arg|字段)\s*(?:的)?\s*(?:描述|说明|用途|含义|作用"
        r"|description|desc)",
    ),
    ("required", r"是否必填|必填|必需|必须|必选|required|mandatory"),
    ("optional", r"^(?:是否)?可选$|^optional$"),
    ("enum", r"可选值|取值|枚举|允许|enum|allowed|values|options|choices"),
    ("type", r"类型|type"),
    ("tool", r"工具|函数|tool|function"),
    ("param", r"参数名|参数名称|字段|^param(?:eter)?(?:\s*name)?$|^argument$|^arg$"),
    ("params", r"参数|parameters|params|arguments|args|inputs?|schema"),
    ("description", r"描述|说明|用途|功能|作用|含义|description|desc|purpose|usage"),
    ("name", r"名称|名字|name"),
]
_NAMES_CELL = re.compile(
    rf"^\[?\s*[`'\"]?{_PARAM_IDENT}[`'\"]?(?:\s*[、,，/]\s*[`'\"]?{_PARAM_IDENT}[`'\"]?)*\s*\]?$"
)


def _cells(line: str) -> list[str]:
    inner = line.strip()
    inner = inner[1:] if inner.startswith("|") else inner
    inner = inner[:-1] if inner.endswith("|") else inner
    return [
        re.sub(r"^[`*'\"]+|[`*'\"]+$", "", cell.strip()).strip()
        for cell in re.split(r"(?<!\\)\|", inner)
    ]


def _column_kinds(header: list[str]) -> list[str | None]:
    kinds: list[str | None] = []
    for cell in header:
        kind = next(
            (k for k, words in _COLUMNS if re.search(words, cell, re.I) and k not in kinds), None
        )
        kinds.append(kind)
    return kinds


def table_tools(
    text: str,
    context: list[tuple[int, str]],
    json_values: list[tuple[int, int, Any]] = (),  # type: ignore[assignment]
) -> tuple[list[Found], list[tuple[int, int]], dict[str, list[Param]]]:
    """Tools in pipe tables; parameters of tables that only list parameters go to the tool named
    just before the table (``context``: positions of tool names found elsewhere). ``json_values``
    are the JSON values of the text (blanked out of it), so a row whose cell holds a tool's JSON
    Schema gets it. Returns tools, spans, and those parameters."""
    found: list[Found] = []
    spans: list[tuple[int, int]] = []
    extra: dict[str, list[Param]] = {}
    lines = text.splitlines(keepends=True)
    position = 0
    index = 0
    while index < len(lines):
        line = lines[index]
        if index + 1 < len(lines) and _TABLE_ROW.match(line) and _RULE_ROW.match(lines[index + 1]):
            start = position
            index_of_header = index
            header = _cells(line)
            rows = []
            position += len(line) + len(lines[index + 1])
            index += 2
            while index < len(lines) and _TABLE_ROW.match(lines[index]) and "|" in lines[index]:
                rows.append(_Row(_cells(lines[index]), position, position + len(lines[index])))
                position += len(lines[index])
                index += 1
            tools, params = _read_table(header, rows, json_values)
            if tools or params:
                spans.append((start, position))
            found.extend(tools)
            if params and not tools:
                caption = "\n".join(lines[max(0, index_of_header - 2) : index_of_header])
                named = [
                    name
                    for _, name in context
                    if re.search(rf"(?<![\w.\-]){re.escape(name)}(?![\w\-])", caption)
                ]
                earlier = [(at, name) for at, name in context if at < start]
                owner = (
                    named[-1]
                    if named
                    else (
                        max(earlier)[1]
                        if earlier and sum(at == max(earlier)[0] for at, _ in earlier) == 1
                        else None
                    )
                )
                if owner:
                    extra.setdefault(owner, []).extend(params)
            continue
        position += len(line)
        index += 1
    return found, spans, extra


@dataclass
class _Row:
    cells: list[str]
    start: int
    end: int


def _schema_in(value: Any) -> dict[str, Any] | None:
    """A JSON value in a table cell as a parameters schema: a schema with ``properties``, or the
    properties alone.
    """
    if not isinstance(value, dict):
        return None
    if isinstance(value.get("properties"), dict):
        return {"type": "object", **value}
    if value and all(
        isinstance(v, dict) and ("type" in v or "description" in v or "enum" in v)
        for v in value.values()
    ):
        return {"type": "object", "properties": value}
    return {"type": "object", "properties": {}} if not value else None


def _read_table(
    header: list[str], rows: list[_Row], json_values: list[tuple[int, int, Any]]
) -> tuple[list[Found], list[Param]]:
    kinds = _column_kinds(header)
    column = {kind: i for i, kind in reversed(list(enumerate(kinds))) if kind}

    def cell(row: list[str], kind: str) -> str:
        i = column.get(kind)
        return row[i].strip() if i is not None and i < len(row) else ""

    # a "required" column that lists names ("必填参数：city, date") belongs to a table of tools, not
    # of parameters
    required_lists = "required" in column and any(
        _NAMES_CELL.match(cell(row.cells, "required"))
        and not _TRUE_CELL.match(cell(row.cells, "required"))
        and not _FALSE_CELL.match(cell(row.cells, "required"))
        for row in rows
    )
    has_param_facts = any(k in column for k in ("type", "optional", "enum")) or (
        "required" in column and not required_lists
    )
    tool_column = column.get("tool")
    if tool_column is None and "name" in column and not has_param_facts:
        tool_column = column["name"]
    param_column = column.get("param")
    if param_column is None and "name" in column and tool_column != column["name"]:
        param_column = column["name"]
    if param_column is None and "params" in column and has_param_facts:
        param_column = column["params"]

    def param_of(row: list[str]) -> Param | None:
        name = (
            row[param_column].strip(" `*'\"")
            if param_column is not None and param_column < len(row)
            else ""
        )
        name = re.split(r"[\s(（]", name, maxsplit=1)[0] if name else ""
        if (
            not re.fullmatch(_PARAM_IDENT, name)
            or name.lower() in _NOT_PARAMETERS
            or name.lower() in _TYPE_ONLY
        ):
            return None
        meta = " ".join(filter(None, [cell(row, "type"), row[param_column]]))
        param = read_meta(Param(name), meta, cell(row, "description"))
        required = cell(row, "required")
        optional = cell(row, "optional")
        if required:
            param.required = (
                bool(_TRUE_CELL.match(required))
                if (_TRUE_CELL.match(required) or _FALSE_CELL.match(required))
                else param.required
            )
        elif optional:
            param.required = (
                not _TRUE_CELL.match(optional)
                if (_TRUE_CELL.match(optional) or _FALSE_CELL.match(optional))
                else param.required
            )
        enum = cell(row, "enum")
        if enum and not _NOTHING.match(enum):
            values = enum_in(f"可选值：{enum}")
            param.enum = values or param.enum
        return param

    if tool_column is None:
        return [], (
            [p for p in (param_of(row.cells) for row in rows) if p]
            if param_column is not None
            else []
        )
    tools: list[Found] = []
    for row in rows:
        cells = row.cells
        name = cells[tool_column].strip(" `*'\"") if tool_column < len(cells) else ""
        name = re.split(r"[\s(（]", name, maxsplit=1)[0] if name else ""
        if name and re.fullmatch(IDENT, name) and name != (tools[-1].name if tools else None):
            description = cell(cells, "tool_description") or (
                cell(cells, "description") if param_column is None else ""
            )
            tools.append(Found(row.start, name, description))
        elif not tools or (name and not re.fullmatch(IDENT, name)):
            continue
        tool = tools[-1]
        if not tool.description:
            tool.description = cell(cells, "tool_description") or (
                cell(cells, "description") if param_column is None else ""
            )
        schema = next(
            (
                found
                for at, _, value in json_values
                if row.start <= at < row.end
                for found in [_schema_in(value)]
                if found is not None
            ),
            None,
        )
        if schema is not None and param_column is None and not tool.params:
            tool.schema = schema
        elif param_column is not None:
            param = param_of(cells)
            if param:
                tool.params.append(param)
        elif "params" in column:
            params_text = cell(cells, "params")
            if params_text and not _NOTHING.match(params_text):
                tool.params.extend(inline_parameters(params_text))
        if required_lists:
            names = cell(cells, "required")
            listed = [] if not names or _NOTHING.match(names) else re.findall(_PARAM_IDENT, names)
            if tool.schema is not None and "required" not in tool.schema:
                tool.schema = {**tool.schema, "required": listed}
            elif tool.schema is None:
                tool.required = listed
    return tools, []
