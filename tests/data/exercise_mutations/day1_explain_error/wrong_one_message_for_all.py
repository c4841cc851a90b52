"""One generic message that names every variable, whatever the error: it mentions the right word by accident."""


def explain_error(exc):
    return ("调用模型失败，请检查 .env 里的 LLM_API_KEY、LLM_MODEL、LLM_BASE_URL 和 LLM_TIMEOUT 是否正确，"
            f"也可能是超时或限流，请稍后再试。（{type(exc).__name__}）")


ARGS = (explain_error,)
FAILS_AT = "401"
