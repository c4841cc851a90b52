"""Reading a run's server-sent events the way a front end does, for the service tests."""

from __future__ import annotations

import json

import httpx


def read_events(
    url: str,
    client: httpx.Client,
    run_id: str,
    last_id: int | None = None,
    stop_after: int | None = None,
    timeout: float = 20,
) -> list[dict]:
    """The events of ``GET /v1/runs/{run_id}/events`` as dicts with ``id``, ``event`` and ``data``.

    The stream's last event is ``end`` (``id`` None: it has no number); ``retry:`` lines and
    comments are skipped. ``client`` supplies the user's headers (its bearer token); ``last_id``
    resumes after that event (``Last-Event-ID``); ``stop_after`` closes the connection after that
    many events, as a client that goes away mid-stream does.
    """
    headers = dict(client.headers) | (
        {"Last-Event-ID": str(last_id)} if last_id is not None else {}
    )
    events, current = [], {}
    with httpx.stream(
        "GET", f"{url}/v1/runs/{run_id}/events", headers=headers, timeout=timeout
    ) as response:
        assert response.status_code == 200 and response.headers["content-type"].startswith(
            "text/event-stream"
        )
        for line in response.iter_lines():
            if line.startswith("id: "):
                current["id"] = int(line[4:])
            elif line.startswith("event: "):
                current["event"] = line[7:]
            elif line.startswith("data: "):
                current["data"] = json.loads(line[6:])
            elif line == "" and current:
                current.setdefault("id", None)
                events.append(current)
                current = {}
                if stop_after is not None and len(events) >= stop_after:
                    break
    return events


def numbered(events: list[dict]) -> list[dict]:
    """The run's own events: without the stream's ``end``."""
    return [event for event in events if event["event"] != "end"]
