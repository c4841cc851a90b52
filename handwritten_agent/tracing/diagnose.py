"""``diagnose(trace) -> [Finding]``: the reference articles' error table as rules over a trace, and
the five-step check.

Each rule reads the lines of one run and, when its symptom is there, says at which step, what was
seen, and what to do — the reference articles' table (001 §7.3) row by row, plus the ways a run can
end early:

======================  =========================================================================
rule                    symptom in the trace
======================  =========================================================================
``no_tool_call``        the run answered without any tool call, while tools were expected (you
                        say which with ``expect_tools``) or none was sent to the model at all
``tool_error_ignored``  a tool failed, was not retried successfully, and the answer does not
                        mention a failure
``repeated_call``       the same tool with the same arguments more than once in a run
``tool_call_id``        tool-call ids reused within a run, a tool message answering an id the
                        assistant did not send, or the server rejecting the request over it (400)
``invalid_arguments``   arguments that are not a JSON object (broken JSON, a JSON string)
``unknown_tool``        a call to a tool the model was not offered
``max_steps``           the run used every step and still wanted tools
``timeout`` / ``budget``  the run's time or money ran out
``model_error``         the model call failed (HTTP 429/5xx after retries, timeout, empty reply …)
``rate_limited``        the client waited out 429s (and then succeeded)
``slow_model_call``     one model call took longer than ``slow_ms``
``tool_time_share``     tools took more than ``tool_share`` (70%) of a run's time — article 003
                        §7.2's signal that the chain has room to improve (runs shorter than
                        ``min_run_ms`` are not judged)
``needs_confirmation``  the run is waiting for a person (not an error: a reminder to resume it)
======================  =========================================================================

``five_steps(run)`` walks the reference articles' 排查链路 (001 §7.2) on one run: did the model call
tools, did they succeed, were results handed back correctly, did the loop end properly, does the
answer use the results.

Left out: judging whether an answer is *true* (that needs the evaluation of Day 6), and rules across
runs (e.g. a user retrying the same request).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from ..memory.rounds import pairing_problems
from ..messages import call_key
from ..run import ending_line
from ..text import shorten
from .reading import TraceRun, read_trace

ACKNOWLEDGES_FAILURE = (
    "失败",
    "错误",
    "出错",
    "无法",
    "不能",
    "未能",
    "没能",
    "不存在",
    "为零",
    "抱歉",
    "不支持",
    "找不到",
    "没有找到",
    "异常",
    "超时",
    "拒绝",
    "error",
    "fail",
    "unable",
    "cannot",
    "can't",
    "sorry",
    "invalid",
)
"""Words by which an answer says that something did not work."""

SEVERITY_ZH = {"error": "错误", "warning": "警告", "info": "提示"}
TOOL_SHARE = 0.7
"""Seed 003 §7.2: when tool calls take more than 70% of the response time, the chain has room to
improve.
"""
MIN_RUN_MS = 1000.0
"""Runs shorter than this are not judged by ``tool_time_share`` (in a 20 ms run any share is
noise).
"""


@dataclass(frozen=True)
class Finding:
    """One problem found in a run: which rule, at which step, what was seen, and what to do."""

    rule: str
    step: int
    title: str
    detail: str
    advice: str
    severity: str = "warning"
    request_id: str = ""
    tool_call_id: str | None = None

    def __str__(self) -> str:
        where = f"第 {self.step} 步" if self.step else "运行开始前"
        return (
            f"[{SEVERITY_ZH.get(self.severity, self.severity)}] {where} ·"
            f" {self.title}：{self.detail}\n    → {self.advice}"
        )


Rule = Callable[[TraceRun, dict[str, Any]], Iterable[Finding]]
RULES: dict[str, Rule] = {}


def rule(name: str) -> Callable[[Rule], Rule]:
    """Register a rule under ``name``; ``diagnose`` runs every registered rule on every run."""

    def register(fn: Rule) -> Rule:
        RULES[name] = fn
        return fn

    return register


def diagnose(
    source: Any,
    *,
    expect_tools: bool | Iterable[str] | dict[str, Any] | None = None,
    slow_ms: float = 5000,
    tool_share: float = TOOL_SHARE,
    min_run_ms: float = MIN_RUN_MS,
    rules: Iterable[str] | None = None,
) -> list[Finding]:
    """Every finding of every run in ``source`` (a path, a ``Trace``, a ``TraceRun``, or lines), by
    run and step.

    ``expect_tools``: True when every run should have called some tool; tool names that should have
    been called; or a dict ``{request_id: names or True}`` per run.
    """
    trace = read_trace(source)
    chosen = list(RULES) if rules is None else list(rules)
    unknown = [name for name in chosen if name not in RULES]
    if unknown:
        raise ValueError(f"没有这些规则：{', '.join(unknown)}。可用的规则：{', '.join(RULES)}。")
    findings: list[Finding] = []
    for run in trace.runs:
        expected = (
            expect_tools.get(run.request_id) if isinstance(expect_tools, dict) else expect_tools
        )
        options = {
            "expect_tools": expected,
            "slow_ms": slow_ms,
            "tool_share": tool_share,
            "min_run_ms": min_run_ms,
        }
        found = [finding for name in chosen for finding in RULES[name](run, options)]
        findings += sorted(found, key=lambda f: f.step)
    return findings


def format_findings(findings: list[Finding]) -> str:
    if not findings:
        return "没有发现问题。"
    return "\n".join(str(finding) for finding in findings)


# --------------------------------------------------------------------------- helpers


def _call_key(line: dict[str, Any]) -> str:
    arguments = line.get("gen_ai.tool.call.arguments")
    return call_key(
        str(line.get("tool")), arguments if isinstance(arguments, (dict, str)) else None
    )


def _offered(run: TraceRun, step: int) -> list[str] | None:
    for line in run.model_calls:
        if line.get("step") == step:
            return list(line.get("tools_offered") or [])
    return None


def acknowledges_failure(answer: str | None, error: str | None = None) -> bool:
    """Does the answer say that something failed (a failure word, or a piece of the error
    itself)?
    """
    text = (answer or "").lower()
    if any(word in text for word in ACKNOWLEDGES_FAILURE):
        return True
    pieces = [
        piece for piece in re.split(r"[，。：；、,.:;\s（）()]+", error or "") if len(piece) >= 4
    ]
    return any(piece.lower() in text for piece in pieces)


# ------------------------------------------------------------------ the reference articles' table


@rule("no_tool_call")
def _no_tool_call(run: TraceRun, options: dict[str, Any]) -> Iterable[Finding]:
    if run.stop_reason != "final":
        return
    called = {line.get("tool") for line in run.tool_calls}
    offered = [name for line in run.model_calls for name in line.get("tools_offered") or []]
    step = run.model_calls[-1].get("step", 1) if run.model_calls else 1
    expected = options.get("expect_tools")
    if not called and run.model_calls and not offered:
        yield Finding(
            "no_tool_call",
            step,
            "模型没有调用工具",
            "这次运行的每一次模型调用都没有带 tools 参数，模型只能凭记忆回答。",
            "打印请求参数，确认 tools 已经传入（Agent 的 registry 不为空、"
            "权限关卡没有把工具全部隐藏）。",
            "error",
            run.request_id,
        )
        return
    if expected:
        wanted = set(expected) if not isinstance(expected, bool) else set()
        missing = sorted(wanted - called) if wanted else ([] if called else ["任意工具"])
        if missing:
            yield Finding(
                "no_tool_call",
                step,
                "模型没有调用应该调用的工具",
                f"期望调用 {'、'.join(missing)}，实际调用了"
                f" {'、'.join(sorted(c for c in called if c)) or '没有任何工具'}；"
                f"回答是：{shorten(run.answer, 80)}",
                "检查工具描述是否和用户的问题对得上（描述写清楚做什么、参数给出例子），确认模型支持"
                "函数调用，"
                "必要时用 tool_choice 指定工具。",
                "error",
                run.request_id,
            )


@rule("tool_error_ignored")
def _tool_error_ignored(run: TraceRun, options: dict[str, Any]) -> Iterable[Finding]:
    if run.stop_reason != "final":
        return
    results = run.tool_results
    for index, line in enumerate(results):
        if line.get("status") != "error":
            continue
        offered = _offered(run, int(line.get("step", 0))) or []
        misnamed = (
            line.get("tool") not in offered
        )  # a call to a tool that does not exist is fixed by calling another one
        recovered = any(
            (misnamed or later.get("tool") == line.get("tool"))
            and later.get("status") in ("success", "cached", "repeated")
            for later in results[index + 1 :]
        )
        if recovered or acknowledges_failure(run.answer, line.get("error")):
            continue
        yield Finding(
            "tool_error_ignored",
            int(line.get("step", 0)),
            "工具报错，但回答没有提到",
            f"{line.get('tool')} 返回了错误（{shorten(line.get('error'), 80)}），模型没有重试成功，"
            f"最终回答却没有说明失败：{shorten(run.answer, 80)}",
            "确认 tool 消息真的回填进了 messages（role 为 tool，tool_call_id"
            " 对应）；工具内部捕获异常并返回错误描述；"
            "在系统提示里要求模型如实告诉用户失败原因。",
            "error",
            run.request_id,
            line.get("gen_ai.tool.call.id"),
        )


@rule("repeated_call")
def _repeated_call(run: TraceRun, options: dict[str, Any]) -> Iterable[Finding]:
    seen: Counter[str] = Counter()
    first: dict[str, dict[str, Any]] = {}
    for line in run.tool_calls:
        key = _call_key(line)
        seen[key] += 1
        if seen[key] == 2:
            first[key] = line
    for key, line in first.items():
        yield Finding(
            "repeated_call",
            int(line.get("step", 0)),
            "同一工具被反复调用",
            f"{line.get('tool')}({shorten(line.get('gen_ai.tool.call.arguments'), 60)})"
            f" 用相同的参数调用了 {seen[key]} 次，从第 {line.get('step')} 步开始重复。",
            "看日志里每一轮的 observation：工具结果是否清楚地说明了成功和结果；让工具返回更明确的结"
            "果，保留重复调用拦截和 max_steps 上限。",
            "warning",
            run.request_id,
            line.get("gen_ai.tool.call.id"),
        )


@rule("tool_call_id")
def _tool_call_id(run: TraceRun, options: dict[str, Any]) -> Iterable[Finding]:
    ids = Counter(line.get("gen_ai.tool.call.id") for line in run.tool_calls)
    reused = [call_id for call_id, count in ids.items() if count > 1 or call_id in ("", None)]
    if reused:
        line = next(l for l in run.tool_calls if l.get("gen_ai.tool.call.id") in reused)
        yield Finding(
            "tool_call_id",
            int(line.get("step", 0)),
            "tool_call_id 重复或缺失",
            f"这些 id 在一次运行里被用了不止一次（或为空）：{'、'.join(repr(i) for i in reused)}。"
            "严格的 API 会以 400 拒绝"
            "下一次请求（tool_call_id 不匹配），宽松的服务器则可能把结果对应到错误的调用上。",
            "原样回传模型给出的 assistant 消息和 id，不要自己拼"
            " id（例如用轮次编号）；换一个遵守协议的服务器或模型。",
            "error",
            run.request_id,
            line.get("gen_ai.tool.call.id"),
        )
    for line in run.model_calls:
        messages = line.get("gen_ai.input.messages")
        if not messages:
            continue
        problem = _unanswered_or_orphan(messages)
        if problem:
            yield Finding(
                "tool_call_id",
                int(line.get("step", 0)),
                "消息回传不正确",
                problem,
                "直接 append 模型返回的 assistant 消息；每个 tool 消息的 tool_call_id 要对应上一条"
                " assistant 消息里的调用。",
                "error",
                run.request_id,
            )
    end = run.end or {}
    error = str(end.get("error") or "")
    if "tool_call_id" in error or ("HTTP 400" in error and "tool" in error):
        yield Finding(
            "tool_call_id",
            int(end.get("step", 0)),
            "服务器拒绝了消息结构",
            f"模型调用以 400 失败：{shorten(error, 120)}",
            "检查代码是否重新构造了 assistant 消息；直接 append 原始 message，tool 消息用原来的"
            " tool_call_id。",
            "error",
            run.request_id,
        )


def _unanswered_or_orphan(messages: list[dict[str, Any]]) -> str | None:
    problems = pairing_problems(messages)
    return problems[0] if problems else None


@rule("invalid_arguments")
def _invalid_arguments(run: TraceRun, options: dict[str, Any]) -> Iterable[Finding]:
    for line in run.tool_calls:
        if line.get("error.type") != "invalid_arguments":
            continue
        yield Finding(
            "invalid_arguments",
            int(line.get("step", 0)),
            "工具参数解析失败",
            f"{line.get('tool')} 收到的参数不是 JSON"
            f" 对象：{shorten(line.get('gen_ai.tool.call.arguments'), 80)}"
            f"（{shorten(line.get('error'), 80)}）",
            "打印原始的 function.arguments；用支持函数调用的模型；不支持时在提示词里约束只输出一个"
            " JSON 对象，"
            "并把解析错误回传给模型让它重试。",
            "warning",
            run.request_id,
            line.get("gen_ai.tool.call.id"),
        )


@rule("unknown_tool")
def _unknown_tool(run: TraceRun, options: dict[str, Any]) -> Iterable[Finding]:
    for line in run.tool_calls:
        offered = _offered(run, int(line.get("step", 0)))
        if offered is None or line.get("tool") in offered:
            continue
        yield Finding(
            "unknown_tool",
            int(line.get("step", 0)),
            "调用了不存在的工具",
            f"模型调用了 {line.get('tool')!r}，"
            f"但这一步提供的工具只有：{'、'.join(offered) or '（没有）'}。",
            "工具名要简短、准确、不易混淆；把可用工具的准确名字回传给模型（dispatch 已经这样做），"
            "检查注册表和权限关卡是否隐藏了它。",
            "warning",
            run.request_id,
            line.get("gen_ai.tool.call.id"),
        )


# --------------------------------------------------------------------------- how the run ended

_ENDINGS = {
    "max_steps": (
        "达到最大步数",
        "模型一直在调用工具，没有给出回答。",
        (
            "查看最后几步是否在兜圈子（同样的调用、没有进展的结果）；"
            "任务确实需要更多步时再调大 max_steps。"
        ),
        "error",
    ),
    "timeout": (
        "超过时间预算",
        "运行在 max_seconds 用完时停止。",
        "看时间线上哪一段最长（模型还是工具）；给慢工具设超时，或调大 max_seconds。",
        "error",
    ),
    "budget": (
        "超过费用预算",
        "Budget 停止了运行（默认在超出预算的那次模型调用之后；check_before=True "
        "时也在调用之前估算）。",
        (
            "看每一步的 input_tokens：消息是否越来越长（考虑第 4 天的记忆压缩）、"
            "是否有重复调用；确实需要时再调大预算。"
        ),
        "error",
    ),
    "length": (
        "回复被截断",
        (
            "模型的回复达到了回复长度上限（max_tokens / max_completion_tokens），"
            "没写完就停了；运行没有执行截断的调用。"
        ),
        "调大回复上限，或者让模型回答得更短（例如在系统提示里要求简洁）。",
        "error",
    ),
    "content_filter": (
        "回复被内容过滤拦下",
        "服务商的内容过滤没有放行这次回复。",
        "换一种说法，或检查请求里触发过滤的内容。",
        "error",
    ),
    "refusal": (
        "模型拒绝了请求",
        "模型在 refusal 字段里拒绝了这个请求，没有给出回答，也没有调用工具。",
        "看 refusal 里的原因；如果请求本身没有问题，换一种说法或换一个模型。",
        "error",
    ),
    "needs_confirmation": (
        "等待确认",
        "运行暂停，等一个人做决定。",
        "用 agent.resume(result, {request.id: decision}) 继续这次运行。",
        "info",
    ),
}


@rule("ending")
def _ending(run: TraceRun, options: dict[str, Any]) -> Iterable[Finding]:
    end = run.end
    if end is None:
        last = run.lines[-1] if run.lines else {}
        yield Finding(
            "no_end",
            int(last.get("step", 0)),
            "没有结束行",
            "trace 里这次运行没有 run_end 行：进程可能在运行中途退出或崩溃了。",
            "看最后一行是哪个事件，它之后的那一步就是出事的地方；检查进程日志。",
            "error",
            run.request_id,
        )
        return
    reason = str(end.get("stop_reason"))
    step = int(end.get("step", 0))
    if reason in _ENDINGS:
        title, detail, advice, severity = _ENDINGS[reason]
        error = end.get("error")
        yield Finding(
            reason,
            step,
            title,
            f"{detail}{('（' + shorten(error, 120) + '）') if error else ''}",
            advice,
            severity,
            run.request_id,
        )
    elif reason == "error":
        yield _model_error(run, end)
    elif reason != "final":
        yield Finding(
            reason,
            step,
            f"运行结束：{ending_line(reason)}",
            shorten(end.get("error"), 160),
            "看这个停止原因是哪个钩子（memory、gate、on_event）给出的。",
            "warning",
            run.request_id,
        )


def _model_error(run: TraceRun, end: dict[str, Any]) -> Finding:
    error = str(end.get("error") or "")
    step = int(end.get("step", 0)) + (0 if "空回复" in error else 1)
    if "429" in error or "RateLimited" in error:
        return Finding(
            "model_error",
            step,
            "被限流（HTTP 429）",
            f"重试之后仍然被限流：{shorten(error, 120)}",
            "降低请求频率，或调大 LLM_MAX_RETRIES；检查账户的额度和余额。",
            "error",
            run.request_id,
        )
    if re.search(r"HTTP 5\d\d|ServerError", error):
        return Finding(
            "model_error",
            step,
            "服务器错误（HTTP 5xx）",
            f"重试之后仍然失败：{shorten(error, 120)}",
            "问题在服务端：稍后重试，或配置一个备用模型（附录「上线之后」第 1 节）。",
            "error",
            run.request_id,
        )
    if "Timeout" in error or "No reply" in error or "超时" in error:
        return Finding(
            "model_error",
            step,
            "模型调用超时",
            shorten(error, 160),
            "慢模型调大 LLM_TIMEOUT；检查服务器负载；用流式输出让用户先看到内容。",
            "error",
            run.request_id,
        )
    if "空回复" in error:
        return Finding(
            "model_error",
            step,
            "模型返回空回复",
            shorten(error, 160),
            "重试一次；确认模型支持工具调用；检查 max_tokens 是否太小。",
            "error",
            run.request_id,
        )
    return Finding(
        "model_error",
        step,
        "模型调用失败",
        shorten(error, 160),
        "按错误信息检查 .env 里的 LLM_BASE_URL、LLM_MODEL、LLM_API_KEY。",
        "error",
        run.request_id,
    )


@rule("rate_limited")
def _rate_limited(run: TraceRun, options: dict[str, Any]) -> Iterable[Finding]:
    retries = run.of("retry")
    by_step: dict[int, list[dict[str, Any]]] = {}
    for line in retries:
        by_step.setdefault(int(line.get("step", 0)), []).append(line)
    for step, lines in by_step.items():
        statuses = "、".join(sorted({str(l.get("http.response.status_code")) for l in lines}))
        waited = sum(float(l.get("wait_s") or 0) for l in lines)
        yield Finding(
            "rate_limited",
            step,
            f"重试了 {len(lines)} 次（HTTP {statuses}）",
            f"客户端一共等待了 {waited:g} 秒"
            + ("，之后成功了。" if run.stop_reason != "error" else "。"),
            "偶尔的 429/5xx 由重试处理；经常出现时降低并发、检查额度，或配置备用模型。",
            "info",
            run.request_id,
        )


@rule("slow_model_call")
def _slow(run: TraceRun, options: dict[str, Any]) -> Iterable[Finding]:
    limit = float(options.get("slow_ms") or 0)
    for line in run.model_calls:
        duration = line.get("duration_ms")
        if limit and isinstance(duration, (int, float)) and duration > limit:
            yield Finding(
                "slow_model_call",
                int(line.get("step", 0)),
                "模型调用很慢",
                f"这次调用用了 {duration:g} ms（阈值 {limit:g} ms）。",
                "发送的消息是否太长（看 input_tokens）？换更快的模型、用流式输出，或设置超时。",
                "warning",
                run.request_id,
            )


def tool_time(run: TraceRun) -> tuple[float, float]:
    """(ms spent in tools, ms of the run) from the trace: tools that ran (not repeats, cache hits or
    refusals), and the run's ``run_end`` durations (a paused and resumed run adds its parts; the
    wait for a person is not counted).
    """
    tools = sum(
        float(line.get("tool_duration_ms") or 0.0)
        for line in run.tool_results
        if line.get("status") in ("success", "error")
    )
    total = sum(float(line.get("duration_ms") or 0.0) for line in run.ends)
    return tools, total


@rule("tool_time_share")
def _tool_time_share(run: TraceRun, options: dict[str, Any]) -> Iterable[Finding]:
    limit, shortest = (
        float(options.get("tool_share", TOOL_SHARE)),
        float(options.get("min_run_ms", MIN_RUN_MS)),
    )
    tools, total = tool_time(run)
    if total < max(shortest, 1e-9) or tools / total <= limit:
        return
    slowest = max(
        (line for line in run.tool_results if line.get("status") in ("success", "error")),
        key=lambda line: float(line.get("tool_duration_ms") or 0.0),
    )
    yield Finding(
        "tool_time_share",
        int(slowest.get("step", 0)),
        f"工具占了运行时间的 {tools / total:.0%}",
        f"工具一共用了 {tools:.0f} ms，整次运行 {total:.0f} ms（阈值 {limit:.0%}）；最慢的是第"
        f" {slowest.get('step')} 步的 "
        f"{slowest.get('tool')}（{float(slowest.get('tool_duration_ms') or 0):.0f} ms）。",
        "时间花在工具上，不在模型上：给慢工具加缓存（只读的结果几分钟内不变）、设超时、"
        "并行调用互不依赖的工具，"
        "或者让工具一次返回模型要的全部信息，少一轮往返。",
        "warning",
        run.request_id,
        slowest.get("gen_ai.tool.call.id"),
    )


# --------------------------------------------------------------------------- the five-step check


@dataclass(frozen=True)
class Check:
    """One question of the five-step check, answered from the trace."""

    number: int
    question: str
    ok: bool | None
    evidence: str

    def __str__(self) -> str:
        mark = "✅" if self.ok else ("❌" if self.ok is False else "➖")
        return f"{self.number}. {self.question} {mark} {self.evidence}"


def five_steps(source: Any, request_id: str | None = None) -> list[Check]:
    """The reference articles' five questions (001 §7.2), in order, answered from one run's
    lines."""
    from .reading import as_run

    run = as_run(source, request_id)
    checks: list[Check] = []
    calls, results = run.tool_calls, run.tool_results
    offered = sorted({name for line in run.model_calls for name in line.get("tools_offered") or []})
    checks.append(
        Check(
            1,
            "模型是否触发了工具调用？",
            bool(calls) if offered else False,
            f"提供了 {len(offered)} 个工具，模型调用了 {len(calls)}"
            f" 次：{'、'.join(l.get('tool', '') for l in calls) or '没有'}"
            + ("" if offered else "（请求里没有 tools 参数）"),
        )
    )
    failed = [line for line in results if line.get("status") == "error"]
    checks.append(
        Check(
            2,
            "工具是否执行成功？",
            None if not results else not failed,
            f"{len(results)} 个结果，{len(failed)} 个失败"
            + (f"：{shorten(failed[0].get('error'), 60)}" if failed else ""),
        )
    )
    answered = {line.get("gen_ai.tool.call.id") for line in results + run.of("needs_confirmation")}
    missing = [
        line.get("gen_ai.tool.call.id")
        for line in calls
        if line.get("gen_ai.tool.call.id") not in answered
    ]
    reused = [
        call_id
        for call_id, count in Counter(line.get("gen_ai.tool.call.id") for line in calls).items()
        if count > 1
    ]
    orphan = next(
        (
            p
            for p in (
                _unanswered_or_orphan(l.get("gen_ai.input.messages") or []) for l in run.model_calls
            )
            if p
        ),
        None,
    )
    problems = (
        ([f"没有结果的调用 {missing}"] if missing else [])
        + ([f"重复的 id {reused}"] if reused else [])
        + ([orphan] if orphan else [])
    )
    checks.append(
        Check(
            3,
            "assistant 消息回传、工具结果回填是否正确？",
            None if not calls else not problems,
            (
                "；".join(problems)
                if problems
                else ("每个调用都有对应 tool_call_id 的结果" if calls else "没有工具调用")
            ),
        )
    )
    repeats = sum(1 for line in results if line.get("status") == "repeated")
    reason = run.stop_reason
    checks.append(
        Check(
            4,
            "循环是否正常结束？",
            reason == "final",
            f"结束：{ending_line(reason)}，{len(run.model_calls)} 步"
            + (f"，{repeats} 次重复调用被拦截" if repeats else ""),
        )
    )
    answer = run.answer or ""
    used = _answer_uses_results(answer, results)
    if not answer:
        checks.append(Check(5, "最终回答是否用上了工具结果？", False, "没有最终回答"))
    elif not results:
        checks.append(
            Check(
                5,
                "最终回答是否用上了工具结果？",
                None,
                f"没有工具结果可用；回答：{shorten(answer, 60)}",
            )
        )
    else:
        ignored = [l for l in failed if not acknowledges_failure(answer, l.get("error"))]
        ok = used and not ignored
        checks.append(
            Check(
                5,
                "最终回答是否用上了工具结果？",
                ok,
                (
                    "回答里出现了工具结果中的内容"
                    if used
                    else "回答里找不到工具结果中的任何数值或词语"
                )
                + ("；但回答没有提到工具的失败" if ignored else "")
                + f"：{shorten(answer, 60)}",
            )
        )
    return checks


def _answer_uses_results(answer: str, results: list[dict[str, Any]]) -> bool:
    for line in results:
        summary = str(line.get("output_summary") or "")
        tokens = re.findall(r"\d+(?:\.\d+)?|[\u4e00-\u9fff]{2,}", summary)
        if any(token in answer for token in tokens if len(token) >= 2 or token.isdigit()):
            return True
    return False


def format_five_steps(checks: list[Check]) -> str:
    return "\n".join(str(check) for check in checks)


__all__ = [
    "ACKNOWLEDGES_FAILURE",
    "MIN_RUN_MS",
    "TOOL_SHARE",
    "tool_time",
    "Check",
    "Finding",
    "RULES",
    "acknowledges_failure",
    "diagnose",
    "five_steps",
    "format_findings",
    "format_five_steps",
    "rule",
]
