"""Retries written out by hand: which statuses, how long to wait (``Retry-After`` or a capped
backoff), what to report.

Left out: the loop that waits and tries again (``ChatClient``) and jitter (waits are deterministic).
"""

from __future__ import annotations

import email.utils
import math
import time
from collections.abc import Mapping
from dataclasses import dataclass

DEFAULT_BACKOFF = 0.5  # seconds before the first retry; doubles each time
DEFAULT_MAX_WAIT = 20.0  # no single wait between attempts is longer than this


# ---------------------------------------------------------------------------------------------
# Retries
# ---------------------------------------------------------------------------------------------


def is_retryable(status: int) -> bool:
    """Only "try again later" answers are retried: 429 and 5xx. A 4xx will fail the same way
    again.
    """
    return status == 429 or status >= 500


def retry_after_seconds(headers: Mapping[str, str] | None) -> float | None:
    """What the server asks us to wait: ``retry-after-ms``, else ``Retry-After`` (seconds or an HTTP
    date).
    """
    if not headers:
        return None
    lowered = {key.lower(): value for key, value in headers.items()}
    for name, divisor in (("retry-after-ms", 1000.0), ("retry-after", 1.0)):
        text = lowered.get(name)
        if text is None:
            continue
        try:
            value = float(text) / divisor
        except ValueError:
            value = _seconds_until(text) if name == "retry-after" else None
        if value is not None and math.isfinite(value) and value >= 0:
            return value
    return None


def _seconds_until(http_date: str) -> float | None:
    try:
        moment = email.utils.parsedate_to_datetime(http_date)
    except (TypeError, ValueError):
        return None
    return max(0.0, moment.timestamp() - time.time())


def retry_delay(
    retry: int,
    headers: Mapping[str, str] | None = None,
    *,
    backoff: float = DEFAULT_BACKOFF,
    max_wait: float = DEFAULT_MAX_WAIT,
) -> float:
    """Seconds to wait before retry number ``retry`` (0 = the first retry).

    The server's ``Retry-After`` wins; otherwise ``backoff * 2**retry``. Never more than
    ``max_wait``. No random jitter: the same failure always waits the same time, which keeps lessons
    and tests reproducible (a fleet of clients would add jitter to avoid retrying in lockstep).
    """
    asked = retry_after_seconds(headers)
    wait = asked if asked is not None else backoff * (2**retry)
    return max(0.0, min(wait, max_wait))


@dataclass(frozen=True)
class RetryNotice:
    """Passed to ``on_retry`` before each wait."""

    attempt: int  # the attempt that failed, 1-based
    status: int
    wait: float  # seconds about to be slept
    server_asked: float | None  # what Retry-After asked for, if anything
    message: str
