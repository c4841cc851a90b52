"""Tools in XML-like tags, the layout many prompts for Claude-style models use:

    <tool name="get_weather">
      <description>查询天气</description>
      <param name="city" type="string" required="true">城市名称</param>
    </tool>

or with the facts as child elements (``<tool><name>…</name><parameters><parameter><name>…`` …), or
with a JSON Schema inside ``<parameters>…</parameters>`` (found by the JSON reader; its position
says which tool it belongs to). ``tag_tools`` returns the tools and the spans of their elements, so
the other readers skip them.

Left out: namespaces, CDATA, entities other than the five predefined ones, and attributes without
quotes. Tags are read with regular expressions over a bounded text, not with an XML parser: a prompt
is not a document.
"""

from __future__ import annotations

import html
import re
from typing import Any

from .toolprompt_words import _PARAM_IDENT, IDENT, Found, Param, enum_in, json_type, read_meta

_TOOL_TAGS = r"tool|function|tool_description|tool_definition|tool_spec"
_PARAM_TAGS = r"param|parameter|arg|argument|property|field"
_ELEMENT = re.compile(
    rf"<(?P<tag>{_TOOL_TAGS})(?P<attributes>(?:\s+[\w:.-]+\s*=\s*(?:\"[^\"]*\"|'[^']*'))*)\s"
    rf"*>(?P<body>.*?)</(?P=tag)\s*>",
    re.S | re.I,
)
_PARAM = re.compile(
    rf"<(?P<tag>{_PARAM_TAGS})(?P<attributes>(?:\s+[\w:.-]+\s*=\s*(?:\"[^\"]*\"|'[^']*'))*)\s"
    rf"*(?:/>|>(?P<body>.*?)</(?P=tag)\s*>)",
    re.S | re.I,
)
_ATTRIBUTE = re.compile(r"([\w:.-]+)\s*=\s*(?:\"([^\"]*)\"|'([^']*)')")
_TRUE = re.compile(r"^\s*(?:true|yes|1|是|必填|required)\s*$", re.I)
_FALSE = re.compile(r"^\s*(?:false|no|0|否|可选|选填|optional)\s*$", re.I)


def _attributes(text: str) -> dict[str, str]:
    return {
        match.group(1).lower(): html.unescape(
            match.group(2) if match.group(2) is not None else match.group(3)
        )
        for match in _ATTRIBUTE.finditer(text or "")
    }


def _child(body: str, *tags: str) -> str | None:
    """The text of the first child element named one of ``tags`` (tags inside it removed)."""
    for tag in tags:
        match = re.search(rf"<{tag}(?:\s[^>]*)?>(.*?)</{tag}\s*>", body, re.S | re.I)
        if match:
            return html.unescape(re.sub(r"<[^>]+>", " ", match.group(1))).strip()
    return None


def _param(attributes: dict[str, str], body: str) -> Param | None:
    name = attributes.get("name") or _child(body, "name", "param_name", "parameter_name") or ""
    if not re.fullmatch(_PARAM_IDENT, name.strip()):
        return None
    type_word = attributes.get("type") or _child(body, "type") or ""
    description = (
        attributes.get("description")
        or _child(body, "description", "desc")
        or html.unescape(re.sub(r"<[^>]+>.*?</[^>]+>|<[^>]+/?>", " ", body, flags=re.S)).strip()
    )
    param = read_meta(Param(name.strip()), type_word, " ".join(description.split()))
    param.type = json_type(type_word) or param.type
    flag = attributes.get("required", _child(body, "required"))
    optional = attributes.get("optional", _child(body, "optional"))
    if flag is not None and (_TRUE.match(flag) or _FALSE.match(flag)):
        param.required = bool(_TRUE.match(flag))
    elif optional is not None and (_TRUE.match(optional) or _FALSE.match(optional)):
        param.required = not _TRUE.match(optional)
    enum = attributes.get("enum") or _child(body, "enum", "values", "allowed_values", "options")
    if enum:
        param.enum = enum_in(f"可选值：{enum.strip('[]')}") or param.enum
    return param


def tag_tools(
    text: str, json_values: list[tuple[int, int, Any]] = ()
) -> tuple[list[Found], list[tuple[int, int]]]:  # type: ignore[assignment]
    """Tools in XML-like elements (see the module docstring), and the spans of those elements."""
    found: list[Found] = []
    spans: list[tuple[int, int]] = []
    for element in _ELEMENT.finditer(text):
        attributes = _attributes(element.group("attributes"))
        body = element.group("body")
        own = _PARAM.sub(
            " ", body
        )  # the tool's own children, without its parameters' (which have names too)
        name = (
            attributes.get("name") or _child(own, "name", "tool_name", "function_name") or ""
        ).strip()
        if not re.fullmatch(IDENT, name):
            continue
        tool = Found(
            element.start(),
            name,
            attributes.get("description") or _child(own, "description", "desc") or "",
        )
        tool.params = [
            param
            for match in _PARAM.finditer(body)
            for param in [_param(_attributes(match.group("attributes")), match.group("body") or "")]
            if param
        ]
        listed = attributes.get("required") or _child(
            own, "required"
        )  # <required>city, date</required>
        if listed and not _TRUE.match(listed) and not _FALSE.match(listed):
            tool.required = re.findall(_PARAM_IDENT, listed)
        schema = next(
            (
                value
                for at, _, value in json_values
                if element.start("body") <= at < element.end("body")
                and isinstance(value, dict)
                and isinstance(value.get("properties"), dict)
            ),
            None,
        )
        if schema is not None and not tool.params:
            tool.schema = {"type": "object", **schema}
        found.append(tool)
        spans.append((element.start(), element.end()))
    return found, spans
