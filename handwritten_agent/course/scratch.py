"""Scratch folders for the notebooks: made fresh, deleted when the kernel exits.

A notebook that writes databases, traces or a service's files puts them in ``scratch_folder(...)``:
a new folder under the system's temporary directory each run, so runs never see each other's data,
removed when the Python process ends normally (a kernel restart or shutdown) so that running the
course many times does not fill the disk.

Left out: a process that is killed (``kill -9``, a crash) leaves its folder behind, as any temporary
file would; the system's cleaning of its temporary directory takes care of those.
"""

from __future__ import annotations

import atexit
import shutil
import tempfile
from pathlib import Path


def scratch_folder(prefix: str) -> Path:
    """A new empty folder named ``prefix…``; deleted with everything in it at exit."""
    path = Path(tempfile.mkdtemp(prefix=prefix))
    atexit.register(shutil.rmtree, path, ignore_errors=True)
    return path
