"""Small real HTTP endpoints the Day 1 checkers talk to: a server that records every request and
answers with a chat completion (or an error status), and helpers that ask the offline simulator
directly.

Left out: TLS and keep-alive details — the recorder is plain HTTP on 127.0.0.1, one thread per
request.
"""

from __future__ import annotations

import json
from typing import Any


class RecordingServer:
    """A one-endpoint HTTP server on 127.0.0.1 that records each request.

    With ``status=200`` every request is answered with a chat completion whose text is
    ``reply_for(n)`` (different for each request, so a learner cannot return a fixed string);
    otherwise with that status, an OpenAI-style error body carrying ``error`` and the given
    ``headers`` (e.g. ``Retry-After``).
    """

    def __init__(
        self, *, status: int = 200, error: str = "", headers: dict[str, str] | None = None
    ) -> None:
        import http.server
        import threading

        recorded = self.requests = []  # type: list[dict[str, Any]]
        reply_for = self.reply_for

        class Handler(http.server.BaseHTTPRequestHandler):
            def _answer(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                number = len(recorded)
                recorded.append(
                    {
                        "method": self.command,
                        "path": self.path,
                        "headers": {k.lower(): v for k, v in self.headers.items()},
                        "body": raw,
                    }
                )
                if status == 200:
                    payload: dict[str, Any] = {
                        "id": f"chatcmpl-record-{number}",
                        "object": "chat.completion",
                        "created": 0,
                        "model": "recorder",
                        "choices": [
                            {
                                "index": 0,
                                "message": {"role": "assistant", "content": reply_for(number)},
                                "finish_reason": "stop",
                            }
                        ],
                    }
                else:
                    payload = {
                        "error": {
                            "message": error or f"HTTP {status} from the recording server",
                            "type": "invalid_request_error",
                            "param": None,
                            "code": None,
                        }
                    }
                body = json.dumps(payload, ensure_ascii=False).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(body)

            do_POST = do_GET = do_PUT = _answer  # noqa: N815 - the names http.server calls

            def log_message(self, *args: Any) -> None:  # keep the notebook quiet
                pass

        self._server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.root = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    @staticmethod
    def reply_for(number: int) -> str:
        """The reply text to the ``number``-th request (0-based): every second one starts with
        spaces and ends with a newline, with full-width and mixed text, as real replies do — to be
        returned as it is, never stripped or normalised."""
        if number % 2:
            return f"  这是记录服务器的第 {number + 1} 条回复（Ｍｉｘｅｄ text：ＯＫ）。\n"
        return f"这是记录服务器的第 {number + 1} 条回复。"

    def __enter__(self) -> RecordingServer:
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self._server.shutdown()
        self._server.server_close()


def raw_reply(base_url: str, model: str, user_message: str) -> str:
    """The simulator's reply text to one user message, asked for with plain httpx."""
    import httpx

    response = httpx.post(
        f"{base_url}/chat/completions",
        json={"model": model, "messages": [{"role": "user", "content": user_message}]},
        headers={"Authorization": "Bearer offline"},
        timeout=30,
    )
    response.raise_for_status()
    return response.json()["choices"][0]["message"]["content"]


def live_stream(base_url: str, body: dict[str, Any]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The chunks of a real streamed reply (parsed from SSE) and the same request's non-streamed
    message.
    """
    import httpx

    chunks = []
    with httpx.stream(
        "POST",
        f"{base_url}/chat/completions",
        json={**body, "stream": True, "stream_options": {"include_usage": True}},
        timeout=30,
    ) as response:
        response.raise_for_status()
        for line in response.iter_lines():
            if line.startswith("data:"):
                data = line[len("data:") :].strip()
                if data == "[DONE]":
                    break
                chunks.append(json.loads(data))
    whole = httpx.post(f"{base_url}/chat/completions", json=body, timeout=30)
    whole.raise_for_status()
    choice = whole.json()["choices"][0]
    message = choice["message"]
    return chunks, {
        "content": message.get("content") or "",
        "tool_calls": message.get("tool_calls") or [],
        "finish_reason": choice["finish_reason"],
    }
