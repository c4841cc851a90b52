"""The install check of the local model, and the build options it recommends.

The verdict is tested on real child processes that stand in for llama.cpp: one that dies of a
segmentation fault (a real ``SIGSEGV``, sent to itself), one that dies of an illegal instruction,
one that exits with an error, one that hangs, one that exits cleanly without a result, and one that
reports like a working build. Each goes through ``run_check`` exactly as the real child does, so the
check is shown to catch a crash, not only to accept a success. The slow test runs the real child on
the real model (``pytest -m slow``, in CI's local smoke test).
"""

from __future__ import annotations

import json
import signal
import sys
from pathlib import Path

import pytest

from handwritten_agent.course.offline import build_flags, model_check
from handwritten_agent.course.offline.model_check import (
    INFO_PREFIX,
    RESULT_PREFIX,
    judge,
    run_check,
)

ROOT = Path(__file__).resolve().parent.parent
posix_only = pytest.mark.skipif(
    sys.platform == "win32", reason="signals end processes only on POSIX"
)

AMX_BUILD = ["AVX", "AVX2", "AVX512", "AVX512_VNNI", "AMX_INT8"]
SAFE_BUILD = ["AVX", "AVX2", "AVX512", "AVX512_VNNI"]


def fake_child(body: str, features: list[str] | None = None) -> list[str]:
    """A child process that first reports the build's instruction sets (as the real one does), then
    runs ``body``.
    """
    lines = ["import json, os, signal, sys, time"]
    if features is not None:
        lines.append(
            f"print({INFO_PREFIX!r} + json.dumps({{'features': {features!r}}}), flush=True)"
        )
    lines.append(body)
    return [sys.executable, "-c", "\n".join(lines)]


GOOD_RESULT = {
    "prompt_tokens": 40,
    "prompt_seconds": 0.25,
    "generated_tokens": 16,
    "generation_seconds": 0.5,
    "text": "room_502",
}


@posix_only
def test_a_child_that_segfaults_is_reported_as_a_crash_with_the_rebuild_command() -> None:
    result = run_check(
        command=fake_child("os.kill(os.getpid(), signal.SIGSEGV)", AMX_BUILD), timeout=60
    )
    assert result.outcome == "crashed" and not result.ok
    assert result.signal_name == "SIGSEGV" and result.returncode == -signal.SIGSEGV
    assert result.has_amx and result.rebuild_level == "cpu"
    message = result.message()
    assert "SIGSEGV" in message and "段错误" in message and "AMX" in message
    assert message.rstrip().endswith("make local-rebuild")


@posix_only
def test_a_crash_of_a_build_without_amx_suggests_the_portable_build() -> None:
    result = run_check(
        command=fake_child("os.kill(os.getpid(), signal.SIGSEGV)", SAFE_BUILD), timeout=60
    )
    assert result.outcome == "crashed" and result.rebuild_level == "portable"
    assert result.message().rstrip().endswith("make local-rebuild REBUILD_LEVEL=portable")


@posix_only
def test_an_illegal_instruction_says_the_build_is_for_another_cpu() -> None:
    result = run_check(
        command=fake_child("os.kill(os.getpid(), signal.SIGILL)", SAFE_BUILD), timeout=60
    )
    assert result.outcome == "crashed" and result.signal_name == "SIGILL"
    assert "非法指令" in result.message() and "另一台机器" in result.message()


def test_a_child_that_exits_with_an_error_fails_the_check_and_shows_its_error() -> None:
    result = run_check(
        command=fake_child(
            "print('llama_model_load: error loading model', file=sys.stderr); sys.exit(3)"
        ),
        timeout=60,
    )
    assert result.outcome == "failed" and result.returncode == 3 and not result.ok
    assert "退出码 3" in result.message() and "error loading model" in result.message()


def test_a_missing_llama_cpp_says_to_run_make_local() -> None:
    result = run_check(
        command=fake_child("import llama_cpp_that_is_not_there as llama_cpp"), timeout=60
    )
    assert result.outcome == "failed"  # another module's name is an ordinary failure …
    missing = judge(1, "", "ModuleNotFoundError: No module named 'llama_cpp'")
    assert (
        missing.outcome == "not_installed" and "make local" in missing.message()
    )  # … only llama_cpp's means "not installed"


def test_a_child_that_exits_cleanly_without_a_result_does_not_pass() -> None:
    result = run_check(command=fake_child("pass", SAFE_BUILD), timeout=60)
    assert result.outcome == "failed" and "RESULT" in result.detail


def test_a_result_without_several_prompt_tokens_does_not_pass() -> None:
    one_token = {**GOOD_RESULT, "prompt_tokens": 1}
    assert judge(0, RESULT_PREFIX + json.dumps(one_token), "").outcome == "failed"
    assert judge(0, RESULT_PREFIX + "{not json", "").outcome == "failed"


def test_a_child_that_hangs_is_stopped_at_the_timeout() -> None:
    result = run_check(command=fake_child("time.sleep(30)", SAFE_BUILD), timeout=1)
    assert result.outcome == "timeout" and not result.ok and "1 秒" in result.message()


def test_a_working_child_passes_and_its_speeds_are_shown() -> None:
    body = f"print({RESULT_PREFIX!r} + json.dumps({GOOD_RESULT!r}), flush=True)"
    result = run_check(command=fake_child(body, SAFE_BUILD), timeout=60)
    assert result.ok and result.features == SAFE_BUILD
    assert "160 token/秒" in result.message() and "32.0 token/秒" in result.message()


def test_windows_crash_statuses_are_crashes_too() -> None:
    assert judge(0xC0000005, "", "").signal_name == "ACCESS_VIOLATION"
    assert judge(0xC000001D, "", "").outcome == "crashed"


def test_the_system_info_line_is_read_into_feature_names() -> None:
    info = (
        "CPU : SSE3 = 1 | AVX = 1 | AVX2 = 1 | AVX512 = 1 | AMX_INT8 = 0 | OPENMP = 1 | REPACK"
        " = 1 |"
    )
    assert model_check._features(info) == ["SSE3", "AVX", "AVX2", "AVX512", "OPENMP", "REPACK"]


def test_the_rebuild_never_uses_a_cached_wheel_and_keeps_the_pinned_range() -> None:
    command = model_check.rebuild_pip_command(installed=True)
    assert "--no-cache-dir" in command and "--force-reinstall" in command
    assert command[command.index("--no-binary") + 1] == "llama-cpp-python"
    pinned = command[-1]
    assert (
        pinned.startswith("llama-cpp-python") and "<0.4" in pinned
    )  # the range of pyproject.toml's local extra


# ---------------------------------------------------------------------------------------------
# build_flags
# ---------------------------------------------------------------------------------------------

SAPPHIRE_RAPIDS = (
    "sse4_2 avx f16c fma avx2 bmi2 avx_vnni avx512f avx512cd avx512vl avx512dq avx512bw avx512vbmi "
    "avx512_vnni avx512_bf16 avx512_fp16 amx_tile amx_int8 amx_bf16"
).split()
OLD_ATOM = "sse4_2 ssse3 popcnt".split()


def on(args: list[str]) -> set[str]:
    return {
        arg[len("-DGGML_") : -len("=ON")]
        for arg in args
        if arg.startswith("-DGGML_") and arg.endswith("=ON")
    }


def test_an_amx_cpu_gets_every_instruction_set_but_amx() -> None:
    args = build_flags.cmake_args(flags=SAPPHIRE_RAPIDS, system="Linux", machine="x86_64")
    assert "-DGGML_NATIVE=OFF" in args
    assert {"AVX2", "AVX_VNNI", "AVX512", "AVX512_VBMI", "AVX512_VNNI", "AVX512_BF16"} <= on(args)
    assert {"-DGGML_AMX_TILE=OFF", "-DGGML_AMX_INT8=OFF", "-DGGML_AMX_BF16=OFF"} <= set(args)


def test_a_cpu_without_avx_gets_no_avx() -> None:
    args = build_flags.cmake_args(flags=OLD_ATOM, system="Linux", machine="x86_64")
    assert on(args) == {"SSE42"}  # llama.cpp's own defaults with GGML_NATIVE=OFF would assume AVX2


def test_an_extension_without_its_base_stays_off() -> None:
    features = build_flags.x86_features(
        ["avx512_vnni", "avx2", "avx"]
    )  # a VM reporting VNNI without AVX-512F
    assert (
        features["AVX512_VNNI"] is False
        and features["AVX512"] is False
        and features["AVX2"] is True
    )


def test_the_portable_level_also_turns_off_avx512() -> None:
    args = build_flags.cmake_args(
        "portable", flags=SAPPHIRE_RAPIDS, system="Linux", machine="x86_64"
    )
    assert not any(name.startswith("AVX512") or name.startswith("AMX") for name in on(args))
    assert {"AVX", "AVX2", "FMA", "F16C"} <= on(args)


def test_other_systems_keep_llama_cpps_defaults() -> None:
    for system, machine in (
        ("Darwin", "arm64"),
        ("Darwin", "x86_64"),
        ("Windows", "AMD64"),
        ("Linux", "aarch64"),
    ):
        assert build_flags.cmake_args(flags=SAPPHIRE_RAPIDS, system=system, machine=machine) == [
            "-DLLAVA_BUILD=OFF"
        ]


def test_cpu_flags_are_read_from_cpuinfo(tmp_path: Path) -> None:
    cpuinfo = tmp_path / "cpuinfo"
    cpuinfo.write_text(
        "processor\t: 0\nmodel name\t: Test CPU\nflags\t\t: fpu sse4_2 avx avx2\n\nprocessor\t:"
        " 1\nflags\t: fpu\n"
    )
    assert build_flags.cpu_flags(cpuinfo) == {"fpu", "sse4_2", "avx", "avx2"}
    assert build_flags.cpu_flags(tmp_path / "missing") == set()


def test_make_local_and_ci_build_with_these_options_and_run_the_check() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    local = makefile.split("\nlocal:", 1)[1].split("\n\n", 1)[0]
    assert "model check" in local
    # the build is the stamp's recipe, which local depends on (pip again when pyproject changes)
    assert "$(LOCAL_STAMP)" in local.split("\n", 1)[0]
    build = makefile.split("\n$(LOCAL_STAMP):", 1)[1].split("\n\n", 1)[0]
    assert "pyproject.toml" in build.split("\n", 1)[0]
    assert "model cmake-args" in build and "pip install" in build
    assert "model rebuild" in makefile.split("\nlocal-rebuild:", 1)[1].split("\n\n", 1)[0]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert (
        "make local" in ci.split("local model", 1)[1]
    )  # the smoke test installs through make local, which runs the check


# ---------------------------------------------------------------------------------------------
# The real child on the real model (slow)
# ---------------------------------------------------------------------------------------------


@pytest.mark.slow
def test_the_installed_build_runs_a_several_token_prompt() -> None:
    from handwritten_agent.course.offline import model_fetch

    if not model_fetch.is_available():
        pytest.skip("the course model is not fetched: python -m handwritten_agent model fetch")
    result = run_check()
    assert result.ok, result.message()
    assert (
        result.timings["prompt_tokens"] >= 20
        and result.timings["generated_tokens"] == model_check.GENERATE_TOKENS
    )
    assert not result.has_amx  # built by make local: AMX off
