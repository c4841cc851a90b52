"""For an exception it does not know, raises its own ``Unexplained`` error derived from
``BaseException`` (so no ``except Exception`` stops it) instead of returning a sentence."""

import openai


class Unexplained(BaseException):
    pass


def explain_error(exc):
    if isinstance(exc, openai.APITimeoutError):
        return "请求超时：服务器在规定时间内没有回复。请调大 .env 里的 LLM_TIMEOUT（例如 LLM_TIMEOUT=120）。"
    if isinstance(exc, openai.APIConnectionError):
        return "连接失败：连不上模型服务器。请检查 .env 里的 LLM_BASE_URL，并确认服务已经启动。"
    if isinstance(exc, openai.AuthenticationError):
        return "密钥被拒绝（HTTP 401）：请检查 .env 里的 LLM_API_KEY 是否完整、没有多余的空格。"
    if isinstance(exc, openai.NotFoundError):
        return "找不到模型（HTTP 404）：请检查 .env 里的 LLM_MODEL 是否写对。"
    if isinstance(exc, openai.RateLimitError):
        return "请求太频繁（HTTP 429）：服务商限流了，请稍后再试，或降低请求频率。"
    raise Unexplained(f"不认识的错误：{type(exc).__name__}")


ARGS = (explain_error,)
