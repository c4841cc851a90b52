"""The failure messages say what differs and name the mistake that was made, not another one.

Each case runs one wrong answer from ``tests/data/exercise_mutations/`` and pins words its hint (or
its 期望/实际) must contain and words of a neighbouring mistake's hint it must not — the mistakes
here give the same result on some case, so a fixed hint per case would name the wrong one.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from handwritten_agent.course.exercises import check
from handwritten_agent.course.exercises.check import ExerciseFailed

DATA = Path(__file__).parent / "data" / "exercise_mutations"

# (checker/file, {section: [words it must contain]}, {section: [words it must not contain]})
PINS = [
    (
        "day4_trim/wrong_sums_each_message",
        {"提示": ["逐条消息分别计数", "count_tokens(kept)"]},
        {"提示": ["<="]},
    ),
    ("day4_trim/wrong_off_by_one", {"提示": ["<="]}, {"提示": ["逐条"]}),
    (
        "day4_trim/wrong_error_reports_whole_conversation",
        {"提示": ["整段对话"], "实际": ["tokens=248"], "期望": ["tokens=87"]},
        {},
    ),
    ("day4_trim/wrong_error_reports_the_excess", {"提示": ["超出的部分"]}, {"提示": ["整段对话"]}),
    ("day4_trim/wrong_drops_too_much", {"期望": ["第 2 轮 2/2"], "实际": ["第 2 轮 0/2"]}, {}),
    (
        "day4_split_rounds/wrong_starts_with_an_empty_round",
        {"期望": ["0 轮"], "实际": ["1 轮", "（空）"], "提示": ["[[]]"]},
        {},
    ),
    (
        "day4_search_memories/wrong_like_backslash_not_escaped",
        {"提示": ["转义字符"]},
        {"提示": ["% 要转义（例如"]},
    ),
    (
        "day4_search_memories/wrong_escapes_in_the_wrong_order",
        {"提示": ["顺序却反了"]},
        {"提示": ["% 要转义（例如"]},
    ),
    ("day4_search_memories/wrong_match_limit_before_user", {"提示": ["MATCH 那条语句"]}, {}),
    (
        "day5_mask_personal/wrong_word_boundaries",
        {"提示": ["\\b", "紧挨着汉字"]},
        {"提示": ["不只是第一个", "count=1"]},
    ),
    (
        "day6_eval_case/wrong_time_with_t_and_seconds",
        {"提示": ["2026-03-16T09:00:00", "没有 T"]},
        {"提示": ["booked_by"]},
    ),
    ("day6_eval_case/wrong_attendees_as_text", {"提示": ["整数"]}, {"提示": ["booked_by"]}),
    ("day5_mask_personal/wrong_first_only", {"提示": ["count=1"]}, {"提示": ["\\b"]}),
    ("day5_mask_personal/wrong_no_boundary_after", {"提示": ["(?!\\d)", "14 位"]}, {}),
    (
        "day5_rate_limiter/wrong_shared_class_state",
        {"提示": ["共用"]},
        {"提示": ["另一个工具有自己的计数"]},
    ),
    ("day5_rate_limiter/wrong_real_clock", {"提示": ["self.clock()"]}, {"提示": ["用 >，不是 >="]}),
    (
        "day5_rate_limiter/wrong_window_from_first_call",
        {"提示": ["固定窗口"], "实际": ["True"], "期望": ["False"]},
        {},
    ),
    (
        "day5_decide_all/wrong_resumes_a_finished_run",
        {"提示": ["stop_reason", "final"]},
        {"提示": ["每个 pending"]},
    ),
    ("day5_decide_all/wrong_first_only", {"提示": ["每个 pending"]}, {"提示": ["stop_reason"]}),
    ("day6_redact_line/wrong_key_without_separators", {"提示": ["- 或 _"]}, {"提示": ["所有匹配"]}),
    ("day6_redact_line/wrong_first_key_only", {"提示": ["所有匹配"]}, {"提示": ["- 或 _"]}),
    (
        "day6_redact_line/wrong_key_needs_seventeen",
        {"提示": ["{16,}", "正好 16 个"]},
        {"提示": ["所有匹配"]},
    ),
    (
        "day6_step_tracer/wrong_totals_not_reset",
        {"提示": ["run_start 时把这次运行的合计清零"], "实际": ["1600"], "期望": ["900"]},
        {"提示": ["只让 usage_unknown 加 1"]},
    ),
    (
        "day6_step_tracer/wrong_totals_start_at_zero",
        {"提示": ["至少一次调用报告了用量"], "期望": ["null"]},
        {"提示": ["清零"]},
    ),
    (
        "day6_step_tracer/wrong_zero_for_missing_usage",
        {"提示": ["event.reply.usage 是 None"]},
        {"提示": ["合计", "清零"]},
    ),
    (
        "day6_step_tracer/wrong_write_mode",
        {"提示": ['"w"'], "实际": ["1 行"]},
        {"提示": ["攒在列表里"]},
    ),
    (
        "day6_step_tracer/wrong_only_successful_tools",
        {"提示": ["失败的工具调用也要写一行"], "实际": ["4 行"]},
        {"提示": ["攒在列表里"]},
    ),
    (
        "day6_step_tracer/wrong_buffers_until_the_end",
        {"提示": ["攒在列表里"], "实际": ["运行结束后才写进去"]},
        {"提示": ['"w"']},
    ),
    (
        "day6_step_tracer/wrong_decoded_string_arguments",
        {"提示": ["套了一层"]},
        {"提示": ["要解析成 dict"]},
    ),
    (
        "day6_step_tracer/wrong_arguments_as_text",
        {"提示": ["要解析成 dict"]},
        {"提示": ["套了一层"]},
    ),
    ("day6_cost_by_user/wrong_zero_tokens_unknown", {"提示": ["is None"]}, {}),
    (
        "day7_idempotency_store/wrong_key_order_matters",
        {"提示": ["不是冲突", "字段顺序"]},
        {"提示": ["单独调用你的函数"]},
    ),
    (
        "day7_idempotency_store/wrong_stale_body_conflicts_after_expiry",
        {"提示": ["过期"]},
        {"提示": ["单独调用你的函数"]},
    ),
    (
        "day7_idempotency_store/wrong_own_conflict_class",
        {"实际": ["同名的类"], "提示": ["handwritten_agent.service.store"]},
        {},
    ),
    ("day3_unknown_tool_message/wrong_empty_try_another", {"提示": ["一个工具也没有"]}, {}),
    (
        "day3_unknown_tool_message/wrong_hardcoded_tool_list",
        {"实际": ["get_exchange_rate"], "提示": ["valid_names"]},
        {},
    ),
    ("day2_extract_json/wrong_escaped_quote_ends_string", {"提示": ['\\"']}, {}),
]


def _sections(message: str) -> dict[str, str]:
    found: dict[str, str] = {}
    for label in ("期望", "实际", "提示"):
        start = message.index(f"  {label}：") + len(label) + 3
        ends = [
            message.find(f"\n  {other}：", start)
            for other in ("期望", "实际", "提示")
            if message.find(f"\n  {other}：", start) >= 0
        ]
        found[label] = message[start : min(ends) if ends else len(message)]
    return found


@pytest.mark.parametrize("name, must, must_not", PINS, ids=[pin[0] for pin in PINS])
def test_a_failure_names_its_own_mistake(name, must, must_not, capsys):
    path = DATA / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"pinned_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    with pytest.raises(ExerciseFailed) as failure:
        getattr(check, path.parent.name)(*module.ARGS)
    sections = _sections(str(failure.value))
    for section, words in must.items():
        for word in words:
            assert word in sections[section], f"{section} should contain {word!r}:\n{failure.value}"
    for section, words in must_not.items():
        for word in words:
            assert word not in sections[section], (
                f"{section} should not contain {word!r}:\n{failure.value}"
            )


# (checker/file, words its first line must contain): answers keeping state between calls are told so
STATE = [
    ("day7_percentile/wrong_cache_by_wrong_key", ["还返回了第", "全局变量或按错误的键缓存"]),
    ("day7_percentile/wrong_memo_by_id", ["还返回了第", "全局变量或按错误的键缓存"]),
    (
        "day4_search_memories/wrong_cache_by_user_and_query",
        ["换了输入", "全局变量或按错误的键缓存"],
    ),
    ("day4_search_memories/wrong_memo_by_connection_id", ["换一个数据库", "还返回了第"]),
    ("day3_repeat_guard/wrong_module_counter_never_reset", ["新的对象或资源", "没有清零的计数器"]),
]


@pytest.mark.parametrize("name, words", STATE, ids=[pin[0] for pin in STATE])
def test_state_kept_between_calls_is_named(name, words, capsys):
    path = DATA / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"state_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    with pytest.raises(ExerciseFailed) as failure:
        getattr(check, path.parent.name)(*module.ARGS)
    first_line = str(failure.value).splitlines()[0]
    for word in words:
        assert word in first_line, f"the first line should name the kind {word!r}:\n{failure.value}"


def test_independent_runs_print_nothing_when_right_and_name_the_kind_when_not(capsys):
    from handwritten_agent.course.exercises.check.framework import _Check

    check = _Check("demo")
    check.independent("两次", [("一", lambda: [1], [1]), ("二", lambda: [2], [2])])
    assert capsys.readouterr().out == ""  # a passing check's output stays as it was
    kept: dict[str, int] = {}
    with pytest.raises(ExerciseFailed) as cached:
        check.independent(
            "缓存",
            [
                ("一", lambda: kept.setdefault("v", 1), 1),
                ("二", lambda: kept.setdefault("v", 2), 2),
            ],
        )
    assert "第 2 次调用（换了输入）还返回了第 1 次的结果" in str(cached.value).splitlines()[0]
    count = [0]

    def counted() -> int:
        count[0] += 1
        return count[0]

    with pytest.raises(ExerciseFailed) as counter:
        check.independent("计数", [("新的", counted, 1), ("又一个新的", counted, 1)])
    assert "没有清零的计数器" in str(counter.value).splitlines()[0]


def test_refill_keeps_the_object_and_full_width_covers_printable_ascii():
    from handwritten_agent.course.exercises.check.framework import full_width, refill

    values = [1, 2]
    assert refill(values, [3]) is values and values == [3]
    assert full_width("Ab 1_") == "Ａｂ\u3000１＿"
    assert full_width("北京") == "北京"


def test_near_names_are_parts_supersets_and_other_forms_but_never_the_name():
    from handwritten_agent.course.exercises.check.framework import full_width, near_names

    names = near_names("get_weather")
    assert "get_weather" not in names
    for wanted in ("weather", "get", "reget_weather", "get_weather_all", "GET_WEATHER"):
        assert wanted in names, names
    assert full_width("get_weather") in names
    assert any(re.search(r"[\u4e00-\u9fff]", name) for name in names)
    assert near_names("x") and "x" not in near_names("x")
