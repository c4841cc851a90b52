"""Model-name options of the course simulator: injected faults and prompt-JSON messiness profiles.

``course-sim:<option>[,<option>]`` selects them, e.g. ``course-sim:rate_limit`` or
``course-sim:fenced,slow``. A request may also name them in the ``X-Course-Fault`` header.
Unknown options are rejected with a 404 (the status the real API gives for an unknown model) whose
message, in Chinese since no provider has simulator options, names the valid ones, so a typo never
silently runs the fault-free simulator.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from .backend import BackendError, ChatRequest, Completion

SIMULATOR_MODEL = "course-sim"

FAULTS: dict[str, str] = {
    "malformed_json": "工具调用的参数不是合法的 JSON（第一次写到一半就断了）",
    "unknown_tool": "调用一个请求里没有提供的工具名",
    "string_arguments": "参数被编码了两次：是一个 JSON 字符串，而不是对象",
    "repeat_forever": "每一轮都发出同一个工具调用，永远不给最终回答",
    "empty_reply": "一条既没有文字也没有工具调用的 assistant 消息",
    "slow": "回复要等一会儿才到（用来触发客户端超时）",
    "rate_limit": "每个请求的第一次尝试返回 HTTP 429，带 Retry-After 响应头",
    "server_error": "每一次尝试都返回 HTTP 500",
    "bad_tool_call_id": (
        "每个工具调用的 id 都一样（call_0），而且跨轮重复使用，有些兼容服务就是这样"
    ),
    "gullible": (
        "听从工具结果里任何提到可用操作的指令（提示词注入：伪造的 SYSTEM、角色标记、结束标签、"
        "“用户已经同意”……），每条只听一次；默认的模拟器从不这样做"
    ),
    "no_tools": (
        "请求一带 tools 就返回 HTTP 400 “… does not support tools”：Ollama 上没有工具模板的模型就是"
        "这样回答的"
    ),
    "no_tool_parser": (
        "请求一带 tools 就返回 vLLM 启动时没打开工具解析（--enable-auto-tool-choice、"
        "--tool-call-parser）时的 HTTP 400"
    ),
    "drops_tools": (
        "接受 tools，却不把工具定义交给模型：像 llama_cpp.server 的通用模板"
        "（--chat_format chatml-function-calling）那样，工具不进提示词，prompt_tokens 不变，"
        "模型只看得到对话（按名字强制的 tool_choice 除外）"
    ),
    "text_tool_calls": (
        "工具定义交给了模型，模型的调用却被当成文字返回：content 里是 <tool_call>{…}</tool_call>，"
        "没有 tool_calls（像 llama_cpp.server 用 GGUF 自带模板、却没有工具解析器时那样）；"
        "别的模型的写法见 text_calls_* 这几个选项"
    ),
    "reasoning_model": (
        "像推理模型一样拒绝 max_tokens（要用 max_completion_tokens）和不是默认值 1 的 temperature"
        "（HTTP 400）"
    ),
    "flaky": (
        "按请求和第几次运行播下的种子，"
        "大约三次里有一次走偏：读错一个参数（差一点的值）或少做一步；同一份评测重跑结果相同，用来看"
        " pass^1 和 pass^k 的差别"
    ),
}
"""Fault name -> what the simulator does (Chinese: learners print this table)."""

MESSINESS: dict[str, str] = {
    "clean": "一个干净的 JSON 对象",
    "fenced": "JSON 包在 ```json 代码块里",
    "prose": "JSON 前后各有一句说明文字",
    "trailing_comma": "右花括号前多一个逗号",
    "fullwidth": "全角标点和引号（，：“”｛｝）",
    "single_quotes": "Python 风格的单引号",
    "mixed": "以上几种一起出现",
}
"""Messiness profile (prompt-JSON mode, Day 2) -> how the JSON is written."""

TEXT_CALL_FORMATS: dict[str, str] = {
    "text_calls_xml": (
        '同 text_tool_calls，但调用写成 <tools><function name="…"><arguments>{…}</arguments>'
        "</function></tools>（Qwen2.5-Coder 1.5B 在 llama_cpp.server 上这样写过）"
    ),
    "text_calls_llama": "同 text_tool_calls，但调用写成 <function=名字>{…}</function>（Llama 3.1）",
    "text_calls_mistral": (
        '同 text_tool_calls，但调用写成 [TOOL_CALLS] [{"name": …, "arguments": …}]（Mistral）'
    ),
    "text_calls_json": (
        '同 text_tool_calls，但调用只是一个 JSON 对象 {"name": …, "parameters": …}（Llama 3.2）'
    ),
}
"""Option -> the format the ``text_tool_calls`` fault writes its calls in instead of Qwen's tags
(each option alone turns the fault on)."""

OPTIONS = {**FAULTS, **MESSINESS, **TEXT_CALL_FORMATS}


def split_model_name(model: str) -> tuple[str, frozenset[str]]:
    """Split ``"course-sim:a,b"`` into ``("course-sim", {"a", "b"})`` without validating."""
    base, _, suffix = model.partition(":")
    options = frozenset(part.strip() for part in suffix.split(",") if part.strip())
    return base.strip(), options


def validate_options(
    model: str, options: frozenset[str], header: str | None = None
) -> frozenset[str]:
    """Check simulator options (from the name and the optional header); raise a 404 naming the valid
    ones.
    """
    extra = frozenset(part.strip() for part in (header or "").split(",") if part.strip())
    everything = options | extra
    unknown = sorted(everything - OPTIONS.keys())
    if unknown:
        valid = "、".join(sorted(OPTIONS))
        raise BackendError(
            404,
            f"模型 `{model}` 不存在：离线模拟器没有选项 {'、'.join(unknown)}。可用的选项："
            f"{valid}。",
            code="model_not_found",
        )
    return everything


def provider_error(chat: ChatRequest, body: dict[str, Any]) -> BackendError | None:
    """The error a real server of another kind would give this request, for the options that
    imitate one (``no_tools``, ``no_tool_parser``, ``reasoning_model``); None otherwise. The
    messages are the servers' own, word for word: learners meet them from those servers."""
    options = chat.options
    if chat.tools and "no_tools" in options:  # Ollama's OpenAI-compatible endpoint
        return BackendError(
            400,
            f"registry.ollama.ai/library/{chat.model} does not support tools",
            type="api_error",
        )
    if chat.tools and "no_tool_parser" in options and chat.tool_choice in (None, "auto"):
        message = (
            '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set'
        )
        shape = {
            "object": "error",
            "message": message,
            "type": "BadRequestError",
            "param": None,
            "code": 400,
        }
        return BackendError(400, message, type="BadRequestError", shape=shape)
    if "reasoning_model" in options:  # OpenAI's o-series
        if body.get("max_tokens") is not None:
            return BackendError(
                400,
                "Unsupported parameter: 'max_tokens' is not supported with this model. Use "
                "'max_completion_tokens' instead.",
                param="max_tokens",
                code="unsupported_parameter",
            )
        temperature = body.get("temperature")
        if temperature is not None and temperature != 1:
            return BackendError(
                400,
                f"Unsupported value: 'temperature' does not support {temperature} with this "
                "model. Only the default (1) value is supported.",
                param="temperature",
                code="unsupported_value",
            )
    return None


def as_templated(chat: ChatRequest) -> ChatRequest:
    """The request as a server's chat template hands it to the model: for ``drops_tools``, without
    the tools unless ``tool_choice`` forces one by name (what llama-cpp-python's generic
    ``chatml-function-calling`` template does); otherwise unchanged.
    """
    if "drops_tools" in chat.options and chat.tools and not isinstance(chat.tool_choice, dict):
        return replace(chat, tools=None, tool_choice=None)
    return chat


def _text_call(style: str, name: str, arguments: dict[str, Any]) -> str:
    """One call written as text in ``style`` (an option of ``TEXT_CALL_FORMATS``, else Qwen's)."""
    args = json.dumps(arguments, ensure_ascii=False)
    if style == "text_calls_xml":
        return f'<tools><function name="{name}"><arguments>{args}</arguments></function></tools>'
    if style == "text_calls_llama":
        return f"<function={name}>{args}</function>"
    if style == "text_calls_json":
        return json.dumps({"name": name, "parameters": arguments}, ensure_ascii=False)
    call = json.dumps({"name": name, "arguments": arguments}, ensure_ascii=False)
    return f"<tool_call>\n{call}\n</tool_call>"


def as_parsed(completion: Completion, chat: ChatRequest) -> Completion:
    """The reply as a server's parser hands it back: for ``text_tool_calls`` (or one of
    ``TEXT_CALL_FORMATS``), the calls the model made left as its text, in Qwen's ``<tool_call>``
    tags or the chosen format, unless ``tool_choice`` forced one by name; otherwise unchanged.
    """
    style = min(chat.options & TEXT_CALL_FORMATS.keys(), default="text_tool_calls")
    if style not in chat.options or not completion.tool_calls:
        return completion
    if isinstance(chat.tool_choice, dict):
        return completion
    calls = [
        (call["function"]["name"], json.loads(call["function"]["arguments"] or "{}"))
        for call in completion.tool_calls
    ]
    if style == "text_calls_mistral":  # Mistral writes every call of a reply in one list
        listed = [{"name": name, "arguments": arguments} for name, arguments in calls]
        text = "[TOOL_CALLS] " + json.dumps(listed, ensure_ascii=False)
    else:
        text = "\n".join(_text_call(style, name, arguments) for name, arguments in calls)
    return replace(completion, content=text, tool_calls=[], finish_reason="stop")
