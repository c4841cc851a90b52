"""Handles the table's errors, but for anything else returns str(exc), which may be empty or English."""

import openai


def explain_error(exc):
    if isinstance(exc, openai.APITimeoutError):
        return "请求超时了：请调大 .env 里的 LLM_TIMEOUT。"
    if isinstance(exc, openai.APIConnectionError):
        return "连接失败：请检查 .env 里的 LLM_BASE_URL 和服务是否启动。"
    if isinstance(exc, openai.AuthenticationError):
        return "密钥被拒绝：请检查 .env 里的 LLM_API_KEY。"
    if isinstance(exc, openai.NotFoundError):
        return "找不到模型：请检查 .env 里的 LLM_MODEL。"
    if isinstance(exc, openai.RateLimitError):
        return "请求太频繁，请稍后再试。"
    return str(exc)


ARGS = (explain_error,)
FAILS_AT = "其他异常"
