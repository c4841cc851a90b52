"""Checkers for the Day 6 exercises (日志与可观测性): a redaction rule, a diagnose rule, a cost report.

Each checker runs the learner's function on trace lines built here (the shapes ``Tracer`` writes),
several cases per dimension the task names, each with an edge; the input is deep-copied before and
compared after, so a function that changes the lines it was given fails with a hint.
"""

from __future__ import annotations

import copy
import json
import math
import re
from typing import Any, Callable

from .framework import _callable, _Check, _short, value_difference

# --------------------------------------------------------------------------- helpers


def _same_input(check: _Check, case: str, before: Any, after: Any) -> None:
    if json.dumps(before, sort_keys=True, ensure_ascii=False, default=str) != json.dumps(after, sort_keys=True, ensure_ascii=False, default=str):
        raise check.fail(case, expected="传入的数据保持原样", got=f"调用之后变成了：{_short(after, 200)}",
                         hint="不要在原来的 dict/list 上修改：先建一个新的（例如逐层构造新 dict，或 copy.deepcopy 之后再改）。")


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
        return [item for index, inner in enumerate(value) for item in _strings(inner, (*path, index))]
    return []


def _at(value: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        try:
            value = value[part]
        except (KeyError, IndexError, TypeError):
            return None
    return value


def _redact_hint(line: dict[str, Any], expected: dict[str, Any], got: Any, hint: str, redact_line: Callable[..., Any]) -> str:
    """The hint for the first string the learner got wrong: which key stayed, and why (tried again on that key alone)."""
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
            return f"{key} 单独出现时你能替换，和别的密钥在同一段文字里时却留下了：用 re.sub 替换所有匹配（不要 count=1，也不要只 search 一次）。"
        body = key[3:]
        if re.search(r"[-_]", body):
            return f"{key} 没有被替换：它里面有 - 或 _。密钥的字符是字母、数字、- 和 _，字符类要写全：[A-Za-z0-9_-]{{16,}}。"
        if len(body) == 16:
            return f"{key} 没有被替换：sk- 后面正好 16 个字符，“至少 16 个”包括 16 个本身：{{16,}}，不是 {{17,}}。"
        return f"{key} 没有被替换。" + hint
    return hint


def day6_redact_line(redact_line: Callable[[dict[str, Any]], dict[str, Any]]) -> None:
    """Exercise 6.1: ``redact_line(line) -> dict`` — secret-named string fields and ``sk-`` keys in text become ``***``."""
    __tracebackhide__ = True
    check = _Check("day6_redact_line")
    _callable(check.exercise, redact_line)
    key = "sk-AbCdEf0123456789xyz"
    other = "sk-proj_Zz9Yy8Xx7Ww6Vv5Uu4"
    cases: list[tuple[str, dict[str, Any], dict[str, Any], str]] = [
        ("字段名是 api_key", {"event": "model_call", "api_key": "abc12345", "model": "m1"},
         {"event": "model_call", "api_key": "***", "model": "m1"}, "字段名（转成小写后）以 key、token、secret、password 结尾、值是字符串时，整个值换成 \"***\"。"),
        ("字段名大小写不同、以 TOKEN/Secret/Password 结尾", {"LLM_API_KEY": "k-1", "Refresh_Token": "t-2", "clientSecret": "s-3", "DB_PASSWORD": "p-4", "user": "u1"},
         {"LLM_API_KEY": "***", "Refresh_Token": "***", "clientSecret": "***", "DB_PASSWORD": "***", "user": "u1"},
         "比较之前先把字段名转成小写（name.lower().endswith(...)）。"),
        ("数字和以 tokens 结尾的字段不动", {"input_tokens": 120, "output_tokens": None, "max_token": 50, "tokens": "3", "token": 7},
         {"input_tokens": 120, "output_tokens": None, "max_token": 50, "tokens": "3", "token": 7},
         "只替换**字符串**值；input_tokens、tokens 以 tokens 结尾（不是 token），不能动；数字和 None 原样保留。"),
        ("嵌套在 dict 和 list 里的字段", {"request": {"headers": [{"name": "x", "auth_token": "abc"}], "secret": {"inner": "visible"}}},
         {"request": {"headers": [{"name": "x", "auth_token": "***"}], "secret": {"inner": "visible"}}},
         "要递归处理：值是 dict 就处理这个 dict，值是 list 就处理其中每一项；secret 的值是 dict 时不整体替换，而是继续往里看。"),
        ("文本里的 sk- 密钥", {"gen_ai.input.messages": [{"role": "user", "content": f"我的 key 是 {key}，帮我查余额"}]},
         {"gen_ai.input.messages": [{"role": "user", "content": "我的 key 是 sk-***，帮我查余额"}]},
         "在所有字符串里找 sk- 开头、后面至少 16 个字母/数字/-/_ 的片段，换成 sk-***（用 re.sub）。"),
        ("一段文本里有两个密钥", {"note": f"旧的 {key} 新的 {other}。"}, {"note": "旧的 sk-*** 新的 sk-***。"},
         "用 re.sub 替换所有匹配，而不只是第一个。"),
        ("太短的 sk- 和单词中间的 sk- 不是密钥", {"note": "sk-short 不是密钥，task-abcdefghijklmnopqrstu 也不是"},
         {"note": "sk-short 不是密钥，task-abcdefghijklmnopqrstu 也不是"},
         "密钥至少 16 个字符；而且 sk- 前面不能紧挨着字母或数字（task- 里的 sk- 不算），可以用 (?<![A-Za-z0-9])sk-。"),
        ("sk- 后面正好 16 个字符是密钥，15 个不是", {"note": f"新的 {_SIXTEEN}，旧的 {_FIFTEEN}"}, {"note": f"新的 sk-***，旧的 {_FIFTEEN}"},
         "“至少 16 个”包括正好 16 个：{16,}。"),
        ("列表里直接是字符串", {"tool_calls": [f"key={key}", "普通文本"]}, {"tool_calls": ["key=sk-***", "普通文本"]},
         "list 里的每一项都要处理，字符串项也一样。"),
        ("空的一行", {}, {}, "空 dict 返回空 dict。"),
    ]
    for case, line, expected, hint in cases:
        got = _run(check, case, redact_line, line, hint=hint)
        if not isinstance(got, dict):
            raise check.fail(case, given=line, expected="一个新的 dict", got=f"{type(got).__name__}: {_short(got, 120)}",
                             hint="函数要 return 脱敏之后的那一行（一个新的 dict）。")
        if got != expected:
            where = value_difference(expected, got) or "类型不同（例如 tuple 和 list）"
            raise check.fail(case, given=line, expected=expected, got=f"不同之处：{where}\n  你返回的：{_short(got, 200)}",
                             hint=_redact_hint(line, expected, got, hint, redact_line))
        check.ok(case)
    again = _run(check, "同一行处理两次，结果一样", redact_line, cases[4][1])
    if again != cases[4][2] or redact_line(again) != again:
        raise check.fail("同一行处理两次，结果一样", expected=cases[4][2], got=again,
                         hint="不要在函数外面保存状态；脱敏过的结果再脱敏一次应该不变（sk-*** 不再匹配）。")
    check.ok("同一行处理两次，结果一样")
    check.done()


# --------------------------------------------------------------------------- 6.2 a diagnose rule


def _tool_result(request_id: str, step: int, tool: str, call_id: str, ms: Any) -> dict[str, Any]:
    line = {"event": "tool_result", "request_id": request_id, "step": step, "tool": tool, "gen_ai.tool.call.id": call_id,
            "status": "success"}
    if ms is not ...:
        line["tool_duration_ms"] = ms
    return line


_FIELD_HINTS = {
    "request_id": "request_id 取自这一行的 \"request_id\"：不同运行的行交错在一起，每个发现都要说出是哪次运行。",
    "step": "step 取自这一行的 \"step\"。",
    "tool": "tool 取自这一行的 \"tool\"（工具名）。",
    "tool_call_id": "tool_call_id 取自这一行的 \"gen_ai.tool.call.id\" 字段（键名里有点号，用 line.get(\"gen_ai.tool.call.id\")）。",
    "duration_ms": "duration_ms 报的是这一行的 \"tool_duration_ms\"（工具自己的耗时），原样报出，不要换算或取整。",
}


def _findings(items: list[dict[str, Any]]) -> str:
    return "、".join(f"{item.get('request_id')}/{item.get('tool_call_id')}（{item.get('tool')}，{item.get('duration_ms')} ms）" for item in items)


def day6_slow_tool_calls(slow_tool_calls: Callable[[list[dict[str, Any]], float], list[dict[str, Any]]]) -> None:
    """Exercise 6.2: ``slow_tool_calls(lines, limit_ms) -> list[dict]`` — one finding per tool call slower than the limit."""
    __tracebackhide__ = True
    check = _Check("day6_slow_tool_calls")
    _callable(check.exercise, slow_tool_calls)
    keys = ("request_id", "step", "tool", "tool_call_id", "duration_ms")

    def finding(line: dict[str, Any]) -> dict[str, Any]:
        return {"request_id": line["request_id"], "step": line["step"], "tool": line["tool"], "tool_call_id": line["gen_ai.tool.call.id"],
                "duration_ms": line["tool_duration_ms"]}

    a1 = _tool_result("run_a", 1, "get_weather", "c1", 1250.0)
    a2 = _tool_result("run_a", 1, "calculator", "c2", 3.2)
    a3 = _tool_result("run_a", 2, "query_db", "c3", 980.5)
    model = {"event": "model_call", "request_id": "run_a", "step": 2, "duration_ms": 5000.0, "model": "m1"}
    b1 = _tool_result("run_b", 1, "get_weather", "c1", 2000.0)
    equal = _tool_result("run_b", 2, "calculator", "c9", 500.0)
    missing = _tool_result("run_b", 3, "send_mail", "c10", ...)
    null = _tool_result("run_b", 3, "send_mail", "c11", None)
    repeat = {**_tool_result("run_b", 4, "get_weather", "c12", 0.0), "status": "repeated"}
    timeout = {**_tool_result("run_c", 1, "query_db", "c20", 30000.0), "status": "error", "error": "查询超时（30 秒）"}
    failed_fast = {**_tool_result("run_c", 2, "query_db", "c21", 12.0), "status": "error", "error": "表不存在"}
    same_id = _tool_result("run_d", 1, "get_weather", "c1", 1250.0)  # another run reuses call id c1 and the duration of a1
    start = {"event": "run_start", "request_id": "run_b", "step": 0}
    cases = [
        ("一次运行，两个慢调用", [a1, a2, a3], 500, [finding(a1), finding(a3)], "只保留 tool_duration_ms 大于 limit_ms 的 tool_result 行。"),
        ("阈值变了，结果跟着变", [a1, a2, a3], 1000, [finding(a1)], "用参数 limit_ms 比较，不要写死一个数。"),
        ("模型调用的 duration_ms 不算", [start, a2, model, a3], 500, [finding(a3)],
         "只看 event 为 tool_result 的行；model_call 行的 duration_ms 是模型的耗时，不是工具的。"),
        ("等于阈值不算慢", [equal, b1], 500, [finding(b1)], "“超过”是严格大于：duration > limit_ms。"),
        ("没有耗时或耗时为 null 的行跳过", [missing, null, b1], 100, [finding(b1)],
         "用 line.get(\"tool_duration_ms\") 取值，是 None 就跳过，不要抛 KeyError 或 TypeError。"),
        ("两次运行交错，按行的顺序返回", [a1, b1, a3], 500, [finding(a1), finding(b1), finding(a3)],
         "按 lines 里的顺序逐行判断，不要按运行或耗时重新排序；每个结果都带上 request_id。"),
        ("阈值为 0 时，0 ms 的重复调用不算", [repeat, a2], 0, [finding(a2)], "0 > 0 不成立：严格大于。"),
        ("失败的调用也算：30 秒超时的调用是最慢的那个", [failed_fast, timeout, a2], 1000, [finding(timeout)],
         "不管调用成功还是失败（status 是 error、超时），耗时超过 limit_ms 就要报出来：超时往往正是最慢的那一类。不要按 status 过滤。"),
        ("另一次运行里同样的调用 id 和耗时：每一行单独报", [a1, same_id], 1000, [finding(a1), finding(same_id)],
         "每个慢的 tool_result 行都是一个发现：不要按 tool_call_id 或耗时去重（不同运行的 id 可以相同），request_id 和 step 取自这一行。"),
        ("没有任何行", [], 100, [], "空列表返回空列表。"),
    ]
    for case, lines, limit, expected, hint in cases:
        got = _run(check, case, slow_tool_calls, lines, limit, hint=hint)
        if not isinstance(got, list) or not all(isinstance(item, dict) for item in got):
            raise check.fail(case, expected="一个 list，每项是一个 dict", got=f"{type(got).__name__}: {_short(got, 120)}",
                             hint="返回 list[dict]：每个慢调用一个 dict。")
        shaped = [{k: item.get(k) for k in keys} for item in got]
        missing_keys = [sorted(set(keys) - set(item)) for item in got if set(keys) - set(item)]
        if missing_keys:
            raise check.fail(case, expected=f"每个 dict 都有 {', '.join(keys)}", got=f"缺少 {missing_keys[0]}：{_short(got[0], 150)}",
                             hint="tool_call_id 来自行里的 \"gen_ai.tool.call.id\"，duration_ms 来自 \"tool_duration_ms\"。")
        if shaped != expected:
            missing = [e for e in expected if e not in shaped]
            extra = [g for g in shaped if g not in expected]
            if not missing and not extra:
                order = lambda items: " → ".join(f"{i.get('request_id')}/{i.get('tool_call_id')}" for i in items)  # noqa: E731
                difference = f"同样的发现，顺序不同：期望 {order(expected)}，实际 {order(shaped)}"
            elif len(shaped) == len(expected) and len(missing) == len(extra):
                difference = value_difference(expected, shaped) or ""
                field = next((k for k in keys if f"['{k}']" in difference), None)
                hint = _FIELD_HINTS.get(field, hint) if field else hint
            else:
                difference = "；".join(filter(None, [f"少了 {_findings(missing)}" if missing else "", f"多了 {_findings(extra)}" if extra else ""]))
            raise check.fail(case, given={"limit_ms": limit, "lines": [{k: l.get(k) for k in ("event", "request_id", "step", "tool", "status", "tool_duration_ms", "duration_ms") if k in l}
                                                                      for l in lines]},
                             expected=expected, got=f"不同之处：{difference}\n  你返回的：{_short(shaped, 200)}", hint=hint)
        check.ok(case, f"{len(expected)} 个")
    check.done()


# --------------------------------------------------------------------------- 6.3 a cost report


def _model_call(user: str, model: str, tokens_in: Any, tokens_out: Any, request_id: str = "run_1") -> dict[str, Any]:
    return {"event": "model_call", "request_id": request_id, "user_id": user, "model": model, "input_tokens": tokens_in,
            "output_tokens": tokens_out}


def day6_cost_by_user(cost_by_user: Callable[[list[dict[str, Any]], dict[str, Any]], dict[str, Any]]) -> None:
    """Exercise 6.3: ``cost_by_user(lines, prices) -> {user_id: {"calls", "cost", "unknown"}}`` from ``model_call`` lines."""
    __tracebackhide__ = True
    check = _Check("day6_cost_by_user")
    _callable(check.exercise, cost_by_user)
    prices = {"m1": (2.0, 8.0), "m2": (0.5, 1.5)}

    def cost(model: str, i: int, o: int) -> float:
        return (i * prices[model][0] + o * prices[model][1]) / 1_000_000

    u1a, u1b = _model_call("u1", "m1", 1000, 100), _model_call("u1", "m2", 2_000_000, 10)
    u2a = _model_call("u2", "m1", 500, 50, "run_2")
    end = {"event": "run_end", "request_id": "run_1", "user_id": "u1", "input_tokens": 2_001_000, "output_tokens": 110, "model": "m1"}
    tool = {"event": "tool_result", "request_id": "run_1", "user_id": "u1", "tool": "calculator", "tool_duration_ms": 2.0}
    no_usage = _model_call("u2", "m1", None, None, "run_3")
    half = _model_call("u2", "m1", 300, None, "run_3")
    unpriced = _model_call("u3", "gpt-x", 1000, 100, "run_4")
    no_output = _model_call("u4", "m1", 1200, 0, "run_5")  # a reply cut off before any output: 0 is a reported figure
    cached = _model_call("u4", "m2", 0, 40, "run_5")
    empty = _model_call("u5", "m1", 0, 0, "run_6")  # reported, and free: cost 0.0, not None
    cases = [
        ("两个用户，按用户分别汇总", [u1a, u1b, u2a], prices,
         {"u1": {"calls": 2, "cost": cost("m1", 1000, 100) + cost("m2", 2_000_000, 10), "unknown": 0},
          "u2": {"calls": 1, "cost": cost("m1", 500, 50), "unknown": 0}},
         "费用 = (输入 token × 输入单价 + 输出 token × 输出单价) / 1_000_000，单价是每百万 token 的价格。"),
        ("价格表不同，费用跟着变", [u1a], {"m1": (4.0, 8.0)}, {"u1": {"calls": 1, "cost": (1000 * 4 + 100 * 8) / 1e6, "unknown": 0}},
         "用传入的 prices，不要写死价格。"),
        ("run_end 和 tool_result 行不算", [u1a, tool, end, u2a], prices,
         {"u1": {"calls": 1, "cost": cost("m1", 1000, 100), "unknown": 0}, "u2": {"calls": 1, "cost": cost("m1", 500, 50), "unknown": 0}},
         "只加 event 为 model_call 的行：run_end 行里的 token 已经是整次运行的总数，再加一遍就重复了。"),
        ("没有报告用量的调用单独计数，不算 0", [u2a, no_usage, half], prices,
         {"u2": {"calls": 3, "cost": cost("m1", 500, 50), "unknown": 2}},
         "input_tokens 或 output_tokens 是 None（JSON 里的 null）时：calls 加 1，unknown 加 1，费用不加。"),
        ("价格表里没有的模型也是未知", [unpriced, u1a], prices,
         {"u3": {"calls": 1, "cost": None, "unknown": 1}, "u1": {"calls": 1, "cost": cost("m1", 1000, 100), "unknown": 0}},
         "prices 里没有这个模型时算作未知；一个用户的调用全部未知时，cost 是 None（不知道），不是 0。"),
        ("报告的 0 是已知的用量：0 个输出 token 不是“未知”", [no_output, cached, empty], prices,
         {"u4": {"calls": 2, "cost": cost("m1", 1200, 0) + cost("m2", 0, 40), "unknown": 0},
          "u5": {"calls": 1, "cost": 0.0, "unknown": 0}},
         "后端报告了 0 也是报告了：只有 None 才是未知。用 tokens is None 判断，不要用 not tokens（0 也是假值）；"
         "花了 0 元的用户 cost 是 0.0，不是 None（不要写 cost or None）。"),
        ("价格写成 list 也行", [u1a], {"m1": [2.0, 8.0]}, {"u1": {"calls": 1, "cost": cost("m1", 1000, 100), "unknown": 0}},
         "prices[model] 是 (输入单价, 输出单价)，可能是 tuple 也可能是 list：按下标取，别判断类型。"),
        ("没有任何行", [], prices, {}, "空列表返回空 dict。"),
    ]
    for case, lines, table, expected, hint in cases:
        got = _run(check, case, cost_by_user, lines, table, hint=hint)
        if not isinstance(got, dict):
            raise check.fail(case, expected="一个 dict：{user_id: {\"calls\", \"cost\", \"unknown\"}}", got=f"{type(got).__name__}: {_short(got, 120)}",
                             hint="返回一个 dict，键是 user_id。")
        problem = _cost_difference(got, expected)
        if problem:
            raise check.fail(case, given=[(l.get("event"), l.get("user_id"), l.get("model"), l.get("input_tokens"), l.get("output_tokens")) for l in lines],
                             expected=expected, got=got, hint=f"{problem}。{hint}")
        check.ok(case, "、".join(f"{u}: {v['cost']}" for u, v in expected.items()) or "{}")
    check.done()


def _cost_difference(got: dict[str, Any], expected: dict[str, Any]) -> str | None:
    if sorted(map(str, got)) != sorted(expected):
        return f"用户不对：期望 {sorted(expected)}，得到 {sorted(map(str, got))}"
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
        elif isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isclose(value, want["cost"], rel_tol=1e-9, abs_tol=1e-12):
            return f"{user} 的 cost 应该是 {want['cost']:.9f}，得到 {value!r}"
    return None


__all__ = ["day6_cost_by_user", "day6_redact_line", "day6_slow_tool_calls"]
