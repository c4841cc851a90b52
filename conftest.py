"""Notebook runs (``pytest --nbval`` / ``--nbval-lax``): the kernels get a temporary folder of their
own, deleted when the session ends.

nbval stops a notebook's kernel by killing it, so the clean-up a notebook registers for its exit
(``course.scratch.scratch_folder``) never runs there; without this every run would leave its
databases and traces in the system's temporary folder. The package's tests (``tests/``) use
pytest's ``tmp_path`` and are not affected.
"""

from __future__ import annotations

import os
import shutil
import tempfile

import pytest

_KEY = pytest.StashKey[tuple[str, str | None]]()


def pytest_configure(config: pytest.Config) -> None:
    notebooks = any(config.getoption(name, default=False) for name in ("nbval", "nbval_lax"))
    if not notebooks:
        return
    folder = tempfile.mkdtemp(prefix="nbval_kernels_")
    # other users must pass through it, as through /tmp: the PostgreSQL server of the appendix
    # runs as the postgres user in a folder of its own in here
    os.chmod(folder, 0o755)
    config.stash[_KEY] = (folder, os.environ.get("TMPDIR"))
    os.environ["TMPDIR"] = folder  # kernels started from now on inherit it
    tempfile.tempdir = None  # and this process recomputes its own


def pytest_unconfigure(config: pytest.Config) -> None:
    kept = config.stash.get(_KEY, None)
    if kept is None:
        return
    folder, before = kept
    if before is None:
        os.environ.pop("TMPDIR", None)
    else:
        os.environ["TMPDIR"] = before
    tempfile.tempdir = None
    shutil.rmtree(folder, ignore_errors=True)
