"""Names the right variables, but in English."""

import openai


def explain_error(exc):
    if isinstance(exc, openai.APITimeoutError):
        return "Timed out: raise LLM_TIMEOUT in .env."
    if isinstance(exc, openai.APIConnectionError):
        return "Cannot connect: check LLM_BASE_URL in .env."
    if isinstance(exc, openai.AuthenticationError):
        return "Bad key: check LLM_API_KEY."
    if isinstance(exc, openai.NotFoundError):
        return "Unknown model: check LLM_MODEL."
    if isinstance(exc, openai.RateLimitError):
        return "Rate limited, try again later."
    return f"Model call failed: {exc}"


ARGS = (explain_error,)
FAILS_AT = "401"
