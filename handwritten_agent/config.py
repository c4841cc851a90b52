"""Which model does the course talk to? Settings from the environment and ``.env``.

Six variables decide it (all optional):

- ``LLM_PROVIDER``     ``offline`` | ``local`` | a preset name (``deepseek``, ``ollama``, … see ``PRESETS``)
- ``LLM_BASE_URL``     the API root of any OpenAI-compatible server, e.g. ``https://api.deepseek.com/v1``
- ``LLM_API_KEY``      the key for that server (never printed)
- ``LLM_MODEL``        the model name the server knows
- ``LLM_TIMEOUT``      seconds to wait for one reply (default 60)
- ``LLM_MAX_RETRIES``  retries after HTTP 429 / 5xx (default 3)

The rules, in order:

1. ``LLM_PROVIDER=offline`` → the offline course simulator, whatever else is set.
2. ``LLM_PROVIDER=local``   → the embedded llama.cpp model (``LLM_MODEL`` may name another GGUF file).
3. ``LLM_PROVIDER=<preset>`` → that provider; the preset fills in ``LLM_BASE_URL`` and ``LLM_MODEL``.
4. ``LLM_BASE_URL`` alone   → a remote server; a URL on a known provider's host picks up its preset.
5. nothing set              → the offline course simulator.

A process environment variable wins over the same name in ``.env``; ``.env`` is searched from the
current directory upwards, so a notebook running in ``notebooks/`` finds the repository's ``.env``.
A half-set or invalid configuration raises ``ConfigError`` with one message that names the variable
to fix and says how.

Left out: starting servers and talking HTTP (``llm.connect`` does that), per-model price tables,
and provider-specific parameters beyond the few quirks listed in the presets.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, Mapping
from urllib.parse import urlsplit

from dotenv import dotenv_values, find_dotenv

Backend = Literal["offline", "local", "remote"]

ENV_VARS = ("LLM_PROVIDER", "LLM_BASE_URL", "LLM_API_KEY", "LLM_MODEL", "LLM_TIMEOUT", "LLM_MAX_RETRIES")
SIMULATOR_MODEL = "course-sim"
DEFAULT_TIMEOUT = 60.0
LOCAL_DEFAULT_TIMEOUT = 600.0  # a 1.5B model on 2 CPU cores can take minutes on a long prompt; a timeout would only redo the work
DEFAULT_MAX_RETRIES = 3
MAX_RETRIES_LIMIT = 10


class ConfigError(ValueError):
    """The configuration cannot be used. ``variable`` names the setting to fix."""

    def __init__(self, variable: str, message: str):
        super().__init__(message)
        self.variable = variable


@dataclass(frozen=True)
class Preset:
    """What the course knows about one OpenAI-compatible provider."""

    name: str
    title: str
    base_url: str
    default_model: str | None  # None: the server serves whatever you started it with; set LLM_MODEL
    requires_key: bool
    key_hint: str = ""  # where a learner gets a key, or what to put when none is needed
    quirks: tuple[str, ...] = ()


PRESETS: dict[str, Preset] = {
    preset.name: preset
    for preset in (
        Preset("openai", "OpenAI", "https://api.openai.com/v1", "gpt-4o-mini", True,
               "create one at https://platform.openai.com/api-keys"),
        Preset("deepseek", "DeepSeek", "https://api.deepseek.com/v1", "deepseek-chat", True,
               "create one at https://platform.deepseek.com/api_keys",
               ("deepseek-reasoner returns its chain of thought in `reasoning_content` next to `content`; "
                "ChatResult keeps it in .reasoning_content; to_message() leaves it out, as DeepSeek's docs ask "
                "for earlier turns.",)),
        Preset("qwen", "Qwen (DashScope compatible mode)", "https://dashscope.aliyuncs.com/compatible-mode/v1",
               "qwen-plus", True, "create one in the Alibaba Cloud Model Studio (百炼) console",
               ("Outside mainland China use https://dashscope-intl.aliyuncs.com/compatible-mode/v1 as LLM_BASE_URL.",)),
        Preset("moonshot", "Moonshot (Kimi)", "https://api.moonshot.cn/v1", "moonshot-v1-8k", True,
               "create one at https://platform.moonshot.cn/console/api-keys",
               ("Accepts temperature only between 0 and 1.",)),
        Preset("zhipu", "Zhipu (GLM)", "https://open.bigmodel.cn/api/paas/v4", "glm-4-flash", True,
               "create one at https://open.bigmodel.cn/usercenter/apikeys",
               ("The API root ends in /api/paas/v4, not /v1.",)),
        Preset("siliconflow", "SiliconFlow", "https://api.siliconflow.cn/v1", "Qwen/Qwen2.5-7B-Instruct", True,
               "create one at https://cloud.siliconflow.cn/account/ak",
               ("Model names include the organisation, e.g. Qwen/Qwen2.5-7B-Instruct.",)),
        Preset("ollama", "Ollama", "http://127.0.0.1:11434/v1", "qwen2.5:7b", False,
               "not needed; any non-empty text works",
               ("Pull the model first: `ollama pull qwen2.5:7b`.",
                "Only some models support tools (qwen2.5, llama3.1, …); others answer 400 'does not support tools'.")),
        Preset("vllm", "vLLM", "http://127.0.0.1:8000/v1", None, False,
               "not needed unless the server was started with --api-key",
               ("Set LLM_MODEL to the model the server was started with (see GET /v1/models).",
                "Tool calls need `vllm serve … --enable-auto-tool-choice --tool-call-parser hermes`.")),
        Preset("llamacpp", "llama.cpp server", "http://127.0.0.1:8080/v1", "local-model", False,
               "not needed unless llama-server was started with --api-key",
               ("llama-server serves one model and ignores the model name.",
                "Tool calls need `llama-server … --jinja`.")),
    )
}

SPECIAL_PROVIDERS = ("offline", "local")


def valid_provider_names() -> list[str]:
    return [*SPECIAL_PROVIDERS, *PRESETS]


@dataclass(frozen=True)
class Settings:
    """The resolved configuration. ``api_key`` never appears in ``repr()`` or ``banner()``."""

    backend: Backend
    provider: str | None = None  # a PRESETS name, or None
    base_url: str | None = None  # None for offline/local until connect() starts the server
    api_key: str | None = field(default=None, repr=False)
    model: str | None = None  # for local: an optional GGUF path; None means the course model
    timeout: float = DEFAULT_TIMEOUT
    max_retries: int = DEFAULT_MAX_RETRIES
    env_file: str | None = None  # the .env file that was read, if any

    @property
    def preset(self) -> Preset | None:
        return PRESETS.get(self.provider) if self.provider else None

    def banner(self) -> str:
        """One line: which backend, base URL and model are active. Never the key."""
        where = _display_url(self.base_url) if self.base_url else "in-process server on 127.0.0.1, started by connect()"
        if self.backend == "offline":
            return (f"LLM backend: offline · course simulator (a deterministic rule engine, not an LLM) · "
                    f"model: {self.model or SIMULATOR_MODEL} · base URL: {where}")
        if self.backend == "local":
            model = self.model or "Qwen2.5-Coder-1.5B-Instruct Q4_K_M (course model)"
            return f"LLM backend: local · embedded llama.cpp model on the CPU (a real LLM) · model: {model} · base URL: {where}"
        title = self.preset.title if self.preset else "OpenAI-compatible server"
        return f"LLM backend: remote · {title} · model: {self.model} · base URL: {where}"


def load_settings(environ: Mapping[str, str] | None = None, *, dotenv: bool = True) -> Settings:
    """Resolve the settings from ``environ`` (default ``os.environ``) and, if ``dotenv``, a ``.env`` file.

    The ``.env`` file is the first one found from the current directory upwards; variables in
    ``environ`` win over it. Raises ``ConfigError`` naming the variable to fix.
    """
    values, env_file = read_variables(environ, dotenv=dotenv)
    return resolve(values, env_file=env_file)


def read_variables(environ: Mapping[str, str] | None = None, *, dotenv: bool = True) -> tuple[dict[str, str], str | None]:
    """The six ``LLM_*`` variables (empty values dropped), environment over ``.env``, and the ``.env`` path."""
    environ = os.environ if environ is None else environ
    values: dict[str, str] = {}
    env_file: str | None = None
    if dotenv:
        path = find_dotenv(usecwd=True)
        if path:
            env_file = path
            for name, value in dotenv_values(path).items():
                if name in ENV_VARS and value is not None and value.strip():
                    values[name] = value.strip()
    for name in ENV_VARS:
        value = environ.get(name)
        if value is not None and value.strip():
            values[name] = value.strip()
    return values, env_file


def resolve(values: Mapping[str, str], *, env_file: str | None = None) -> Settings:
    """Apply the rules of this module to already-read variables."""
    where = f" (read from {env_file} and the environment)" if env_file else ""
    timeout = _parse_timeout(values.get("LLM_TIMEOUT"), where)
    max_retries = _parse_max_retries(values.get("LLM_MAX_RETRIES"), where)
    common = {"timeout": timeout, "max_retries": max_retries, "env_file": env_file}

    provider = values.get("LLM_PROVIDER", "").lower() or None
    base_url = values.get("LLM_BASE_URL")
    api_key = values.get("LLM_API_KEY")
    model = values.get("LLM_MODEL")

    if provider == "offline":
        return Settings(backend="offline", model=SIMULATOR_MODEL, **common)
    if provider == "local":
        if model and not Path(model).expanduser().is_file():
            raise ConfigError("LLM_MODEL", f"LLM_MODEL={model!r} is not a file{where}. With LLM_PROVIDER=local, LLM_MODEL may "
                              "name another GGUF model file; remove LLM_MODEL to use the course model "
                              "(python -m handwritten_agent model fetch).")
        if values.get("LLM_TIMEOUT") is None:
            common["timeout"] = LOCAL_DEFAULT_TIMEOUT
        return Settings(backend="local", model=str(Path(model).expanduser()) if model else None, **common)
    if provider is not None and provider not in PRESETS:
        raise ConfigError("LLM_PROVIDER", f"LLM_PROVIDER={provider!r} is not a known provider{where}. "
                          f"Use one of: {', '.join(valid_provider_names())} — or remove LLM_PROVIDER and set "
                          "LLM_BASE_URL and LLM_MODEL for any other OpenAI-compatible server.")

    if provider is None and base_url is None:
        stray = [name for name in ("LLM_API_KEY", "LLM_MODEL") if name in values]
        if stray:
            raise ConfigError("LLM_BASE_URL", f"{' and '.join(stray)} {'is' if len(stray) == 1 else 'are'} set but no server "
                              f"is named{where}. Set LLM_PROVIDER to a preset ({', '.join(PRESETS)}) or LLM_BASE_URL to the "
                              f"server's API root (e.g. https://api.deepseek.com/v1); or remove {' and '.join(stray)} "
                              "to use the offline simulator.")
        return Settings(backend="offline", model=SIMULATOR_MODEL, **common)

    if base_url is not None:
        base_url = _check_base_url(base_url, where)
    if provider is None:
        provider = _preset_for_url(base_url)
    preset = PRESETS.get(provider) if provider else None
    base_url = base_url or (preset.base_url if preset else None)
    model = model or (preset.default_model if preset else None)
    if not model:
        how = f"the model the {preset.title} server was started with" if preset else "the model name the server knows"
        raise ConfigError("LLM_MODEL", f"LLM_MODEL is not set{where}. Set LLM_MODEL in .env to {how} "
                          f"(GET {base_url}/models lists them).")
    if preset and preset.requires_key and not api_key:
        raise ConfigError("LLM_API_KEY", f"LLM_API_KEY is not set{where}, and {preset.title} needs one. "
                          f"Put LLM_API_KEY=<your key> in .env ({preset.key_hint}).")
    return Settings(backend="remote", provider=provider, base_url=base_url, api_key=api_key, model=model, **common)


def _parse_timeout(text: str | None, where: str) -> float:
    if text is None:
        return DEFAULT_TIMEOUT
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value <= 0:
        raise ConfigError("LLM_TIMEOUT", f"LLM_TIMEOUT={text!r} is not a positive number of seconds{where}. "
                          f"Set e.g. LLM_TIMEOUT=60, or remove it for the default ({DEFAULT_TIMEOUT:g}).")
    return value


def _parse_max_retries(text: str | None, where: str) -> int:
    if text is None:
        return DEFAULT_MAX_RETRIES
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value <= MAX_RETRIES_LIMIT:
        raise ConfigError("LLM_MAX_RETRIES", f"LLM_MAX_RETRIES={text!r} must be a whole number from 0 to "
                          f"{MAX_RETRIES_LIMIT}{where}. Set e.g. LLM_MAX_RETRIES=3, or remove it for the default "
                          f"({DEFAULT_MAX_RETRIES}).")
    return value


def _check_base_url(url: str, where: str) -> str:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ConfigError("LLM_BASE_URL", f"LLM_BASE_URL={_display_url(url)!r} is not an http(s) URL{where}. "
                          "Set it to the server's API root, e.g. https://api.deepseek.com/v1 or http://127.0.0.1:11434/v1.")
    url = url.rstrip("/")
    if url.endswith("/chat/completions"):
        raise ConfigError("LLM_BASE_URL", f"LLM_BASE_URL={_display_url(url)!r} includes the endpoint path{where}. "
                          f"Set it to the API root only: {_display_url(url[: -len('/chat/completions')])}")
    return url


def _preset_for_url(url: str | None) -> str | None:
    """The preset of a known cloud provider's host (local servers are not guessed: ports are reused)."""
    if not url:
        return None
    host = urlsplit(url).hostname
    for preset in PRESETS.values():
        if preset.requires_key and urlsplit(preset.base_url).hostname == host:
            return preset.name
    return None


def _display_url(url: str) -> str:
    """The URL without any ``user:password@`` part, so credentials never reach a banner or message."""
    parts = urlsplit(url)
    if parts.username is None and parts.password is None:
        return url
    host = parts.hostname or ""
    if parts.port:
        host = f"{host}:{parts.port}"
    return parts._replace(netloc=f"***@{host}").geturl()
