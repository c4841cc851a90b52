"""``connect()``: the one call notebooks make — settings from ``.env``, the course's own server when
needed, a banner.

The course's own server (the offline simulator and the local model) is not imported here: it is
found through the ``handwritten_agent.servers`` entry point that ``pyproject.toml`` declares, so
this module depends on no part of ``course/`` and another package could provide the server.

Left out: the client itself (``client``).
"""

from __future__ import annotations

import atexit
import dataclasses
import threading
from collections.abc import Callable
from importlib.metadata import entry_points
from typing import Any

from ..config import PRESETS, SIMULATOR_MODEL, ConfigError, Settings, read_variables, resolve
from .client import ChatClient

OFFLINE_API_KEY = "offline-no-key-needed"  # the course's own server accepts any key


# ---------------------------------------------------------------------------------------------
# connect(): the one call notebooks make
# ---------------------------------------------------------------------------------------------

_servers: dict[tuple[str, str | None], Any] = {}
_servers_lock = threading.Lock()

SERVERS_GROUP = "handwritten_agent.servers"


def server_factory(name: str = "course") -> Callable[..., Any]:
    """The ``serve(backend=..., model_path=...)`` function registered under ``name`` in the
    ``handwritten_agent.servers`` entry-point group."""
    found = [point for point in entry_points(group=SERVERS_GROUP) if point.name == name]
    if not found:
        raise ConfigError(
            f"找不到课程自带的模型服务器（入口点 {SERVERS_GROUP}:{name}）。"
            "请在项目目录里用 pip install -e . 安装（make install 会做这一步），再重启内核。"
        )
    return found[0].load()


def shared_server(backend: str = "offline", model_path: str | None = None) -> Any:
    """The one in-process server per backend (and model file) in this process, started on first use
    and stopped at interpreter exit. It has ``.base_url``; do not ``stop()`` it yourself."""
    key = (backend, model_path)
    with _servers_lock:
        server = _servers.get(key)
        if server is None:
            server = server_factory()(backend=backend, model_path=model_path)
            if not _servers:
                atexit.register(stop_shared_servers)
            _servers[key] = server
        return server


def stop_shared_servers() -> None:
    with _servers_lock:
        for server in _servers.values():
            server.stop()
        _servers.clear()


def _settings_for(backend: str | None, settings: Settings | None) -> Settings:
    if backend is not None and backend not in ("offline", "local", "remote"):
        raise ValueError(
            f"backend={backend!r} 不是 'offline'、'local'、'remote' 之一（不传或传 None 就按 .env"
            " 决定）。"
        )
    if settings is None:
        values, env_file = read_variables()
        if backend in ("offline", "local"):
            # An explicit backend wins over any endpoint in .env; only timeout/retries still apply.
            keep = ["LLM_TIMEOUT", "LLM_MAX_RETRIES"]
            if backend == "local" and values.get("LLM_PROVIDER", "").lower() == "local":
                keep.append("LLM_MODEL")
            values = {name: values[name] for name in keep if name in values}
            values["LLM_PROVIDER"] = backend
        settings = resolve(values, env_file=env_file)
    elif backend in ("offline", "local") and settings.backend != backend:
        settings = Settings(
            backend=backend,
            model=SIMULATOR_MODEL if backend == "offline" else None,  # type: ignore[arg-type]
            timeout=settings.timeout,
            max_retries=settings.max_retries,
            env_file=settings.env_file,
        )
    if backend == "remote" and settings.backend != "remote":
        raise ConfigError(
            "LLM_BASE_URL",
            "connect('remote') 需要一个服务：请在 .env 里把 LLM_PROVIDER 设为一个预设"
            f"（{'、'.join(PRESETS)}），或者设置 LLM_BASE_URL 和 LLM_MODEL。",
        )
    return settings


def connect(
    backend: str | None = None,
    *,
    model: str | None = None,
    quiet: bool = False,
    settings: Settings | None = None,
) -> ChatClient:
    """A ready ``ChatClient`` for the active backend, with its banner line printed (unless
    ``quiet``).

    ``backend=None`` follows ``.env`` / the environment (see ``config``); ``"offline"`` always uses
    the course simulator, even when ``.env`` names a provider — for cells that need its fixed
    behaviour; ``"local"`` the embedded llama.cpp model; ``"remote"`` the provider in ``.env``.
    ``model`` overrides the default model, e.g. ``connect("offline",
    model="course-sim:rate_limit")``.
    """
    settings = _settings_for(backend, settings)
    if settings.backend == "offline":
        server = shared_server("offline")
        settings = dataclasses.replace(
            settings, base_url=server.base_url, model=model or settings.model or SIMULATOR_MODEL
        )
        client = ChatClient(
            server.base_url,
            OFFLINE_API_KEY,
            settings.model,
            timeout=settings.timeout,
            max_retries=settings.max_retries,
            label="离线课程模拟器",
        )
    elif settings.backend == "local":
        server = shared_server("local", settings.model)
        served = server.backend.list_models()
        chosen = model or (served[0] if served else "local")
        settings = dataclasses.replace(settings, base_url=server.base_url, model=chosen)
        client = ChatClient(
            server.base_url,
            OFFLINE_API_KEY,
            chosen,
            timeout=settings.timeout,
            max_retries=settings.max_retries,
            label="本地 llama.cpp 模型",
        )
    else:
        if model:
            settings = dataclasses.replace(settings, model=model)
        client = ChatClient.from_settings(settings)
    if not quiet:
        print(settings.banner())
    return client
