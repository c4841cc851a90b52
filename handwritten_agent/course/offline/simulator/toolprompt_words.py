"""The words of a tool description written as text: parameter types (``str``, ``整数`` …), required
and optional marks (必填/可选/required), allowed values (可选值/取值/one of …), and parameter
phrases (``city（字符串，必填）：城市名称``, ``- `date` (string, optional): …``, ``参数 city，表示
…``).

``Param`` and ``Found`` are what every layout reader (``toolprompt_blocks``, ``toolprompt_layouts``)
produces: a tool read from text, before it becomes a ``{"name", "description", "parameters"}`` spec.

Left out: nested object parameters written as text (read as ``object`` without their fields), and
parameter names that are not ASCII identifiers or that are also description keywords (``type``,
``description``, ``default`` …: such a line is read as a property of the parameter above it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

IDENT = r"[A-Za-z_][\w.\-]*"
_PARAM_IDENT = r"[A-Za-z_]\w*"

TYPE_NAMES = {
    "str": "string",
    "string": "string",
    "text": "string",
    "字符串": "string",
    "文本": "string",
    "int": "integer",
    "integer": "integer",
    "整数": "integer",
    "整型": "integer",
    "float": "number",
    "number": "number",
    "double": "number",
    "decimal": "number",
    "数字": "number",
    "数值": "number",
    "浮点数": "number",
    "小数": "number",
    "bool": "boolean",
    "boolean": "boolean",
    "布尔": "boolean",
    "布尔值": "boolean",
    "list": "array",
    "array": "array",
    "列表": "array",
    "数组": "array",
    "dict": "object",
    "object": "object",
    "对象": "object",
    "字典": "object",
}
OPTIONAL_MARK = re.compile(
    r"可选(?!值)|选填|非必填|非必需|可不填|可以不填|可省略|optional|默认|default", re.I
)
REQUIRED_MARK = re.compile(r"(?<!非)(?:必填|必需|必须提供|必选|必须)|(?<!not )required", re.I)
_NOT_PARAMETERS = {
    "returns",
    "return",
    "output",
    "outputs",
    "example",
    "examples",
    "note",
    "notes",
    "usage",
    "description",
    "desc",
    "parameters",
    "params",
    "args",
    "arguments",
    "properties",
    "type",
    "required",
    "optional",
    "enum",
    "default",
    "tool",
    "tools",
    "function",
    "functions",
    "json",
    "true",
    "false",
    "null",
    "none",
    "e",
    "eg",
    "ie",
    "or",
    "and",
}


@dataclass
class Param:
    name: str
    type: str = "string"
    description: str = ""
    enum: list[str] | None = None
    required: bool | None = None  # None: the prompt does not say


@dataclass
class Found:
    """One tool read from text, before it becomes a spec: where it starts and how sure the reading
    is.
    """

    position: int
    name: str
    description: str = ""
    params: list[Param] = field(default_factory=list)
    # an explicit list ("必填参数：a、b", ``required: [a]``) wins over marks
    required: list[str] | None = None
    schema: dict[str, Any] | None = None  # a JSON Schema found inside the tool's section
    strong: bool = True  # False for a bare "- snake_name: text" bullet, which many prompts have

    def spec(self) -> dict[str, Any]:
        """The tool as ``{"name", "description", "parameters"}`` (a JSON Schema)."""
        if self.schema is not None and not self.params:
            return {"name": self.name, "description": self.description, "parameters": self.schema}
        properties: dict[str, Any] = {}
        for param in self.params:
            schema: dict[str, Any] = {"type": param.type}
            if param.description:
                schema["description"] = param.description
            if param.enum:
                schema["enum"] = param.enum
            properties[param.name] = schema
        parameters: dict[str, Any] = {"type": "object", "properties": properties}
        required = self.required_names()
        if required:
            parameters["required"] = required
        return {"name": self.name, "description": self.description, "parameters": parameters}

    def required_names(self) -> list[str]:
        """Which parameters are required: an explicit list if the prompt gives one; else the marks,
        where unmarked parameters take the opposite of what the marked ones say (marking only the
        required ones means the rest are optional), and all are required when nothing is marked."""
        names = [p.name for p in self.params]
        if self.required is not None:
            return [name for name in self.required if name in names]
        marks = {p.required for p in self.params if p.required is not None}
        default = marks != {True}
        return [p.name for p in self.params if (p.required if p.required is not None else default)]


# ---------------------------------------------------------------------------- words inside a phrase


def json_type(text: str) -> str | None:
    """The JSON type a type word means (``str``, ``整数``, ``list[str]``, ``Optional[int]`` …), or
    None.
    """
    word = text.strip().strip("`'\"*").lower()
    word = re.sub(r"^(?:optional|typing\.optional)\[(.*)\]$", r"\1", word)
    if re.match(r"^(?:list|array|tuple|set|sequence)\b", word) or word.endswith("[]"):
        return "array"
    if re.match(r"^(?:dict|mapping|object)\b", word):
        return "object"
    if re.match(r"^(?:literal)\[", word):
        return "string"
    return TYPE_NAMES.get(word)


def _first_type(text: str) -> str | None:
    for word in re.split(r"[\s,，、|/;；:：()（）<>]+", text):
        found = json_type(word) if word else None
        if found:
            return found
    return None


_ENUM_LEAD = re.compile(
    r"(?:可选值|可选项|取值范围|取值|枚举值|枚举|允许的值|允许值|只能是|只能为|只能取|必须是以下之"
    r"一|必须是|one"
    r" of|allowed values|"
    r"possible values|values|options|enum|choices)\s*(?:为|是|有)?\s*[:：]?\s*",
    re.I,
)


def enum_in(text: str) -> list[str] | None:
    """The allowed values a phrase lists ("可选值：US、HK、CN", "one of: today, tomorrow", "[\"a\",
    \"b\"]").
    """
    match = _ENUM_LEAD.search(text)
    if not match:
        match = re.search(
            r"(?P<v>(?:[\"'`“‘][^\"'`”’]{1,30}[\"'`”’]\s*(?:\||或|/|、|,|，"
            r"|or)\s*)+[\"'`“‘][^\"'`”’]{1,30}[\"'`”’])\s*(?:之一|中的一个)?",
            text,
        )
        if not match:
            return None
        body = match.group("v")
    else:
        body = re.split(
            r"[。；;\n)）]|(?<=[^\d])\.\s|\s*——\s*|\s[—–-]{1,2}\s", text[match.end() :], maxsplit=1
        )[0]
        body = re.sub(r"(?:之一|中的一个|其中之一|中选一个)\s*$", "", body.strip())
    values = [
        v.strip(" \t'\"‘’“”`[]【】{}()（）*").rstrip(".。").strip(" \t'\"‘’“”`*")
        for v in re.split(r"\s*(?:[、,，/|]|\bor\b|或者|或)\s*", body)
    ]  # "US | HK | CN." ends a sentence
    values = [
        v for v in values if v and len(v) <= 40 and not re.fullmatch(r"等|etc\.?|……|\.\.\.", v)
    ]
    return values if len(values) >= 2 else None


def read_meta(param: Param, meta: str, description: str) -> Param:
    """Fill a parameter's type, required mark and allowed values from its parenthetical ``meta`` and
    ``description``.
    """
    type_text = re.search(
        r"类型\s*(?:为|是|[:：])\s*([^\s，,。；;)）]+)|\btype\s*[:=]\s*([^\s,;)]+)",
        f"{meta} {description}",
        re.I,
    )
    found = _first_type(meta) or (
        json_type(type_text.group(1) or type_text.group(2)) if type_text else None
    )
    if not found:
        lead = re.match(
            r"\s*([A-Za-z\[\]]+|[\u4e00-\u9fff]{2,3})(?:\s*[,，、;；(（]|\s+[-—–]|\s*$)",
            description,
        )
        found = json_type(lead.group(1)) if lead else None
    param.type = found or param.type
    marks = f"{meta} {description[:40]}"
    if REQUIRED_MARK.search(meta) or (not meta and REQUIRED_MARK.search(description[:24])):
        param.required = True
    elif OPTIONAL_MARK.search(marks):
        param.required = False
    param.enum = enum_in(meta) or enum_in(description) or param.enum
    param.description = description.strip(" \t:：-—–,，;；")
    return param


# ------------------------------------------------------------------------------ parameter phrases

_START = re.compile(
    rf"(?:^|(?<=[\n；;。]))[ \t]*(?P<lead>(?:[-*•+]|\d+[.)、])[ \t]*)?(?P<pre>[^\n；;。]{{0,14}}?)"
    rf"(?:\*\*)?[`'\"“‘]?(?P<name>{_PARAM_IDENT})[`'\"”’]?(?:\*\*)?[ \t]*"
    rf"(?P<after>[(（]|[:：=]|[-—–]{{1,2}}[ \t]|[，,]["
    rf" \t]*(?=表示|是|为|即|代表|指)|(?=表示|代表)|$)",
    re.M,
)
_INLINE_START = re.compile(
    rf"(?<=[，,、])["
    rf" \t]*(?P<pre>(?:还有|以及|和|及)?(?:一个|另一个)?(?:可选|必填)?(?:的)?(?:参数)?)?[ \t]*"
    rf"[`'\"“‘]?(?P<name>{_PARAM_IDENT})[`'\"”’]?[ \t]*(?P<after>[(（]|[:：]|[，,]["
    r" \t]*(?=表示|是|为|即|代表|指))"
)
_PARAMS_WORD = re.compile(
    r"(?:输入)?参数(?:说明|列表|如下|有|为|是|包括|包含)?|Parameters|Params|Arguments|Args|Inputs?",
    re.I,
)


_TYPE_ONLY = {
    "str",
    "string",
    "int",
    "integer",
    "float",
    "bool",
    "boolean",
    "array",
    "dict",
    "double",
}
"""Type words that are never parameter names (``text``, ``number``, ``list`` … can be)."""


def _is_name(word: str, start_of_item: bool) -> bool:
    if word.lower() in _NOT_PARAMETERS or word.lower() in _TYPE_ONLY:
        return False
    return start_of_item or not word.isupper()  # USD, AAPL in an example are values, not parameters


def parameter_phrases(text: str) -> tuple[list[Param], list[str] | None]:
    """The parameters written in ``text`` (the part of a tool's section after its description), and
    an explicit list of required names if the text gives one ("必填参数：a、b", "required: [a, b]").
    """
    required: list[str] | None = None
    explicit = re.search(
        r"(?:必填参数|必需参数|必须参数|required(?:\s+parameters)?)\s*(?:为|是|有)?\s*[:：]\s*\["
        r"?([^\n。"
        r"；;\]]+)",
        text,
        re.I,
    )
    if explicit:
        names = [w.strip(" '\"`") for w in re.split(r"[、,，\s]+", explicit.group(1))]
        required = [w for w in names if re.fullmatch(_PARAM_IDENT, w)]
        text = (
            text[: explicit.start()]
            + " " * (explicit.end() - explicit.start())
            + text[explicit.end() :]
        )
    # a parameter keyword ("参数：", "还有一个可选参数", "Parameters:") starts a new item, its lead
    # words kept with it
    text = re.sub(
        rf"(?:(?:还有|以及|另外|和|并且)?(?:一个|另一个|两个|三个)?(?:可选|必填|必需|选填)?"
        rf"的?)(?:{_PARAMS_WORD.pattern})",
        lambda m: "\n" + m.group(0),
        text,
        flags=re.I,
    )
    text = re.sub(r"(?<=[：:])\s*(?=[`'\"“]?[A-Za-z_]\w*[`'\"”]?\s*[(（])", "\n", text)
    starts = []
    for match in _START.finditer(text):
        name, pre = match.group("name"), match.group("pre") or ""
        if re.search(r"[A-Za-z0-9_`'\"“”]", pre) or not _is_name(name, bool(match.group("lead"))):
            continue
        if match.group("after") == "" and not (match.group("lead") or _names_list(text, match)):
            continue
        starts.append((match.start(), match.start("name"), match.end(), name, pre))
    for match in _INLINE_START.finditer(text):
        if _is_name(match.group("name"), False) and not any(
            s[0] <= match.start("name") < s[2] for s in starts
        ):
            starts.append(
                (
                    match.start(),
                    match.start("name"),
                    match.end(),
                    match.group("name"),
                    match.group("pre") or "",
                )
            )
    starts.sort()
    params: dict[str, Param] = {}
    for index, (_, _begin, end, name, pre) in enumerate(starts):
        if name in params:
            continue
        stop = starts[index + 1][0] if index + 1 < len(starts) else len(text)
        rest = text[end - 1 if text[end - 1 : end] in "(（" else end : stop]
        meta_match = re.match(r"\s*[(（]([^)）]*)[)）]", rest)
        meta = meta_match.group(1) if meta_match else ""
        description = rest[meta_match.end() :] if meta_match else rest
        description = re.split(r"\n\s*\n", description, maxsplit=1)[0]
        description = " ".join(description.split())
        param = read_meta(Param(name), meta, description)
        if param.required is None and pre:
            param.required = (
                True if REQUIRED_MARK.search(pre) else False if OPTIONAL_MARK.search(pre) else None
            )
        params[name] = param
    return list(params.values()), required


def _names_list(text: str, match: re.Match[str]) -> bool:
    """``参数：city、date`` — bare names separated by 、 or commas on a line of their own."""
    line_start = text.rfind("\n", 0, match.start("name")) + 1
    line_end = text.find("\n", match.end())
    line = text[line_start : line_end if line_end >= 0 else len(text)]
    return (
        re.fullmatch(rf"\s*(?:{_PARAM_IDENT}\s*[、,，和及]\s*)*{_PARAM_IDENT}\s*[。.]?\s*", line)
        is not None
    )


def inline_parameters(text: str) -> list[Param]:
    """Parameters written inside one table cell or one line: ``city（string，必填）：城市；date（可
    选）``.
    """
    params, _ = parameter_phrases(re.sub(r"<br\s*/?>", "\n", text))
    return params
