"""Security headers on every answer: the page that holds the approve buttons cannot be framed,
sniffed or leaked.

Every response gets ``X-Frame-Options: DENY``, ``X-Content-Type-Options: nosniff`` and
``Referrer-Policy: no-referrer``. An HTML response also gets a ``Content-Security-Policy`` with
``frame-ancestors 'none'`` that allows only this origin, plus each inline ``<script>``/``<style>``
block of that very page by its SHA-256 hash (computed from the body, so a change to the page cannot
silently break it, and an injected script has no hash). Pages may name extra sources (``/docs``
loads Swagger UI's files from wherever FastAPI says).

Left out: HSTS (set it where TLS ends, at the gateway) and ``report-uri``.
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.datastructures import MutableHeaders

ALWAYS = {
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
}

INLINE = re.compile(r"<(script|style)(?![^>]*\bsrc=)[^>]*>(.*?)</\1\s*>", re.DOTALL | re.IGNORECASE)
EXTERNAL = re.compile(
    r"""<(?:script|link)[^>]*\b(?:src|href)=["'](https?://[^/"']+)""", re.IGNORECASE
)

MAX_HTML_BYTES = 1_000_000
"""An HTML body larger than this is sent with the strict policy and no hashes (none of ours comes
close).
"""


def _hash(text: str) -> str:
    return (
        "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode() + "'"
    )


def content_security_policy(html: str) -> str:
    """The policy for one HTML page: this origin, the page's inline blocks by hash, the hosts it
    loads files from.
    """
    hashes: dict[str, list[str]] = {"script": [], "style": []}
    for kind, body in INLINE.findall(html):
        hashes[kind.lower()].append(_hash(body))
    hosts = sorted(set(EXTERNAL.findall(html)))
    script = " ".join(["'self'", *hosts, *hashes["script"]])
    style = " ".join(["'self'", *hosts, *hashes["style"]])
    return (
        "default-src 'self'; "
        f"script-src {script}; style-src {style}; img-src 'self' data: {' '.join(hosts)}".rstrip()
        + "; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self';"
        " frame-ancestors 'none'"
    )


class SecurityHeaders:
    """ASGI middleware: the headers of the module docstring on every HTTP response."""

    def __init__(self, app: Any):
        self.app = app

    async def __call__(
        self,
        scope: dict[str, Any],
        receive: Callable[[], Awaitable[dict]],
        send: Callable[[dict], Awaitable[None]],
    ) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start: dict | None = None
        chunks: list[bytes] = []

        async def guarded(message: dict) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in ALWAYS.items():
                    headers[name] = value
                if not headers.get("content-type", "").startswith("text/html"):
                    await send(message)
                    return
                start = message  # held until the body is known: its hashes go in the policy
                return
            if start is None or message["type"] != "http.response.body":
                await send(message)
                return
            chunks.append(message.get("body", b""))
            if message.get("more_body", False) and sum(map(len, chunks)) <= MAX_HTML_BYTES:
                return
            body = b"".join(chunks)
            html = body.decode("utf-8", "replace") if len(body) <= MAX_HTML_BYTES else ""
            headers = MutableHeaders(scope=start)
            headers["content-security-policy"] = content_security_policy(html)
            await send(start)
            start = None  # sent: any later body chunks pass straight through
            chunks.clear()
            await send(
                {
                    "type": "http.response.body",
                    "body": body,
                    "more_body": message.get("more_body", False),
                }
            )

        await self.app(scope, receive, guarded)


__all__ = ["SecurityHeaders", "content_security_policy"]
