"""MCP by hand: a JSON-RPC 2.0 client over a child process's stdin/stdout, one JSON object per line.

A session is ``initialize`` → the ``notifications/initialized`` notification → ``tools/list`` →
``tools/call``. ``WireClient`` writes each request as one line and reads lines until the response
with the same ``id`` arrives (a server may send notifications or log lines in between). Reads are
bounded: a line longer than ``max_line`` bytes, a child that exits, or no answer within ``timeout``
seconds raises ``WireError`` with a Chinese message. ``transcript`` keeps every message sent and
received.

Left out: batches, server-to-client requests (sampling, roots), cancellation and progress.
"""

from __future__ import annotations

import json
import queue
import subprocess
import threading
from typing import Any

PROTOCOL_VERSION = "2025-06-18"


class WireError(RuntimeError):
    """The server did not answer as the protocol says (the message is Chinese, for the model or the
    user).
    """


class WireClient:
    """A hand-written MCP client for a server started as ``command`` (a list, as for
    ``subprocess``).
    """

    def __init__(
        self,
        command: list[str],
        *,
        timeout: float = 20.0,
        max_line: int = 1_000_000,
        env: dict[str, str] | None = None,
    ):
        self.timeout, self.max_line = timeout, max_line
        self.transcript: list[tuple[str, dict[str, Any]]] = []
        self._next_id = 0
        self._lock = threading.Lock()
        self._lines: queue.Queue[bytes | None] = queue.Queue()
        self.process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
        )
        threading.Thread(target=self._read, name="mcp-wire-reader", daemon=True).start()

    def _read(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        while True:
            line = stream.readline(self.max_line + 1)
            if not line:
                self._lines.put(None)
                return
            self._lines.put(line)

    def send(self, message: dict[str, Any]) -> None:
        """Write one message as one line."""
        self.transcript.append(("→", message))
        stdin = self.process.stdin
        assert stdin is not None
        try:
            stdin.write(json.dumps(message, ensure_ascii=False).encode() + b"\n")
            stdin.flush()
        except (BrokenPipeError, OSError) as exc:
            raise WireError(f"MCP 服务器已经退出，无法发送消息（{exc}）。") from exc
        except ValueError as exc:  # "write to closed file": this side closed the connection
            raise WireError(
                "和 MCP 服务器的连接已经关闭（close() 之后不能再发消息）；需要时重新连接。"
            ) from exc

    def request(
        self, method: str, params: dict[str, Any] | None = None, timeout: float | None = None
    ) -> Any:
        """Send a request and return the ``result`` of its response; an ``error`` response raises
        ``WireError``.
        """
        with self._lock:
            self._next_id += 1
            request_id = self._next_id
            message: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
            if params is not None:
                message["params"] = params
            self.send(message)
            wait = self.timeout if timeout is None else timeout
            for _ in range(
                10_000
            ):  # bounded: notifications and stray lines between request and response
                try:
                    line = self._lines.get(timeout=wait)
                except queue.Empty:
                    raise WireError(f"MCP 服务器在 {wait:g} 秒内没有回答 {method}。") from None
                if line is None:
                    self._lines.put(None)
                    raise WireError(f"MCP 服务器在回答 {method} 之前退出了。")
                if len(line) > self.max_line:
                    raise WireError(
                        f"MCP 服务器的一行消息超过了 {self.max_line} 字节，已拒绝读取。"
                    )
                try:
                    reply = json.loads(line)
                except ValueError:
                    continue  # not JSON: a stray log line
                if not isinstance(reply, dict):
                    continue
                self.transcript.append(("←", reply))
                if reply.get("id") != request_id:
                    continue  # a notification, or an answer to something else
                if "error" in reply:
                    error = reply["error"] if isinstance(reply["error"], dict) else {}
                    raise WireError(
                        f"MCP 服务器返回错误 {error.get('code')}：{error.get('message')}"
                    )
                return reply.get("result")
            raise WireError(f"MCP 服务器发来太多无关消息，没有等到 {method} 的回答。")

    def notify(self, method: str, params: dict[str, Any] | None = None) -> None:
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)

    def initialize(self, name: str = "handwritten-agent", timeout: float = 120.0) -> dict[str, Any]:
        """The handshake; ``timeout`` is generous because it includes the child's start
        (imports).
        """
        result = self.request(
            "initialize",
            {
                "protocolVersion": PROTOCOL_VERSION,
                "capabilities": {},
                "clientInfo": {"name": name, "version": "0.1"},
            },
            timeout,
        )
        self.notify("notifications/initialized")
        return result

    def list_tools(self) -> list[dict[str, Any]]:
        tools: list[dict[str, Any]] = []
        cursor: str | None = None
        for _ in range(100):  # bounded pagination
            result = self.request("tools/list", {"cursor": cursor} if cursor else None) or {}
            tools.extend(result.get("tools", []))
            cursor = result.get("nextCursor")
            if not cursor:
                break
        return tools

    def call_tool(
        self, name: str, arguments: dict[str, Any], timeout: float | None = None
    ) -> dict[str, Any]:
        return self.request("tools/call", {"name": name, "arguments": arguments}, timeout) or {}

    def close(self) -> None:
        """Close stdin (the server's signal to stop), then wait a bounded time and kill if
        needed.
        """
        try:
            if self.process.stdin:
                self.process.stdin.close()
        except OSError:
            pass
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=5)

    def __enter__(self) -> WireClient:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


__all__ = ["PROTOCOL_VERSION", "WireClient", "WireError"]
