"""Correct, another way: a set of sha256 digests of (name, canonical JSON) encoded as one JSON array, so name and arguments never run together."""

import difflib
import json
from handwritten_agent.scenarios.exchange import CNY_PER_UNIT, currency_code
from handwritten_agent.tools import ToolError, ToolRegistry, ToolResult, tool

import hashlib


class RepeatGuard:
    def __init__(self):
        self._digests = set()

    def check(self, name, arguments):
        try:
            args = json.dumps(json.loads(arguments or "{}"), sort_keys=True, ensure_ascii=False)
        except (TypeError, ValueError):
            args = arguments
        digest = hashlib.sha256(json.dumps([name, args], ensure_ascii=False).encode("utf-8")).hexdigest()
        if digest in self._digests:
            return f"{name} 已经用同样的参数执行过了，请直接使用之前的结果。"
        self._digests.add(digest)
        return None


ARGS = (RepeatGuard,)
