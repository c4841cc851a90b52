"""``BackgroundServer``: an ASGI app (FastAPI) served by uvicorn in a background thread, on a socket
bound before it starts.

Binding first means ``port=0`` gives a free port that is known at once, and the socket is made the
way ``loop.create_server`` makes it (``IPPROTO_TCP``, so asyncio turns Nagle's algorithm off on
every connection: without it each response waits ~40 ms for a delayed ACK). Used by the offline
server (``offline.serve``), the Day 7 service and the tests, and stopped by ``stop()`` or ``with``.

Left out: TLS, several worker processes (``uvicorn --workers N`` from the shell), reloading.
"""

from __future__ import annotations

import socket
import threading
import time
from typing import Any


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host:port`` (0 = any free port), with a clear error when the port
    is taken.

    The protocol must be ``IPPROTO_TCP``, not the default 0: asyncio sets ``TCP_NODELAY`` on an
    accepted connection only when its socket says it is TCP (``asyncio.base_events._set_nodelay``
    checks ``sock.proto``), and accepted sockets inherit the listening socket's ``proto``. With 0,
    Nagle's algorithm holds back the second write of every response (headers, then body) until the
    client's delayed ACK, about 40 ms per request. uvicorn binding its own socket goes through
    ``getaddrinfo``, which fills in ``IPPROTO_TCP``; we pass it explicitly.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(
        family, socket.SOCK_STREAM, socket.IPPROTO_TCP
    )  # IPPROTO_TCP: see the module docstring
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise OSError(
            f"无法监听 {host}:{port}（{exc.strerror}）：这个端口可能被别的程序占用了，"
            "换一个端口（--port N，或 port=0 自动选择）。"
        ) from exc
    sock.listen(128)
    return sock


def client_host(host: str) -> str:
    if host in ("", "0.0.0.0"):
        return "127.0.0.1"
    if host == "::":
        return "[::1]"
    return f"[{host}]" if ":" in host else host


class BackgroundServer:
    """A uvicorn server in a thread: ``.url`` to call it, ``.stop()`` to end it (also a context
    manager).
    """

    def __init__(
        self,
        app: Any,
        host: str = "127.0.0.1",
        port: int = 0,
        *,
        startup_timeout: float = 10.0,
        lifespan: str = "on",
        name: str = "uvicorn",
    ):
        import uvicorn

        self.app, self.host = app, host
        self._socket = bind(host, port)
        self.port = self._socket.getsockname()[1]
        self.url = f"http://{client_host(host)}:{self.port}"
        config = uvicorn.Config(
            app,
            log_level="warning",
            access_log=False,
            lifespan=lifespan,
            timeout_graceful_shutdown=2,
        )
        self._server = uvicorn.Server(config)
        self._failure: list[BaseException] = []
        self._thread = threading.Thread(target=self._run, name=f"{name}-{self.port}", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + startup_timeout
        while not self._server.started:  # bounded wait for uvicorn's startup
            if self._failure or not self._thread.is_alive() or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(
                    f"服务没能在 {startup_timeout:g} 秒内在 {host}:{self.port}"
                    f" 启动：{self._failure[0] if self._failure else '线程已退出'}"
                )
            time.sleep(0.02)

    def _run(self) -> None:
        try:
            self._server.run(sockets=[self._socket])
        except BaseException as exc:  # noqa: BLE001 - reported by __init__
            self._failure.append(exc)

    def stop(self, timeout: float = 5.0) -> None:
        """Ask uvicorn to exit and wait (bounded) for its thread. Safe to call more than once."""
        if self._thread.is_alive():
            self._server.should_exit = True
            self._thread.join(timeout)
            if self._thread.is_alive():
                self._server.force_exit = True
                self._thread.join(timeout)
        self._socket.close()

    def __enter__(self) -> BackgroundServer:
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.stop()

    def __repr__(self) -> str:
        return (
            f"BackgroundServer({self.url}, {'running' if self._thread.is_alive() else 'stopped'})"
        )


__all__ = ["BackgroundServer", "bind", "client_host"]
