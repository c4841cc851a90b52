"""The service's models: the primary from ``.env`` (as in every notebook) and, when one is named, a
fallback.

The fallback is configured like the primary, with ``LLM_FALLBACK_`` in front of the names:

- ``LLM_FALLBACK_MODEL``     another model on the primary's server (e.g. ``deepseek-chat`` behind
                             ``deepseek-reasoner``) — enough on its own;
- ``LLM_FALLBACK_PROVIDER``, ``LLM_FALLBACK_BASE_URL``, ``LLM_FALLBACK_API_KEY``  another server
                             altogether (the same rules as ``LLM_PROVIDER`` … in ``config``);
- ``LLM_FALLBACK_CONTEXT_WINDOW``  the fallback's window in tokens: the conversation is trimmed to
                                   it
                             (Day 4's window) before the fallback is asked.

``ServiceSettings`` may give all of this in code instead (``fallback_model``, ``fallback_llm``,
``fallback_context_window``); the environment is read only for what the settings leave unset.
``Models.client_for_run()`` wraps the two in a ``FallbackClient``; its switches reach the run they
happen in as ``fallback`` events (``reporting``).

Left out: more than one fallback (``FallbackClient`` takes any number; the environment names one),
and a circuit breaker that skips a primary known to be down.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass

from ..config import ConfigError, Settings, load_settings, read_env, resolve
from ..fallback import FallbackClient
from ..llm import ChatClient, connect
from ..messages import ChatModel

FALLBACK_VARS = (
    "LLM_FALLBACK_PROVIDER",
    "LLM_FALLBACK_BASE_URL",
    "LLM_FALLBACK_API_KEY",
    "LLM_FALLBACK_MODEL",
    "LLM_FALLBACK_CONTEXT_WINDOW",
)


def fallback_variables(
    environ: Mapping[str, str] | None = None, *, dotenv: bool = True
) -> dict[str, str]:
    """The ``LLM_FALLBACK_*`` variables that are set (environment over ``.env``, empty values
    dropped).
    """
    return read_env(FALLBACK_VARS, environ, dotenv=dotenv)[0]


@dataclass
class Models:
    """The primary client, the fallback client (or None) and the fallback's context window."""

    primary: ChatModel
    fallback: ChatModel | None = None
    fallback_context_window: int | None = None

    def client_for_run(self) -> ChatModel:
        """The client one run talks to: the primary alone, or both behind a ``FallbackClient``."""
        if self.fallback is None:
            return self.primary
        return FallbackClient(
            [self.primary, self.fallback], context_windows=[None, self.fallback_context_window]
        )

    @property
    def description(self) -> str:
        name = getattr(self.primary, "model", "?")
        if self.fallback is None:
            return f"{name}（没有配置备用模型）"
        return f"{name}，备用 {getattr(self.fallback, 'model', '?')}"


def _client(settings: Settings, model: str | None) -> ChatClient:
    return connect(quiet=True, settings=settings, model=model)


def build_models(
    llm: Settings | None = None,
    *,
    model: str | None = None,
    fallback_llm: Settings | None = None,
    fallback_model: str | None = None,
    fallback_context_window: int | None = None,
    environ: Mapping[str, str] | None = None,
    dotenv: bool = True,
) -> Models:
    """The primary (``llm`` or ``.env``; ``model`` overrides its model name) and the fallback, if
    one is named.
    """
    primary_settings = llm or load_settings(environ, dotenv=dotenv)
    primary = _client(primary_settings, model)
    variables = (
        fallback_variables(environ, dotenv=dotenv)
        if fallback_llm is None and fallback_model is None
        else {}
    )
    if fallback_context_window is None and "LLM_FALLBACK_CONTEXT_WINDOW" in variables:
        text = variables["LLM_FALLBACK_CONTEXT_WINDOW"]
        if not text.isdigit() or int(text) < 256:
            raise ConfigError(
                "LLM_FALLBACK_CONTEXT_WINDOW",
                f"LLM_FALLBACK_CONTEXT_WINDOW={text!r} 应该是备用模型的上下文窗口"
                "（token 数，至少 256），例如 8192；不设置就不裁剪。",
            )
        fallback_context_window = int(text)
    if fallback_llm is None and fallback_model is None:
        fallback_model = variables.get("LLM_FALLBACK_MODEL")
        if any(name in variables for name in ("LLM_FALLBACK_PROVIDER", "LLM_FALLBACK_BASE_URL")):
            renamed = {
                name.replace("LLM_FALLBACK_", "LLM_"): value
                for name, value in variables.items()
                if name != "LLM_FALLBACK_CONTEXT_WINDOW"
            }
            renamed.update(
                {
                    "LLM_TIMEOUT": str(primary_settings.timeout),
                    "LLM_MAX_RETRIES": str(primary_settings.max_retries),
                }
            )
            try:
                fallback_llm = resolve(renamed, env_file=primary_settings.env_file)
            except ConfigError as exc:
                raise ConfigError(
                    exc.variable.replace("LLM_", "LLM_FALLBACK_"), f"备用模型的配置有问题：{exc}"
                ) from exc
    if fallback_llm is None and fallback_model is None:
        return Models(primary)
    fallback_settings = fallback_llm or dataclasses.replace(primary_settings)
    return Models(primary, _client(fallback_settings, fallback_model), fallback_context_window)


__all__ = ["FALLBACK_VARS", "Models", "build_models", "fallback_variables"]
