"""Kept prompt prefixes of the local model: the newest states in memory, one per new prefix on disk.

An agent's requests share long prefixes: the system prompt with the tools' schemas (about 1,800
tokens for the office tools), then the conversation so far. Reading 1,800 tokens takes a two-core
machine some twenty seconds; loading a kept state takes a fraction of one. ``PrefixCache`` is what
llama-cpp-python calls a cache (``Llama.set_cache``): after each generation the library stores the
model's state under the tokens it has read, and before one it asks for the state that shares the
longest prefix with the new prompt.

- **In memory:** this process's latest states, the least recently used dropped first beyond
  ``memory_bytes``.
- **On disk** (``folder``, optional): a state is also written when no state there shares at least
  half of its tokens — the first request with a new system prompt or tool set — so another process
  (the next notebook's kernel, the evaluation, a restarted server) starts from it instead of reading
  the prefix again. Later turns of a conversation stay in memory only: a process resumes its own
  conversations, not another's. Files are written whole and renamed into place, so processes can
  share a folder; beyond ``disk_bytes`` the states used longest ago are deleted. A folder holds the
  states of one model file, context size and llama.cpp version (``folder_for``): a state means
  nothing to another.

States keep no logits: the backend samples inside llama.cpp (``logits_all=False``) and never reads
them, so ``lean_llama`` saves and loads the KV cache and the tokens only — the library's own
``save_state`` copies a 300 MB array of unused scores on every generation.

Left out: sharing one state between processes in memory, and any eviction smarter than least
recently used.
"""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

PREFIX_CACHE_ENV = "HANDWRITTEN_AGENT_PREFIX_CACHE"  # a folder, or "off" for memory only
DISK_BYTES = 1 << 30  # states kept on disk, per model: about 20 of a 2k-token prompt
MIN_DISK_TOKENS = 256  # shorter prompts are read again faster than a state is loaded
OFF_WORDS = {"0", "off", "no", "false", "none"}


@dataclass
class KeptState:
    """What ``LeanLlama`` saves: the tokens read, llama.cpp's state bytes (the KV cache), the seed.

    It has the attributes llama-cpp-python reads from a cached state (``input_ids``, ``n_tokens``,
    ``llama_state``, ``llama_state_size``, ``seed``) and no logits.
    """

    input_ids: np.ndarray
    n_tokens: int
    llama_state: bytes
    llama_state_size: int
    seed: int


def folder_for(model_file: Path, n_ctx: int, version: str, base: Path) -> Path:
    """``base/<model name>-<size>-ctx<n_ctx>-llama<version>``: one folder per kind of state."""
    stem = re.sub(r"[^A-Za-z0-9._-]+", "_", model_file.stem)[:60]
    size = model_file.stat().st_size if model_file.exists() else 0
    return base / f"{stem}-{size}-ctx{n_ctx}-llama{version}"


def configured_folder(default_base: Path) -> Path | None:
    """The base folder for states on disk: ``$HANDWRITTEN_AGENT_PREFIX_CACHE`` if set (``off``:
    none), else ``default_base``."""
    value = os.environ.get(PREFIX_CACHE_ENV, "").strip()
    if value.lower() in OFF_WORDS and value:
        return None
    return Path(value).expanduser() if value else default_base


def shared_prefix(a: np.ndarray, b: np.ndarray) -> int:
    """How many leading tokens two token arrays have in common."""
    n = min(len(a), len(b))
    if n == 0:
        return 0
    differ = np.flatnonzero(a[:n] != b[:n])
    return int(differ[0]) if len(differ) else n


class PrefixCache:
    """A llama-cpp-python cache (duck-typed: ``[]``, ``in``, ``[]=``) over memory and a folder."""

    def __init__(self, memory_bytes: int, folder: Path | None = None, disk_bytes: int = DISK_BYTES):
        self.capacity_bytes = memory_bytes
        self.memory: OrderedDict[tuple[int, ...], Any] = OrderedDict()
        self.folder = folder
        self.disk_bytes = disk_bytes
        self._disk_keys: dict[str, np.ndarray] = {}  # file stem -> tokens, read once per file
        self.loaded_from_disk = 0  # states this process took from the folder
        self.written_to_disk = 0  # states it wrote there
        if folder is not None:
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError:
                self.folder = None  # a folder we cannot write: memory only, nothing lost

    # -- what llama-cpp-python calls ----------------------------------------------------------

    @property
    def cache_size(self) -> int:
        return sum(state.llama_state_size for state in self.memory.values())

    def __getitem__(self, key: Sequence[int]) -> Any:
        best = self._best_in_memory(np.asarray(key, dtype=np.intc))
        if best is None:
            raise KeyError("no kept state shares a prefix with this prompt")
        self.memory.move_to_end(best[0])
        return self.memory[best[0]]

    def __contains__(self, key: Sequence[int]) -> bool:
        return self._best_in_memory(np.asarray(key, dtype=np.intc)) is not None

    def __setitem__(self, key: Sequence[int], state: Any) -> None:
        key = tuple(int(token) for token in key)
        self.memory.pop(key, None)
        self.memory[key] = state
        while self.cache_size > self.capacity_bytes and len(self.memory) > 1:
            self.memory.popitem(last=False)
        if self.folder is not None and len(key) >= MIN_DISK_TOKENS:
            tokens = np.asarray(key, dtype=np.intc)
            on_disk = self._best_on_disk(tokens)
            if on_disk is None or on_disk[1] * 2 < len(tokens):
                self._write(tokens, state)

    # -- what the backend calls -----------------------------------------------------------------

    def fetch(self, tokens: Sequence[int], better_than: int = 0) -> int:
        """The longest prefix of ``tokens`` a kept state holds, longer than ``better_than``, or 0;
        a state found only on disk is loaded into memory first, so the library finds it there.
        """
        tokens_array = np.asarray(tokens, dtype=np.intc)
        in_memory = self._best_in_memory(tokens_array)
        held = in_memory[1] if in_memory else 0
        on_disk = self._best_on_disk(tokens_array) if self.folder is not None else None
        if on_disk is not None and on_disk[1] > max(held, better_than):
            state = self._read(on_disk[0])
            if state is not None:
                self[tuple(int(t) for t in self._disk_keys[on_disk[0]])] = state
                self.loaded_from_disk += 1
                held = on_disk[1]
        return held if held > better_than else 0

    # -- memory ---------------------------------------------------------------------------------

    def _best_in_memory(self, tokens: np.ndarray) -> tuple[tuple[int, ...], int] | None:
        best: tuple[tuple[int, ...], int] | None = None
        for key in self.memory:
            length = shared_prefix(np.asarray(key, dtype=np.intc), tokens)
            if length > 0 and (best is None or length > best[1]):
                best = (key, length)
        return best

    # -- disk -----------------------------------------------------------------------------------

    def _refresh(self) -> None:
        """Learn the files other processes wrote and forget the ones they deleted."""
        assert self.folder is not None
        try:
            stems = {path.name[: -len(".ids.npy")] for path in self.folder.glob("*.ids.npy")}
        except OSError:
            stems = set()
        for stem in list(self._disk_keys):
            if stem not in stems:
                del self._disk_keys[stem]
        for stem in stems - set(self._disk_keys):
            try:
                self._disk_keys[stem] = np.load(self.folder / f"{stem}.ids.npy")
            except (OSError, ValueError):
                continue  # being written or deleted by another process right now

    def _best_on_disk(self, tokens: np.ndarray) -> tuple[str, int] | None:
        self._refresh()
        best: tuple[str, int] | None = None
        for stem, key in self._disk_keys.items():
            length = shared_prefix(key, tokens)
            if length > 0 and (best is None or length > best[1]):
                best = (stem, length)
        return best

    def _write(self, tokens: np.ndarray, state: Any) -> None:
        assert self.folder is not None
        stem = hashlib.sha256(tokens.tobytes()).hexdigest()[:32]
        try:
            self._atomic_save(
                f"{stem}.state.npz",
                lambda f: np.savez(
                    f,
                    input_ids=np.asarray(state.input_ids[: state.n_tokens], dtype=np.intc),
                    llama_state=np.frombuffer(state.llama_state, dtype=np.uint8),
                    numbers=np.array([state.n_tokens, state.llama_state_size, state.seed]),
                ),
            )
            self._atomic_save(f"{stem}.ids.npy", lambda f: np.save(f, tokens))  # written last
        except OSError:
            return  # a full disk costs only the speed-up
        self._disk_keys[stem] = tokens
        self.written_to_disk += 1
        self._trim()

    def _atomic_save(self, name: str, write: Any) -> None:
        assert self.folder is not None
        handle, temporary = tempfile.mkstemp(dir=self.folder, prefix=".writing-")
        try:
            with os.fdopen(handle, "wb") as f:
                write(f)
            os.replace(temporary, self.folder / name)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise

    def _read(self, stem: str) -> Any:
        assert self.folder is not None
        path = self.folder / f"{stem}.state.npz"
        try:
            with np.load(path, allow_pickle=False) as data:
                n_tokens, state_size, seed = (int(n) for n in data["numbers"])
                state = KeptState(
                    input_ids=data["input_ids"].astype(np.intc),
                    n_tokens=n_tokens,
                    llama_state=data["llama_state"].tobytes(),
                    llama_state_size=state_size,
                    seed=seed,
                )
            os.utime(path)  # used now: the last to be deleted
        except (OSError, ValueError, KeyError):
            return None
        return state

    def _trim(self) -> None:
        assert self.folder is not None
        try:
            states = sorted(
                (path.stat().st_mtime, path) for path in self.folder.glob("*.state.npz")
            )
        except OSError:
            return
        total = sum(path.stat().st_size for _, path in states if path.exists())
        for _, path in states[:-1]:  # the newest is kept whatever its size
            if total <= self.disk_bytes:
                break
            stem = path.name[: -len(".state.npz")]
            try:
                size = path.stat().st_size
                (self.folder / f"{stem}.ids.npy").unlink(missing_ok=True)
                path.unlink(missing_ok=True)
                total -= size
            except OSError:
                continue
            self._disk_keys.pop(stem, None)


def lean_llama(llama_class: Any) -> Any:
    """A subclass of llama-cpp-python's ``Llama`` whose states hold no logits (see the module)."""
    import ctypes

    import llama_cpp

    class LeanLlama(llama_class):  # type: ignore[misc, valid-type]
        def save_state(self) -> Any:
            size = llama_cpp.llama_state_get_size(self._ctx.ctx)
            buffer = (ctypes.c_uint8 * int(size))()
            written = int(llama_cpp.llama_state_get_data(self._ctx.ctx, buffer, size))
            if written > int(size):
                raise RuntimeError("llama.cpp wrote more state than it said it would")
            return KeptState(
                input_ids=self.input_ids[: self.n_tokens].copy(),
                n_tokens=self.n_tokens,
                llama_state=ctypes.string_at(buffer, written),
                llama_state_size=written,
                seed=self._seed,
            )

        def load_state(self, state: Any) -> None:
            ids = np.asarray(state.input_ids, dtype=np.intc)
            self.input_ids[: len(ids)] = ids
            self.n_tokens = state.n_tokens
            self._requires_eval = True
            self._seed = state.seed
            buffer = (ctypes.c_uint8 * state.llama_state_size).from_buffer_copy(state.llama_state)
            if llama_cpp.llama_state_set_data(self._ctx.ctx, buffer, state.llama_state_size) != (
                state.llama_state_size
            ):
                raise RuntimeError("llama.cpp did not take the kept state")

    return LeanLlama
