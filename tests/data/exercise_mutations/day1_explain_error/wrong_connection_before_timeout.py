"""Checks APIConnectionError before APITimeoutError: a timeout (a subclass) is explained as "cannot connect"."""

import openai


def explain_error(exc):
    if isinstance(exc, openai.APIConnectionError):
        return "连接失败：请检查 .env 里的 LLM_BASE_URL。"
    if isinstance(exc, openai.APITimeoutError):
        return "请求超时：调大 .env 里的 LLM_TIMEOUT。"
    if isinstance(exc, openai.AuthenticationError):
        return "密钥错误：检查 .env 里的 LLM_API_KEY。"
    if isinstance(exc, openai.NotFoundError):
        return "模型不存在：检查 .env 里的 LLM_MODEL。"
    if isinstance(exc, openai.RateLimitError):
        return "请求太频繁了，请稍后再试。"
    return f"调用模型失败：{exc}"


ARGS = (explain_error,)
FAILS_AT = "超时"
