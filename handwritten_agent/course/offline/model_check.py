"""Does the installed llama.cpp build run the model? A prompt of several tokens in a child process,
judged from outside.

A llama.cpp compiled with the wrong instructions for a CPU does not raise an exception: it kills the
process (a segmentation fault, an illegal instruction). So the check cannot run in the process that
reports on it. ``run_check()`` starts ``python -m handwritten_agent.course.offline.model_check
MODEL``, which loads the model, reads a prompt of a few dozen tokens in one batch (the path a
one-token test never takes) and generates a few tokens; it prints the build's instruction sets first
and the timings last, each on a line of its own. ``judge()`` turns the child's exit (a signal, an
exit code, a timeout) and its output into a ``CheckResult``, whose ``message()`` says in Chinese
what happened and the one command that rebuilds llama-cpp-python safely (``build_flags``): ``make
local-rebuild``, or, when the crashed build already had AMX off, the portable build without AVX-512.

``rebuild()`` is that command: pip recompiles llama-cpp-python (the version range ``pyproject.toml``
pins, never a cached wheel) with ``build_flags.cmake_args()``, then the check runs again.

Left out: checking answers for quality (the evaluation does that), GPU builds, and a model that
loads but is too slow (the check prints the speeds; it does not judge them).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib import metadata
from typing import Any, Literal

INFO_PREFIX = "SYSTEM_INFO "
RESULT_PREFIX = "RESULT "
PROMPT = (
    "下面是一段用来检查本地模型的文字。会议室 room_301 可以坐 8 个人，room_502 可以坐 12 个人。"
    "请用一句话说明：哪一间会议室适合 10 个人开会？"
)
GENERATE_TOKENS = 16
DEFAULT_TIMEOUT = 300.0
DISTRIBUTION = "llama-cpp-python"
WINDOWS_CRASHES = {
    0xC0000005: "ACCESS_VIOLATION",
    0xC000001D: "ILLEGAL_INSTRUCTION",
    0xC0000409: "STACK_BUFFER_OVERRUN",
}
SIGNAL_MEANINGS = {
    "SIGSEGV": "段错误，访问了不该访问的内存",
    "SIGILL": "非法指令，CPU 不认识程序里的某条指令",
    "SIGBUS": "总线错误",
    "SIGFPE": "算术异常",
    "SIGABRT": "程序自己中止了",
    "ACCESS_VIOLATION": "访问冲突，相当于段错误",
    "ILLEGAL_INSTRUCTION": "非法指令",
}

Outcome = Literal["ok", "crashed", "failed", "timeout", "not_installed"]


@dataclass
class CheckResult:
    """What the child did: ``ok``, ``crashed`` (killed by a signal), ``failed`` (an error or no
    result), ``timeout``, ``not_installed``.
    """

    outcome: Outcome
    returncode: int | None = None
    signal_name: str | None = None
    features: list[str] = field(default_factory=list)
    """The instruction sets the build was compiled with (``llama_print_system_info``), when the
    child got that far.
    """
    timings: dict[str, Any] = field(default_factory=dict)
    detail: str = ""
    """The end of the child's error output (or what was wrong with its output)."""
    timeout: float | None = None

    @property
    def ok(self) -> bool:
        return self.outcome == "ok"

    @property
    def has_amx(self) -> bool:
        return any(name.startswith("AMX") for name in self.features)

    @property
    def rebuild_level(self) -> str:
        """Which build to suggest: ``cpu`` (this CPU's sets, AMX off), or ``portable`` if the
        crashed build had AMX off already.
        """
        return (
            "portable"
            if self.outcome == "crashed" and self.features and not self.has_amx
            else "cpu"
        )

    def message(self) -> str:
        """What happened, in Chinese, and what to do about it."""
        if self.outcome == "ok":
            t = self.timings
            return (
                f"本地模型运行正常：读 {t['prompt_tokens']} 个 token 的提示用了"
                f" {t['prompt_seconds']:.2f} 秒"
                f"（{t['prompt_tokens'] / max(t['prompt_seconds'], 1e-9):.0f} token/秒），"
                f"生成 {t['generated_tokens']} 个 token 用了 {t['generation_seconds']:.2f} 秒"
                f"（{t['generated_tokens'] / max(t['generation_seconds'], 1e-9):.1f} token/秒）。\n"
                f"这份 llama.cpp 用到的指令集：{'、'.join(self.features) or '（未知）'}。"
            )
        if self.outcome == "not_installed":
            return (
                "llama-cpp-python 还没有安装，本地模型用不了。在课程目录里运行 `make local`"
                "（会编译 llama.cpp，2 核约 6 分钟），装好后它会自动再检查一次。"
            )
        build = (
            f"这份 llama.cpp 编译时用到的指令集：{'、'.join(self.features)}。\n"
            if self.features
            else ""
        )
        if self.outcome == "crashed":
            meaning = SIGNAL_MEANINGS.get(self.signal_name or "", "")
            what = (
                "llama.cpp 在读取一段多个 token 的提示时崩溃了：检查用的子进程被信号"
                f" {self.signal_name}"
                f"{f'（{meaning}）' if meaning else ''}终止。\n"
            )
            if self.signal_name in ("SIGILL", "ILLEGAL_INSTRUCTION"):
                why = (
                    "这份 llama.cpp 里有这台机器的 CPU"
                    " 不支持的指令：它多半是在另一台机器上编译的（比如复制过来的虚拟环境或缓存的"
                    " wheel）。\n"
                )
            elif self.has_amx:
                why = (
                    "这份 llama.cpp 用了 Intel 的 AMX 指令（Sapphire Rapids 及更新的 Xeon 才有）；"
                    "旧版 GCC 编译出的 AMX 代码会在读多个 token 的提示时崩溃。不是你的代码的问题。"
                    "\n"
                )
            else:
                why = (
                    "这是 llama-cpp-python 按这台机器的 CPU 编译出的代码出了问题，"
                    "不是你的代码的问题。\n"
                )
            return (
                what
                + build
                + why
                + (
                    "用更保守的编译选项重新编译 llama-cpp-python（需要几分钟），装好后会自动再检"
                    "查：\n    "
                )
                + rebuild_command(self.rebuild_level)
            )
        if self.outcome == "timeout":
            return (
                f"检查在 {self.timeout:g} 秒内没有完成：模型加载或推理卡住了（机器很忙，"
                "或内存不够）。"
                "关掉别的程序后再运行一次 `python -m handwritten_agent model check`；还是这样的话，"
                "重新编译：\n    " + rebuild_command("cpu")
            )
        return (
            f"检查用的子进程出错退出（退出码 {self.returncode}）。\n{build}"
            + (f"它最后输出的是：\n{self.detail}\n" if self.detail else "")
            + "如果提示模型文件有问题，运行 `python -m handwritten_agent model fetch`；如果是"
            " llama-cpp-python 的问题，重新编译：\n    " + rebuild_command("cpu")
        )


def rebuild_command(level: str = "cpu") -> str:
    """The one command that recompiles llama-cpp-python with safe options (``make
    local-rebuild``).
    """
    return "make local-rebuild" + (" REBUILD_LEVEL=portable" if level == "portable" else "")


def _crash_signal(returncode: int) -> str | None:
    """The name of the signal (POSIX) or crash status (Windows) that ended a process, or None for an
    ordinary exit.
    """
    if returncode < 0:
        try:
            return signal.Signals(-returncode).name
        except ValueError:
            return f"signal {-returncode}"
    return WINDOWS_CRASHES.get(returncode & 0xFFFFFFFF)


def _tail(text: str, lines: int = 8) -> str:
    return "\n".join(line for line in text.strip().splitlines()[-lines:])


def judge(
    returncode: int | None,
    stdout: str,
    stderr: str,
    *,
    timed_out: bool = False,
    timeout: float | None = None,
) -> CheckResult:
    """The verdict on one run of the child: how it ended (``returncode`` None with ``timed_out``)
    and what it printed.
    """
    features: list[str] = []
    timings: dict[str, Any] = {}
    problems: list[str] = []
    for line in stdout.splitlines():
        try:
            if line.startswith(INFO_PREFIX):
                features = list(json.loads(line[len(INFO_PREFIX) :]).get("features", []))
            elif line.startswith(RESULT_PREFIX):
                timings = dict(json.loads(line[len(RESULT_PREFIX) :]))
        except (ValueError, TypeError, AttributeError) as exc:
            problems.append(f"无法解析的输出：{line[:200]}（{exc}）")
    if timed_out:
        return CheckResult(
            "timeout", None, features=features, detail=_tail(stderr), timeout=timeout
        )
    assert returncode is not None
    crash = _crash_signal(returncode)
    if crash is not None:
        return CheckResult("crashed", returncode, crash, features, timings, _tail(stderr))
    if returncode != 0:
        outcome: Outcome = (
            "not_installed"
            if re.search(r"No module named '?llama_cpp(?:'|\s|$)", stderr, re.MULTILINE)
            else "failed"
        )
        return CheckResult(outcome, returncode, None, features, timings, _tail(stderr))
    needed = ("prompt_tokens", "prompt_seconds", "generated_tokens", "generation_seconds")
    if not all(isinstance(timings.get(key), (int, float)) for key in needed):
        problems.append("子进程正常退出，但没有报告结果（RESULT 行缺失或不完整）")
    elif timings["prompt_tokens"] < 2 or timings["generated_tokens"] < 1:
        problems.append(
            f"提示只有 {timings['prompt_tokens']} 个 token、生成了 {timings['generated_tokens']}"
            " 个：这不算检查过"
        )
    if problems:
        return CheckResult(
            "failed",
            returncode,
            None,
            features,
            timings,
            "\n".join(problems + [_tail(stderr)]).strip(),
        )
    return CheckResult("ok", returncode, None, features, timings)


def child_command(model_path: str | os.PathLike[str]) -> list[str]:
    """The child: this module run as a script on the model file."""
    return [sys.executable, "-m", "handwritten_agent.course.offline.model_check", str(model_path)]


def run_check(
    model_path: str | os.PathLike[str] | None = None,
    *,
    command: Sequence[str] | None = None,
    timeout: float = DEFAULT_TIMEOUT,
) -> CheckResult:
    """Run the child (``command`` replaces it, for tests) and judge how it ended."""
    if command is None:
        from . import model_fetch

        command = child_command(model_fetch.fetch(model_path, progress=True))
    try:
        done = subprocess.run(
            list(command),
            capture_output=True,
            text=True,
            encoding="utf-8",
            errors="replace",
            timeout=timeout,
        )
    except subprocess.TimeoutExpired as exc:
        out = (
            exc.stdout.decode("utf-8", "replace")
            if isinstance(exc.stdout, bytes)
            else (exc.stdout or "")
        )
        err = (
            exc.stderr.decode("utf-8", "replace")
            if isinstance(exc.stderr, bytes)
            else (exc.stderr or "")
        )
        return judge(None, out, err, timed_out=True, timeout=timeout)
    return judge(done.returncode, done.stdout, done.stderr)


# ---------------------------------------------------------------------------------------------
# Rebuilding
# ---------------------------------------------------------------------------------------------


def requirement(distribution: str = "handwritten-agent") -> str:
    """``llama-cpp-python`` with the version range of this package's ``local`` extra (one home:
    ``pyproject.toml``).
    """
    try:
        requires = metadata.requires(distribution) or []
    except metadata.PackageNotFoundError:
        requires = []
    for spec in requires:
        name = re.split(r"[<>=!~ ;\[]", spec, maxsplit=1)[0]
        if name.lower().replace("_", "-") == DISTRIBUTION:
            return spec.split(";")[0].strip().replace(" ", "")
    return DISTRIBUTION


def rebuild_pip_command(installed: bool) -> list[str]:
    """pip recompiling llama-cpp-python from source, never from a cached wheel (whose build flags
    pip does not know).
    """
    command = [
        sys.executable,
        "-m",
        "pip",
        "install",
        "--no-cache-dir",
        "--no-binary",
        DISTRIBUTION,
    ]
    if installed:
        command += [
            "--force-reinstall",
            "--no-deps",
        ]  # its dependencies are there already; only it is rebuilt
    return command + [requirement()]


def rebuild(level: str = "cpu") -> int:
    """Recompile llama-cpp-python with ``build_flags.cmake_args(level)``, then check it; the exit
    code of the two.
    """
    from .build_flags import cmake_args

    args = " ".join(cmake_args(level))  # type: ignore[arg-type]
    installed = _installed_version() is not None
    command = rebuild_pip_command(installed)
    print(
        f"重新编译 llama-cpp-python（2 核约 6 分钟），CMAKE_ARGS={args}\n  {shlex.join(command)}",
        flush=True,
    )
    started = time.perf_counter()
    done = subprocess.run(command, env={**os.environ, "CMAKE_ARGS": args})
    if done.returncode != 0:
        print(f"编译失败（pip 退出码 {done.returncode}），上面是 pip 的输出。", file=sys.stderr)
        return done.returncode
    print(
        f"编译完成，用了 {time.perf_counter() - started:.0f} 秒。现在检查它能不能运行模型……",
        flush=True,
    )
    return main_check()


def _installed_version() -> str | None:
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return None


def main_check(model_path: str | None = None, timeout: float = DEFAULT_TIMEOUT) -> int:
    """``python -m handwritten_agent model check``: run the check, print its message; 0 only when
    the model ran.
    """
    version = _installed_version()
    if version is None:
        result = CheckResult("not_installed")
    else:
        print(
            f"检查 llama-cpp-python {version}：在子进程里读一段多个 token 的提示并生成几个 token……",
            flush=True,
        )
        result = run_check(model_path, timeout=timeout)
    print(result.message(), file=sys.stdout if result.ok else sys.stderr, flush=True)
    return 0 if result.ok else 1


# ---------------------------------------------------------------------------------------------
# The child
# ---------------------------------------------------------------------------------------------


def _features(system_info: str) -> list[str]:
    """``"CPU : SSE3 = 1 | AVX = 1 | AMX_INT8 = 0 | …"`` → the names set to 1."""
    return [
        name
        for name, value in re.findall(r"([A-Z][A-Z0-9_]*)\s*=\s*(\d+)", system_info)
        if value != "0"
    ]


def child_main(model_path: str) -> int:
    """Load the model, read ``PROMPT`` in one batch, generate ``GENERATE_TOKENS`` tokens; print what
    was used and how long it took.
    """
    import llama_cpp

    from .local import default_threads

    info = llama_cpp.llama_print_system_info().decode("utf-8", "replace")
    print(
        INFO_PREFIX
        + json.dumps(
            {"features": _features(info), "system_info": info.strip()}, ensure_ascii=False
        ),
        flush=True,
    )
    threads = default_threads()
    llm = llama_cpp.Llama(
        model_path=model_path, n_ctx=512, n_threads=threads, n_threads_batch=threads, verbose=False
    )
    tokens = llm.tokenize(PROMPT.encode("utf-8"), add_bos=False)
    started = time.perf_counter()
    llm.eval(tokens)  # one batch of many tokens: the code path that crashes on a bad build
    prompt_seconds = time.perf_counter() - started
    generated: list[int] = []
    started = time.perf_counter()
    for _ in range(GENERATE_TOKENS):
        token = llm.sample(
            temp=0.0
        )  # an end-of-text token is fed back like any other: the check times a fixed count
        generated.append(token)
        llm.eval([token])
    generation_seconds = time.perf_counter() - started
    text = llm.detokenize(generated).decode("utf-8", "replace")
    print(
        RESULT_PREFIX
        + json.dumps(
            {
                "prompt_tokens": len(tokens),
                "prompt_seconds": round(prompt_seconds, 4),
                "generated_tokens": len(generated),
                "generation_seconds": round(generation_seconds, 4),
                "threads": threads,
                "text": text,
            },
            ensure_ascii=False,
        ),
        flush=True,
    )
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(
            "用法：python -m handwritten_agent.course.offline.model_check MODEL.gguf",
            file=sys.stderr,
        )
        sys.exit(2)
    sys.exit(child_main(sys.argv[1]))


__all__ = [
    "CheckResult",
    "DEFAULT_TIMEOUT",
    "child_command",
    "judge",
    "main_check",
    "rebuild",
    "rebuild_command",
    "rebuild_pip_command",
    "requirement",
    "run_check",
]
