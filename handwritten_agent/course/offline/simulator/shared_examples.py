"""Examples a parameter borrows from the same parameter of another offered tool.

A tool set often describes one thing twice: ``reserve(venue: "场地名称，例如 篮球场")`` and
``check_open(venue: "场地名称")``. A person reading both knows that "篮球场" is a venue for the
second tool too; the simulator, which fills a parameter from the examples its description gives,
would otherwise ask for it. A parameter with no examples of its own borrows those of a parameter of
another tool with the same name whose description says the same before its examples (one is the
other's start, compared without spaces and punctuation).

Left out: parameters that share a meaning under different names, and borrowing formats from a
schema's ``pattern`` (a pattern is already the tool's own rule).
"""

from __future__ import annotations

import copy
import json
import re
from functools import lru_cache
from typing import Any

from .arguments.params import Param, examples_of
from .choose import unwrap_tool

_EXAMPLES_START = re.compile(r"(?:例如|比如|譬如|示例|e\.g\.?|for example|such as)", re.I)


def _plain(description: str) -> str:
    head = _EXAMPLES_START.split(description, maxsplit=1)[0]
    return re.sub(r"[\s\W_]+", "", head).lower()


def share_examples(tools: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``tools`` with each example-less parameter given the examples of its namesakes (the same
    list, unchanged, when there is nothing to borrow)."""
    key = json.dumps(tools, ensure_ascii=False, sort_keys=True, default=str)
    shared = _shared(key)
    return tools if shared is None else shared


@lru_cache(maxsize=256)
def _shared(key: str) -> list[dict[str, Any]] | None:
    tools = json.loads(key)
    givers: dict[str, list[tuple[str, list[str]]]] = {}
    for tool in tools:
        for name, schema in _properties(tool).items():
            param = Param(name, schema, False)
            examples = examples_of(param)
            if examples:
                givers.setdefault(name, []).append((_plain(param.description), examples))
    changed = False
    out = copy.deepcopy(tools)
    for tool in out:
        for name, schema in _properties(tool).items():
            param = Param(name, schema, False)
            if examples_of(param) or name not in givers or schema.get("enum"):
                continue
            mine = _plain(param.description)
            borrowed = [
                example
                for plain, examples in givers[name]
                if mine and plain and (plain.startswith(mine) or mine.startswith(plain))
                for example in examples
            ]
            if borrowed:
                schema["examples"] = list(dict.fromkeys(borrowed))
                changed = True
    return out if changed else None


def _properties(tool: dict[str, Any]) -> dict[str, Any]:
    spec = unwrap_tool(tool)
    properties = (spec.get("parameters") or {}).get("properties") or {}
    return {k: v for k, v in properties.items() if isinstance(v, dict)}


__all__ = ["share_examples"]
