"""How llama-cpp-python is compiled for this machine: the CPU's own instruction sets, with AMX
always off.

``pip install llama-cpp-python`` compiles llama.cpp from source, by default with ``-march=native``
(``GGML_NATIVE``): every instruction set the compiling CPU has. On Intel Xeons of the Sapphire
Rapids generation and later that includes AMX, and ggml then multiplies matrices of more than one
row — a prompt of several tokens — with AMX tiles; a one-token prompt and token-by-token generation
take another path (AVX-512 VNNI). That AMX path is what crashes on those CPUs. One cause is visible
without such a CPU: GCC 12 (Debian 12's; Ubuntu 22.04 has 11) declares in ``_tile_loadconfig`` that
only 8 of the 64 bytes of the tile configuration are read, so it deletes the stores of the tile
shapes, and ggml's AMX kernels run on unconfigured tiles (newer GCC reads all 64 bytes through a
builtin).

``cmake_args()`` turns ``-march=native`` into its explicit equivalent: ``GGML_NATIVE=OFF`` plus one
``GGML_<feature>=ON/OFF`` per instruction set ggml knows, ON exactly when this CPU reports it
(``/proc/cpuinfo``) — the same feature names ggml's own CPU variants use — and the three AMX options
OFF. Without AMX ggml runs the several-token path with AVX-512 VNNI, which also works on AMX CPUs.
``level="portable"`` also turns off AVX-512 (AVX2 and below remain, when the CPU has them): the
build to fall back to if this one ever crashes too.

Only Linux on x86-64 needs this. Elsewhere (macOS, Windows, ARM) there is no AMX to avoid, and the
options are llama.cpp's defaults. Everywhere the multimodal library (``LLAVA_BUILD``) is skipped:
the course sends no images, and it saves a minute of compiling.

Left out: GPUs (CUDA, Metal, Vulkan: pass your own ``CMAKE_ARGS``), and CPUs that report a feature
their compiler does not know (a very new CPU with an old compiler: the build fails, and says which
flag).
"""

from __future__ import annotations

import platform
from collections.abc import Iterable
from pathlib import Path
from typing import Literal

Level = Literal["cpu", "portable"]

# ggml's x86 options, in ggml's order, with the /proc/cpuinfo flags each one needs (all of them).
X86_FEATURES: list[tuple[str, tuple[str, ...]]] = [
    ("SSE42", ("sse4_2",)),
    ("AVX", ("avx",)),
    ("F16C", ("f16c",)),
    ("FMA", ("fma",)),
    ("AVX2", ("avx2",)),
    ("BMI2", ("bmi2",)),
    ("AVX_VNNI", ("avx_vnni",)),
    (
        "AVX512",
        ("avx512f", "avx512cd", "avx512vl", "avx512dq", "avx512bw"),
    ),  # ggml's GGML_AVX512 turns on all five
    ("AVX512_VBMI", ("avx512vbmi",)),
    ("AVX512_VNNI", ("avx512_vnni",)),
    ("AVX512_BF16", ("avx512_bf16",)),
]
NEEDS: dict[str, str] = {
    "AVX2": "AVX",
    "FMA": "AVX",
    "F16C": "AVX",
    "AVX_VNNI": "AVX2",
    "AVX512_VBMI": "AVX512",
    "AVX512_VNNI": "AVX512",
    "AVX512_BF16": "AVX512",
}
"""An option is only turned on with the one it extends (a CPU never has the one without the other; a
VM might say so).
"""
NEVER = ("AMX_TILE", "AMX_INT8", "AMX_BF16")
"""Always off: ggml's AMX kernels, the ones that crash (see the module docstring)."""
PORTABLE_OFF = ("AVX512", "AVX512_VBMI", "AVX512_VNNI", "AVX512_BF16")
"""Also off at ``level="portable"``."""
COMMON = ("-DLLAVA_BUILD=OFF",)


def cpu_flags(cpuinfo: str | Path = "/proc/cpuinfo") -> set[str]:
    """The instruction-set flags the kernel reports for the first CPU (empty when there is no such
    file).
    """
    try:
        text = Path(cpuinfo).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return set()
    for line in text.splitlines():
        key, _, value = line.partition(":")
        if key.strip() == "flags":
            return set(value.split())
    return set()


def x86_features(flags: Iterable[str], level: Level = "cpu") -> dict[str, bool]:
    """ggml option name → on/off for a CPU with these flags, AMX off (and AVX-512 off at
    ``level="portable"``).
    """
    have = set(flags)
    chosen: dict[str, bool] = {}
    for option, needs in X86_FEATURES:
        on = all(flag in have for flag in needs) and chosen.get(NEEDS.get(option, ""), True)
        chosen[option] = on and not (level == "portable" and option in PORTABLE_OFF)
    for option in NEVER:
        chosen[option] = False
    return chosen


def is_linux_x86_64(system: str | None = None, machine: str | None = None) -> bool:
    system = system or platform.system()
    machine = (machine or platform.machine()).lower()
    return system == "Linux" and machine in ("x86_64", "amd64")


def cmake_args(
    level: Level = "cpu",
    *,
    flags: Iterable[str] | None = None,
    system: str | None = None,
    machine: str | None = None,
) -> list[str]:
    """The ``CMAKE_ARGS`` to compile llama-cpp-python with on this machine (see the module
    docstring).
    """
    if level not in ("cpu", "portable"):
        raise ValueError(f"level 只能是 'cpu' 或 'portable'，收到的是 {level!r}。")
    if not is_linux_x86_64(system, machine):
        return list(COMMON)
    features = x86_features(cpu_flags() if flags is None else flags, level)
    return [
        "-DGGML_NATIVE=OFF",
        *(f"-DGGML_{name}={'ON' if on else 'OFF'}" for name, on in features.items()),
        *COMMON,
    ]


def cmake_args_text(level: Level = "cpu") -> str:
    """``cmake_args()`` as one line, for ``CMAKE_ARGS="$(python -m handwritten_agent model
    cmake-args)"``.
    """
    return " ".join(cmake_args(level))


__all__ = [
    "COMMON",
    "NEVER",
    "X86_FEATURES",
    "cmake_args",
    "cmake_args_text",
    "cpu_flags",
    "is_linux_x86_64",
    "x86_features",
]
