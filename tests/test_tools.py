"""The schema builder, the result envelope, the registry and validated dispatch."""

from __future__ import annotations

import json
import threading
import time
from typing import Annotated, Literal, Optional

import pytest
from jsonschema import Draft202012Validator

from handwritten_agent.tools import (
    Tool,
    ToolDefinitionError,
    ToolError,
    ToolRegistry,
    ToolResult,
    parse_docstring,
    tool,
)


@tool
def search_orders(
    customer_id: str,
    days: int = 30,
    status: Literal["paid", "shipped"] = "paid",
    include_refunds: bool = False,
    tags: list[str] | None = None,
    min_amount: Optional[float] = None,  # noqa: UP045 - the old spelling must work too
) -> dict:
    """按客户 ID 查询最近的订单，
    返回订单号、金额和状态。

    这一段是给开发者看的补充说明，不进入工具描述。

    Args:
        customer_id: 客户 ID，例如：C001
        days: 查询最近多少天，例如：30
        status (str): 订单状态，例如：paid
        include_refunds: 是否包含退款订单，例如：false
        tags: 订单标签，
            例如：["vip"]
        min_amount: 最低金额（元），例如：99.5

    Returns:
        dict: 订单列表
    """
    return {"customer_id": customer_id, "days": days, "status": status}


def params() -> dict:
    return search_orders.parameters


# --------------------------------------------------------------------------- schema builder


def test_description_is_the_first_paragraph_with_wrapped_chinese_lines_joined():
    assert search_orders.description == "按客户 ID 查询最近的订单，返回订单号、金额和状态。"


def test_types_map_to_json_schema():
    props = params()["properties"]
    assert props["customer_id"]["type"] == "string"
    assert props["days"] == {
        "type": "integer",
        "description": "查询最近多少天，例如：30",
        "default": 30,
    }
    assert props["status"]["type"] == "string" and props["status"]["enum"] == ["paid", "shipped"]
    assert props["include_refunds"]["type"] == "boolean"
    assert props["tags"]["type"] == "array" and props["tags"]["items"] == {"type": "string"}
    assert props["min_amount"]["type"] == "number"


def test_only_parameters_without_defaults_are_required_and_nothing_extra_is_allowed():
    assert params()["required"] == ["customer_id"]
    assert params()["additionalProperties"] is False
    Draft202012Validator.check_schema(params())


def test_docstring_args_support_type_in_parentheses_and_continuation_lines():
    props = params()["properties"]
    assert props["status"]["description"] == "订单状态，例如：paid"
    assert props["tags"]["description"] == '订单标签，例如：["vip"]'


def test_schema_has_the_chat_completions_shape_and_the_tool_stays_callable():
    schema = search_orders.schema()
    assert schema["type"] == "function"
    assert set(schema["function"]) == {"name", "description", "parameters"}
    assert schema["function"]["name"] == "search_orders"
    assert search_orders("C001", days=7) == {"customer_id": "C001", "days": 7, "status": "paid"}


def test_options_and_metadata_are_kept():
    @tool(
        name="send_sms",
        level="L3",
        side_effects=True,
        timeout=3,
        needs_confirmation=True,
        owner="ops",
    )
    def send(phone: str) -> str:
        """发送短信。

        Args:
            phone: 手机号，例如：13800000000
        """
        return "sent"

    assert isinstance(send, Tool)
    assert (send.name, send.level, send.side_effects, send.timeout, send.needs_confirmation) == (
        "send_sms",
        "L3",
        True,
        3,
        True,
    )
    assert send.metadata == {"owner": "ops"}


def test_annotated_description_and_no_parameter_tool():
    @tool
    def ping(host: Annotated[str, "主机名，例如：example.com"]) -> str:
        """检查主机是否在线。"""
        return host

    @tool
    def now() -> str:
        """返回当前时间。"""
        return "12:00"

    assert ping.parameters["properties"]["host"]["description"] == "主机名，例如：example.com"
    assert now.parameters == {
        "type": "object",
        "properties": {},
        "required": [],
        "additionalProperties": False,
    }


def test_missing_type_hint_fails_at_decoration_with_the_line_to_add():
    with pytest.raises(ToolDefinitionError) as info:

        @tool
        def lookup(city) -> str:
            """查天气。

            Args:
                city: 城市名，例如：北京
            """
            return city

    message = str(info.value)
    assert "参数 'city' 没有类型注解" in message and "def lookup(city: str" in message


def test_missing_parameter_description_fails_and_shows_the_args_line():
    with pytest.raises(ToolDefinitionError) as info:

        @tool
        def lookup(city: str, date: str) -> str:
            """查天气。

            Args:
                city: 城市名，例如：北京
            """
            return city

    message = str(info.value)
    assert "参数 'date' 没有描述" in message and "Args:" in message and "date:" in message


def test_missing_docstring_and_docstring_typos_and_bad_options_fail():
    def no_doc(x: int) -> int:
        return x

    def typo(city: str) -> str:
        """查天气。

        Args:
            city: 城市名，例如：北京
            cty: 拼错的参数
        """
        return city

    with pytest.raises(ToolDefinitionError, match="没有描述"):
        tool(no_doc)
    with pytest.raises(ToolDefinitionError, match="cty"):
        tool(typo)
    with pytest.raises(ToolDefinitionError, match="L0、L1、L2、L3"):
        tool(level="L9")(typo)
    with pytest.raises(ToolDefinitionError, match="= None"):

        def maybe(x: Optional[int]) -> int:  # noqa: UP045 - the old spelling is checked too
            """x.

            Args:
                x: 一个数，例如：3
            """
            return 0

        tool(maybe)
    with pytest.raises(ToolDefinitionError, match="没有对应的 JSON Schema"):

        def odd(x: complex) -> int:
            """x.

            Args:
                x: 一个复数
            """
            return 0

        tool(odd)


def test_parse_docstring_stops_at_the_next_section():
    description, args = parse_docstring("""做一件事。

    Args:
        a: 第一个
    Returns:
        b: not a parameter
    """)
    assert description == "做一件事。" and args == {"a": "第一个"}


# --------------------------------------------------------------------------- envelope


def test_tool_result_envelope_hides_the_exception_and_keeps_chinese_readable():
    failure = ToolResult.fail("城市不存在", ValueError("x"))
    assert failure.to_dict() == {"success": False, "data": None, "error": "城市不存在"}
    assert json.loads(failure.to_content()) == failure.to_dict()
    assert "城市不存在" in failure.to_content()  # ensure_ascii=False
    assert isinstance(failure.exception, ValueError)
    assert (
        ToolResult.ok({"t": 1}).to_content() == '{"success": true, "data": {"t": 1}, "error": null}'
    )


# --------------------------------------------------------------------------- registry and dispatch


@pytest.fixture
def registry() -> ToolRegistry:
    @tool
    def divide(a: int, b: int) -> float:
        """两个整数相除。

        Args:
            a: 被除数，例如：10
            b: 除数，例如：2
        """
        return a / b

    @tool(timeout=0.2)
    def slow(seconds: float) -> str:
        """睡一会儿。

        Args:
            seconds: 秒数，例如：1
        """
        time.sleep(seconds)
        return "done"

    @tool
    def refuse(reason: str) -> str:
        """总是失败。

        Args:
            reason: 原因，例如：没有权限
        """
        raise ToolError(f"拒绝执行：{reason}")

    return ToolRegistry([search_orders, divide, slow, refuse])


def test_registry_lookup(registry: ToolRegistry):
    assert "divide" in registry and "eval" not in registry
    assert registry.names() == ["search_orders", "divide", "slow", "refuse"]
    assert registry.get("divide").name == "divide" and registry.get("missing") is None
    assert [s["function"]["name"] for s in registry.schemas()] == registry.names()
    assert len(registry) == 4


def test_register_plain_function_and_duplicate_names():
    registry = ToolRegistry()

    @registry.register
    def echo(text: str) -> str:
        """原样返回文本。

        Args:
            text: 任意文本，例如：你好
        """
        return text

    assert isinstance(echo, Tool) and registry.dispatch("echo", {"text": "你好"}).data == "你好"
    with pytest.raises(ValueError, match="已经注册过"):
        registry.register(tool(name="echo")(echo.fn))


def test_dispatch_accepts_json_text_and_dicts(registry: ToolRegistry):
    assert registry.dispatch("divide", '{"a": 10, "b": 4}') == ToolResult(True, 2.5)
    assert registry.dispatch("divide", {"a": 10, "b": 4}).data == 2.5
    assert registry.dispatch("search_orders", '  {"customer_id": "C001"}  ').data["days"] == 30


def test_string_for_integer_is_an_error_naming_field_type_and_value(registry: ToolRegistry):
    result = registry.dispatch("divide", '{"a": "17", "b": 2}')
    assert not result.success
    assert (
        "参数 a 应该是整数（integer）" in result.error
        and '收到的是字符串（string）"17"' in result.error
    )


def test_float_for_integer_and_bool_for_integer_are_errors(registry: ToolRegistry):
    assert "收到的是数字（number）1.5" in registry.dispatch("divide", {"a": 1.5, "b": 2}).error
    assert "收到的是布尔值（boolean）" in registry.dispatch("divide", {"a": True, "b": 2}).error


def test_missing_extra_and_enum_errors_are_reported_together(registry: ToolRegistry):
    error = registry.dispatch("search_orders", {"status": "lost", "colour": "red"}).error
    assert "缺少必填参数 customer_id" in error
    assert "多余的参数 colour" in error and "允许的参数只有：customer_id、days" in error
    assert '参数 status 必须是 "paid"、"shipped" 之一' in error and '"lost"' in error


def test_nested_item_errors_name_the_path(registry: ToolRegistry):
    error = registry.dispatch("search_orders", {"customer_id": "C1", "tags": ["ok", 3]}).error
    assert "参数 tags.1 应该是字符串（string），收到的是整数（integer）3" in error


def test_bad_json_and_non_object_arguments(registry: ToolRegistry):
    bad = registry.dispatch("divide", '{"a": 1, "b": ')
    assert (
        not bad.success and "不是合法的 JSON" in bad.error and isinstance(bad.exception, ValueError)
    )
    assert (
        "参数是一个 JSON 字符串，而不是 JSON 对象"
        in registry.dispatch("divide", '"{\\"a\\": 1}"').error
    )
    assert "参数必须是一个 JSON 对象，收到的是数组" in registry.dispatch("divide", "[1, 2]").error


def test_empty_argument_text_means_no_arguments():
    @tool
    def ping() -> str:
        """回应 pong。"""
        return "pong"

    registry = ToolRegistry([ping])
    assert registry.dispatch("ping", "").data == "pong"
    assert registry.dispatch("ping", None).data == "pong"


def test_unknown_tool_lists_valid_names(registry: ToolRegistry):
    result = registry.dispatch("delete_everything", {})
    assert not result.success
    assert "没有名为 'delete_everything' 的工具" in result.error
    assert "search_orders、divide、slow、refuse" in result.error


def test_exceptions_become_error_results_and_keep_the_exception(registry: ToolRegistry):
    result = registry.dispatch("divide", {"a": 1, "b": 0})
    assert (
        result.success is False
        and result.error == f"工具 divide 执行时出错（ZeroDivisionError：{result.exception}）。"
    )
    assert isinstance(result.exception, ZeroDivisionError)
    assert "exception" not in result.to_dict()


def test_tool_error_message_reaches_the_model_without_a_type_name(registry: ToolRegistry):
    result = registry.dispatch("refuse", {"reason": "没有权限"})
    assert result.error == "拒绝执行：没有权限" and isinstance(result.exception, ToolError)


def test_timeout_returns_an_error_quickly(registry: ToolRegistry):
    release, finished = threading.Event(), threading.Event()

    @tool(timeout=0.2)
    def stuck() -> str:
        """等测试放行。"""
        release.wait(60)
        finished.set()
        return "done"

    stuck_result = ToolRegistry([stuck]).dispatch("stuck", {})
    assert not finished.is_set()  # dispatch answered while the tool was still running
    release.set()
    assert not stuck_result.success and "在 0.2 秒内没有完成" in stuck_result.error
    result = registry.dispatch("slow", {"seconds": 2})
    assert (
        not result.success
        and "在 0.2 秒内没有完成" in result.error
        and isinstance(result.exception, TimeoutError)
    )
    assert registry.dispatch("slow", {"seconds": 0}).data == "done"


def test_tool_returning_a_tool_result_is_passed_through():
    @tool(timeout=None)
    def check(value: int) -> ToolResult:
        """检查数值。

        Args:
            value: 数值，例如：3
        """
        return ToolResult.fail("太小了") if value < 5 else ToolResult.ok(value)

    registry = ToolRegistry([check])
    assert registry.dispatch("check", {"value": 1}).to_dict() == {
        "success": False,
        "data": None,
        "error": "太小了",
    }
    assert registry.dispatch("check", {"value": 9}).data == 9


def test_tools_run_in_a_worker_thread_only_when_they_have_a_timeout():
    seen = {}

    @tool(timeout=None)
    def inline() -> str:
        """记录线程。"""
        seen["inline"] = threading.current_thread()
        return "ok"

    @tool(timeout=1)
    def worker() -> str:
        """记录线程。"""
        seen["worker"] = threading.current_thread()
        return "ok"

    ToolRegistry([inline, worker]).dispatch("inline")
    ToolRegistry([worker]).dispatch("worker")
    assert (
        seen["inline"] is threading.current_thread()
        and seen["worker"] is not threading.current_thread()
    )


def test_dispatch_never_raises_for_model_input(registry: ToolRegistry):
    weird_inputs = [
        "",
        "null",
        "0",
        "{",
        "}",
        '{"a":',
        "[]",
        '{"a": NaN, "b": 1}',
        "\x00",
        '{"a": 1e999, "b": 1}',
        '{"a": {}, "b": []}',
    ]
    for name in ["divide", "search_orders", "nope", ""]:
        for text in weird_inputs:
            result = registry.dispatch(name, text)
            assert isinstance(result, ToolResult)
            json.loads(result.to_content())


def test_deeply_nested_arguments_are_an_error_result_not_a_recursion_error(registry):
    deep = '{"a": ' + "[" * 50000 + "]" * 50000 + ', "b": 1}'
    result = registry.dispatch("divide", deep)
    assert result.success is False and "嵌套层数太多" in result.error
