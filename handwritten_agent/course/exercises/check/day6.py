"""Checkers for the Day 6 exercises (日志、可观测性与评测): a redaction rule, a hand-written tracer,
a cost report, an evaluation case.

The redaction and cost checkers run the learner's function on trace lines built here (the shapes
``Tracer`` writes), several cases per dimension the task names, each with an edge; the input is
deep-copied before and compared after, so a function that changes the lines it was given fails with
a hint. The tracer is judged by what it writes while scripted agents run with it as their hook —
after every event, not only at the end. The evaluation case is run against scripted agents that do
the right thing and against ones that do something subtly wrong: a good case passes the first and
fails every other.
"""

from __future__ import annotations

import copy
import json
import math
import os
import re
import shutil
import sqlite3
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

from .framework import (
    _brief,
    _callable,
    _Check,
    _short,
    attribute,
    exercise,
    full_width,
    shared_container,
    typed,
    value_difference,
)

# --------------------------------------------------------------------------- helpers


def _same_input(check: _Check, case: str, before: Any, after: Any) -> None:
    if json.dumps(before, sort_keys=True, ensure_ascii=False, default=str) != json.dumps(
        after, sort_keys=True, ensure_ascii=False, default=str
    ):
        raise check.fail(
            case,
            expected="传入的数据保持原样",
            got=f"调用之后变成了：{_short(after, 200)}",
            hint=(
                "不要在原来的 dict/list 上修改：先建一个新的（例如逐层构造新 dict，或 copy.deepcopy"
                " 之后再改）。"
            ),
        )


def _run(check: _Check, case: str, fn: Callable[..., Any], *args: Any, hint: str = "") -> Any:
    originals = copy.deepcopy(args)
    got = check.call(case, fn, *args, hint=hint)
    for before, after in zip(originals, args):
        _same_input(check, case, before, after)
    return got


# --------------------------------------------------------------------------- 6.1 redaction

_KEY = re.compile(r"(?<![A-Za-z0-9])sk-[A-Za-z0-9_-]{16,}")
_SIXTEEN = "sk-Q7wE9rT1yU3iO5pA"  # exactly 16 characters after sk-
_FIFTEEN = "sk-Q7wE9rT1yU3iO5p"  # 15: not a key


def _strings(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[tuple[Any, ...], str]]:
    if isinstance(value, str):
        return [(path, value)]
    if isinstance(value, dict):
        return [item for key, inner in value.items() for item in _strings(inner, (*path, key))]
    if isinstance(value, list):
        return [
            item for index, inner in enumerate(value) for item in _strings(inner, (*path, index))
        ]
    return []


def _at(value: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        try:
            value = value[part]
        except (KeyError, IndexError, TypeError):
            return None
    return value


def _redact_hint(
    line: dict[str, Any],
    expected: dict[str, Any],
    got: Any,
    hint: str,
    redact_line: Callable[..., Any],
) -> str:
    """The hint for the first string the learner got wrong: which key stayed, and why (tried again
    on that key alone).
    """
    for path, text in _strings(line):
        want, have = _at(expected, path), _at(got, path)
        if want == have or not isinstance(have, str) or want == "***":
            continue
        kept = [key.group() for key in _KEY.finditer(text) if key.group() in have]
        if not kept:
            break
        key = kept[0]
        try:
            alone = redact_line({"note": key})
        except Exception:  # noqa: BLE001 - only a hint depends on it
            alone = None
        if alone == {"note": "sk-***"}:
            return (
                f"{key} 单独出现时你能替换，和别的密钥在同一段文字里时却留下了：用 re.sub"
                " 替换所有匹配（不要 count=1，也不要只 search 一次）。"
            )
        body = key[3:]
        if re.search(r"[-_]", body):
            return (
                f"{key} 没有被替换：它里面有 - 或 _。密钥的字符是字母、数字、- 和 _，"
                "字符类要写全：[A-Za-z0-9_-]{16,}。"
            )
        if len(body) == 16:
            return (
                f"{key} 没有被替换：sk- 后面正好 16 个字符，“至少 16 个”包括 16 个本身：{{16,}}，"
                "不是 {17,}。"
            )
        return f"{key} 没有被替换。" + hint
    return hint


def _chinese_lines(check: _Check, redact_line: Callable[..., Any]) -> None:
    """Chinese field names and Chinese text around keys, one line after another (silent when right):
    "字母、数字" in the rule are ASCII ones, so ``\\w`` (which matches Chinese) and a JSON round
    trip that escapes Chinese to ``\\uXXXX`` both go wrong; so does state kept from the line before.
    """
    key = "sk-" + "Ab9_" * 5
    runs = [
        (
            "中文字段名以 Password 结尾",
            {"数据库Password": "p-1", "用户": "张三"},
            {"数据库Password": "***", "用户": "张三"},
        ),
        ("密钥后面紧跟中文", {"note": f"{key}是新的密钥"}, {"note": "sk-***是新的密钥"}),
        ("密钥前面紧挨着中文", {"note": f"密钥{key}，别外传"}, {"note": "密钥sk-***，别外传"}),
        (
            "sk- 后面是中文，不是密钥",
            {"note": "sk-" + "中文字符" * 5},
            {"note": "sk-" + "中文字符" * 5},
        ),
        ("全角的 ｓｋ－ 不是密钥", {"note": full_width(key)}, {"note": full_width(key)}),
        (
            "另一行：没有密钥",
            {"用户": "李四", "note": "会议室 302"},
            {"用户": "李四", "note": "会议室 302"},
        ),
    ]
    check.independent(
        "中文的字段名和文本",
        [
            (label, (lambda line=line: redact_line(copy.deepcopy(line))), expected)
            for label, line, expected in runs
        ],
        hint=(
            "规则里的“字母、数字”是 ASCII 的 A-Z、a-z、0-9：\\w 也匹配汉字，要写成 [A-Za-z0-9_-]；"
            "不要把整行 json.dumps 成文本再替换（默认会把中文转成 \\uXXXX，"
            "密钥前面就“紧挨着”数字了）。"
        ),
    )


def _rule_edges(check: _Check, redact_line: Callable[..., Any]) -> None:
    """The rule where no ordinary line looks (silent when right): an empty string is a string too,
    the prefix is the lower-case ``sk-``, and the copy shares no dict or list with the line."""
    key = "sk-" + "Zq8_" * 5
    runs = [
        (
            "名字像密钥的字段，值是空字符串",
            {"api_key": "", "user": ""},
            {"api_key": "***", "user": ""},
        ),
        (
            "大写的 SK- 是产品型号，不是 sk- 密钥",
            {"note": "型号 SK-" + "A1B2C3D4E5F6G7H8J9" + "，密钥 " + key},
            {"note": "型号 SK-A1B2C3D4E5F6G7H8J9，密钥 sk-***"},
        ),
    ]
    check.independent(
        "规则的边界",
        [
            (label, (lambda line=line: redact_line(copy.deepcopy(line))), expected)
            for label, line, expected in runs
        ],
        hint=(
            '字段名像密钥、值是字符串就整个换成 "***"——空字符串也是字符串；'
            "密钥的前缀是小写的 sk-，不要用 re.IGNORECASE。"
        ),
    )
    case = "返回的是新的 dict：里面的 dict 和 list 也不和传入的 line 共用"
    line = {
        "request": {"headers": [{"name": "x"}], "body": {"text": "会议室 302"}},
        "tags": ["周会", "张三"],
    }
    got = check.call(case, redact_line, line)
    shared = shared_container(got, line)
    if shared:
        raise check.fail(
            case,
            given=line,
            expected="返回的 dict 里每一层的 dict 和 list 都是新建的",
            got=f"返回值的 {shared} 就是传入的 line 里的那个对象（同一个对象，不是副本）",
            hint=(
                "没有要替换的内容时也要新建：值是 dict 就返回一个新的 dict，是 list 就返回一个新的"
                " list；直接返回原来的对象，调用者改动返回值时就改到了原来的 line（反过来也一样）。"
            ),
        )


@exercise
def day6_redact_line(
    check: _Check, redact_line: Callable[[dict[str, Any]], dict[str, Any]]
) -> None:
    """Exercise 6.1: ``redact_line(line) -> dict`` — secret-named string fields and ``sk-`` keys in
    text become ``***``.
    """
    __tracebackhide__ = True
    _callable(check.exercise, redact_line)
    key = "sk-AbCdEf0123456789xyz"
    other = "sk-proj_Zz9Yy8Xx7Ww6Vv5Uu4"
    check.keep_secret(key, other)  # a debugging print of the line must not show them
    cases: list[tuple[str, dict[str, Any], dict[str, Any], str]] = [
        (
            "字段名是 api_key",
            {"event": "model_call", "api_key": "abc12345", "model": "m1"},
            {"event": "model_call", "api_key": "***", "model": "m1"},
            "字段名（转成小写后）以 key、token、secret、password 结尾、值是字符串时，整个值换成 "
            '"***"。',
        ),
        (
            "字段名大小写不同、以 TOKEN/Secret/Password 结尾",
            {
                "LLM_API_KEY": "k-1",
                "Refresh_Token": "t-2",
                "clientSecret": "s-3",
                "DB_PASSWORD": "p-4",
                "user": "u1",
            },
            {
                "LLM_API_KEY": "***",
                "Refresh_Token": "***",
                "clientSecret": "***",
                "DB_PASSWORD": "***",
                "user": "u1",
            },
            "比较之前先把字段名转成小写（name.lower().endswith(...)）。",
        ),
        (
            "数字和以 tokens 结尾的字段不动",
            {
                "input_tokens": 120,
                "output_tokens": None,
                "max_token": 50,
                "tokens": "3",
                "token": 7,
            },
            {
                "input_tokens": 120,
                "output_tokens": None,
                "max_token": 50,
                "tokens": "3",
                "token": 7,
            },
            (
                "只替换**字符串**值；input_tokens、tokens 以 tokens 结尾（不是 token），"
                "不能动；数字和 None 原样保留。"
            ),
        ),
        (
            "嵌套在 dict 和 list 里的字段",
            {
                "request": {
                    "headers": [{"name": "x", "auth_token": "abc"}],
                    "secret": {"inner": "visible"},
                }
            },
            {
                "request": {
                    "headers": [{"name": "x", "auth_token": "***"}],
                    "secret": {"inner": "visible"},
                }
            },
            (
                "要递归处理：值是 dict 就处理这个 dict，值是 list 就处理其中每一项；secret 的值是"
                " dict 时不整体替换，而是继续往里看。"
            ),
        ),
        (
            "文本里的 sk- 密钥",
            {
                "gen_ai.input.messages": [
                    {"role": "user", "content": f"我的 key 是 {key}，帮我查余额"}
                ]
            },
            {
                "gen_ai.input.messages": [
                    {"role": "user", "content": "我的 key 是 sk-***，帮我查余额"}
                ]
            },
            "在所有字符串里找 sk- 开头、后面至少 16 个字母/数字/-/_ 的片段，换成 sk-***（用 "
            "re.sub）。",
        ),
        (
            "一段文本里有两个密钥",
            {"note": f"旧的 {key} 新的 {other}。"},
            {"note": "旧的 sk-*** 新的 sk-***。"},
            "用 re.sub 替换所有匹配，而不只是第一个。",
        ),
        (
            "太短的 sk- 和单词中间的 sk- 不是密钥",
            {"note": "sk-short 不是密钥，task-abcdefghijklmnopqrstu 也不是"},
            {"note": "sk-short 不是密钥，task-abcdefghijklmnopqrstu 也不是"},
            (
                "密钥至少 16 个字符；而且 sk- 前面不能紧挨着字母或数字（task- 里的 sk- 不算），"
                "可以用 (?<![A-Za-z0-9])sk-。"
            ),
        ),
        (
            "sk- 后面正好 16 个字符是密钥，15 个不是",
            {"note": f"新的 {_SIXTEEN}，旧的 {_FIFTEEN}"},
            {"note": f"新的 sk-***，旧的 {_FIFTEEN}"},
            "“至少 16 个”包括正好 16 个：{16,}。",
        ),
        (
            "列表里直接是字符串",
            {"tool_calls": [f"key={key}", "普通文本"]},
            {"tool_calls": ["key=sk-***", "普通文本"]},
            "list 里的每一项都要处理，字符串项也一样。",
        ),
        ("空的一行", {}, {}, "空 dict 返回空 dict。"),
    ]
    for case, line, expected, hint in cases:
        got = _run(check, case, redact_line, line, hint=hint)
        if not isinstance(got, dict):
            raise check.fail(
                case,
                given=line,
                expected="一个新的 dict",
                got=f"{type(got).__name__}: {_short(got, 120)}",
                hint="函数要 return 脱敏之后的那一行（一个新的 dict）。",
            )
        if got != expected:
            where = value_difference(expected, got) or "类型不同（例如 tuple 和 list）"
            raise check.fail(
                case,
                given=line,
                expected=expected,
                got=f"不同之处：{where}\n  你返回的：{_short(got, 200)}",
                hint=_redact_hint(line, expected, got, hint, lambda x: check.probe(redact_line, x)),
            )
        check.ok(case)
    _chinese_lines(check, redact_line)
    _rule_edges(check, redact_line)
    again = _run(check, "同一行处理两次，结果一样", redact_line, cases[4][1])
    twice = check.call("同一行处理两次，结果一样", redact_line, copy.deepcopy(again))
    if again != cases[4][2] or twice != again:
        raise check.fail(
            "同一行处理两次，结果一样",
            expected=cases[4][2],
            got=again,
            hint="不要在函数外面保存状态；脱敏过的结果再脱敏一次应该不变（sk-*** 不再匹配）。",
        )
    check.ok("同一行处理两次，结果一样")
    check.done()


# ------------------------------------------------------------------------ 6.2 a hand-written tracer

_TRACER_NOW = datetime(2026, 3, 12, 14, 30)
_COMMON = ("event", "request_id", "session_id", "user_id", "step")
_FIELDS = {
    "model_call": ("model", "input_tokens", "output_tokens", "finish_reason"),
    "tool_result": ("tool_name", "input_args", "output_summary", "tool_duration_ms", "status"),
    "run_end": ("stop_reason", "input_tokens", "output_tokens", "usage_unknown"),
}
_WRITTEN = ("model_call", "tool_result", "stop")
_FIELD_HINT = {
    "event": (
        'event 写事件的种类：model_call、tool_result；stop 事件写成 "run_end"。'
        "其他事件（run_start、tool_call、final……）不写行。"
    ),
    "request_id": (
        "request_id 就是 event.run_id：同一次运行（包括暂停后继续的那一段）的每一行都一样。"
    ),
    "session_id": (
        "session_id 和 user_id 是创建这个 StepTracer 时给的，每一行原样写上"
        "（不改大小写、不转半角）：存在 self 上，不要存在类属性或全局变量里——"
        "另一个 StepTracer 会把它改掉。"
    ),
    "user_id": (
        "session_id 和 user_id 是创建这个 StepTracer 时给的，每一行原样写上"
        "（不改大小写、不转半角）：存在 self 上，不要存在类属性或全局变量里——"
        "另一个 StepTracer 会把它改掉。"
    ),
    "step": "step 就是 event.step（第几步），每一行都要有。",
    "model": "model 写 event.reply.model（回答的那个模型）。",
    "finish_reason": "finish_reason 写 event.reply.finish_reason。",
    "tool_name": "tool_name 写 event.record.call.name。",
    "output_summary": (
        "output_summary 取 event.record.content（模型读到的那条 tool 消息的文字）的前 100"
        " 个字符：content[:100]。"
    ),
    "tool_duration_ms": (
        "tool_duration_ms 写 event.record.duration_ms（可以保留一位小数，不要换算成秒）。"
    ),
    "status": (
        'status：event.record.result.success 为 True 写 "success"，否则写'
        ' "error"（失败的调用也要写一行）。'
    ),
    "stop_reason": "run_end 的 stop_reason 写 event.run.stop_reason。",
}


def _arguments_or_text(text: Any) -> Any:
    try:
        value = json.loads(text or "{}")
    except (TypeError, ValueError):
        return text
    return value if isinstance(value, dict) else text


class _ExpectedLines:
    """The lines the task asks for, computed from the same events (this checker's reading of the
    task).
    """

    def __init__(self, session_id: str, user_id: str):
        self.session_id, self.user_id = session_id, user_id
        self.lines: list[dict[str, Any]] = []
        self.whole_run: dict[
            str, list[Any]
        ] = {}  # totals that are never reset: what a tracer without the reset writes
        self._totals: dict[str, list[Any]] = {}

    def on_event(self, event: Any) -> None:
        kind = event.kind
        if kind == "run_start":
            self._totals[event.run_id] = [None, None, 0]
            self.whole_run.setdefault(event.run_id, [None, None, 0])
            return
        head = {
            "event": kind,
            "request_id": event.run_id,
            "session_id": self.session_id,
            "user_id": self.user_id,
            "step": event.step,
            "_ts": event.ts,
        }
        if kind == "model_call":
            usage = event.reply.usage
            for totals in (
                self._totals.setdefault(event.run_id, [None, None, 0]),
                self.whole_run.setdefault(event.run_id, [None, None, 0]),
            ):
                if usage is None:
                    totals[2] += 1
                else:
                    totals[0] = (totals[0] or 0) + usage.prompt_tokens
                    totals[1] = (totals[1] or 0) + usage.completion_tokens
            self.lines.append(
                {
                    **head,
                    "model": event.reply.model,
                    "input_tokens": usage.prompt_tokens if usage else None,
                    "output_tokens": usage.completion_tokens if usage else None,
                    "finish_reason": event.reply.finish_reason,
                }
            )
        elif kind == "tool_result":
            record = event.record
            self.lines.append(
                {
                    **head,
                    "tool_name": record.call.name,
                    "input_args": _arguments_or_text(record.call.arguments),
                    "output_summary": record.content[:100],
                    "tool_duration_ms": record.duration_ms,
                    "status": "success" if record.result.success else "error",
                }
            )
        elif kind == "stop":
            totals = self._totals.get(event.run_id, [None, None, 0])
            self.lines.append(
                {
                    **head,
                    "event": "run_end",
                    "stop_reason": event.run.stop_reason,
                    "input_tokens": totals[0],
                    "output_tokens": totals[1],
                    "usage_unknown": totals[2],
                    "_whole": list(self.whole_run.get(event.run_id, totals)),
                }
            )


class _Probe:
    """After the learner's tracer has seen an event, how many lines are in the file (the task:
    written at once).
    """

    def __init__(self, path: Path, expected: _ExpectedLines, before: int):
        self.path, self.expected, self.before = path, expected, before
        self.late: tuple[str, int, int] | None = None

    def on_event(self, event: Any) -> None:
        if event.kind not in _WRITTEN or self.late is not None:
            return
        try:
            count = len(
                [
                    line
                    for line in self.path.read_text(encoding="utf-8").splitlines()
                    if line.strip()
                ]
            )
        except (OSError, UnicodeDecodeError):
            count = 0
        wanted = self.before + len(self.expected.lines)
        if count < wanted:
            self.late = (event.kind, wanted, count)


class _AskFirst:
    """A gate for one tool: the first time it is called the run pauses for a person; after an
    approval it runs.
    """

    def __init__(self, tool_name: str):
        self.tool_name = tool_name

    def check_call(self, call: Any, context: Any) -> Any:
        from ....confirmation import ConfirmationRequest, arguments_sha256, request_id
        from ....run import NeedsConfirmation

        if call.name == self.tool_name and context.decision is None:
            fingerprint = arguments_sha256(call)
            raise NeedsConfirmation(
                ConfirmationRequest(
                    request_id(context.run_id, call.id, fingerprint),
                    context.run_id,
                    call.id,
                    call.name,
                    {},
                    fingerprint,
                    summary=f"将调用 {call.name}",
                )
            )
        return None


def _model_reply(
    content: str | None = None,
    tool_calls: list[Any] | None = None,
    usage: tuple[int, int] | None = (0, 0),
) -> Any:
    from ....messages import ChatResult, Usage

    return ChatResult(
        content=content,
        tool_calls=list(tool_calls or []),
        finish_reason="tool_calls" if tool_calls else "stop",
        usage=None if usage is None else Usage(*usage),
        model="m-check",
    )


def _ts_problem(value: Any, at: float) -> str | None:
    if not isinstance(value, str):
        return f"ts 是 {type(value).__name__}，不是 ISO 8601 文字"
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return f"ts {value!r} 不是 ISO 8601 格式"
    seconds = (
        moment.timestamp()
    )  # naive values are local time, as datetime.fromtimestamp writes them
    if abs(seconds - at) <= 2:
        return None
    hours = (seconds - at) / 3600
    if abs(hours) >= 1 and abs(hours - round(hours)) < 0.01 and moment.tzinfo is None:
        return (
            f"ts {value!r} 和事件发生的时间正好差了 {abs(round(hours))} 小时：时区不对——"
            "没有时区的时间会被当成本地时间，utcfromtimestamp 写出的却是 UTC 时间"
            "（用 datetime.fromtimestamp(event.ts)，或者写出带时区的时间）"
        )
    return f"ts {value!r} 和事件发生的时间差了 {abs(seconds - at):.0f} 秒"


def _read_lines(check: _Check, case: str, path: Path) -> list[Any]:
    if not path.exists():
        raise check.fail(
            case,
            expected=f"文件 {path.name} 里每个 model_call、tool_result、stop 事件一行",
            got="文件不存在",
            hint=(
                'on_event 里用 open(self.path, "a", encoding="utf-8") 追加写入；path 可能是 str，'
                "也可能是 Path。"
            ),
        )
    text = path.read_text(encoding="utf-8")
    lines = []
    for number, raw in enumerate(text.splitlines(), 1):
        if not raw.strip():
            continue
        try:
            lines.append(json.loads(raw))
        except ValueError:
            raise check.fail(
                case,
                expected="每一行是一个完整的 JSON 对象",
                got=f"第 {number} 行不是 JSON：{_short(raw, 120)}",
                hint=(
                    '每个事件写 json.dumps(line, ensure_ascii=False) + "\\n"：一行一个对象，不要写'
                    " Python 的 repr，也不要漏掉换行。"
                ),
            ) from None
        if not isinstance(lines[-1], dict):
            raise check.fail(
                case,
                expected="每一行是一个 JSON 对象（dict）",
                got=f"第 {number} 行是 {type(lines[-1]).__name__}",
                hint="每行写一个 dict。",
            )
    return lines


def _compare_line(
    check: _Check,
    case: str,
    index: int,
    got: dict[str, Any],
    want: dict[str, Any],
    extra_hint: str = "",
) -> None:
    kind = want["event"]
    where = f"第 {index + 1} 行（{kind}）"
    problem = _ts_problem(got.get("ts"), want["_ts"]) if "ts" in got else "没有 ts 字段"
    if problem:
        raise check.fail(
            case,
            expected=f"{where}的 ts 是事件发生时间的 ISO 8601 文字",
            got=problem,
            hint=(
                "ts 用 datetime.fromtimestamp(event.ts).isoformat()：事件对象里的 event.ts"
                " 是发生时的时间戳（秒）。"
            ),
        )
    for key in (*_COMMON, *_FIELDS[kind]):
        if key not in got:
            raise check.fail(
                case,
                expected=f"{where}有字段 {key}",
                got=f"这一行的字段：{', '.join(map(str, got))}",
                hint=_FIELD_HINT.get(key) or f"{kind} 行要有 {', '.join(_FIELDS[kind])}。",
            )
        value, wanted = got[key], want[key]
        if key == "tool_duration_ms":
            if (
                isinstance(value, bool)
                or not isinstance(value, (int, float))
                or abs(value - wanted) > 0.51
            ):
                raise check.fail(
                    case,
                    expected=f"{where}的 tool_duration_ms ≈ {wanted:.1f}",
                    got=typed(value),
                    hint=_FIELD_HINT[key],
                )
            continue
        same = (
            value == wanted
            and type(value) is type(wanted)
            or (
                isinstance(value, (int, float))
                and not isinstance(value, bool)
                and isinstance(wanted, (int, float))
                and value == wanted
            )
        )
        if same:
            continue
        hint = _FIELD_HINT.get(key, "")
        if key in ("input_tokens", "output_tokens"):
            if wanted is None and value == 0:
                hint = (
                    "后端没有报告用量时（event.reply.usage 是 None）写 None——JSON 里的 null，不是"
                    " 0：0 会让成本报表“看起来很便宜”。"
                    if kind == "model_call"
                    else (
                        "这一段里没有一次调用报告了用量：合计是 None（不知道），不是 0。"
                        "只有至少一次调用报告了用量时才开始相加。"
                    )
                )
            elif (
                kind == "run_end"
                and want.get("_whole")
                and value == want["_whole"][0 if key == "input_tokens" else 1]
            ):
                hint = (
                    "合计把暂停之前那一段也算进来了：继续运行（resume）时会再发一次 run_start，在"
                    " run_start 时把这次运行的合计清零，"
                    "每一段的 run_end 只算自己这一段。"
                )
            elif kind == "run_end":
                hint = (
                    "run_end 的 input_tokens/output_tokens 是这一段里各次 model_call"
                    " 报告的用量之和；没报告用量的调用不加，"
                    "只让 usage_unknown 加 1。"
                )
            else:
                hint = (
                    "input_tokens/output_tokens 来自 event.reply.usage 的"
                    " prompt_tokens/completion_tokens。"
                )
        elif key == "usage_unknown":
            hint = (
                "usage_unknown 数这一段里有几次 model_call 的 usage 是 None（从 run_start "
                "重新数）。"
                if not (want.get("_whole") and value == want["_whole"][2])
                else "usage_unknown 把暂停之前那一段也数进来了：在 run_start 时清零。"
            )
        elif key == "input_args":
            if isinstance(wanted, dict) and isinstance(value, str):
                hint = "input_args 要解析成 dict：json.loads(event.record.call.arguments)。"
            elif isinstance(wanted, str):
                hint = (
                    "参数文本不是一个 JSON 对象时（坏掉的 JSON，或一个套了一层的 JSON 字符串），"
                    "input_args 原样保留这段文字："
                    "json.loads 出错，或者结果不是 dict，都用原文。不要抛异常，也不要写成 {} 或 "
                    "None。"
                )
        elif key == "event" and kind == "run_end":
            hint = 'stop 事件（运行结束）写一行 event 为 "run_end" 的记录。'
        shown = typed(wanted, 120) if isinstance(wanted, str) else _short(wanted, 120)
        raise check.fail(
            case,
            expected=f"{where}的 {key} = {shown}",
            got=typed(value, 120),
            hint=hint + extra_hint,
        )


def _traced_run(
    check: _Check,
    case: str,
    tracer_class: Any,
    path: Path,
    script: list[Any],
    question: str,
    *,
    hooks: tuple[Any, ...] = (),
    approve_pause: bool = False,
    session: str = "s_check",
    user: str = "u_check",
    run_id: str | None = None,
) -> tuple[list[dict[str, Any]], list[Any], _ExpectedLines]:
    """Run a scripted agent with the learner's tracer; return (the lines this run added, the lines
    before, what was expected).
    """
    import gc

    from ....agent import Agent
    from ....permissions import approve
    from ....scenarios import basic_registry
    from ....scripted import ScriptedClient

    before = len(_read_lines(check, case, path)) if path.exists() else 0
    tracer = check.call(
        case,
        tracer_class,
        path,
        session,
        user,
        hint=(
            "StepTracer(path, session_id, user_id)：__init__ 记下这三样就够了（path 可能是 str，"
            "也可能是 Path）。"
        ),
    )
    if not callable(attribute(tracer, "on_event")):
        raise check.fail(
            case,
            expected="StepTracer 有一个 on_event(self, event) 方法",
            got=f"{type(tracer).__name__} 没有 on_event",
            hint=(
                "Agent 只认方法名：在类里写 def on_event(self, event):，Agent 会对每个事件调用它。"
            ),
        )
    expected = _ExpectedLines(session, user)
    probe = _Probe(path, expected, before)
    agent = Agent(
        ScriptedClient(script), basic_registry(_TRACER_NOW), hooks=[*hooks, tracer, expected, probe]
    )

    def crashed(exc: Exception) -> str:
        return (
            f"你的 on_event 在处理某个事件时抛出了 {type(exc).__name__}。用 event.kind"
            " 区分事件：只有 model_call 有 event.reply，只有 tool_result 有 event.record，只有"
            " stop 有 event.run；其他事件直接 return。"
        )

    result = check.call(case, agent.run, question, run_id=run_id, hint=crashed)
    if approve_pause and result.stop_reason == "needs_confirmation":
        check.call(
            case,
            agent.resume,
            result,
            {request.id: approve() for request in result.pending},
            hint=crashed,
        )
    del agent, tracer, result
    # a file the tracer kept open is closed now, so what waited in its buffer reaches the file
    gc.collect()
    lines = _read_lines(check, case, path)
    _compare_run(check, case, lines[before:], expected, probe)
    return lines[before:], lines[:before], expected


def _compare_run(
    check: _Check,
    case: str,
    lines: list[dict[str, Any]],
    expected: _ExpectedLines,
    probe: _Probe,
    extra_hint: str = "",
) -> None:
    want = expected.lines
    kinds = [line.get("event") for line in lines]
    wanted_kinds = [line["event"] for line in want]
    if len(lines) != len(want):
        extra = sorted({str(k) for k in kinds} - set(wanted_kinds))
        seen = [(line.get("event"), line.get("tool_name")) for line in lines]
        missing = [line for line in want if (line["event"], line.get("tool_name")) not in seen]
        if extra:
            hint = (
                "只为 model_call、tool_result 和 stop（写成 run_end）这三种事件写行；你还写了"
                f" {', '.join(extra)}。"
            )
        elif len(lines) == 1 and len(want) > 1:
            hint = (
                '文件里只剩最后一行：每次打开都清空了文件。用追加模式 open(path, "a")，不要用 "w"。'
            )
        elif missing and all(
            line["event"] == "tool_result" and line["status"] == "error" for line in missing
        ):
            hint = '失败的工具调用也要写一行（status 写 "error"）：排查时最想找的就是它。'
        else:
            hint = (
                "每个 model_call、每个 tool_result（失败的也算）和每次 stop"
                " 都要写一行；一次暂停后继续的运行有两次 stop。"
            )
        raise check.fail(
            case,
            expected=f"{len(want)} 行：{' → '.join(wanted_kinds)}",
            got=f"{len(lines)} 行：{' → '.join(map(str, kinds))}",
            hint=hint,
        )
    if probe.late is not None:
        kind, wanted, count = probe.late
        raise check.fail(
            case,
            expected=f"{kind} 事件处理完时，文件里已经有 {wanted} 行",
            got=f"当时文件里只有 {count} 行（运行结束后才写进去）",
            hint=(
                '每个事件都要在 on_event 返回之前写进文件：在 on_event 里 with open(path, "a") as'
                " f: f.write(...)"
                "（文件关闭时内容就交给了操作系统）。不要把行攒在列表里等运行结束再写，"
                "也不要一直开着文件只 write 不 flush——"
                "进程中途被杀掉时，攒着的行就全丢了。"
            ),
        )
    for index, (got, wanted) in enumerate(zip(lines, want)):
        _compare_line(check, case, index, got, wanted, extra_hint)


_TWO_TRACERS_HINT = (
    "（这个用例里另一个 StepTracer 的运行插在这一段中间：ids 和合计都要记在这个 StepTracer"
    " 自己身上（self），合计按 event.run_id 分开；不要放在类属性或全局变量里，也不要按 user_id"
    " 或 session_id 记。）"
)


class _Interleaved:
    """A scripted model whose first request first runs ``during()`` (another user's whole run): two
    runs in flight at once, as in a server, one inside the other's model call."""

    def __init__(self, script: list[Any], during: Callable[[], None]):
        from ....scripted import ScriptedClient

        self.inner, self.during, self.started = ScriptedClient(script), during, False

    def complete(self, messages: Any, tools: Any = None, **options: Any) -> Any:
        if not self.started:
            self.started = True
            self.during()
        return self.inner.complete(messages, tools, **options)


def _two_tracers(check: _Check, tracer_class: Any, folder: Path) -> None:
    """Two tracers alive at once (one user, two sessions with Chinese and full-width ids), the
    second run inside the first's model call: each writes its own ids and its own totals. Silent
    when right (catches totals or ids kept on the class, in a global, or under the user)."""
    from ....agent import Agent
    from ....scenarios import basic_registry
    from ....scripted import ScriptedClient, call

    case = "两个 StepTracer 同时在用（同一个用户的两个会话，中文和全角的 id；另一段运行插在中间）"
    specs = [  # (file, session_id, user_id, script, question)
        (
            folder / "会话甲.jsonl",
            "会话-A",
            "张三",
            [
                _model_reply(
                    tool_calls=[call("get_weather", {"city": "广州"}, id="a1")], usage=(610, 11)
                ),
                _model_reply("广州今天有雨。", usage=(820, 9)),
            ],
            "广州天气？",
        ),
        (
            str(folder / "会话乙.jsonl"),
            "Ｗｅｂ-会话２",
            "张三",
            [_model_reply("你好，张三！", usage=(130, 7))],
            "你好",
        ),
    ]
    tracers = [
        check.call(
            case,
            tracer_class,
            path,
            session,
            user,
            hint="StepTracer(path, session_id, user_id)：__init__ 记下这三样就够了。",
        )
        for path, session, user, *_ in specs
    ]
    expected = [_ExpectedLines(session, user) for _, session, user, *_ in specs]
    probes = [_Probe(Path(spec[0]), want, 0) for spec, want in zip(specs, expected)]
    inner_error: list[BaseException] = []

    def second_run() -> None:
        agent = Agent(
            ScriptedClient(specs[1][3]),
            basic_registry(_TRACER_NOW),
            hooks=[tracers[1], expected[1], probes[1]],
        )
        try:
            agent.run(specs[1][4])
        except Exception as exc:  # noqa: BLE001 - reported after the outer run, with its case
            inner_error.append(exc)

    agent = Agent(
        _Interleaved(specs[0][3], second_run),
        basic_registry(_TRACER_NOW),
        hooks=[tracers[0], expected[0], probes[0]],
    )
    check.call(case, agent.run, specs[0][4], hint="你的 on_event 在处理某个事件时抛出了异常。")
    if inner_error:
        exc = inner_error[0]
        raise check.fail(
            case,
            expected="插在中间的那段运行也正常结束",
            got=f"抛出了异常 {type(exc).__name__}: {_brief(str(exc), 160)}",
            hint=(
                "另一个 StepTracer 的运行插进来时，你的 on_event 出错了："
                "每个 StepTracer 只用自己的状态。"
            ),
        )
    for (path, session, *_), want, probe in zip(specs, expected, probes):
        where = f"{case}：session_id={session!r} 的那个"
        _compare_run(
            check, where, _read_lines(check, where, Path(path)), want, probe, _TWO_TRACERS_HINT
        )


@exercise
def day6_step_tracer(check: _Check, tracer_class: Callable[..., Any]) -> None:
    """Exercise 6.2: ``StepTracer(path, session_id, user_id)`` — a hook writing one JSON line per
    model call, tool result and run end.

    Runs in the time zone of Beijing (UTC+8) where the system lets a process choose its zone, so a
    time written in UTC without its zone is caught on a machine that keeps UTC too.
    """
    __tracebackhide__ = True
    with _local_zone("CST-8"):
        _step_tracer(check, tracer_class)


@contextmanager
def _local_zone(zone: str) -> Iterator[None]:
    """The process's local time zone set to ``zone`` (a POSIX TZ string) for the block, then put
    back; nothing happens where ``time.tzset`` does not exist (Windows)."""
    if not hasattr(time, "tzset"):
        yield
        return
    before = os.environ.get("TZ")
    os.environ["TZ"] = zone
    time.tzset()
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("TZ", None)
        else:
            os.environ["TZ"] = before
        time.tzset()


def _step_tracer(check: _Check, tracer_class: Callable[..., Any]) -> None:
    __tracebackhide__ = True

    _callable(check.exercise, tracer_class, "类")
    # the trace files live only as long as the check: a learner runs it many times
    with tempfile.TemporaryDirectory(prefix="day6_tracer_", ignore_cleanup_errors=True) as name:
        _step_tracer_in(check, tracer_class, Path(name))


def _step_tracer_in(check: _Check, tracer_class: Callable[..., Any], folder: Path) -> None:
    __tracebackhide__ = True
    from ....scripted import call

    case = "一次运行：两次模型调用、两个工具结果（一个失败）、结束"
    first_path = folder / "first.jsonl"
    script = [
        _model_reply(
            tool_calls=[
                call("calculator", {"expression": "1/0"}, id="c1"),
                call("get_weather", {"city": "北京"}, id="c2"),
            ],
            usage=(900, 40),
        ),
        _model_reply("1 除以 0 没有结果：除数不能为零；北京今天晴。", usage=(1200, 30)),
    ]
    lines, _, _ = _traced_run(
        check, case, tracer_class, first_path, script, "算一下 1/0，再查北京天气"
    )
    check.ok(case, " → ".join(line["event"] for line in lines))
    check.ok("每个事件处理完时，它的那一行已经在文件里了")

    case = "中文原样写进文件"
    raw = first_path.read_text(encoding="utf-8")
    if "北京" not in raw:
        raise check.fail(
            case,
            expected="文件里能直接读到“北京”",
            got=_short(raw[raw.find("get_weather") :][:160] or raw, 160),
            hint=(
                "json.dumps 默认把中文写成 \\uXXXX：加上 ensure_ascii=False，打开文件时用"
                ' encoding="utf-8"。'
            ),
        )
    check.ok(case)

    case = "同一个文件、新的 StepTracer：追加，不覆盖"
    again, earlier, _ = _traced_run(
        check, case, tracer_class, first_path, [_model_reply("你好！", usage=(300, 5))], "你好"
    )
    if len(earlier) != len(lines):
        raise check.fail(
            case,
            expected=f"原来的 {len(lines)} 行还在",
            got=f"只剩 {len(earlier)} 行",
            hint=(
                '用追加模式打开文件：open(path, "a")。"w" 会在每次打开时清空文件，trace 就只剩最后'
                "一行了。"
            ),
        )
    check.ok(case, f"{len(lines)} + {len(again)} 行")

    case = "一次调用没报告用量：这次是 null，合计只加报告了的，usage_unknown 是 1"
    script = [
        _model_reply(tool_calls=[call("calculator", {"expression": "6*7"}, id="c1")], usage=None),
        _model_reply("6 乘以 7 等于 42。", usage=(500, 20)),
    ]
    lines, _, _ = _traced_run(
        check, case, tracer_class, folder / "partial.jsonl", script, "6 乘以 7"
    )
    check.ok(case)

    case = "每次调用都没报告用量：合计是 null，不是 0"
    script = [
        _model_reply(tool_calls=[call("get_current_time", {}, id="c1")], usage=None),
        _model_reply("现在是 14:30。", usage=None),
    ]
    lines, _, _ = _traced_run(check, case, tracer_class, folder / "none.jsonl", script, "几点了")
    check.ok(case)

    case = "参数不是 JSON 对象（坏掉的 JSON、套了一层的字符串）：原样保留文字"
    script = [
        _model_reply(
            tool_calls=[call("calculator", '{"expression": "1+1"', id="c1")], usage=(400, 10)
        ),
        _model_reply(
            tool_calls=[call("calculator", json.dumps(json.dumps({"expression": "2+2"})), id="c2")],
            usage=(450, 10),
        ),
        _model_reply("参数格式不对，算不了。", usage=(500, 10)),
    ]
    lines, _, _ = _traced_run(
        check, case, tracer_class, folder / "broken.jsonl", script, "算 1+1 和 2+2"
    )
    check.ok(case)

    case = "暂停等确认、批准后继续：两段各写一行 run_end，合计从 run_start 重新算"
    script = [
        _model_reply(tool_calls=[call("get_weather", {"city": "上海"}, id="w1")], usage=(700, 15)),
        _model_reply("上海今天多云。", usage=(900, 12)),
    ]
    lines, _, _ = _traced_run(
        check,
        case,
        tracer_class,
        folder / "paused.jsonl",
        script,
        "上海天气怎么样？",
        hooks=(_AskFirst("get_weather"),),
        approve_pause=True,
        run_id="run_paused",
    )
    check.ok(case, " → ".join(line["event"] for line in lines))
    _two_tracers(check, tracer_class, folder)
    check.done()


# --------------------------------------------------------------------------- 6.3 a cost report


def _model_call(
    user: str, model: str, tokens_in: Any, tokens_out: Any, request_id: str = "run_1"
) -> dict[str, Any]:
    return {
        "event": "model_call",
        "request_id": request_id,
        "user_id": user,
        "model": model,
        "input_tokens": tokens_in,
        "output_tokens": tokens_out,
    }


@exercise
def day6_cost_by_user(
    check: _Check,
    cost_by_user: Callable[[list[dict[str, Any]], dict[str, Any]], dict[str, Any]],
) -> None:
    """Exercise 6.3: ``cost_by_user(lines, prices) -> {user_id: {"calls", "cost", "unknown"}}`` from
    ``model_call`` lines.
    """
    __tracebackhide__ = True
    _callable(check.exercise, cost_by_user)
    prices = {"m1": (2.0, 8.0), "m2": (0.5, 1.5)}

    def cost(model: str, i: int, o: int) -> float:
        return (i * prices[model][0] + o * prices[model][1]) / 1_000_000

    long_price = (1 / 7, 2 / 3)  # a price converted from another currency: many decimals

    def exact(i: int, o: int) -> float:
        return (i * long_price[0] + o * long_price[1]) / 1_000_000

    u1a, u1b = _model_call("u1", "m1", 1000, 100), _model_call("u1", "m2", 2_000_000, 10)
    u2a = _model_call("u2", "m1", 500, 50, "run_2")
    end = {
        "event": "run_end",
        "request_id": "run_1",
        "user_id": "u1",
        "input_tokens": 2_001_000,
        "output_tokens": 110,
        "model": "m1",
    }
    tool = {
        "event": "tool_result",
        "request_id": "run_1",
        "user_id": "u1",
        "tool": "calculator",
        "tool_duration_ms": 2.0,
    }
    no_usage = _model_call("u2", "m1", None, None, "run_3")
    half = _model_call("u2", "m1", 300, None, "run_3")
    unpriced = _model_call("u3", "gpt-x", 1000, 100, "run_4")
    no_output = _model_call(
        "u4", "m1", 1200, 0, "run_5"
    )  # a reply cut off before any output: 0 is a reported figure
    cached = _model_call("u4", "m2", 0, 40, "run_5")
    empty = _model_call("u5", "m1", 0, 0, "run_6")  # reported, and free: cost 0.0, not None
    cases = [
        (
            "两个用户，按用户分别汇总",
            [u1a, u1b, u2a],
            prices,
            {
                "u1": {
                    "calls": 2,
                    "cost": cost("m1", 1000, 100) + cost("m2", 2_000_000, 10),
                    "unknown": 0,
                },
                "u2": {"calls": 1, "cost": cost("m1", 500, 50), "unknown": 0},
            },
            (
                "费用 = (输入 token × 输入单价 + 输出 token × 输出单价) / 1_000_000，单价是每百万"
                " token 的价格。"
            ),
        ),
        (
            "价格表不同，费用跟着变",
            [u1a],
            {"m1": (4.0, 8.0)},
            {"u1": {"calls": 1, "cost": (1000 * 4 + 100 * 8) / 1e6, "unknown": 0}},
            "用传入的 prices，不要写死价格。",
        ),
        (
            "run_end 和 tool_result 行不算",
            [u1a, tool, end, u2a],
            prices,
            {
                "u1": {"calls": 1, "cost": cost("m1", 1000, 100), "unknown": 0},
                "u2": {"calls": 1, "cost": cost("m1", 500, 50), "unknown": 0},
            },
            "只加 event 为 model_call 的行：run_end 行里的 token 已经是整次运行的总数，"
            "再加一遍就重复了。",
        ),
        (
            "没有报告用量的调用单独计数，不算 0",
            [u2a, no_usage, half],
            prices,
            {"u2": {"calls": 3, "cost": cost("m1", 500, 50), "unknown": 2}},
            (
                "input_tokens 或 output_tokens 是 None（JSON 里的 null）时：calls 加 1，unknown 加"
                " 1，费用不加。"
            ),
        ),
        (
            "价格表里没有的模型也是未知",
            [unpriced, u1a],
            prices,
            {
                "u3": {"calls": 1, "cost": None, "unknown": 1},
                "u1": {"calls": 1, "cost": cost("m1", 1000, 100), "unknown": 0},
            },
            "prices 里没有这个模型时算作未知；一个用户的调用全部未知时，cost 是 None（不知道），不"
            "是 0。",
        ),
        (
            "报告的 0 是已知的用量：0 个输出 token 不是“未知”",
            [no_output, cached, empty],
            prices,
            {
                "u4": {"calls": 2, "cost": cost("m1", 1200, 0) + cost("m2", 0, 40), "unknown": 0},
                "u5": {"calls": 1, "cost": 0.0, "unknown": 0},
            },
            (
                "后端报告了 0 也是报告了：只有 None 才是未知。用 tokens is None 判断，不要用 not"
                " tokens（0 也是假值）；"
                "花了 0 元的用户 cost 是 0.0，不是 None（不要写 cost or None）。"
            ),
        ),
        (
            "价格写成 list 也行",
            [u1a],
            {"m1": [2.0, 8.0]},
            {"u1": {"calls": 1, "cost": cost("m1", 1000, 100), "unknown": 0}},
            "prices[model] 是 (输入单价, 输出单价)，可能是 tuple 也可能是 list：按下标取，"
            "别判断类型。",
        ),
        ("没有任何行", [], prices, {}, "空列表返回空 dict。"),
        (
            "费用是公式算出的原值，不四舍五入（小数很长的单价、只有 1 个 token 的调用）",
            [
                _model_call("u6", "m7", 1234, 567, "run_7"),
                _model_call("u7", "m7", 1, 0, "run_8"),
                _model_call("u8", "m7", 3_141_593, 2_718_282, "run_9"),
            ],
            {"m7": long_price},
            {
                "u6": {"calls": 1, "cost": exact(1234, 567), "unknown": 0},
                "u7": {"calls": 1, "cost": exact(1, 0), "unknown": 0},
                "u8": {"calls": 1, "cost": exact(3_141_593, 2_718_282), "unknown": 0},
            },
            "返回公式算出的原值，不要 round(...)、不要按位数格式化再转回数字："
            "取几位小数是报表显示时的事，在这里舍入会把小额调用算成 0、把合计算偏。",
        ),
    ]
    for case, lines, table, expected, hint in cases:
        got = _run(check, case, cost_by_user, lines, table, hint=hint)
        if not isinstance(got, dict):
            raise check.fail(
                case,
                expected='一个 dict：{user_id: {"calls", "cost", "unknown"}}',
                got=f"{type(got).__name__}: {_short(got, 120)}",
                hint="返回一个 dict，键是 user_id。",
            )
        problem = _cost_difference(got, expected)
        if problem:
            raise check.fail(
                case,
                given=[
                    (
                        l.get("event"),
                        l.get("user_id"),
                        l.get("model"),
                        l.get("input_tokens"),
                        l.get("output_tokens"),
                    )
                    for l in lines
                ],
                expected=expected,
                got=got,
                hint=f"{problem}。{hint}",
            )
        check.ok(case, "、".join(f"{u}: {v['cost']}" for u, v in expected.items()) or "{}")
    _independent_reports(check, cost_by_user, prices, cost)
    check.done()


def _independent_reports(
    check: _Check,
    cost_by_user: Callable[..., Any],
    prices: dict[str, Any],
    cost: Callable[[str, int, int], float],
) -> None:
    """Chinese user ids and ids that differ only in case or width, the same lines twice and other
    lines after them: each report is made from *its* lines alone (silent when right)."""
    wide = full_width("u1")
    first = [
        _model_call("张三", "m1", 1000, 100),
        _model_call("u1", "m1", 10, 10),
        _model_call("U1", "m2", 20, 20),
        _model_call(wide, "m1", 30, 30),
        _model_call("张三", "m2", 2000, 0),
    ]
    first_report = {
        "张三": {"calls": 2, "cost": cost("m1", 1000, 100) + cost("m2", 2000, 0), "unknown": 0},
        "u1": {"calls": 1, "cost": cost("m1", 10, 10), "unknown": 0},
        "U1": {"calls": 1, "cost": cost("m2", 20, 20), "unknown": 0},
        wide: {"calls": 1, "cost": cost("m1", 30, 30), "unknown": 0},
    }
    second = [_model_call("李四", "m2", 500, 50), _model_call("张三", "m1", 7, 7)]
    # a prefix, an extension, another case and another width of a priced model: all unpriced
    near_misses = ["m1-mini", "m", "M1", full_width("m2")]
    unpriced = [_model_call("王五", model, 100, 10) for model in near_misses]
    second_report = {
        "李四": {"calls": 1, "cost": cost("m2", 500, 50), "unknown": 0},
        "张三": {"calls": 1, "cost": cost("m1", 7, 7), "unknown": 0},
    }
    check.independent(
        "中文用户名、同样的行再算一次、换一批行",
        [
            (
                "中文的 张三，大小写和全角不同的 u1、U1、" + wide,
                lambda: cost_by_user(copy.deepcopy(first), prices),
                first_report,
            ),
            ("同样的行再算一次", lambda: cost_by_user(copy.deepcopy(first), prices), first_report),
            ("换一批行", lambda: cost_by_user(copy.deepcopy(second), prices), second_report),
        ],
        same=lambda want, got: isinstance(got, dict) and _cost_difference(got, want) is None,
        hint=(
            "user_id 原样作键（不要 lower()、不要转换全角）；合计放在函数里面的局部变量中，每次调用"
            "从空开始。"
        ),
    )
    anonymous = [
        _model_call("", "m1", 100, 10, "run_a"),
        _model_call(None, "m2", 200, 20, "run_b"),  # type: ignore[arg-type]
        _model_call("", "m2", 300, 30, "run_a"),
    ]
    check.independent(
        "user_id 是空字符串或 None 的调用",
        [
            (
                "匿名调用：user_id 为 '' 和 None",
                lambda: cost_by_user(copy.deepcopy(anonymous), prices),
                {
                    "": {
                        "calls": 2,
                        "cost": cost("m1", 100, 10) + cost("m2", 300, 30),
                        "unknown": 0,
                    },
                    None: {"calls": 1, "cost": cost("m2", 200, 20), "unknown": 0},
                },
            )
        ],
        same=lambda want, got: isinstance(got, dict) and _cost_difference(got, want) is None,
        hint=(
            "user_id 原样作键，空字符串和 None 也各是一个用户：不要用 if not user 跳过它们，"
            "也不要把它们并成一组——匿名调用的花费也要出现在报表里。"
        ),
    )
    check.independent(
        "模型名只差一点",
        [
            (
                "、".join(map(repr, near_misses)) + " 都不在价格表 m1、m2 里",
                lambda: cost_by_user(copy.deepcopy(unpriced), prices),
                {"王五": {"calls": len(near_misses), "cost": None, "unknown": len(near_misses)}},
            )
        ],
        same=lambda want, got: isinstance(got, dict) and _cost_difference(got, want) is None,
        hint=(
            "价格用 prices.get(model) 按模型名精确查找：不在表里的模型就是未知，"
            "不要按前缀、子串、大小写或全角去凑一个“差不多”的价格。"
        ),
    )


def _cost_difference(got: dict[str, Any], expected: dict[str, Any]) -> str | None:
    if set(got) != set(expected) or len(got) != len(expected):
        return f"用户不对：期望 {sorted(map(repr, expected))}，得到 {sorted(map(repr, got))}"
    for user, want in expected.items():
        have = got[user]
        if not isinstance(have, dict):
            return f"{user} 的值应该是 dict，得到 {type(have).__name__}"
        for key in ("calls", "unknown"):
            if have.get(key) != want[key]:
                return f"{user} 的 {key} 应该是 {want[key]}，得到 {have.get(key)!r}"
        value = have.get("cost")
        if want["cost"] is None:
            if value is not None:
                return f"{user} 的调用全部无法计价，cost 应该是 None，得到 {value!r}"
        elif isinstance(value, bool) or not isinstance(value, (int, float)):
            return f"{user} 的 cost 应该是数字 {want['cost']!r}，得到 {typed(value, 60)}"
        elif not math.isclose(value, want["cost"], rel_tol=COST_TOLERANCE, abs_tol=0.0):
            rounded = _rounding_of(want["cost"], value)
            return f"{user} 的 cost 应该是 {want['cost']!r}，得到 {value!r}" + (
                f"（这是把原值{rounded}的结果：费用不要四舍五入）" if rounded else ""
            )
    return None


COST_TOLERANCE = 1e-13
"""How far a cost may be from the formula's value, relative to it: the noise of adding a few floats
in another order (about 1e-16), far below what rounding to any number of decimals or significant
digits changes."""


def _rounding_of(exact: float, got: float) -> str:
    """How ``got`` is ``exact`` rounded (to k decimals or k significant digits), or ``""``."""
    for digits in range(16):
        if got == round(exact, digits):
            return f"四舍五入到 {digits} 位小数"
        if got == float(f"{exact:.{digits + 1}g}"):
            return f"保留 {digits + 1} 位有效数字"
    return ""


# ----------------------------------------------- 6.4 an evaluation case that tells right from wrong

_SCORE_ZH = {"tools": "工具选择", "arguments": "参数", "database": "数据库", "answer": "回答事实"}


def _scores_zh(scores: dict[str, bool]) -> str:
    return "，".join(
        f"{_SCORE_ZH.get(name, name)}{'通过' if ok else '没通过'}" for name, ok in scores.items()
    )


EVAL_REQUEST = "帮我订 2026-03-16 上午 9 点到 10 点的 room_302 会议室，3 个人开周会"
_STORED_TIME = re.compile(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}")


def _database_hint(made: Any) -> str:
    """Why the right agent fails the case's database check, read from the case's own SQL and rows:
    a time in another format than the stored one, a value of the wrong type, or a missing filter.
    """
    checks = [c for c in (attribute(made, "state") or []) if hasattr(c, "rows")]
    values = [
        value
        for c in checks
        if isinstance(c.rows, list)
        for row in c.rows
        if isinstance(row, (list, tuple))
        for value in row
    ]
    times = [v for v in values if isinstance(v, str) and re.search(r"\d{1,2}[:：]\d{2}", v)]
    wrong_times = [v for v in times if not _STORED_TIME.fullmatch(v)]
    if wrong_times:
        return (
            f"rows 里的时间 {wrong_times[0]!r} 和数据库存的格式不同：bookings 里的时间存成"
            f" {_RIGHT['start_time']!r} 这样（日期、一个空格、时:分，没有秒，没有 T）。"
        )
    if any(isinstance(v, str) and v.strip().isdigit() for v in values):
        return '数字列要写成整数：attendees 是 3，不是 "3"（SQL 查出来的行要和 rows 完全一样）。'
    sql = " ".join(str(attribute(c, "sql") or "") for c in checks)
    if "booked_by" not in sql:
        return (
            "数据库里原来就有一条别人的预订（BK0001）：SQL 要按 booked_by = 'E001' 过滤，只查这次"
            "运行订下的行。"
        )
    return (
        "SQL 查出来的行要和 rows 完全一样（列的顺序、个数和类型）：在办公室数据库上运行你的 SQL，"
        "把查出来的和 rows 对照。表 bookings 的列：id, room_id, start_time, end_time, attendees,"
        " booked_by。"
    )


_RIGHT = {
    "room_id": "room_302",
    "start_time": "2026-03-16 09:00",
    "end_time": "2026-03-16 10:00",
    "attendee_count": 3,
}


def _booking_model(bookings: list[dict[str, Any]], answer: str | None = None) -> Any:
    """A scripted agent: books each of ``bookings`` in turn, then says ``answer`` (default: what
    every booking result says).
    """
    from ....scripted import FunctionClient, call, calls

    def fn(messages: list[dict[str, Any]], tools: Any) -> Any:
        done = [m for m in messages if m.get("role") == "tool"]
        if len(done) < len(bookings):
            return calls(
                call("book_meeting_room", bookings[len(done)], id=f"call_book_{len(done)}")
            )
        if answer is not None:
            return answer
        said = []
        for message in done:
            result = json.loads(message["content"])
            data = result.get("data") or {}
            if not result.get("success"):
                said.append(f"没有订成：{result.get('error')}")
            else:
                said.append(
                    "已为你预订"
                    f" {data.get('room_id')}（{data.get('location')}），{data.get('start_time')} 到"
                    f" {data.get('end_time')}，{data.get('attendees')} 人，预订编号"
                    f" {data.get('booking_id')}。"
                )
        return "".join(said) or "好的。"

    return FunctionClient(fn, max_calls=20)


_WRONG_AGENTS: list[tuple[str, list[dict[str, Any]], str | None, str]] = [
    (
        "订错了会议室（room_301）",
        [{**_RIGHT, "room_id": "room_301"}],
        None,
        "期望的调用要检查 room_id，数据库检查要看订的是哪一间。",
    ),
    (
        "订错了时间（10:00 到 11:00）",
        [{**_RIGHT, "start_time": "2026-03-16 10:00", "end_time": "2026-03-16 11:00"}],
        None,
        "start_time 和 end_time 都要检查（在期望的参数里，或者在数据库检查的 SQL 里）。",
    ),
    (
        "人数填错了（4 人）",
        [{**_RIGHT, "attendee_count": 4}],
        None,
        "attendee_count 也是这次预订的一部分：检查它。",
    ),
    (
        "什么都没订，却说订好了",
        [],
        (
            "已为你预订 room_302（A 座 3 楼），2026-03-16 09:00 到 2026-03-16 10:00，3 人，预订编号"
            " BK0002。"
        ),
        "回答可以撒谎，数据库不会：要有一条数据库检查，确认 bookings 表里真的有这条预订。",
    ),
    (
        "订了两间（room_302 和 room_301）",
        [_RIGHT, {**_RIGHT, "room_id": "room_301"}],
        None,
        "数据库检查要查出张明（E001）的**全部**预订，期望恰好一行；只查 room_302 "
        "发现不了多订的那间。",
    ),
    (
        "订对了，回答却什么都没说",
        [_RIGHT],
        "好的。",
        "回答里要有用户关心的事实，比如预订编号 BK0002：把它放进 answer_facts。",
    ),
    (  # the answer differs from the right one only in the fact: a partial fact passes it
        "订对了，回答里的预订编号却是别人的（BK0001）",
        [_RIGHT],
        (
            "已为你预订 room_302（A 座 3 楼），2026-03-16 09:00 到 2026-03-16 10:00，3 人，预订编号"
            " BK0001。"
        ),
        (
            "answer_facts 里写完整的预订编号 BK0002：只写它的一部分（如 BK000、BK），说错编号的回答"
            "也能通过。"
        ),
    ),
]


@exercise
def day6_eval_case(check: _Check, make_case: Callable[[], Any]) -> None:
    """Exercise 6.4: ``make_case() -> EvalCase`` for ``EVAL_REQUEST`` that passes the right agent
    and fails every wrong one.
    """
    __tracebackhide__ = True
    from ...evaluation import EvalCase, evaluate, office_world_factory

    _callable(check.exercise, make_case)
    case = "make_case() 返回一个 EvalCase"
    made = check.call(
        case,
        make_case,
        hint=(
            'EvalCase 的参数：EvalCase(id, request, kind, role="行政助理",'
            " expected_calls=[...], forbidden_tools=[...], decide=None, state=[...],"
            ' answer_facts=[...])；ExpectedCall(tool, arguments)、StateCheck(sql, rows, why="")。'
        ),
    )
    if not isinstance(made, EvalCase):
        raise check.fail(
            case,
            expected="EvalCase(...)",
            got=typed(made, 120),
            hint=(
                "从 handwritten_agent.course.evaluation 导入 EvalCase、ExpectedCall、StateCheck、"
                "OneOf。"
            ),
        )
    if made.request != EVAL_REQUEST:
        raise check.fail(
            case,
            expected=EVAL_REQUEST,
            got=made.request,
            hint="request 用题目给的 EVAL_REQUEST，一字不改。",
        )
    check.ok(case, _brief(made.id))

    def score(model: Any) -> Any:
        root = tempfile.mkdtemp(prefix="day6_eval_")
        try:
            report = evaluate([made], office_world_factory(model, root=root))
        except sqlite3.Error as exc:
            raise check.fail(
                "数据库检查的 SQL 能运行",
                expected="合法的 SQL",
                got=f"{type(exc).__name__}: {exc}",
                hint=(
                    "在办公室数据库上试一试你的 SQL：表名 bookings，列 id, room_id, start_time,"
                    " end_time, attendees, booked_by。"
                ),
            ) from None
        except (TypeError, AttributeError, ValueError, KeyError) as exc:
            raise check.fail(
                "用例能被评测运行",
                expected="各个字段的类型正确",
                got=f"{type(exc).__name__}: {exc}",
                hint=(
                    "expected_calls 是 ExpectedCall 的列表，state 是 StateCheck 的列表，rows 是列表"
                    "的列表。"
                ),
            ) from None
        finally:  # the world's database and audit log are not needed once it is scored
            shutil.rmtree(root, ignore_errors=True)
        return report.attempts[0]

    case = "对的 Agent：四项全部通过"
    right = score(_booking_model([_RIGHT]))
    if not right.passed:
        hint = "对的 Agent 也没通过，说明用例要求的东西不对。"
        if made.decide != "approve":
            hint = '订会议室对行政助理是 L2，要有人确认才会执行：decide="approve"。'
        elif not right.scores["database"]:
            hint = _database_hint(made)
        elif not right.scores["answer"]:
            hint = "answer_facts 里的每一项都要出现在对的回答里；对的回答是：" + str(right.answer)
        raise check.fail(
            case,
            expected="工具选择、参数、数据库、回答事实全部通过",
            got=f"{_scores_zh(right.scores)}；{'；'.join(right.problems)}",
            hint=hint,
        )
    check.ok(case)
    for name, bookings, answer, hint in _WRONG_AGENTS:
        case = f"错的 Agent：{name}"
        wrong = score(_booking_model(bookings, answer))
        if wrong.passed:
            raise check.fail(
                case,
                expected="这个用例判它不通过",
                got=f"判为通过：{_scores_zh(wrong.scores)}，回答“{_brief(wrong.answer, 50)}”",
                hint=hint,
            )
        check.ok(
            case,
            "、".join(_SCORE_ZH[name] for name, ok in wrong.scores.items() if not ok) + " 没通过",
        )
    check.done()


__all__ = [
    "EVAL_REQUEST",
    "day6_cost_by_user",
    "day6_eval_case",
    "day6_redact_line",
    "day6_step_tracer",
]
