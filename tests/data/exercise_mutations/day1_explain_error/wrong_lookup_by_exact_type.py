"""Looks the message up by the exact exception type: anything not in the table raises KeyError."""

import openai


def explain_error(exc):
    table = {openai.APITimeoutError: "请求超时：请调大 .env 里的 LLM_TIMEOUT。",
             openai.APIConnectionError: "连不上服务器：请检查 .env 里的 LLM_BASE_URL。",
             openai.AuthenticationError: "密钥错误：请检查 .env 里的 LLM_API_KEY。",
             openai.NotFoundError: "模型不存在：请检查 .env 里的 LLM_MODEL。",
             openai.RateLimitError: "请求太频繁，被限流了，请稍后再试。"}
    return table[type(exc)]


ARGS = (explain_error,)
FAILS_AT = "其他异常"
