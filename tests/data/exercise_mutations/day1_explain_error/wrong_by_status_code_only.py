"""Reads exc.status_code for everything: connection errors and timeouts have none (AttributeError)."""


def explain_error(exc):
    if exc.status_code == 401:
        return "密钥被拒绝：请检查 .env 里的 LLM_API_KEY。"
    if exc.status_code == 404:
        return "模型不存在：请检查 .env 里的 LLM_MODEL。"
    if exc.status_code == 429:
        return "请求太频繁，请稍后再试。"
    return f"服务器返回了错误（HTTP {exc.status_code}）。"


ARGS = (explain_error,)
FAILS_AT = "连接"
