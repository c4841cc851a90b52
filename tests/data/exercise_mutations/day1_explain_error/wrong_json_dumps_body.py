"""Shows an HTTP error's body with json.dumps without ensure_ascii=False: a Chinese error message
from the provider reaches the learner as \\uXXXX escapes."""

import json

import openai


def explain_error(exc):
    if isinstance(exc, openai.APITimeoutError):
        return "请求超时：服务器太久没有回复，把 .env 里的 LLM_TIMEOUT 调大一些。"
    if isinstance(exc, openai.APIConnectionError):
        return "连不上模型服务器：检查 .env 里的 LLM_BASE_URL，并确认服务已经启动。"
    if isinstance(exc, openai.AuthenticationError):
        return "密钥被拒绝（401）：检查 .env 里的 LLM_API_KEY。"
    if isinstance(exc, openai.NotFoundError):
        return "找不到这个模型（404）：检查 .env 里的 LLM_MODEL。"
    if isinstance(exc, openai.RateLimitError):
        return "请求太频繁（429）：被限流了，请稍后再试。"
    if isinstance(exc, openai.APIStatusError):
        return f"服务器返回了错误（HTTP {exc.status_code}）：{json.dumps(exc.body)}"
    return f"调用模型失败：{type(exc).__name__}: {exc}"


FAILS_AT = "中文"
ARGS = (explain_error,)
