"""The local model's prefix cache without the model: what is kept in memory, what goes to disk,
what another process finds there, and what happens when the folder misbehaves.

States here are ``KeptState``s with made-up bytes; the test with the real model is in
``tests/test_local.py`` (a second backend starts from the first one's prefix and answers the same).
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from handwritten_agent.course.offline import prefix_cache
from handwritten_agent.course.offline.prefix_cache import (
    MIN_DISK_TOKENS,
    KeptState,
    PrefixCache,
    configured_folder,
    folder_for,
)


def state(tokens: list[int], size: int = 1000) -> KeptState:
    """A state as ``LeanLlama`` makes one, with ``size`` bytes that say which tokens it holds."""
    body = (np.asarray(tokens, dtype=np.intc).tobytes() * (size // 4 + 1))[:size]
    return KeptState(
        input_ids=np.asarray(tokens, dtype=np.intc),
        n_tokens=len(tokens),
        llama_state=body,
        llama_state_size=size,
        seed=7,
    )


def tokens(start: int, length: int) -> list[int]:
    return list(range(start, start + length))


SYSTEM = tokens(1000, MIN_DISK_TOKENS + 100)  # a system prompt with its tools, long enough to keep


def test_memory_gives_the_state_with_the_longest_shared_prefix() -> None:
    cache = PrefixCache(memory_bytes=10_000)
    cache[SYSTEM + [1, 2]] = state(SYSTEM + [1, 2])
    cache[SYSTEM[:50] + [9]] = state(SYSTEM[:50] + [9])
    found = cache[SYSTEM + [1, 5, 6]]
    assert found.input_ids.tolist() == SYSTEM + [1, 2]
    assert SYSTEM + [1, 5] in cache
    with pytest.raises(KeyError):
        cache[[5, 6, 7]]  # shares not even its first token
    assert [5, 6, 7] not in cache


def test_memory_drops_the_least_recently_used_beyond_its_bytes() -> None:
    cache = PrefixCache(memory_bytes=2500)
    a, b, c = (tokens(start, 10) for start in (1, 100, 200))
    cache[a] = state(a)
    cache[b] = state(b)
    cache[a + [0]]  # a is used again: b is now the oldest
    cache[c] = state(c)
    assert a in cache and c in cache
    assert b not in cache


def test_the_first_state_of_a_new_prefix_goes_to_disk_and_a_new_process_loads_it(
    tmp_path: Path,
) -> None:
    first = PrefixCache(memory_bytes=10_000, folder=tmp_path)
    turn_1 = SYSTEM + [1, 2, 3]
    first[turn_1] = state(turn_1)
    first[turn_1 + [4, 5]] = state(turn_1 + [4, 5])  # the next turn shares most of it: memory only
    assert first.written_to_disk == 1
    assert len(list(tmp_path.glob("*.state.npz"))) == 1

    second = PrefixCache(memory_bytes=10_000, folder=tmp_path)  # another kernel, same folder
    asked = SYSTEM + [8, 9]
    assert second.fetch(asked) == len(SYSTEM)
    assert second.loaded_from_disk == 1
    loaded = second[asked]  # now in memory, where llama-cpp-python looks
    original = state(turn_1)
    assert loaded.input_ids.tolist() == turn_1
    assert (loaded.n_tokens, loaded.llama_state_size, loaded.seed) == (len(turn_1), 1000, 7)
    assert loaded.llama_state == original.llama_state


def test_a_state_is_not_loaded_from_disk_when_the_model_already_holds_as_much(
    tmp_path: Path,
) -> None:
    PrefixCache(memory_bytes=10_000, folder=tmp_path)[SYSTEM] = state(SYSTEM)
    second = PrefixCache(memory_bytes=10_000, folder=tmp_path)
    assert second.fetch(SYSTEM + [1], better_than=len(SYSTEM)) == 0
    assert second.loaded_from_disk == 0


def test_short_prompts_and_new_turns_of_a_kept_prefix_stay_in_memory(tmp_path: Path) -> None:
    cache = PrefixCache(memory_bytes=100_000, folder=tmp_path)
    short = tokens(1, MIN_DISK_TOKENS - 1)
    cache[short] = state(short)
    cache[SYSTEM] = state(SYSTEM)
    cache[SYSTEM + tokens(1, 40)] = state(SYSTEM + tokens(1, 40))
    other_tools = SYSTEM[:10] + tokens(50_000, MIN_DISK_TOKENS)  # another tool set: a new prefix
    cache[other_tools] = state(other_tools)
    kept = sorted(len(np.load(path)) for path in tmp_path.glob("*.ids.npy"))
    assert kept == sorted([len(SYSTEM), len(other_tools)])


def test_the_folder_keeps_the_most_recently_used_states_within_its_bytes(tmp_path: Path) -> None:
    cache = PrefixCache(memory_bytes=100_000, folder=tmp_path)
    one, two, three = (tokens(start, MIN_DISK_TOKENS) for start in (10_000, 20_000, 30_000))

    def written(prefix: list[int]) -> Path:
        cache[prefix] = state(prefix)
        (ids,) = (p for p in tmp_path.glob("*.ids.npy") if np.load(p)[0] == prefix[0])
        return tmp_path / ids.name.replace(".ids.npy", ".state.npz")

    first, second = written(one), written(two)
    os.utime(first, (1_000_000, 1_000_000))  # written long ago …
    os.utime(second, (1_000_100, 1_000_100))
    cache.disk_bytes = first.stat().st_size * 5 // 2  # room for two states
    other = PrefixCache(memory_bytes=100_000, folder=tmp_path)
    assert other.fetch(one + [1]) == len(one)  # … but the first was used just now
    third = written(three)
    assert first.exists() and third.exists()
    assert not second.exists() and len(list(tmp_path.glob("*.ids.npy"))) == 2


def test_files_another_process_deletes_or_leaves_half_written_are_misses_not_errors(
    tmp_path: Path,
) -> None:
    PrefixCache(memory_bytes=10_000, folder=tmp_path)[SYSTEM] = state(SYSTEM)
    (tmp_path / ".writing-abc").write_bytes(b"half a state")
    (tmp_path / "0123.ids.npy").write_bytes(b"not numpy")  # being written right now
    reader = PrefixCache(memory_bytes=10_000, folder=tmp_path)
    for path in tmp_path.glob("*.state.npz"):
        path.unlink()  # deleted by another process after its ids were listed
    assert reader.fetch(SYSTEM + [1]) == 0
    assert reader.loaded_from_disk == 0


def test_a_folder_that_cannot_be_made_leaves_the_cache_in_memory(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("a file where the folder should be")
    cache = PrefixCache(memory_bytes=10_000, folder=blocker / "prefixes")
    cache[SYSTEM] = state(SYSTEM)
    assert cache.folder is None and cache.written_to_disk == 0
    assert cache.fetch(SYSTEM + [1]) == len(SYSTEM)


def test_the_folder_comes_from_the_environment_and_names_what_its_states_fit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(prefix_cache.PREFIX_CACHE_ENV, raising=False)
    assert configured_folder(tmp_path / "default") == tmp_path / "default"
    monkeypatch.setenv(prefix_cache.PREFIX_CACHE_ENV, str(tmp_path / "mine"))
    assert configured_folder(tmp_path / "default") == tmp_path / "mine"
    for word in ("off", "0", "OFF"):
        monkeypatch.setenv(prefix_cache.PREFIX_CACHE_ENV, word)
        assert configured_folder(tmp_path / "default") is None

    model = tmp_path / "Some Model Q4.gguf"
    model.write_bytes(b"x" * 123)
    one = folder_for(model, 4096, "0.3.36", tmp_path)
    assert one.parent == tmp_path and "123" in one.name and "ctx4096" in one.name
    assert folder_for(model, 2048, "0.3.36", tmp_path) != one  # another context size
    assert folder_for(model, 4096, "0.3.37", tmp_path) != one  # another llama.cpp
