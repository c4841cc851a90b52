"""Correct, in other words: no "超时" or "稍后" — "等了 X 秒没有回应" and "过一会儿再试" say the same; a table of checks."""

import openai

CHECKS = [
    (openai.APITimeoutError, "模型等了很久都没有回应。网络慢或模型慢时，把 .env 的 LLM_TIMEOUT 改大。"),
    (openai.APIConnectionError, "根本连不到模型服务。看看 .env 的 LLM_BASE_URL 写对没有（地址、端口、/v1），服务有没有在运行。"),
    (openai.AuthenticationError, "密钥没有通过验证。把 .env 的 LLM_API_KEY 重新复制一遍，前后别带空格。"),
    (openai.NotFoundError, "服务商那里找不到这个模型名。检查 .env 的 LLM_MODEL。"),
    (openai.RateLimitError, "请求发得太密，被服务商限制了。过一会儿再试，或者降低请求频率。"),
]


def explain_error(exc):
    for kind, text in CHECKS:
        if isinstance(exc, kind):
            return text
    return f"调用模型出错了（{type(exc).__name__}）：{exc or '没有更多信息'}。"


ARGS = (explain_error,)
