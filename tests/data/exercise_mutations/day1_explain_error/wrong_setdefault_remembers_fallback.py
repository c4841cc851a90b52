"""Looks the explanation up in a table by type and uses `setdefault` for the fallback: the first
exception of an unknown type writes its own text into the table, so the next exception of that type
(another ValueError) is explained with the first one's message."""

import openai

TABLE = {
    openai.APITimeoutError: "请求超时：服务器太久没有回复，把 .env 里的 LLM_TIMEOUT 调大一些。",
    openai.APIConnectionError: "连不上模型服务器：检查 .env 里的 LLM_BASE_URL，并确认服务已经启动。",
    openai.AuthenticationError: "密钥被拒绝（401）：检查 .env 里的 LLM_API_KEY。",
    openai.NotFoundError: "找不到这个模型（404）：检查 .env 里的 LLM_MODEL。",
    openai.RateLimitError: "请求太频繁（429）：被限流了，请稍后再试。",
}


def explain_error(exc):
    for kind in (openai.APITimeoutError, openai.APIConnectionError):
        if isinstance(exc, kind):
            return TABLE[kind]
    return TABLE.setdefault(type(exc), f"调用模型失败：{type(exc).__name__}: {exc}")


FAILS_AT = "其他异常"
ARGS = (explain_error,)
