"""Reading a hand-written tool prompt: which tools it offers and what a reply should look like.

Learners write Day 2's system prompts by hand, so ``read_tool_prompt`` recovers the tools from
whatever layout they chose. JSON is read here: tool definitions (bare, OpenAI-style, a list, a
Python ``repr``, inside ``` fences or not), a parameters schema under a heading (the package's
``prompting`` format), and the example reply. Every other layout is read by its own module:
YAML-like blocks and Markdown tables (a JSON Schema in a table cell included) by
``toolprompt_blocks``, XML-like tags by ``toolprompt_tags``, nested bullet trees (a bare name, its
facts one level down) by ``toolprompt_trees``, and bulleted or numbered lists, label lines (``工具名
称：X`` / ``描述：…`` / ``参数说明：``), prose sentences and signatures (Python, TypeScript, JSDoc,
with the comments or docstrings that describe them) by ``toolprompt_layouts``. The example reply in
the prompt says which keys carry the tool name and the arguments (``ReplyFormat``); ``Action Input``
means the text ReAct format (``ReactLabels``).

Bare ``- snake_name: description`` bullets are many prompts' lists of fields, so tools read only
from them are marked ``tools_are_guessed``; they count when the prompt also shows an example call.

Left out: tools described only in a user message, and descriptions with no tool name next to a tool
word, a heading, a list marker or a table column (the simulator then sees no tools, as a confused
model would).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from . import messiness
from .toolprompt_blocks import table_tools, yaml_tools
from .toolprompt_layouts import section_tools
from .toolprompt_tags import tag_tools
from .toolprompt_trees import tree_tools
from .toolprompt_words import IDENT as IDENTIFIER  # noqa: F401 - re-exported for promptmode
from .toolprompt_words import Found

MAX_PROMPT_CHARS = 100_000  # longer system prompts are read only this far

# --------------------------------------------------------------------------- what the prompt offers

NAME_KEYS = (
    "name",
    "tool_name",
    "tool",
    "action",
    "function",
    "function_name",
    "toolName",
    "工具",
    "工具名",
    "工具名称",
)
ARGS_KEYS = (
    "arguments",
    "args",
    "parameters",
    "params",
    "action_input",
    "input",
    "tool_input",
    "arguments_json",
    "参数",
)
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
        """The ``(name, arguments)`` in a reply object written in this format (or the default
        one).
        """
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
    """What a system prompt offers: tool specs (``{"name", "description", "parameters"}``) and the
    reply format.
    """

    tools: list[dict[str, Any]]
    reply: ReplyFormat = ReplyFormat()
    react: ReactLabels | None = None  # set when the prompt asks for Thought / Action / Action Input
    has_example: bool = False  # the prompt shows an example call object
    # tools only from "- snake_name: text" bullets, which many prompts have
    tools_are_guessed: bool = False

    @property
    def tool_names(self) -> list[str]:
        return [tool["name"] for tool in self.tools]


_TOOL_NAME = re.compile(r"[^\s<>{}\[\]()'\"“”]{1,64}")


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
    is_schema = isinstance(parameters, dict) and (
        "properties" in parameters or parameters.get("type") == "object"
    )
    if not is_schema and not (
        parameters is None and isinstance(description, str) and description.strip()
    ):
        return None
    return {
        "name": name.strip(),
        "description": description.strip() if isinstance(description, str) else "",
        "parameters": dict(parameters) if is_schema else {"type": "object", "properties": {}},
    }


def _tools_in_json(value: Any) -> list[dict[str, Any]]:
    if isinstance(value, dict) and isinstance(value.get("tools"), list):
        value = value["tools"]
    items = value if isinstance(value, list) else [value]
    return [tool for tool in map(_tool_from_json, items) if tool]


def _is_schema(value: Any) -> bool:
    return (
        isinstance(value, dict)
        and isinstance(value.get("properties"), dict)
        and "name" not in value
    )


def _blank(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` with each span replaced by spaces (newlines kept), so offsets stay the same."""
    chars = list(text)
    for start, end in spans:
        for index in range(start, min(end, len(chars))):
            if chars[index] != "\n":
                chars[index] = " "
    return "".join(chars)


def _reply_format_of(value: Any) -> ReplyFormat | None:
    """The reply format if ``value`` is an example call object (not a tool definition)."""
    if not isinstance(value, dict) or _tool_from_json(value):
        return None
    name_key = next(
        (key for key in NAME_KEYS if key in value and not isinstance(value[key], (dict, list))),
        None,
    )
    args_key = next((key for key in ARGS_KEYS if key in value), None)
    if name_key and args_key:
        thought_key = next((key for key in THOUGHT_KEYS if key in value), None)
        return ReplyFormat(name_key=name_key, args_key=args_key, thought_key=thought_key)
    if len(value) == 1:
        ((wrapper, inner),) = value.items()
        in_list = isinstance(inner, list) and len(inner) > 0
        inner_format = _reply_format_of(inner[0] if in_list else inner)
        if inner_format and not inner_format.wrapper:
            return ReplyFormat(
                inner_format.name_key,
                inner_format.args_key,
                inner_format.thought_key,
                wrapper,
                in_list,
            )
    return None


def _react_labels(text: str) -> ReactLabels | None:
    if re.search(r"Action\s*Input\s*[:：]", text, re.I):
        return ReactLabels()
    if re.search(r"行动输入\s*[:：]", text):
        return CHINESE_REACT
    return None


def read_tool_prompt(system_text: str) -> ToolPrompt:
    """Recover the tools and the reply format from a hand-written system prompt, whatever its
    layout.
    """
    text = system_text[:MAX_PROMPT_CHARS]
    found: list[Found] = []
    schemas: list[tuple[int, int, dict[str, Any]]] = []
    json_spans: list[tuple[int, int]] = []
    json_values: list[tuple[int, int, Any]] = []
    reply: ReplyFormat | None = None
    from_yaml, yaml_spans = yaml_tools(text)
    for start, end, value in messiness.iter_json_values(text):
        if any(a <= start < b for a, b in yaml_spans):
            continue  # a flow list inside a YAML block ("enum: [a, b]") belongs to that block
        if isinstance(value, dict) and ":" not in text[start:end] and "：" not in text[start:end]:
            continue  # "{string}" in "@param {string} city" is a word in braces, not an object
        if isinstance(value, dict) or (
            isinstance(value, list) and any(isinstance(item, dict) for item in value)
        ):
            json_spans.append(
                (start, end)
            )  # read here; a list of words ("['a', 'b']") stays for the text readers
            json_values.append((start, end, value))
        tools = _tools_in_json(value)
        if tools:
            found.extend(
                Found(start, t["name"], t["description"], schema=t["parameters"]) for t in tools
            )
        elif _is_schema(value):
            schemas.append((start, end, value))
        elif reply is None:
            reply = _reply_format_of(value)
    prose = _blank(text, json_spans + yaml_spans)
    from_tags, tag_spans = tag_tools(prose, json_values)
    from_trees, tree_spans = tree_tools(_blank(prose, tag_spans))
    prose = _blank(prose, tag_spans + tree_spans)
    schemas = [schema for schema in schemas if not any(a <= schema[0] < b for a, b in tag_spans)]
    table_found, table_spans, _ = table_tools(prose, [], json_values)
    outside_tables = [
        schema for schema in schemas if not any(a <= schema[0] < b for a, b in table_spans)
    ]
    sections = section_tools(_blank(prose, table_spans), outside_tables, table_spans)
    found += from_yaml + from_tags + from_trees + table_found + sections
    # a table that lists only parameters belongs to the tool named in its caption, or just above it
    _, _, table_params = table_tools(prose, [(tool.position, tool.name) for tool in found])
    for tool in found:
        if tool.name in table_params and not _has_parameters(tool):
            tool.params = table_params[tool.name]
    strong = {tool.name for tool in found if tool.strong}
    tools: dict[str, Found] = {}
    for tool in sorted(found, key=lambda item: item.position):
        if not tool.strong and strong and tool.name not in strong:
            # bare bullets next to real tool definitions are not tools (but may describe one)
            continue
        known = tools.get(tool.name)
        if known is None:
            tools[tool.name] = tool
        elif (_has_parameters(tool) and not _has_parameters(known)) or (
            tool.strong and not known.strong
        ):
            tool.description = tool.description or known.description
            tools[tool.name] = tool
        elif not known.description and tool.description:
            known.description = tool.description
    return ToolPrompt(
        tools=[tool.spec() for tool in tools.values()],
        reply=reply or ReplyFormat(),
        react=_react_labels(text),
        has_example=reply is not None,
        tools_are_guessed=bool(tools) and not strong,
    )


def _has_parameters(tool: Found) -> bool:
    return bool(tool.params or (tool.schema and tool.schema.get("properties")))


def looks_like_tool_prompt(system_text: str) -> bool:
    """True when the system prompt describes tools and asks for calls as JSON text or in the ReAct
    format.

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
