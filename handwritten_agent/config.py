"""Which model does the course talk to? Settings from the environment and ``.env``.

Six variables decide it (all optional):

- ``LLM_PROVIDER``     ``offline`` | ``local`` | a preset name (``deepseek``, ``ollama``, … see
                       ``PRESETS``)
- ``LLM_BASE_URL``     the API root of any OpenAI-compatible server, e.g.
                       ``https://api.deepseek.com/v1``
- ``LLM_API_KEY``      the key for that server (never printed)
- ``LLM_MODEL``        the model name the server knows
- ``LLM_TIMEOUT``      seconds to wait for one reply (default 60)
- ``LLM_MAX_RETRIES``  retries after HTTP 429 / 5xx (default 3)

The rules, in order:

1. ``LLM_PROVIDER=offline`` → the offline course simulator, whatever else is set.
2. ``LLM_PROVIDER=local``   → the embedded llama.cpp model (``LLM_MODEL`` may name another GGUF
                            file).
3. ``LLM_PROVIDER=<preset>`` → that provider; the preset fills in ``LLM_BASE_URL`` and
   ``LLM_MODEL``.
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
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

from dotenv import dotenv_values, find_dotenv

Backend = Literal["offline", "local", "remote"]

ENV_VARS = (
    "LLM_PROVIDER",
    "LLM_BASE_URL",
    "LLM_API_KEY",
    "LLM_MODEL",
    "LLM_TIMEOUT",
    "LLM_MAX_RETRIES",
)
SIMULATOR_MODEL = "course-sim"
DEFAULT_TIMEOUT = 60.0
# a 1.5B model on 2 CPU cores can take minutes on a long prompt; a timeout would only redo the work
LOCAL_DEFAULT_TIMEOUT = 600.0
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
        Preset(
            "openai",
            "OpenAI",
            "https://api.openai.com/v1",
            "gpt-4o-mini",
            True,
            "在 https://platform.openai.com/api-keys 创建",
        ),
        Preset(
            "deepseek",
            "DeepSeek",
            "https://api.deepseek.com/v1",
            "deepseek-chat",
            True,
            "在 https://platform.deepseek.com/api_keys 创建",
            (
                (
                    "deepseek-reasoner 除了 content，还在 reasoning_content"
                    " 里返回思考过程；ChatResult 把它放在 "
                    ".reasoning_content，to_message() 不回传它（DeepSeek "
                    "的文档要求历史消息里不带它）。"
                ),
            ),
        ),
        Preset(
            "qwen",
            "通义千问（DashScope 兼容模式）",
            "https://dashscope.aliyuncs.com/compatible-mode/v1",
            "qwen-plus",
            True,
            "在阿里云百炼控制台创建",
            (
                (
                    "中国大陆以外请把 LLM_BASE_URL 设为"
                    " https://dashscope-intl.aliyuncs.com/compatible-mode/v1。"
                ),
            ),
        ),
        Preset(
            "moonshot",
            "Moonshot（Kimi）",
            "https://api.moonshot.cn/v1",
            "moonshot-v1-8k",
            True,
            "在 https://platform.moonshot.cn/console/api-keys 创建",
            ("temperature 只接受 0 到 1 之间的值。",),
        ),
        Preset(
            "zhipu",
            "智谱（GLM）",
            "https://open.bigmodel.cn/api/paas/v4",
            "glm-4-flash",
            True,
            "在 https://open.bigmodel.cn/usercenter/apikeys 创建",
            ("API 根地址以 /api/paas/v4 结尾，不是 /v1。",),
        ),
        Preset(
            "siliconflow",
            "SiliconFlow",
            "https://api.siliconflow.cn/v1",
            "Qwen/Qwen2.5-7B-Instruct",
            True,
            "在 https://cloud.siliconflow.cn/account/ak 创建",
            ("模型名带组织前缀，例如 Qwen/Qwen2.5-7B-Instruct。",),
        ),
        Preset(
            "ollama",
            "Ollama",
            "http://127.0.0.1:11434/v1",
            "qwen2.5:7b",
            False,
            "不需要；随便填一个非空字符串即可",
            (
                "先拉取模型：`ollama pull qwen2.5:7b`。",
                (
                    "只有部分模型支持工具（qwen2.5、llama3.1 等）；其他模型会回答 400 'does not"
                    " support tools'。"
                ),
            ),
        ),
        Preset(
            "vllm",
            "vLLM",
            "http://127.0.0.1:8000/v1",
            None,
            False,
            "不需要，除非服务启动时加了 --api-key",
            (
                "把 LLM_MODEL 设为服务启动时加载的模型（见 GET /v1/models）。",
                "工具调用需要 `vllm serve … --enable-auto-tool-choice --tool-call-parser hermes`。",
            ),
        ),
        Preset(
            "llamacpp",
            "llama.cpp 服务器",
            "http://127.0.0.1:8080/v1",
            "local-model",
            False,
            "不需要，除非 llama-server 启动时加了 --api-key",
            (
                "llama-server 只服务一个模型，忽略请求里的模型名。",
                "工具调用需要 `llama-server … --jinja`。",
            ),
        ),
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
        where = (
            _display_url(self.base_url)
            if self.base_url
            else "127.0.0.1 上的进程内服务器，由 connect() 启动"
        )
        if self.backend == "offline":
            return (
                "模型后端：offline · 课程模拟器（确定性的规则引擎，不是 LLM）· "
                f"模型：{self.model or SIMULATOR_MODEL} · 地址：{where}"
            )
        if self.backend == "local":
            model = self.model or "Qwen2.5-Coder-1.5B-Instruct Q4_K_M（课程模型）"
            return (
                f"模型后端：local · 在 CPU 上运行的 llama.cpp 本地模型（真正的 LLM）· 模型：{model}"
                f" · 地址：{where}"
            )
        title = self.preset.title if self.preset else "OpenAI 兼容服务"
        return f"模型后端：remote · {title} · 模型：{self.model} · 地址：{where}"


def load_settings(environ: Mapping[str, str] | None = None, *, dotenv: bool = True) -> Settings:
    """Resolve the settings from ``environ`` (default ``os.environ``) and, if ``dotenv``, a ``.env``
    file.

    The ``.env`` file is the first one found from the current directory upwards; variables in
    ``environ`` win over it. Raises ``ConfigError`` naming the variable to fix.
    """
    values, env_file = read_variables(environ, dotenv=dotenv)
    return resolve(values, env_file=env_file)


def read_env(
    names: Iterable[str] | None = None,
    environ: Mapping[str, str] | None = None,
    *,
    dotenv: bool = True,
) -> tuple[dict[str, str], str | None]:
    """Variables from the environment over the first ``.env`` found from the current directory
    upwards, and its path.

    The package's one reader of ``.env``: ``names`` picks variables (None: all of them); values are
    stripped and empty ones dropped.
    """
    environ = os.environ if environ is None else environ
    wanted = set(names) if names is not None else None
    values: dict[str, str] = {}
    env_file: str | None = None
    if dotenv:
        path = find_dotenv(usecwd=True)
        if path:
            env_file = path
            for name, value in dotenv_values(path).items():
                if (wanted is None or name in wanted) and value is not None and value.strip():
                    values[name] = value.strip()
    for name, value in environ.items():
        if (wanted is None or name in wanted) and value is not None and value.strip():
            values[name] = value.strip()
    return values, env_file


def read_variables(
    environ: Mapping[str, str] | None = None, *, dotenv: bool = True
) -> tuple[dict[str, str], str | None]:
    """The six ``LLM_*`` variables (empty values dropped), environment over ``.env``, and the
    ``.env`` path.
    """
    return read_env(ENV_VARS, environ, dotenv=dotenv)


def resolve(values: Mapping[str, str], *, env_file: str | None = None) -> Settings:
    """Apply the rules of this module to already-read variables."""
    where = f"（读自 {env_file} 和环境变量）" if env_file else ""
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
            raise ConfigError(
                "LLM_MODEL",
                f"LLM_MODEL={model!r} 不是一个文件{where}。LLM_PROVIDER=local 时，LLM_MODEL 只能写"
                "另一个 GGUF 模型文件的路径；删掉 LLM_MODEL 就使用课程模型"
                "（先运行 python -m handwritten_agent model fetch）。",
            )
        if values.get("LLM_TIMEOUT") is None:
            common["timeout"] = LOCAL_DEFAULT_TIMEOUT
        return Settings(
            backend="local", model=str(Path(model).expanduser()) if model else None, **common
        )
    if provider is not None and provider not in PRESETS:
        raise ConfigError(
            "LLM_PROVIDER",
            f"LLM_PROVIDER={provider!r} 不是已知的服务商{where}。"
            f"请改成其中之一：{'、'.join(valid_provider_names())}；或者删掉 LLM_PROVIDER，"
            "为其他 OpenAI 兼容服务设置 LLM_BASE_URL 和 LLM_MODEL。",
        )

    if provider is None and base_url is None:
        stray = [name for name in ("LLM_API_KEY", "LLM_MODEL") if name in values]
        if stray:
            raise ConfigError(
                "LLM_BASE_URL",
                f"设置了 {' 和 '.join(stray)}，却没有指明是哪个服务{where}。"
                f"请把 LLM_PROVIDER 设为一个预设（{'、'.join(PRESETS)}），或把 LLM_BASE_URL 设为服"
                "务的 API 根地址（例如 https://api.deepseek.com/v1）；想用离线模拟器，就删掉"
                f" {' 和 '.join(stray)}。",
            )
        return Settings(backend="offline", model=SIMULATOR_MODEL, **common)

    if base_url is not None:
        base_url = _check_base_url(base_url, where)
    if provider is None:
        provider = _preset_for_url(base_url)
    preset = PRESETS.get(provider) if provider else None
    base_url = base_url or (preset.base_url if preset else None)
    model = model or (preset.default_model if preset else None)
    if not model:
        how = f"{preset.title} 服务启动时加载的模型" if preset else "服务端认识的模型名"
        raise ConfigError(
            "LLM_MODEL",
            f"没有设置 LLM_MODEL{where}。请在 .env 里把 LLM_MODEL 设为{how}"
            f"（GET {base_url}/models 会列出它们）。",
        )
    if preset and preset.requires_key and not api_key:
        raise ConfigError(
            "LLM_API_KEY",
            f"没有设置 LLM_API_KEY{where}，而 {preset.title} 需要密钥。"
            f"请在 .env 里写 LLM_API_KEY=<你的密钥>（{preset.key_hint}）。",
        )
    return Settings(
        backend="remote",
        provider=provider,
        base_url=base_url,
        api_key=api_key,
        model=model,
        **common,
    )


def _parse_timeout(text: str | None, where: str) -> float:
    if text is None:
        return DEFAULT_TIMEOUT
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value <= 0:
        raise ConfigError(
            "LLM_TIMEOUT",
            f"LLM_TIMEOUT={text!r} 不是一个正的秒数{where}。"
            f"请写成例如 LLM_TIMEOUT=60，或者删掉它使用默认值（{DEFAULT_TIMEOUT:g} 秒）。",
        )
    return value


def _parse_max_retries(text: str | None, where: str) -> int:
    if text is None:
        return DEFAULT_MAX_RETRIES
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value <= MAX_RETRIES_LIMIT:
        raise ConfigError(
            "LLM_MAX_RETRIES",
            f"LLM_MAX_RETRIES={text!r} 必须是 0 到 {MAX_RETRIES_LIMIT} 之间的整数{where}。"
            f"请写成例如 LLM_MAX_RETRIES=3，或者删掉它使用默认值（{DEFAULT_MAX_RETRIES}）。",
        )
    return value


def _check_base_url(url: str, where: str) -> str:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ConfigError(
            "LLM_BASE_URL",
            f"LLM_BASE_URL={_display_url(url)!r} 不是 http(s) 地址{where}。"
            "请设为服务的 API 根地址，例如 https://api.deepseek.com/v1 或"
            " http://127.0.0.1:11434/v1。",
        )
    url = url.rstrip("/")
    if url.endswith("/chat/completions"):
        raise ConfigError(
            "LLM_BASE_URL",
            f"LLM_BASE_URL={_display_url(url)!r} 带上了接口路径{where}。"
            f"只写到 API 根地址：{_display_url(url[: -len('/chat/completions')])}",
        )
    return url


def _preset_for_url(url: str | None) -> str | None:
    """The preset of a known cloud provider's host (local servers are not guessed: ports are
    reused).
    """
    if not url:
        return None
    host = urlsplit(url).hostname
    for preset in PRESETS.values():
        if preset.requires_key and urlsplit(preset.base_url).hostname == host:
            return preset.name
    return None


def _display_url(url: str) -> str:
    """The URL without any ``user:password@`` part, so credentials never reach a banner or
    message.
    """
    parts = urlsplit(url)
    if parts.username is None and parts.password is None:
        return url
    host = parts.hostname or ""
    if parts.port:
        host = f"{host}:{parts.port}"
    return parts._replace(netloc=f"***@{host}").geturl()
