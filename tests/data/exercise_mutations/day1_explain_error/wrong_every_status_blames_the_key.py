"""Answers every HTTP status error (500, 400 …) with the key message: only 401 is about LLM_API_KEY."""

import json
import httpx
import openai

def explain_error(exc: Exception) -> str:
    """用中文解释一次失败的模型调用，并指出要修改的 .env 变量。"""
    if isinstance(exc, openai.APITimeoutError):  # 放在 APIConnectionError 之前：超时也是一种连接错误
        return "请求超时：服务器在规定时间内没有回复。模型比较慢时，调大 .env 里的 LLM_TIMEOUT（例如 LLM_TIMEOUT=120）；也检查一下服务器是否过载。"
    if isinstance(exc, openai.APIConnectionError):
        return "连接失败：连不上模型服务器。请检查 .env 里的 LLM_BASE_URL（协议、主机、端口和 /v1 路径），并确认服务已经启动。"
    if isinstance(exc, openai.AuthenticationError):
        return "密钥被拒绝（HTTP 401）：请检查 .env 里的 LLM_API_KEY 是否完整、没有多余的引号或空格，并且属于这个服务商。"
    if isinstance(exc, openai.NotFoundError):
        return "找不到模型（HTTP 404）：请检查 .env 里的 LLM_MODEL 是否写对；如果模型名没错，再检查 LLM_BASE_URL 的路径。"
    if isinstance(exc, openai.RateLimitError):
        return "请求太频繁（HTTP 429）：服务商限流了，请稍后再试，或降低请求频率；一直这样的话，检查账户的额度和余额。"
    if isinstance(exc, openai.APIStatusError):
        return "服务器拒绝了请求：请检查 .env 里的 LLM_API_KEY 是否正确。"
    return f"调用模型失败：{type(exc).__name__}: {exc}"


ARGS = (explain_error,)
