"""The release checklist (Day 7's table of what to check before shipping), checked against the
course's office assistant and the package's code.

    python -m handwritten_agent checklist   # ✅/❌ per item and where to fix; exit 1 if any ❌
    python -m handwritten_agent checklist --json checklist.json

Each item of the table is turned into something that can fail:

==========  =====================================================================================
工具安全     no ``eval``/``exec`` call in the package (an ``ast`` scan); arguments validated first
敏感操作     every L2/L3 tool of every role, called by a scripted model: paused, not executed
最大步数     ``course-sim:repeat_forever`` (the same call every turn) ends at ``max_steps``
消息结构     parallel calls against the strict offline server: the next request is accepted (no 400)
日志         a traced run's JSONL carries request_id, tool, duration, error and the stop reason
配置外置     no key-shaped text in code or notebooks; ``.env`` git-ignored; the key never printed
异常兜底     a model that times out, a tool whose database is gone: clear words, not a crash
成本控制     a long session is trimmed to the token budget; tokens counted per model call
==========  =====================================================================================

The runs use the service's own agent factory (``service.agents.OfficeAssistant``) on scratch
folders, so the checklist checks what the service runs. ``run_checklist(package_dir=…,
make_assistant=…)`` checks another package or another assistant — the tests use that to break each
item on purpose.

Left out: the items that need a person (is the tool description clear? is the daily alert wired to a
pager?), and real providers (the checks need models that misbehave on purpose).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from .code import find_eval, find_secrets, gitignores_env, python_files, text_files

PACKAGE_DIR = Path(__file__).resolve().parents[2]  # handwritten_agent/


@dataclass
class Item:
    key: str
    title: str
    question: str
    """The table's wording of what to confirm."""
    passed: bool
    detail: str
    fix: str
    """Where to look when it fails."""
    seconds: float = 0.0

    def line(self) -> str:
        mark = "✅" if self.passed else "❌"
        text = f"{mark} {self.title}：{self.detail}"
        return text if self.passed else f"{text}\n   怎么修：{self.fix}"


@dataclass(frozen=True)
class Spec:
    key: str
    title: str
    question: str
    fix: str


SPECS = [
    Spec(
        "eval",
        "工具安全",
        "是否有 eval 式危险函数，是否校验输入",
        "删掉这些 eval/exec：算式用 ast 解析（scenarios/calculator.py 的做法），数据用"
        " json.loads；工具参数交给 ToolRegistry.dispatch 校验。",
    ),
    Spec(
        "gated",
        "敏感操作",
        "删除、支付、发送类操作是否有人审",
        "在 service/agents.py 的 office_agent 里把 permissions.PolicyGate(policy, user) 放进"
        " Agent(hooks=[...])：L2/L3 工具才会暂停等确认。",
    ),
    Spec(
        "max_steps",
        "最大步数",
        "是否设置 max_steps，防止死循环",
        "给 Agent 一个有限的 max_steps（ServiceSettings.max_steps），并保留重复调用护栏。",
    ),
    Spec(
        "echo",
        "消息结构",
        "assistant、tool 消息是否按规范回传",
        "agent.py：把模型返回的 assistant 消息原样 append（reply.to_message()，保留 tool_calls 和"
        " id），每个 tool_call_id 都回填一条 tool 消息。",
    ),
    Spec(
        "logs",
        "日志",
        "是否记录 request_id、工具名、耗时、异常",
        "service/agents.py：每次运行把 tracing.Tracer(traces/<run id>.jsonl, user_id=…,"
        " session_id=…) 放进 Agent(hooks=[...])。",
    ),
    Spec(
        "config",
        "配置外置",
        "API Key、模型名是否放到 .env，不硬编码",
        "把密钥放进 .env（LLM_API_KEY），代码里用 config.load_settings() 读取；.gitignore 里要有"
        " .env。",
    ),
    Spec(
        "failures",
        "异常兜底",
        "模型超时、工具异常时用户是否能看到明确提示",
        "llm.py 把超时变成说明怎么修的 RequestTimeout，循环把它记进 stop_reason='error'；工具异常由"
        " ToolRegistry.dispatch 变成 {success: false, error}。",
    ),
    Spec(
        "budget",
        "成本控制",
        "是否有 token 消耗监控和每日告警",
        "service/agents.py：Agent(memory=memory.Window(settings.token_budget))，trace"
        " 记录每次调用的 input_tokens/output_tokens；每日上限用 tracing.Budget(per_day=…)。",
    ),
]


def find_root(package_dir: Path) -> Path | None:
    """The repository around the package (the folder with pyproject.toml), if there is one."""
    parent = package_dir.parent
    return parent if (parent / "pyproject.toml").is_file() else None


def check_eval(package_dir: Path) -> tuple[bool, str]:
    from ...tools import ToolRegistry, tool

    files = python_files(package_dir)
    findings = find_eval(files)
    if findings:
        return False, "发现 " + "；".join(str(f) for f in findings[:5]) + (
            "……" if len(findings) > 5 else ""
        )
    ran: list[int] = []

    @tool
    def count_items(n: int) -> int:
        """数一数（检查用）。

        Args:
            n: 个数，例如：3
        """
        ran.append(n)
        return n

    bad = ToolRegistry([count_items]).dispatch("count_items", '{"n": "三; import os"}')
    if bad.success or ran:
        return (
            False,
            f"扫描了 {len(files)} 个文件，没有 eval/exec；但类型不对的参数没有被拒绝就执行了工具。",
        )
    return (
        True,
        (
            f"扫描了 {len(files)} 个 Python 文件：没有 eval/exec"
            f" 调用；类型不对的参数在执行前被拒绝（“{(bad.error or '').split('，')[0]}”）"
        ),
    )


def check_config(package_dir: Path, root: Path | None) -> tuple[bool, str]:
    from ...config import load_settings

    files = text_files(package_dir, root)
    findings = find_secrets(files)
    if findings:
        return False, "发现 " + "；".join(str(f) for f in findings[:5])
    ignored = gitignores_env(root)
    if ignored is False:
        return False, f"{root / '.gitignore'} 里没有 .env：密钥文件可能被提交。"
    key = "sk-" + "k" * 32
    settings = load_settings({"LLM_PROVIDER": "deepseek", "LLM_API_KEY": key}, dotenv=False)
    if key in repr(settings) or key in settings.banner():
        return False, "配置对象的 repr() 或横幅里出现了 API Key。"
    where = "，.gitignore 忽略 .env" if ignored else ""
    return (
        True,
        (
            f"扫描了 {len(files)} 个代码和笔记本文件：没有写死的密钥{where}；模型和密钥从 .env 的"
            " LLM_* 读取"
            f"（{settings.model} @ {settings.base_url}），repr 和横幅里不出现密钥"
        ),
    )


def run_checklist(
    *,
    package_dir: Path | None = None,
    root: Path | None | str = "auto",
    make_assistant: Callable[[Path, Any], Any] | None = None,
    only: list[str] | None = None,
    progress: Callable[[Spec], None] | None = None,
) -> list[Item]:
    """Check every item (or ``only`` these keys); a check that raises fails its item with the
    exception.
    """
    from . import runs

    package_dir = Path(package_dir or PACKAGE_DIR)
    repo = find_root(package_dir) if root == "auto" else (Path(root) if root else None)
    make = make_assistant or runs.course_assistant
    items: list[Item] = []
    with tempfile.TemporaryDirectory(prefix="checklist_") as scratch:
        lab = runs.Lab(make, Path(scratch))
        checks: dict[str, Callable[[], tuple[bool, str]]] = {
            "eval": lambda: check_eval(package_dir),
            "gated": lambda: runs.check_gated(lab),
            "max_steps": lambda: runs.check_max_steps(lab),
            "echo": lambda: runs.check_echo(lab),
            "logs": lambda: runs.check_logs(lab),
            "config": lambda: check_config(package_dir, repo),
            "failures": lambda: runs.check_failures(lab),
            "budget": lambda: runs.check_token_budget(lab),
        }
        for spec in SPECS:
            if only and spec.key not in only:
                continue
            if progress is not None:
                progress(spec)
            started = time.perf_counter()
            try:
                passed, detail = checks[spec.key]()
            except Exception as exc:  # noqa: BLE001 - a check that crashes is a failed item, with the reason
                passed, detail = False, f"检查本身出错：{type(exc).__name__}: {str(exc)[:200]}"
            items.append(
                Item(
                    spec.key,
                    spec.title,
                    spec.question,
                    passed,
                    detail,
                    spec.fix,
                    round(time.perf_counter() - started, 2),
                )
            )
    return items


def format_items(items: list[Item]) -> str:
    passed = sum(item.passed for item in items)
    head = "发布前检查清单（参考文章的 8 项），对照课程的办公助手和 handwritten_agent 的代码："
    return "\n".join([head, *(item.line() for item in items), f"通过 {passed}/{len(items)} 项"])


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", default=None, metavar="PATH", help="同时把各项结果写成 JSON")
    parser.add_argument(
        "--only",
        action="append",
        default=[],
        choices=[spec.key for spec in SPECS],
        help="只检查这一项（可以重复给出）",
    )


def main(args: argparse.Namespace) -> int:
    items = run_checklist(
        only=args.only or None,
        progress=lambda spec: print(f"检查：{spec.title}……", file=sys.stderr, flush=True),
    )
    print(format_items(items))
    if args.json:
        Path(args.json).write_text(
            json.dumps([asdict(item) for item in items], ensure_ascii=False, indent=2),
            encoding="utf-8",
        )
        print(f"已写入：{args.json}")
    return 0 if all(item.passed for item in items) else 1


__all__ = [
    "Item",
    "PACKAGE_DIR",
    "SPECS",
    "Spec",
    "add_arguments",
    "find_root",
    "format_items",
    "main",
    "run_checklist",
]
