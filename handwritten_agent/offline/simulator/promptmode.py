"""The simulator without a ``tools`` parameter: tools described in the system prompt, calls as text.

On Day 2 the learner makes a model call tools with nothing but words. The system prompt lists the
tools and asks for one JSON object per call (or for the text ReAct format); the model answers with
text; the learner's code parses it, runs the tool and sends the result back as another message.
This module plays the model's side of that exchange, in four steps:

1. **Read the prompt** (``read_tool_prompt``). Learners write these prompts by hand, so the tools
   are recovered from whatever they wrote: JSON tool definitions (bare, OpenAI-style, a list, a
   Python ``repr``, inside ``` fences or not), the seed's lines (``工具名称：X`` / ``描述：…`` /
   ``参数说明：`` / `` - city (string): …``), a heading followed by a parameters schema (the
   package's ``prompting`` format), or signature lines (``- get_weather(city: str): …``). The
   example reply in the prompt says which keys carry the tool name and the arguments
   (``name``/``arguments`` by default, or ``tool_name``, ``tool``/``args``, ``action``/``action_input``…).
   ``Action Input`` in the prompt means the text ReAct format.
2. **Read the conversation** (``read_exchange``). The request is the last user message that is not
   a tool result; after it come the simulator's own earlier calls (re-read from its text) and the
   results sent back ("工具结果：calculate 返回 46", "Observation: …", "工具 X 返回：…", a JSON
   envelope, a ``tool`` message). Each result is paired with the call before it.
3. **Plan** with the shared planner, one call per turn (``parallel=False``).
4. **Write the reply**: the call as JSON text in the chosen messiness profile, or
   ``Thought/Action/Action Input`` for ReAct, or the answer in words (``Final Answer:`` in ReAct).
   Faults spoil the first call after the request, as in native mode (``malformed_json``: the
   text stops mid-call; ``unknown_tool``: a plausible name that was not offered;
   ``string_arguments``: the arguments as a JSON string), or every turn (``repeat_forever``: the
   first planned call again and again; ``empty_reply``: nothing at all). When the learner's code
   answers a failed attempt -- it could not parse it, or the tool does not exist -- the next reply
   is the same call written cleanly, without the messiness profile, so a retry loop is seen to work.

The simulator never writes ``Observation:`` itself: only running the tool can produce one. The
``stop`` sequences of the request are applied to the text, as a model's server does.

Left out: several calls in one reply (one call per turn is what such prompts ask for), tool specs
given only in a user message, free-text Action Inputs for tools with more than one parameter, and
understanding free-form corrections from the user: a user message that is not a tool result (or the
answer to a question the simulator asked) starts a new request.
"""

from __future__ import annotations

import json
import re
from collections import deque
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Iterable

from ...tokens import count_message_tokens, estimate_tokens
from ..backend import ChatRequest, Completion
from . import messiness
from . import planner as _planner
from .planner import PlannedCall
from .text import language as _language

PROMPT_FAULTS = frozenset({"malformed_json", "unknown_tool", "string_arguments", "repeat_forever", "empty_reply"})
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
_IDENT = r"[A-Za-z_][\w.\-]*"
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
                        rf"\s*[`'\"“]?({_IDENT})[`'\"”]?\s*$", re.I)
_HEADING = re.compile(rf"^\s*#{{1,6}}\s*(?:\d+[.)、]\s*)?(?:工具\s*[:：]?\s*)?`?({_IDENT})`?\s*$")
_DESC_LINE = re.compile(r"^\s*(?:[-*•]\s*)?(?:描述|说明|功能|用途|作用|Description|Purpose)\s*[:：]\s*(.*)$", re.I)
_PARAMS_LINE = re.compile(r"^\s*(?:[-*•]\s*)?(?:参数说明|参数列表|输入参数|参数|Parameters|Params|Arguments|Args)"
                          r"\s*(?:[(（][^)）]*[)）])?\s*[:：]\s*(.*)$", re.I)
_PARAM_ITEM = re.compile(r"^\s*[-*•]\s*[`'\"]?([A-Za-z_]\w*)[`'\"]?\s*(?:[(（]([^)）]*)[)）])?\s*[:：]\s*(.*)$")
_SIGNATURE = re.compile(rf"^\s*(?:[-*•]|\d+[.)、])?\s*`?({_IDENT})\s*\(([^()]*)\)`?\s*(?:->\s*\w+\s*)?(?:[:：—–-]+\s*(.*))?$")
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


# ------------------------------------------------------------------------------ what was said so far

_REACT_LABEL = re.compile(
    r"^[ \t]*(Question|Thought|Action[ \t]*Input|Action|Observation|Final[ \t]*Answer|问题|思考|行动输入|行动|观察|最终答案)[ \t]*[:：][ \t]*",
    re.M | re.I)
_LABEL_KIND = {"question": "question", "问题": "question", "thought": "thought", "思考": "thought",
               "actioninput": "input", "行动输入": "input", "action": "action", "行动": "action",
               "observation": "observation", "观察": "observation", "finalanswer": "final", "最终答案": "final"}

_Q = r"[`'\"“‘]?"
_QE = r"[`'\"”’]?"
_OBSERVATION_PREFIXES = [
    re.compile(rf"^工具结果\s*[:：]\s*{_Q}({_IDENT}){_QE}\s*(?:返回(?:了)?(?:结果)?|的结果)\s*(?:为|是)?\s*[:：]?\s*"),
    re.compile(rf"^(?:你调用的|调用)?工具\s*{_Q}({_IDENT}){_QE}\s*(?:的)?(?:执行|调用)?(?:返回(?:了)?(?:结果)?|结果)\s*(?:为|是)?\s*[:：]?\s*"),
    re.compile(r"^(?:工具(?:执行|调用)?结果|工具返回|调用结果|执行结果|函数(?:返回|结果)|Tool\s+(?:result|output)|"
               rf"Function\s+(?:result|output)|Result)\s*(?:[(（]\s*({_IDENT})\s*[)）])?\s*[:：]\s*", re.I),
    re.compile(rf"^(?:Tool|Function)\s+{_Q}({_IDENT}){_QE}\s+(?:returned|result|output)\s*[:：]?\s*", re.I),
]
_ASKS_ORIGINAL = re.compile(r"[。.；;，,\s]*请(?:根据|结合|基于)[^“\"「]{0,30}?(?:回复|回答)[^“\"「]{0,12}?[:：]?\s*[“\"「『](.+?)[”\"」』]", re.S)
_ENVELOPE_KEYS = {"success", "data", "error", "result", "output", "observation", "tool_result"}
_WRAPPER_KEYS = {"tool", "tool_name", "name", "result", "output", "observation", "tool_result", "content"}
_PARSE_FEEDBACK = re.compile(
    r"无法解析|解析失败|不是(?:一个)?(?:合法|有效|正确)的\s*JSON|JSON\s*(?:格式)?(?:错误|不合法|无效)|格式(?:不正确|错误|有误)|"
    r"could\s*n[o']?t\s+(?:be\s+)?parse|failed\s+to\s+parse|not\s+(?:a\s+)?valid\s+JSON|invalid\s+(?:JSON|format)|parse\s+error",
    re.I)


@dataclass(frozen=True)
class _Attempt:
    """One call the simulator made earlier; ``call`` is None when its text could not be read back."""

    call: PlannedCall | None


@dataclass(frozen=True)
class _Observation:
    name: str | None
    text: str


@dataclass(frozen=True)
class _Feedback:
    text: str


@dataclass
class Exchange:
    """The conversation since the request, as the planner needs it."""

    request: str = ""
    earlier_request: str | None = None  # the request before it, when the simulator asked a question in between
    results: list[tuple[PlannedCall, str]] = field(default_factory=list)
    unpaired: list[int] = field(default_factory=list)  # results whose call was not seen: arguments unknown
    attempts: int = 0  # calls written since the request, readable or not
    retry: bool = False  # the last attempt failed and was answered: write the next call cleanly
    continues_thought: bool = False  # the conversation ends in a bare "Thought:" for the model to continue


def message_text(message: dict[str, Any]) -> str:
    """The text of a message (``content`` as a string or a list of text parts)."""
    content = message.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return ""


def _envelope(text: str) -> _Observation | None:
    if not text.startswith("{"):
        return None
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        return None
    if not isinstance(value, dict) or not (set(value) & (_ENVELOPE_KEYS | {"tool", "tool_name"})):
        return None
    name = next((value[k] for k in ("tool", "tool_name", "name") if isinstance(value.get(k), str)), None)
    inner_key = next((k for k in ("result", "output", "observation", "tool_result", "content") if k in value), None)
    if inner_key and set(value) <= _WRAPPER_KEYS:
        inner = value[inner_key]
        return _Observation(name, inner if isinstance(inner, str) else json.dumps(inner, ensure_ascii=False))
    return _Observation(name, text)


def _observation(text: str) -> tuple[_Observation, str | None] | None:
    """A tool result in one of the usual wrappings, and the original question if it repeats one."""
    stripped = text.strip()
    for pattern in _OBSERVATION_PREFIXES:
        match = pattern.match(stripped)
        if match:
            rest = stripped[match.end():]
            question = None
            asks = _ASKS_ORIGINAL.search(rest)
            if asks:
                question = asks.group(1).strip()
                rest = rest[:asks.start()]
            return _Observation(match.group(1), rest.strip()), question
    envelope = _envelope(stripped)
    return (envelope, None) if envelope else None


def _react_segments(text: str) -> list[tuple[str, str]]:
    """``[(kind, value)]`` for the ReAct labels in ``text`` (kind: question/thought/action/input/observation/final)."""
    matches = list(_REACT_LABEL.finditer(text))
    segments = []
    for index, match in enumerate(matches):
        end = matches[index + 1].start() if index + 1 < len(matches) else len(text)
        kind = _LABEL_KIND[re.sub(r"\s+", "", match.group(1)).lower()]
        segments.append((kind, text[match.end():end].strip()))
    return segments


def _read_arguments(text: str, prompt: ToolPrompt, name: str) -> dict[str, Any] | None:
    """Arguments from their text (JSON, messy JSON, a JSON string, or a bare value for a one-parameter tool)."""
    text = text.strip().strip("`").removeprefix("json").strip()
    if not text:
        return {}
    value: Any = text
    for _ in range(2):  # a JSON string holding JSON: decode twice
        if not isinstance(value, str):
            break
        try:
            value, _end = messiness.loads_lenient(value) if value[:1] in "{｛[\"'“" else (value, 0)
        except (ValueError, RecursionError):
            return None
    if isinstance(value, dict):
        return value
    spec = next((tool for tool in prompt.tools if tool["name"] == name), None)
    properties = list((spec or {}).get("parameters", {}).get("properties", {}))
    if isinstance(value, str) and len(properties) == 1:
        return {properties[0]: value}
    return {} if value in ("", None) else None


def _read_json_call(text: str, prompt: ToolPrompt) -> _Attempt | None:
    """The call in one of the simulator's own JSON replies, or a failed attempt, or None for plain words."""
    for _, _, value in messiness.iter_json_values(text):
        found = prompt.reply.read(value)
        if found:
            name, arguments = found
            if isinstance(arguments, str):
                arguments = _read_arguments(arguments, prompt, name)
            return _Attempt(PlannedCall(name, arguments) if isinstance(arguments, dict) else None)
    key = "|".join(re.escape(k) for k in dict.fromkeys((prompt.reply.name_key, "name")))
    if re.search(rf"[{{｛][^}}｝]*?[\"'“]?(?:{key})[\"'”]?\s*[:：]", text):
        return _Attempt(None)  # a call that was cut off or garbled
    return None


def _react_events(segments: list[tuple[str, str]], prompt: ToolPrompt) -> list[Any]:
    events: list[Any] = []
    pending_action: str | None = None
    for kind, value in segments:
        if kind == "action":
            if pending_action is not None:
                events.append(_Attempt(None))
            pending_action = value.strip().strip("`'\"")
        elif kind == "input" and pending_action is not None:
            arguments = _read_arguments(value, prompt, pending_action)
            events.append(_Attempt(PlannedCall(pending_action, arguments) if arguments is not None else None))
            pending_action = None
        elif kind == "observation":
            if pending_action is not None:
                events.append(_Attempt(None))
                pending_action = None
            events.append(_Observation(None, value))
    if pending_action is not None:
        events.append(_Attempt(None))
    return events


def _events(role: str, text: str, message: dict[str, Any], prompt: ToolPrompt) -> list[Any]:
    """What one message after the request contributes: calls, observations, parse-error feedback."""
    if role == "tool" or role == "function":
        return [_Observation(message.get("name"), text.strip())]
    segments = _react_segments(text)
    if any(kind in ("action", "observation") for kind, _ in segments):
        return _react_events(segments, prompt)
    if role == "assistant":
        attempt = _read_json_call(text, prompt)
        return [attempt] if attempt else []
    observed = _observation(text)  # from a user message, or a system message some loops use for results
    if observed:
        return [observed[0]]
    if _PARSE_FEEDBACK.search(text):
        return [_Feedback(text)]
    return []


def _is_followup(turns: list[tuple[str, str, dict[str, Any]]], index: int) -> bool:
    """Whether user message ``index`` answers the model (a tool result, or feedback on its last reply)
    rather than asking something new. Feedback counts only right after a reply that tried to call a tool."""
    stripped = turns[index][1].strip()
    if _observation(stripped):
        return True
    segments = _react_segments(stripped)
    if segments and segments[0][0] in ("observation", "thought", "action"):
        return True
    previous = turns[index - 1] if index > 0 else None
    tried_a_call = previous is not None and previous[0] == "assistant" and re.search(r"[{｛]|Action", previous[1]) is not None
    return tried_a_call and _PARSE_FEEDBACK.search(stripped) is not None


def read_exchange(messages: list[dict[str, Any]], prompt: ToolPrompt) -> Exchange:
    """The request, the results so far (paired with the calls that produced them), and whether to retry cleanly."""
    leading = next((i for i, m in enumerate(messages) if m.get("role") not in ("system", "developer")), len(messages))
    turns = [(m.get("role", ""), message_text(m), m) for m in messages[leading:]]
    request_at = next((i for i in range(len(turns) - 1, -1, -1)
                       if turns[i][0] == "user" and not _is_followup(turns, i)), None)
    exchange = Exchange()
    events: list[Any] = []
    if request_at is not None:
        request_text = turns[request_at][1]
        segments = _react_segments(request_text)
        if segments and segments[0][0] == "question":  # a whole scratchpad in one user message
            exchange.request = segments[0][1]
            events += _react_events(segments[1:], prompt)
        else:
            exchange.request = request_text.strip()
        before = turns[request_at - 1] if request_at > 0 else None
        if before and before[0] == "assistant" and before[1].rstrip().endswith(("？", "?")):
            exchange.earlier_request = next((turns[i][1].strip() for i in range(request_at - 2, -1, -1)
                                             if turns[i][0] == "user" and not _is_followup(turns, i)), None)
    following = turns[request_at + 1:] if request_at is not None else turns
    for role, text, message in following:
        if not exchange.request and role == "user":  # e.g. "工具 X 返回了结果…请根据这个结果回答用户最初的问题“…”"
            observed = _observation(text)
            if observed and observed[1]:
                exchange.request = observed[1]
        events += _events(role, text, message, prompt)
    if turns:
        exchange.continues_thought = bool(re.search(r"(?:Thought|思考)\s*[:：]\s*$", turns[-1][1]))

    known = set(prompt.tool_names)
    pending: deque[_Attempt] = deque()
    for event in events:
        if isinstance(event, _Attempt):
            pending.append(event)
            exchange.attempts += 1
            exchange.retry = False
        elif isinstance(event, _Observation):
            if pending:
                call = pending.popleft().call
            else:  # a result handed back without the call (the seed sends a fresh request with it)
                name = event.name or (next(iter(known)) if len(known) == 1 else "")
                call = PlannedCall(name, {}) if name else None
                if call:
                    exchange.unpaired.append(len(exchange.results))
            if call is None:  # the answer to a garbled call: nothing the planner can use
                exchange.retry = True
                continue
            exchange.results.append((call, event.text))
            exchange.retry = call.name not in known  # a tool that does not exist: try again, properly
        elif isinstance(event, _Feedback):
            pending.clear()
            exchange.retry = True
    return exchange


# ------------------------------------------------------------------------------ the reply

def _compact(arguments: dict[str, Any]) -> str:
    return json.dumps(arguments, ensure_ascii=False)


def _call_thought(call: PlannedCall, exchange: Exchange, language: str) -> str:
    """One sentence of reasoning. It names the arguments without braces, so that the only JSON in a
    ReAct reply is the Action Input (a parser that grabs the first ``{…}`` is not misled)."""
    done = [c.name for c, _ in exchange.results]
    pairs = [f"{key}={value if isinstance(value, str) else _compact(value)}" for key, value in call.arguments.items()]
    if language == "zh":
        using = f"（{'，'.join(pairs)}）" if pairs else ""
        if done:
            return f"已经拿到 {done[-1]} 的结果，接下来调用 {call.name}{using}。"
        return f"这个问题需要用工具 {call.name} 来解决{using}。"
    using = f" ({', '.join(pairs)})" if pairs else ""
    if done:
        return f"I have the result of {done[-1]}. Next I call {call.name}{using}."
    return f"I need the {call.name} tool for this{using}."


def _final_thought(kind: str, language: str) -> str:
    zh = {"final": "我已经拿到需要的结果，可以回答用户了。", "clarify": "还缺少必要的信息，需要先问用户。",
          "fallback": "这个请求用不上工具，直接回答。"}
    en = {"final": "I now know the final answer.", "clarify": "I need more information from the user first.",
          "fallback": "No tool is needed for this request."}
    return (zh if language == "zh" else en).get(kind, zh["final"] if language == "zh" else en["final"])


def unknown_tool_name(name: str, known: Iterable[str]) -> str:
    """A plausible tool name that is not offered (the ``unknown_tool`` fault): ``get_weather`` → ``weather``."""
    known = set(known)
    for candidate in (name.removeprefix("get_"), f"{name}_tool", f"{name}_v2", f"tool_{name}"):
        if candidate and candidate not in known:
            return candidate
    return f"{name}_{len(known)}"


def _cut_at_stop(text: str, stop: list[str] | None) -> str:
    cuts = [text.find(s) for s in stop or [] if s]
    cuts = [c for c in cuts if c >= 0]
    return text[:min(cuts)] if cuts else text


def _write_call(call: PlannedCall, prompt: ToolPrompt, exchange: Exchange, faults: frozenset[str],
                flags: frozenset[str], language: str) -> str:
    name, arguments = call.name, call.arguments
    spoil = exchange.attempts == 0  # faults spoil the first call after the request; the retry is correct
    if exchange.retry:
        flags = frozenset()  # told its reply failed, the model writes the call cleanly
    if spoil and "unknown_tool" in faults:
        name = unknown_tool_name(name, prompt.tool_names)
    wire_arguments: Any = _compact(arguments) if spoil and "string_arguments" in faults else arguments
    thought = _call_thought(PlannedCall(name, arguments), exchange, language)
    if prompt.react:
        labels = prompt.react
        if spoil and "malformed_json" in faults:
            action_input = messiness.truncated_json(arguments, name="", arguments=arguments) if arguments else "{"
        else:
            action_input = messiness.render_json(wire_arguments, flags)
        head = "" if exchange.continues_thought else f"{labels.thought}{labels.colon}"
        return (f"{head}{thought}\n{labels.action}{labels.colon}{name}\n"
                f"{labels.action_input}{labels.colon}{action_input}")
    value = prompt.reply.build(name, wire_arguments, thought)
    if spoil and "malformed_json" in faults:
        return messiness.truncated_json(value, name=name, arguments=wire_arguments)
    return messiness.render_reply(value, flags, tool_name=name, language=language)


def _write_answer(answer: str, kind: str, prompt: ToolPrompt, exchange: Exchange, language: str) -> str:
    if not prompt.react:
        return answer
    labels = prompt.react
    head = "" if exchange.continues_thought else f"{labels.thought}{labels.colon}"
    return f"{head}{_final_thought(kind, language)}\n{labels.final_answer}{labels.colon}{answer}"


def system_prompt(messages: list[dict[str, Any]]) -> str:
    """The text of the system (or developer) messages before the conversation starts."""
    texts = []
    for message in messages:
        if message.get("role") not in ("system", "developer"):
            break
        texts.append(message_text(message))
    return "\n\n".join(texts)


def reply_text(request: ChatRequest, *, now: datetime | None = None) -> str:
    """The text of the simulator's reply to a prompt-JSON or ReAct request (before ``stop`` is applied)."""
    system_text = system_prompt(request.messages)
    prompt = read_tool_prompt(system_text)
    exchange = read_exchange(request.messages, prompt)
    options = frozenset(request.options)
    faults = options & PROMPT_FAULTS
    flags = messiness.profile_flags(options)
    if "empty_reply" in faults:
        return ""

    def plan(results: list[tuple[PlannedCall, str]]) -> _planner.Plan:
        return _planner.plan_turn(exchange.request, prompt.tools, results, parallel=False, tool_choice="auto", now=now)

    if exchange.earlier_request and plan([]).kind == "fallback":
        # The user is answering the question the simulator asked: read it with the request it completes.
        joiner = "，" if _language(exchange.earlier_request) == "zh" else ", "
        exchange.request = f"{exchange.earlier_request}{joiner}{exchange.request}"
    language = _language(exchange.request or system_text)
    for index in exchange.unpaired:  # a result without its call: the call is the one the planner would make
        name = exchange.results[index][0].name
        expected = _planner.plan_turn(exchange.request, prompt.tools, exchange.results[:index], parallel=True,
                                      tool_choice="auto", now=now)
        call = next((c for c in expected.calls if c.name == name), None)
        if call:
            exchange.results[index] = (call, exchange.results[index][1])

    if "repeat_forever" in faults:
        first = plan([])
        if first.calls:
            return _write_call(first.calls[0], prompt, exchange, faults, flags, language)
    turn = plan(exchange.results)
    if turn.calls:
        return _write_call(turn.calls[0], prompt, exchange, faults, flags, language)
    return _write_answer(turn.answer or "", turn.kind, prompt, exchange, language)


def respond(request: ChatRequest, *, now: datetime | None = None) -> Completion:
    """Answer a request that has no ``tools`` parameter but a tool prompt in its system message."""
    content = _cut_at_stop(reply_text(request, now=now), request.stop)
    return Completion(content=content, tool_calls=[], finish_reason="stop",
                      prompt_tokens=count_message_tokens(request.messages),
                      completion_tokens=estimate_tokens(content))
