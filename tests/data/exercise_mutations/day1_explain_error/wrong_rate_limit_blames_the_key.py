"""Explains a 429 as a key or model problem instead of telling the user to wait."""

import openai


def explain_error(exc):
    if isinstance(exc, openai.APITimeoutError):
        return "请求超时了：请调大 .env 里的 LLM_TIMEOUT。"
    if isinstance(exc, openai.APIConnectionError):
        return "连接失败：请检查 .env 里的 LLM_BASE_URL。"
    if isinstance(exc, openai.APIStatusError) and exc.status_code in (401, 429):
        return "密钥有问题或额度用完了：请检查 .env 里的 LLM_API_KEY。"
    if isinstance(exc, openai.NotFoundError):
        return "找不到模型：请检查 .env 里的 LLM_MODEL。"
    return f"调用模型失败：{type(exc).__name__}: {exc}"


ARGS = (explain_error,)
FAILS_AT = "429"
