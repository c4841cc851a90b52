"""A server child skips the optional import that costs seconds, and still serves (the poisoned
server and ``python -m handwritten_agent.mcp_tools`` call ``skip_slow_optional_imports`` first)."""

from __future__ import annotations

import subprocess
import sys

import pytest

pytest.importorskip("mcp", reason="没有安装 mcp（MCP 官方 SDK），跳过")

PROBE = """
import sys
from handwritten_agent.mcp_tools.startup import skip_slow_optional_imports
marked = skip_slow_optional_imports()
import jsonschema, mcp.server.lowlevel
import handwritten_agent.mcp_tools.server
print(marked, sys.modules.get("rfc3987_syntax", "absent"), skip_slow_optional_imports())
"""


def test_the_slow_optional_module_is_never_imported_and_a_second_call_does_nothing():
    out = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=300, check=True
    ).stdout.split()
    assert out == ["['rfc3987_syntax']", "None", "[]"], out


def test_the_course_validation_still_works_without_it():
    probe = (
        "from handwritten_agent.mcp_tools.startup import skip_slow_optional_imports\n"
        "skip_slow_optional_imports()\n"
        "from handwritten_agent.scenarios import basic_registry\n"
        "r = basic_registry()\n"
        "print(r.dispatch('calculator', {'expression': 17}).success,"
        " r.dispatch('calculator', {'expression': '17 * 9'}).data)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=300, check=True
    ).stdout.split()
    assert out == ["False", "153"], out


def test_the_poisoned_server_starts_and_answers():
    from handwritten_agent.mcp_tools.wire import WireClient

    with WireClient([sys.executable, "-m", "handwritten_agent.mcp_tools.poisoned", "rug"]) as wire:
        wire.initialize()
        assert [entry["name"] for entry in wire.list_tools()] == ["lookup_news"]
        answer = wire.call_tool("lookup_news", {"topic": "天气"})
        assert "天气" in answer["content"][0]["text"] and answer["isError"] is False


def test_the_package_entry_point_serves_the_day3_tools():
    from handwritten_agent.mcp_tools.wire import WireClient

    command = [sys.executable, "-m", "handwritten_agent.mcp_tools", "--tools", "day3"]
    with WireClient(command) as wire:
        wire.initialize()
        assert "calculator" in [entry["name"] for entry in wire.list_tools()]
        assert wire.call_tool("calculator", {"expression": "17 * 9"})["content"][0]["text"] == "153"
