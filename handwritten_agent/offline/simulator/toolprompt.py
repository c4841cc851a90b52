"""Reading a hand-written tool prompt: which tools it offers and what a reply should look like.

Learners write Day 2's system prompts by hand, so ``read_tool_prompt`` recovers the tools from
whatever they wrote: JSON tool definitions (bare, OpenAI-style, a list, a Python ``repr``, inside
``` fences or not), the seed's lines (``工具名称：X`` / ``描述：…`` / ``参数说明：`` /
`` - city (string): …``), a heading followed by a parameters schema (the package's ``prompting``
format), signature lines (``- get_weather(city: str): …``), or ``- snake_name: description``
bullets when the prompt also shows an example call. The example reply in the prompt says which
keys carry the tool name and the arguments (``ReplyFormat``); ``Action Input`` means the text
ReAct format (``ReactLabels``).

Left out: tools described only in a user message, and prose descriptions with no recognisable
structure (the simulator then sees no tools, as a confused model would).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from . import messiness

MAX_PROMPT_CHARS = 100_000  # longer system prompts are read only this far

# ------------------------------------------------------------------------------ what the prompt offers

NAME_KEYS = ("name", "tool_name", "tool", "action", "function", "function_name", "toolName", "工具", "工具名", "工具名称")
ARGS_KEYS = ("arguments", "args", "parameters", "params", "action_input", "input", "tool_input", "arguments_json", "参数")
THOUGHT_KEYS = ("thought", "thoughts", "reasoning", "reason", "思考", "理由")


@dataclass(frozen=True)
class ReplyFormat:
    """Where the tool name and the arguments go in the JSON reply the prompt asks for.

    ``wrapper`` handles prompts whose example nests the call, e.g. ``{"tool_call": {"name": …}}``
    (``wrap_in_list`` for ``{"tool_calls": [{…}]}``); ``thought_key`` is filled with a short
    reason when the example has one (``{"thought": …, "action": …, "action_input": …}``).
    """

    name_key: str = "name"
    args_key: str = "arguments"
    thought_key: str | None = None
    wrapper: str | None = None
    wrap_in_list: bool = False

    def build(self, name: str, arguments: Any, thought: str) -> dict[str, Any]:
        call: dict[str, Any] = {}
        if self.thought_key:
            call[self.thought_key] = thought
        call[self.name_key] = name
        call[self.args_key] = arguments
        if self.wrapper:
            return {self.wrapper: [call] if self.wrap_in_list else call}
        return call

    def read(self, value: Any) -> tuple[str, Any] | None:
        """The ``(name, arguments)`` in a reply object written in this format (or the default one)."""
        if not isinstance(value, dict):
            return None
        if self.wrapper and self.wrapper in value:
            inner = value[self.wrapper]
            value = inner[0] if isinstance(inner, list) and inner else inner
            if not isinstance(value, dict):
                return None
        for name_key, args_key in ((self.name_key, self.args_key), ("name", "arguments")):
            name = value.get(name_key)
            if isinstance(name, str) and name.strip():
                return name.strip(), value.get(args_key, {})
        return None


@dataclass(frozen=True)
class ReactLabels:
    """The keywords of the text ReAct format as the prompt spells them."""

    thought: str = "Thought"
    action: str = "Action"
    action_input: str = "Action Input"
    observation: str = "Observation"
    final_answer: str = "Final Answer"
    colon: str = ": "


CHINESE_REACT = ReactLabels("思考", "行动", "行动输入", "观察", "最终答案", "：")


@dataclass(frozen=True)
class ToolPrompt:
    """What a system prompt offers: tool specs (``{"name", "description", "parameters"}``) and the reply format."""

    tools: list[dict[str, Any]]
    reply: ReplyFormat = ReplyFormat()
    react: ReactLabels | None = None  # set when the prompt asks for Thought / Action / Action Input
    has_example: bool = False  # the prompt shows an example call object
    tools_are_guessed: bool = False  # tools only from "- snake_name: text" bullets, which many prompts have

    @property
    def tool_names(self) -> list[str]:
        return [tool["name"] for tool in self.tools]


_TOOL_NAME = re.compile(r"[^\s<>{}\[\]()'\"“”]{1,64}")
IDENTIFIER = r"[A-Za-z_][\w.\-]*"
_TYPE_NAMES = {
    "str": "string", "string": "string", "text": "string", "字符串": "string",
    "int": "integer", "integer": "integer", "整数": "integer",
    "float": "number", "number": "number", "double": "number", "decimal": "number", "数字": "number", "数值": "number",
    "bool": "boolean", "boolean": "boolean", "布尔": "boolean",
    "list": "array", "array": "array", "列表": "array", "数组": "array",
    "dict": "object", "object": "object", "对象": "object",
}
_OPTIONAL_MARK = re.compile(r"可选(?!值)|选填|非必填|可不填|不填|optional|默认|default", re.I)
_REQUIRED_MARK = re.compile(r"必填|必需|必须|required", re.I)


def _tool_from_json(value: Any) -> dict[str, Any] | None:
    """A tool spec if ``value`` looks like a tool definition (bare, OpenAI or Anthropic style)."""
    if not isinstance(value, dict):
        return None
    if isinstance(value.get("function"), dict) and value.get("type") in ("function", None):
        value = value["function"]
    name = value.get("name")
    if not isinstance(name, str) or not _TOOL_NAME.fullmatch(name.strip()):
        return None
    parameters = value.get("parameters", value.get("input_schema"))
    description = value.get("description")
    is_schema = isinstance(parameters, dict) and ("properties" in parameters or parameters.get("type") == "object")
    if not is_schema and not (parameters is None and isinstance(description, str) and description.strip()):
        return None
    return {"name": name.strip(), "description": description.strip() if isinstance(description, str) else "",
            "parameters": dict(parameters) if is_schema else {"type": "object", "properties": {}}}


def _tools_in_json(value: Any) -> list[dict[str, Any]]:
    if isinstance(value, dict) and isinstance(value.get("tools"), list):
        value = value["tools"]
    items = value if isinstance(value, list) else [value]
    return [tool for tool in map(_tool_from_json, items) if tool]


def _is_schema(value: Any) -> bool:
    return isinstance(value, dict) and isinstance(value.get("properties"), dict) and "name" not in value


def _json_type(text: str) -> str:
    word = re.split(r"[\s,，|/]", text.strip().lower(), maxsplit=1)[0] if text.strip() else ""
    word = re.sub(r"^optional\[(.*)\]$", r"\1", word)
    return _TYPE_NAMES.get(word, "string")


def _enum_in(description: str) -> list[str] | None:
    match = re.search(r"(?:可选值|取值|枚举|one of|enum)\s*[:：为是]?\s*(.+?)(?:[。；;]|$)", description, re.I)
    if not match:
        return None
    values = [v.strip(" '\"‘’“”`[]") for v in re.split(r"[、,，/|]|\s+or\s+|或", match.group(1))]
    values = [v for v in values if v and len(v) <= 40]
    return values if len(values) >= 2 else None


def _add_parameter(tool: dict[str, Any], name: str, type_text: str, description: str, optional: bool | None = None) -> None:
    schema: dict[str, Any] = {"type": _json_type(type_text)}
    if description:
        schema["description"] = description
    enum = _enum_in(description)
    if enum:
        schema["enum"] = enum
    tool["parameters"]["properties"][name] = schema
    marks = f"{type_text} {description}"
    if optional is None:
        optional = bool(_OPTIONAL_MARK.search(marks)) and not _REQUIRED_MARK.search(type_text)
    if not optional:
        tool["parameters"].setdefault("required", []).append(name)


def _new_tool(name: str, description: str = "") -> dict[str, Any]:
    return {"name": name, "description": description, "parameters": {"type": "object", "properties": {}}}


_NAME_LINE = re.compile(rf"^\s*(?:[-*•]\s*)?(?:\d+[.)、]\s*)?(?:工具名称|工具名|工具|名称|Tool\s*name|Tool|Name|Function)\s*[:：]"
                        rf"\s*[`'\"“]?({IDENTIFIER})[`'\"”]?\s*$", re.I)
_HEADING = re.compile(rf"^\s*#{{1,6}}\s*(?:\d+[.)、]\s*)?(?:工具\s*[:：]?\s*)?`?({IDENTIFIER})`?\s*$")
_DESC_LINE = re.compile(r"^\s*(?:[-*•]\s*)?(?:描述|说明|功能|用途|作用|Description|Purpose)\s*[:：]\s*(.*)$", re.I)
_PARAMS_LINE = re.compile(r"^\s*(?:[-*•]\s*)?(?:参数说明|参数列表|输入参数|参数|Parameters|Params|Arguments|Args)"
                          r"\s*(?:[(（][^)）]*[)）])?\s*[:：]\s*(.*)$", re.I)
_PARAM_ITEM = re.compile(r"^\s*[-*•]\s*[`'\"]?([A-Za-z_]\w*)[`'\"]?\s*(?:[(（]([^)）]*)[)）])?\s*[:：]\s*(.*)$")
_SIGNATURE = re.compile(rf"^\s*(?:[-*•]|\d+[.)、])?\s*`?({IDENTIFIER})\s*\(([^()]*)\)`?\s*(?:->\s*\w+\s*)?(?:[:：—–-]+\s*(.*))?$")
_SIG_PARAM = re.compile(r"^\s*([A-Za-z_]\w*)\s*(\?)?\s*(?:[:：]\s*([^=]*?))?\s*(?:=\s*(.*?))?\s*$")
_NAME_DESC = re.compile(r"^\s*[-*•]\s*`?([a-z][a-z0-9]*(?:_[a-z0-9]+)+)`?\s*[:：]\s*(\S.*)$")
_RESERVED = {"thought", "action", "action_input", "observation", "final_answer", "tool_name", "tool_input", "function_call"}


def _line_tools(text: str, schemas: list[tuple[int, int, dict[str, Any]]]) -> list[tuple[int, dict[str, Any]]]:
    """Tools written as lines: a name line or heading, a description, parameter lines or a schema block."""
    found: list[tuple[int, dict[str, Any]]] = []
    lines = text.splitlines(keepends=True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))

    current: dict[str, Any] | None = None
    has_parameters = False
    from_heading = False
    in_parameters = False
    start = 0

    def close(end: int) -> None:
        if current is None:
            return
        block_schemas = [schema for s, _, schema in schemas if start <= s < end]
        if block_schemas and not current["parameters"]["properties"]:
            current["parameters"] = block_schemas[0]
        if not from_heading or has_parameters or block_schemas:
            found.append((start, current))

    for index, line in enumerate(lines):
        position = offsets[index]
        stripped = line.strip()
        name_match = _NAME_LINE.match(line) or _HEADING.match(line)
        if name_match:
            close(position)
            current = _new_tool(name_match.group(1))
            from_heading = bool(_HEADING.match(line))
            has_parameters = in_parameters = False
            start = position
            continue
        if current is None:
            continue
        if stripped.startswith("#"):  # another section begins
            close(position)
            current = None
            continue
        if match := _DESC_LINE.match(line):
            current["description"] = match.group(1).strip()
            in_parameters = False
        elif match := _PARAMS_LINE.match(line):
            in_parameters = has_parameters = True
        elif in_parameters and (match := _PARAM_ITEM.match(line)):
            _add_parameter(current, match.group(1), match.group(2) or "", match.group(3).strip())
        elif stripped and not in_parameters and not current["description"] and not stripped.startswith(("```", "{")):
            current["description"] = stripped
    close(len(text))
    return found


def _signature_tools(text: str) -> list[tuple[int, dict[str, Any]]]:
    found = []
    position = 0
    for line in text.splitlines(keepends=True):
        match = _SIGNATURE.match(line)
        bulleted = bool(re.match(r"\s*(?:[-*•]|\d+[.)、])", line))
        words = [w.strip().lower() for w in re.split(r"[,，]", match.group(2)) if w.strip()] if match else []
        is_parameter_line = bool(words) and all(  # " - city (string): …" in the seed's format
            w in _TYPE_NAMES or _OPTIONAL_MARK.search(w) or _REQUIRED_MARK.search(w) for w in words)
        if match and match.group(1).lower() not in _RESERVED and (bulleted or match.group(3)) and not is_parameter_line:
            tool = _new_tool(match.group(1), (match.group(3) or "").strip())
            for part in filter(str.strip, re.split(r"[,，]", match.group(2))):
                param = _SIG_PARAM.match(part)
                if not param:
                    break
                name, question, type_text, default = param.groups()
                optional = bool(question or default is not None or re.search(r"optional|None|可选", type_text or ""))
                _add_parameter(tool, name, type_text or "string", "", optional=optional)
            else:
                found.append((position, tool))
        position += len(line)
    return found


def _name_description_tools(text: str) -> list[tuple[int, dict[str, Any]]]:
    found = []
    position = 0
    for line in text.splitlines(keepends=True):
        match = _NAME_DESC.match(line)
        if match and match.group(1) not in _RESERVED:
            found.append((position, _new_tool(match.group(1), match.group(2).strip())))
        position += len(line)
    return found


def _reply_format_of(value: Any) -> ReplyFormat | None:
    """The reply format if ``value`` is an example call object (not a tool definition)."""
    if not isinstance(value, dict) or _tool_from_json(value):
        return None
    name_key = next((key for key in NAME_KEYS if key in value and not isinstance(value[key], (dict, list))), None)
    args_key = next((key for key in ARGS_KEYS if key in value), None)
    if name_key and args_key:
        thought_key = next((key for key in THOUGHT_KEYS if key in value), None)
        return ReplyFormat(name_key=name_key, args_key=args_key, thought_key=thought_key)
    if len(value) == 1:
        (wrapper, inner), = value.items()
        in_list = isinstance(inner, list) and len(inner) > 0
        inner_format = _reply_format_of(inner[0] if in_list else inner)
        if inner_format and not inner_format.wrapper:
            return ReplyFormat(inner_format.name_key, inner_format.args_key, inner_format.thought_key, wrapper, in_list)
    return None


def _react_labels(text: str) -> ReactLabels | None:
    if re.search(r"Action\s*Input\s*[:：]", text, re.I):
        return ReactLabels()
    if re.search(r"行动输入\s*[:：]", text):
        return CHINESE_REACT
    return None


def read_tool_prompt(system_text: str) -> ToolPrompt:
    """Recover the tools and the reply format from a hand-written system prompt."""
    text = system_text[:MAX_PROMPT_CHARS]
    located: list[tuple[int, dict[str, Any]]] = []
    schemas: list[tuple[int, int, dict[str, Any]]] = []
    reply: ReplyFormat | None = None
    for start, end, value in messiness.iter_json_values(text):
        tools = _tools_in_json(value)
        if tools:
            located.extend((start, tool) for tool in tools)
        elif _is_schema(value):
            schemas.append((start, end, value))
        elif reply is None:
            reply = _reply_format_of(value)
    located += _line_tools(text, schemas) + _signature_tools(text)
    guessed = not located
    if guessed:
        located = _name_description_tools(text)
    tools: dict[str, dict[str, Any]] = {}
    for _, tool in sorted(located, key=lambda item: item[0]):
        known = tools.get(tool["name"])
        if known is None or (not known["parameters"].get("properties") and tool["parameters"].get("properties")):
            tools[tool["name"]] = tool
    return ToolPrompt(tools=list(tools.values()), reply=reply or ReplyFormat(), react=_react_labels(text),
                      has_example=reply is not None, tools_are_guessed=guessed and bool(tools))


def looks_like_tool_prompt(system_text: str) -> bool:
    """True when the system prompt describes tools and asks for calls as JSON text or in the ReAct format.

    Bullets like ``- user_name: …`` appear in many prompts (e.g. a summary's fields), so tools read
    only from those count when the prompt also shows an example call or the ReAct keywords.
    """
    if not system_text:
        return False
    prompt = read_tool_prompt(system_text)
    if not prompt.tools:
        return False
    if prompt.react is not None or prompt.has_example:
        return True
    return not prompt.tools_are_guessed and re.search(r"json", system_text, re.I) is not None
