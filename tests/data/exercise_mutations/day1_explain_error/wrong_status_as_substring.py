"""Finds the status code as a substring of the error text (`"401" in str(exc)`): a 400 whose message
mentions 4010 tokens is explained as a wrong API key."""

import openai


def explain_error(exc):
    text = str(exc)
    if isinstance(exc, openai.APITimeoutError):
        return "请求超时：服务器太久没有回复，把 .env 里的 LLM_TIMEOUT 调大一些。"
    if isinstance(exc, openai.APIConnectionError):
        return "连不上模型服务器：检查 .env 里的 LLM_BASE_URL，并确认服务已经启动。"
    if "401" in text:
        return "密钥被拒绝（401）：检查 .env 里的 LLM_API_KEY。"
    if "404" in text:
        return "找不到这个模型（404）：检查 .env 里的 LLM_MODEL。"
    if "429" in text:
        return "请求太频繁（429）：被限流了，请稍后再试。"
    return f"调用模型失败：{type(exc).__name__}: {exc}"


FAILS_AT = "4010"
ARGS = (explain_error,)
