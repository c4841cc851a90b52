"""Correct, another style: a table from exception class to sentence, looked up along the exception's
MRO, so the most specific class (a timeout before a connection error) wins without ordered ifs."""

import openai

SENTENCES = {
    openai.APITimeoutError: "等了太久没有回复，请求超时了：把 .env 里的 LLM_TIMEOUT 调大一些再试。",
    openai.APIConnectionError: "连不上模型服务：核对 .env 里的 LLM_BASE_URL（地址、端口、路径），确认服务在运行。",
    openai.AuthenticationError: "服务拒绝了密钥（401）：核对 .env 里的 LLM_API_KEY，注意不要带引号或空格。",
    openai.NotFoundError: "服务说没有这个模型（404）：核对 .env 里的 LLM_MODEL 的拼写。",
    openai.RateLimitError: "请求太多被限流了（429）：稍后再试，或者放慢请求的速度。",
}


def explain_error(exc):
    for cls in type(exc).__mro__:
        if cls in SENTENCES:
            return SENTENCES[cls]
    status = getattr(exc, "status_code", None)
    if status is not None:
        return f"模型服务返回了 HTTP {status} 错误：{getattr(exc, 'message', '') or '没有说明'}"
    return f"调用模型时出错了（{type(exc).__name__}）：{exc or '没有更多信息'}"


ARGS = (explain_error,)
