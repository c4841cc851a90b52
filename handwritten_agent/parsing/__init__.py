"""Tool calls recovered from a model's text: find the JSON, repair it, read the call out of it.

Without native tool calling (Day 2) a model "calls" a tool by writing JSON into its reply, and real
models write it messily: inside a code fence, after a sentence of prose, with a trailing comma,
single quotes, full-width punctuation from a Chinese keyboard (，：“”｛｝), Python's True/None, the
arguments double-encoded as a string, under other key names (tool_name, args, parameters, ...), in
OpenAI's {"function": {...}} shape, in Qwen's <tool_call> tags, or as a ReAct "Action:" block. This
package turns all of that into a ``ToolCall`` (``messages.ToolCall`` with ``id == ""``: text carries
no id), or into a ``ParseError`` whose ``message`` is written for the model, so the agent can send
it back and ask for a corrected reply.

How it works, in three steps that the Day 2 notebook shows one at a time — one file each:

1. ``blocks.find_json_blocks`` scans the text once, counting brackets (and ignoring brackets inside
   strings), and returns every top-level ``{...}`` / ``[...]`` block, plus a block that is never
   closed (truncated output).
2. ``repair.repair_json`` applies small, string-aware repairs, each its own function (see
   ``REPAIRS``): comments, quotes, full-width punctuation, bare keys, Python literals, trailing
   commas. Text inside string values is never touched, so "北京，晴" keeps its full-width comma.
3. ``calls.parse_tool_call`` reads the name and arguments out of the first block that is a tool
   call.

``react.parse_react`` reads the text ReAct format instead; ``results`` holds what they return
(``ParseError``, ``ReActStep``).

Every step is a linear scan with no backtracking-prone regular expression, and nothing is ever
evaluated as code (no ``eval``, no ``ast.literal_eval``): the only decoder is ``json.loads``.

Left out on purpose: checking the arguments against the tool's JSON Schema and checking that the
tool exists (``handwritten_agent.tools`` does both); guessing at truncated output (a block that is
never closed is an error, so the model is asked again rather than a half call being run); and
pythonic call syntax such as ``get_weather(city="北京")``.
"""

from .blocks import JsonBlock, find_json_blocks
from .calls import parse_tool_call, parse_tool_calls
from .react import parse_react
from .repair import REPAIRS, extract_json, repair_json, repair_json_steps
from .results import ARGUMENT_KEYS, MAX_BLOCKS, MAX_DEPTH, NAME_KEYS, ParseError, ReActStep

__all__ = [
    "ARGUMENT_KEYS",
    "JsonBlock",
    "MAX_BLOCKS",
    "MAX_DEPTH",
    "NAME_KEYS",
    "REPAIRS",
    "ParseError",
    "ReActStep",
    "extract_json",
    "find_json_blocks",
    "parse_react",
    "parse_tool_call",
    "parse_tool_calls",
    "repair_json",
    "repair_json_steps",
]
