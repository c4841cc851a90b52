"""Model-name options of the course simulator: injected faults and prompt-JSON messiness profiles.

``course-sim:<option>[,<option>]`` selects them, e.g. ``course-sim:rate_limit`` or
``course-sim:fenced,slow``. A request may also name them in the ``X-Course-Fault`` header.
Unknown options are rejected with the 404 the real API gives for an unknown model, listing the
valid ones, so a typo never silently runs the fault-free simulator.
"""

from __future__ import annotations

from .backend import BackendError

SIMULATOR_MODEL = "course-sim"

FAULTS: dict[str, str] = {
    "malformed_json": "tool-call arguments that are not valid JSON",
    "unknown_tool": "a call to a tool name that was not offered",
    "string_arguments": "arguments double-encoded: a JSON string instead of an object",
    "repeat_forever": "the same tool call on every turn, never a final answer",
    "empty_reply": "an assistant message with no content and no tool calls",
    "slow": "the reply arrives after a delay (to exercise client timeouts)",
    "rate_limit": "HTTP 429 with a Retry-After header on the first attempt of each request",
    "server_error": "HTTP 500 on every attempt",
    "bad_tool_call_id": "every tool call gets the same id (call_0), reused across turns, as some compatible servers do",
    "gullible": "obeys instructions found in tool results (a prompt injection), each once; the default never does",
}

MESSINESS: dict[str, str] = {
    "clean": "a bare JSON object",
    "fenced": "JSON inside a ```json code fence",
    "prose": "sentences before and after the JSON",
    "trailing_comma": "a trailing comma before a closing brace",
    "fullwidth": "full-width punctuation and quotes (，：“”｛｝)",
    "single_quotes": "Python-style single quotes",
    "mixed": "several of the above at once",
}

OPTIONS = {**FAULTS, **MESSINESS}


def split_model_name(model: str) -> tuple[str, frozenset[str]]:
    """Split ``"course-sim:a,b"`` into ``("course-sim", {"a", "b"})`` without validating."""
    base, _, suffix = model.partition(":")
    options = frozenset(part.strip() for part in suffix.split(",") if part.strip())
    return base.strip(), options


def validate_options(model: str, options: frozenset[str], header: str | None = None) -> frozenset[str]:
    """Check simulator options (from the name and the optional header); raise a 404 naming the valid ones."""
    extra = frozenset(part.strip() for part in (header or "").split(",") if part.strip())
    everything = options | extra
    unknown = sorted(everything - OPTIONS.keys())
    if unknown:
        valid = ", ".join(sorted(OPTIONS))
        raise BackendError(404, f"The model `{model}` does not exist: unknown simulator option(s) {', '.join(unknown)}. Valid options: {valid}.",
                           code="model_not_found")
    return everything
