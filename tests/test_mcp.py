"""Tools over MCP: the course's server over stdio and streamable HTTP, the hand-written wire, the
adapter.

The server runs as a real child process (``python -m handwritten_agent mcp-serve``); the agent runs
on the offline simulator through it, and the office evaluation scores the same through MCP as
in-process.
"""

from __future__ import annotations

import re
import socket
import subprocess
import sys
import time
from typing import Any

import pytest

pytest.importorskip("mcp", reason="没有安装 mcp（pip install 'mcp>=1.20,<2'）")

from handwritten_agent.agent import Agent  # noqa: E402
from handwritten_agent.course.evaluation.engine import evaluate  # noqa: E402
from handwritten_agent.course.evaluation.mcp import MCPWorlds  # noqa: E402
from handwritten_agent.course.evaluation.office_cases import (
    NOW,
    OFFICE_CASES,
    office_world_factory,
)  # noqa: E402
from handwritten_agent.llm import ChatClient  # noqa: E402
from handwritten_agent.mcp_tools.adapter import (
    MCPToolbox,
    result_to_tool_result,
    tools_from_listing,
)  # noqa: E402
from handwritten_agent.mcp_tools.connection import SDKConnection  # noqa: E402
from handwritten_agent.mcp_tools.wire import WireClient, WireError  # noqa: E402
from handwritten_agent.scenarios import basic_registry  # noqa: E402
from handwritten_agent.tools import ToolRegistry  # noqa: E402

SERVE = [sys.executable, "-m", "handwritten_agent", "mcp-serve"]


def client(offline_server: Any, model: str = "course-sim") -> ChatClient:
    return ChatClient(offline_server.base_url, "test", model, max_retries=0, timeout=30)


@pytest.fixture(scope="module")
def day3_wire() -> Any:
    with WireClient([*SERVE, "--tools", "day3"]) as wire:
        wire.initialize()
        yield wire


@pytest.fixture(scope="module")
def http_url(tmp_path_factory: Any) -> Any:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen(
        [
            *SERVE,
            "--http",
            "--port",
            str(port),
            "--tools",
            "all",
            "--folder",
            str(tmp_path_factory.mktemp("mcp_http")),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline and process.poll() is None:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.2)
        else:
            pytest.fail("MCP HTTP 服务器没有启动起来")
        yield f"http://127.0.0.1:{port}/mcp/"
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_the_wire_by_hand_lists_the_registry_tools_with_their_schemas_unchanged(
    day3_wire: WireClient,
) -> None:
    listed = {entry["name"]: entry for entry in day3_wire.list_tools()}
    local = basic_registry(NOW)
    assert list(listed) == local.names()
    for item in local:
        assert listed[item.name]["inputSchema"] == item.parameters
        assert listed[item.name]["description"] == item.description
    methods = [message.get("method") for arrow, message in day3_wire.transcript if arrow == "→"]
    assert methods[:3] == ["initialize", "notifications/initialized", "tools/list"]
    assert (
        day3_wire.call_tool("calculator", {"expression": "17 * 9"})["content"][0]["text"] == "153"
    )
    wrong = day3_wire.call_tool("calculator", {"expression": 17})
    assert wrong["isError"] is True and "参数" in wrong["content"][0]["text"]


def test_an_agent_through_stdio_answers_as_in_process(
    offline_server: Any, day3_wire: WireClient
) -> None:
    request = "17 乘以 9 等于多少？"
    local = Agent(client(offline_server), basic_registry(NOW), max_steps=4).run(request)
    remote_registry = MCPToolbox(day3_wire, server="day3").registry()
    remote = Agent(client(offline_server), remote_registry, max_steps=4).run(request)
    assert "153" in (local.answer or "")
    assert [r.call.name for r in remote.tool_calls] == [r.call.name for r in local.tool_calls]
    assert remote.answer == local.answer


def test_an_agent_through_streamable_http_with_the_sdk(offline_server: Any, http_url: str) -> None:
    with SDKConnection(url=http_url, timeout=60) as connection:
        box = MCPToolbox(connection, server="course", trusted_server=True)
        assert {"calculator", "query_room_availability"} <= set(box.registry().names())
        levels = {
            item.name: item.level for item in box.registry()
        }  # our own server's levels, read from _meta
        assert (
            levels["send_notification_email"],
            levels["book_meeting_room"],
            levels["calculator"],
        ) == ("L3", "L2", "L1")
        assert "export_customer_list" not in levels or levels["export_customer_list"] == "L0"
        refused = connection.call_tool("export_customer_list", {})
        assert (
            refused.get("isError") and "L0" in refused["content"][0]["text"]
        )  # the server keeps the level itself
        result = Agent(client(offline_server), box.registry(), max_steps=4).run(
            "17 乘以 9 等于多少？"
        )
        assert "153" in (result.answer or ""), result.answer
        assert [r.call.name for r in result.tool_calls] == ["calculator"]


def test_the_sdk_over_stdio_lists_the_same_tools(day3_wire: WireClient) -> None:
    with SDKConnection(command=[*SERVE, "--tools", "day3"], timeout=120) as connection:
        sdk = {entry["name"]: entry["inputSchema"] for entry in connection.list_tools()}
    assert sdk == {entry["name"]: entry["inputSchema"] for entry in day3_wire.list_tools()}


def test_server_failures_become_results_the_model_reads() -> None:
    listing = [
        {
            "name": "flaky",
            "description": "会出错的工具",
            "inputSchema": {
                "type": "object",
                "properties": {"n": {"type": "integer"}},
                "required": ["n"],
            },
        }
    ]

    def dead(name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        raise WireError("MCP 服务器在 1 秒内没有回答 tools/call。")

    registry = ToolRegistry(tools_from_listing(listing, dead))
    timed_out = registry.dispatch("flaky", {"n": 1})
    assert not timed_out.success and "没有回答" in timed_out.error
    missing = registry.dispatch("flaky", {})
    assert (
        not missing.success and "缺少必填参数 n" in missing.error
    )  # required kept: checked before the wire
    assert registry.get("flaky").untrusted and registry.get("flaky").level == "L2"
    error = result_to_tool_result(
        "flaky", {"content": [{"type": "text", "text": "数据库不可用"}], "isError": True}
    )
    assert not error.success and "数据库不可用" in error.error
    two = result_to_tool_result(
        "x", {"content": [{"type": "text", "text": "甲"}, {"type": "text", "text": "乙"}]}
    )
    assert two.success and two.data == "甲\n乙"
    with pytest.raises(ValueError, match="重名"):
        tools_from_listing([listing[0], {**listing[0], "name": "flaky"}], dead)


def test_a_server_that_exits_becomes_an_error_result() -> None:
    with WireClient([sys.executable, "-c", "import sys; sys.stdin.readline()"], timeout=30) as wire:
        with pytest.raises(WireError):
            wire.initialize(timeout=30)
        tool = tools_from_listing(
            [{"name": "gone", "inputSchema": {"type": "object"}}], wire.call_tool
        )[0]
        result = ToolRegistry([tool]).dispatch("gone", {})
        assert not result.success and "MCP" in result.error
    closed = ToolRegistry([tool]).dispatch(
        "gone", {}
    )  # after close(): a Chinese reason, not "write to closed file"
    assert not closed.success and "MCP" in closed.error and "closed file" not in closed.error


def test_the_office_evaluation_scores_the_same_through_mcp(
    offline_server: Any, tmp_path: Any
) -> None:
    cases = OFFICE_CASES[:4]
    local = evaluate(cases, office_world_factory(client(offline_server), root=tmp_path / "local"))
    worlds = MCPWorlds(client(offline_server), root=tmp_path / "mcp")
    try:
        remote = evaluate(cases, worlds)
    finally:
        worlds.close()
    assert [a.scores for a in remote.attempts] == [a.scores for a in local.attempts]
    assert [a.calls for a in remote.attempts] == [a.calls for a in local.attempts]
    assert any(a.passed for a in local.attempts)


def test_rewritten_names_stay_apart_and_route_to_their_own_tool() -> None:
    names = [
        "查询订单",
        "取消订单",  # same length, all Chinese: once both became "____"
        "订单 查询",
        "get_订单",
        "get_客户",
        "ａｂｃ",  # full-width letters
        "a.b",
        "a-b",
        "x" * 70,
        "x" * 64 + "y" * 6,  # same first 64 characters as the one above
    ]
    called: list[str] = []

    def call(name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        called.append(name)
        return {"content": [{"type": "text", "text": name}]}

    listing = [{"name": name, "inputSchema": {"type": "object"}} for name in names]
    tools = tools_from_listing(listing, call)
    local = [tool.name for tool in tools]
    assert len(set(local)) == len(names), local
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{1,64}", name) for name in local), local
    assert local[names.index("a-b")] == "a-b"  # a valid name is kept as the server wrote it
    assert local[names.index("get_订单")].startswith("get_")  # the readable part is kept
    assert [tool.name for tool in tools_from_listing(listing, call)] == local  # stable
    registry = ToolRegistry(tools)
    for name, remote in zip(local, names):
        result = registry.dispatch(name, {})
        assert result.success and result.data == remote
    assert called == names
    taken = {"name": local[0], "inputSchema": {"type": "object"}}  # a valid name equal to a rewrite
    with pytest.raises(ValueError, match="重名"):
        tools_from_listing([listing[0], taken], call)
