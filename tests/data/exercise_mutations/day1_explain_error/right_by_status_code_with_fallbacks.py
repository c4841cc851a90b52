"""Correct, in another style: timeouts and connections first by type, then HTTP errors by status code."""

import openai


def explain_error(exc):
    if isinstance(exc, openai.APITimeoutError):
        return "等了太久还没有回复（超时）。如果模型本来就慢，把 .env 里的 LLM_TIMEOUT 调大一些。"
    if isinstance(exc, openai.APIConnectionError):
        return "连接不上模型服务：核对 .env 里的 LLM_BASE_URL（主机、端口、是否带 /v1），再确认服务开着。"
    status = getattr(exc, "status_code", None)
    messages = {
        401: "服务器拒绝了密钥（401）：核对 .env 里的 LLM_API_KEY，注意不要多复制空格或引号。",
        404: "服务器说没有这个模型（404）：核对 .env 里的 LLM_MODEL 的拼写。",
        429: "请求太频繁被限流了（429）：稍后再试，或者放慢请求的节奏。",
    }
    if status in messages:
        return messages[status]
    if status is not None:
        return f"模型服务返回了 HTTP {status} 错误，可以稍后重试；一直出错就看看服务端的日志。"
    return f"调用模型时出现了意外的错误：{type(exc).__name__}（{exc}）。"


ARGS = (explain_error,)
