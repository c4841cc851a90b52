"""Append JSON lines to a file so that a crash loses at most the line being written.

Each line is encoded first and handed to the operating system in a single ``os.write`` on a file
opened with ``O_APPEND``: nothing waits in a Python buffer, so a process killed at any moment leaves
every earlier line on disk (the kernel has it), and several processes appending to one file never
interleave inside a line. ``fsync=True`` also asks the disk to keep it through a power cut (slower).

Left out: rotation, compression, and writing anywhere but a local file (``otel`` exports spans).
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import Any


def dumps_line(record: dict[str, Any]) -> str:
    """One record as one line of JSON: UTF-8 text kept readable, anything JSON lacks written with
    ``str``.
    """
    return json.dumps(record, ensure_ascii=False, default=str, separators=(",", ":"))


class JsonlWriter:
    """An append-only JSONL file; every ``write`` reaches the operating system before it returns."""

    def __init__(self, path: str | os.PathLike[str], *, fsync: bool = False):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.fsync = fsync
        self._fd: int | None = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        self._lock = threading.Lock()

    def write(self, record: dict[str, Any]) -> None:
        data = (dumps_line(record) + "\n").encode("utf-8")
        with self._lock:
            if self._fd is None:
                raise ValueError(
                    f"trace 文件 {self.path} 已经关闭，不能再写入。请新建一个 Tracer。"
                )
            view = memoryview(data)
            while view:  # os.write may write less than asked (rare for files); finish the line
                written = os.write(self._fd, view)
                view = view[written:]
            if self.fsync:
                os.fsync(self._fd)

    def close(self) -> None:
        with self._lock:
            if self._fd is not None:
                os.close(self._fd)
                self._fd = None

    def __enter__(self) -> JsonlWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:  # a forgotten writer still releases its descriptor
        try:
            self.close()
        except Exception:  # noqa: BLE001 - interpreter shutdown
            pass


__all__ = ["JsonlWriter", "dumps_line"]
