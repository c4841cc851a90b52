"""Tests for handwritten_agent.parsing: the corpus of messy replies, each repair, errors, ReAct,
robustness.
"""

from __future__ import annotations

import builtins
import json
import re
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from handwritten_agent import messages, parsing
from handwritten_agent.messages import ToolCall
from handwritten_agent.parsing import (
    REPAIRS,
    ParseError,
    ReActStep,
    extract_json,
    find_json_blocks,
    parse_react,
    parse_tool_call,
    parse_tool_calls,
    repair_json,
    repair_json_steps,
)
from handwritten_agent.parsing.repair import (
    collapse_doubled_braces,
    normalize_fullwidth_punctuation,
    normalize_quotes,
    quote_bare_keys,
    remove_trailing_commas,
    replace_python_literals,
    strip_comments,
)

CORPUS = json.loads(
    (Path(__file__).parent / "data" / "parser_corpus.json").read_text(encoding="utf-8")
)
ERROR_PREFIX = "你上次返回的工具参数无法解析："


def _as_dicts(calls: list[ToolCall]) -> list[dict]:
    return [{"name": call.name, "arguments": call.args} for call in calls]


# ---------------------------------------------------------------------------------------------
# The corpus
# ---------------------------------------------------------------------------------------------


def test_corpus_is_large_and_varied():
    assert len(CORPUS) >= 40
    expectations = [entry["expect"] for entry in CORPUS]
    assert sum(isinstance(e, dict) for e in expectations) >= 30
    assert sum(e == "error" for e in expectations) >= 8
    assert sum(e is None for e in expectations) >= 6
    assert any(
        any("\u4e00" <= ch <= "\u9fff" for ch in entry["text"]) for entry in CORPUS
    )  # Chinese
    assert len({entry["id"] for entry in CORPUS}) == len(CORPUS)


@pytest.mark.parametrize("entry", CORPUS, ids=[entry["id"] for entry in CORPUS])
def test_corpus_parse_tool_call(entry):
    result = parse_tool_call(entry["text"])
    expected = entry["expect"]
    if expected is None:
        assert result is None, f"{entry['note']}: expected no call, got {result!r}"
    elif expected == "error":
        assert isinstance(result, ParseError), (
            f"{entry['note']}: expected a ParseError, got {result!r}"
        )
        assert result.message.startswith(ERROR_PREFIX)
        assert result.raw == entry["text"]
    else:
        assert isinstance(result, ToolCall), f"{entry['note']}: expected a call, got {result!r}"
        assert {"name": result.name, "arguments": result.args} == expected


@pytest.mark.parametrize("entry", CORPUS, ids=[entry["id"] for entry in CORPUS])
def test_corpus_parse_tool_calls(entry):
    result = parse_tool_calls(entry["text"])
    expected = entry.get("expect_all", entry["expect"])
    if expected is None:
        assert result == []
    elif expected == "error":
        assert isinstance(result, ParseError)
    elif isinstance(expected, dict):
        assert isinstance(result, list) and _as_dicts(result) == [expected]
    else:
        assert isinstance(result, list) and _as_dicts(result) == expected


def test_parsing_never_calls_eval_or_exec(monkeypatch):
    def forbidden(*args, **kwargs):
        raise AssertionError("the parser must never evaluate model output")

    monkeypatch.setattr(builtins, "eval", forbidden)
    monkeypatch.setattr(builtins, "exec", forbidden)
    import ast

    monkeypatch.setattr(ast, "literal_eval", forbidden)
    for entry in CORPUS:
        parse_tool_call(entry["text"])
        parse_tool_calls(entry["text"])
    hostile = (
        "{'name': 'calculate', 'arguments': {'expression': __import__('os').system('echo pwned')}}"
    )
    assert isinstance(parse_tool_call(hostile), ParseError)


# ---------------------------------------------------------------------------------------------
# Step 1: finding blocks
# ---------------------------------------------------------------------------------------------


def test_find_json_blocks_top_level_only_and_positions():
    text = 'a {"x": {"y": 1}} b [1, 2] c'
    blocks = find_json_blocks(text)
    assert [(b.text, b.closed) for b in blocks] == [('{"x": {"y": 1}}', True), ("[1, 2]", True)]
    assert text[blocks[0].start : blocks[0].end] == blocks[0].text


def test_find_json_blocks_ignores_brackets_in_strings_and_quotes_in_prose():
    text = 'He said "hi" and it\'s 5" wide: {"t": "a } b", "u": "\\" }"}'
    blocks = find_json_blocks(text)
    assert len(blocks) == 1 and blocks[0].closed
    assert json.loads(blocks[0].text) == {"t": "a } b", "u": '" }'}


def test_find_json_blocks_reports_unclosed_and_keeps_complete_blocks_inside():
    blocks = find_json_blocks('用 { 开头：{"a": 1}')
    assert [(b.text, b.closed) for b in blocks] == [('{ 开头：{"a": 1}', False), ('{"a": 1}', True)]


def test_find_json_blocks_fullwidth_brackets():
    blocks = find_json_blocks("｛“a”：［1，2］｝")
    assert [b.text for b in blocks] == ["｛“a”：［1，2］｝"]


# ---------------------------------------------------------------------------------------------
# Step 2: each repair on its own
# ---------------------------------------------------------------------------------------------


def test_strip_comments():
    text = '{\n  // the user\'s "city"\n  "url": "http://a.b/#x", /* note */ "n": 1 # py\n}'
    assert json.loads(strip_comments(text)) == {"url": "http://a.b/#x", "n": 1}
    assert strip_comments('{"a": "// not a comment"}') == '{"a": "// not a comment"}'


def test_normalize_quotes_single_and_curly():
    assert normalize_quotes("{'a': 'b'}") == '{"a": "b"}'
    assert normalize_quotes("｛“城市”：“北京”｝") == '｛"城市"："北京"｝'
    assert normalize_quotes("{‘a’: ‘b’}") == '{"a": "b"}'


def test_normalize_quotes_keeps_apostrophes_and_escapes_inner_double_quotes():
    assert json.loads(normalize_quotes("{'t': 'it's 3 o'clock'}")) == {"t": "it's 3 o'clock"}
    assert json.loads(normalize_quotes("{'t': 'say \"hi\"'}")) == {"t": 'say "hi"'}
    assert json.loads(normalize_quotes("{'t': 'it\\'s'}")) == {"t": "it's"}
    assert json.loads(normalize_quotes('{"t": "它说“好”", \'u\': 1}')) == {"t": "它说“好”", "u": 1}


def test_normalize_fullwidth_punctuation_only_outside_strings():
    text = '｛"city"："北京，晴：25℃"，"list"：［1，2］｝'
    assert normalize_fullwidth_punctuation(text) == '{"city":"北京，晴：25℃","list":[1,2]}'


def test_quote_bare_keys():
    assert quote_bare_keys('{city: "北京", max_results: 3}') == '{"city": "北京", "max_results": 3}'
    assert quote_bare_keys('{"t": "{a: 1}"}') == '{"t": "{a: 1}"}'


def test_replace_python_literals():
    assert (
        replace_python_literals('{"a": True, "b": False, "c": None}')
        == '{"a": true, "b": false, "c": null}'
    )
    assert (
        replace_python_literals('{"t": "True story, None left"}')
        == '{"t": "True story, None left"}'
    )
    assert replace_python_literals('{"Nonexistent": 1}') == '{"Nonexistent": 1}'


def test_remove_trailing_commas():
    assert (
        remove_trailing_commas('{"a": [1, 2,], "b": {"c": 1, },}')
        == '{"a": [1, 2], "b": {"c": 1 }}'
    )
    assert remove_trailing_commas('{"t": "a,}"}') == '{"t": "a,}"}'


def test_repair_json_applies_every_step_in_order():
    messy = "｛'name'：'calc'，// why\n 'arguments'：{expression: '1+1', exact: True,},｝"
    steps = repair_json_steps(messy)
    assert [name for name, _ in steps] == [repair.__name__ for repair in REPAIRS]
    assert steps[-1][1] == repair_json(messy)
    assert json.loads(repair_json(messy)) == {
        "name": "calc",
        "arguments": {"expression": "1+1", "exact": True},
    }
    for repair in REPAIRS:
        assert repair.__doc__, f"{repair.__name__} needs a docstring for the notebook"


def test_repair_leaves_valid_json_unchanged():
    valid = json.dumps(
        {"name": "x", "arguments": {"t": "北京，晴：“好” it's True, None // # /*"}},
        ensure_ascii=False,
    )
    assert repair_json(valid) == valid


def test_repair_does_not_close_truncated_json():
    with pytest.raises(json.JSONDecodeError):
        json.loads(repair_json('{"name": "calc", "arguments": {"expression": "1+'))


# ---------------------------------------------------------------------------------------------
# extract_json
# ---------------------------------------------------------------------------------------------


def test_extract_json_finds_first_value():
    assert extract_json('结果：```json\n[1, 2, {"a": True,}]\n```') == [1, 2, {"a": True}]
    assert extract_json("  42 ") == 42
    assert extract_json("'abc'") == "abc"


def test_extract_json_errors_are_clear():
    with pytest.raises(ValueError, match="没有找到 JSON 对象或数组"):
        extract_json("你好，世界")
    with pytest.raises(ValueError, match="一直没有闭合"):
        extract_json('{"a": [1, 2')
    with pytest.raises(ValueError, match="修补后仍然无法解析"):
        extract_json('{"a" "b"}')


# ---------------------------------------------------------------------------------------------
# Reading the call; ParseError wording
# ---------------------------------------------------------------------------------------------


def test_parse_error_message_is_for_the_model_and_detail_for_logs():
    error = parse_tool_call('{"name": "calculate", "arguments": {"expression": "1+')
    assert isinstance(error, ParseError)
    assert error.message.startswith(ERROR_PREFIX)
    assert "不完整" in error.message
    assert error.message.endswith(
        '请只输出一个合法的 JSON 对象，例如 {"name": "工具名", "arguments": {…}}'
    )
    assert "没有闭合" in error.detail and error.detail != error.message
    assert error.raw.endswith('"1+')


@pytest.mark.parametrize(
    "prefix", ["", "好的，我来调用：", "<think>先想一想 {草稿</think>\n", "说明 {不是 JSON} 之后："]
)
@pytest.mark.parametrize(
    "broken",
    [
        '{"name": "calc", "arguments": {"x": 1',
        '{"name": "calc" "arguments": {}}',
        '{"arguments": {"a": 1}}',
    ],
)
def test_parse_error_detail_says_where_the_broken_block_starts(prefix, broken):
    text = prefix + broken
    error = parse_tool_call(text)
    assert isinstance(error, ParseError), error
    found = re.search(r"第 (\d+) 个字符开始（回复共 (\d+) 个字符）", error.detail)
    assert found, error.detail
    start, length = int(found[1]), int(found[2])
    assert length == len(text) and text[start - 1 :].startswith(broken), (start, text)
    assert (
        "个字符开始" not in error.message
    )  # where the block starts is for the log; the model gets the reason


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ('{"name": "calc" "arguments": {}}', "缺少逗号"),
        ('{"arguments": {"a": 1}}', "缺少工具名"),
        ('{"name": "calc", "arguments": [1]}', "不是数组"),
        ('{"name": "calc", "arguments": "not json"}', "arguments 是一个字符串"),
        ('{"name": "calc", "arguments": "[1, 2]"}', "解码后是数组"),
        ('{"name": "  ", "arguments": {}}', "缺少工具名"),
        ('{"name": "f", "arguments": {"x": NaN}}', "NaN"),
    ],
)
def test_parse_error_reasons(text, reason):
    error = parse_tool_call(text)
    assert isinstance(error, ParseError)
    assert reason in error.message


def test_key_variants_for_name_and_arguments():
    for name_key in parsing.NAME_KEYS:
        for argument_key in parsing.ARGUMENT_KEYS:
            text = json.dumps({name_key: "f", argument_key: {"x": 1}})
            assert parse_tool_call(text) == ToolCall.from_arguments("f", {"x": 1}), text


def test_tool_call_with_id_gives_the_wire_type():
    call = ToolCall.from_arguments("get_weather", {"city": "北京"})
    wire = call.with_id("call_7")
    assert isinstance(wire, messages.ToolCall)
    assert (wire.id, wire.name, wire.arguments) == ("call_7", "get_weather", '{"city": "北京"}')
    assert wire.args == call.args


def test_parse_tool_call_rejects_non_text():
    with pytest.raises(TypeError, match="str"):
        parse_tool_call(None)  # type: ignore[arg-type]


def test_reasoning_section_is_skipped_but_think_inside_a_value_is_kept():
    assert parse_tool_call(
        '<think>draft: {"name": "wrong"}</think>{"name": "right", "arguments": {}}'
    ) == ToolCall.from_arguments("right", {})
    assert parse_tool_call(
        '{"name": "echo", "arguments": {"text": "<think> and </think>"}}'
    ) == ToolCall.from_arguments("echo", {"text": "<think> and </think>"})


# ---------------------------------------------------------------------------------------------
# ReAct
# ---------------------------------------------------------------------------------------------


def test_parse_react_action():
    step = parse_react(
        'Thought: 需要先查汇率\nAction: get_exchange_rate\nAction Input: {"base": "USD", "target":'
        ' "CNY"}'
    )
    assert step == ReActStep(
        thought="需要先查汇率",
        action="get_exchange_rate",
        action_input={"base": "USD", "target": "CNY"},
    )
    assert step.tool_call == ToolCall.from_arguments(
        "get_exchange_rate", {"base": "USD", "target": "CNY"}
    )


def test_parse_react_final_answer_spans_lines():
    step = parse_react("Thought: 可以回答了\nFinal Answer: 第一行\n第二行")
    assert step == ReActStep(thought="可以回答了", final_answer="第一行\n第二行")
    assert step.tool_call is None


def test_parse_react_cuts_at_invented_observation():
    step = parse_react(
        "Thought: t\nAction: clock\nAction Input: {}\nObservation: 10:00\nFinal Answer: 10 点"
    )
    assert step.action == "clock" and step.action_input == {} and step.final_answer is None


def test_parse_react_multiline_input_and_variants():
    text = "思考：查天气\n行动：`get_weather`\n行动输入：\n{\n  'city': '北京',\n}\n"
    assert parse_react(text) == ReActStep(
        thought="查天气", action="get_weather", action_input={"city": "北京"}
    )
    inline = parse_react('Action: calculate {"expression": "1+2"}')
    assert (inline.action, inline.action_input) == ("calculate", {"expression": "1+2"})
    missing = parse_react("Thought: now\nAction: get_current_time")
    assert (missing.action, missing.action_input) == ("get_current_time", {})


def test_parse_react_action_none_is_not_a_call():
    step = parse_react("Thought: 不需要工具\nAction: None\nFinal Answer: 你好！")
    assert step == ReActStep(thought="不需要工具", final_answer="你好！")
    assert parse_tool_call("Thought: 不需要工具\nAction: None\nFinal Answer: 你好！") is None


def test_parse_react_error_keeps_the_whole_raw_text():
    text = "<think>想一想</think>\nAction: get_weather\nAction Input: [1]"
    error = parse_tool_call(text)
    assert isinstance(error, ParseError) and error.raw == text


def test_parse_react_without_labels_is_neither_call_nor_answer():
    step = parse_react("我在想……")
    assert step == ReActStep(thought="我在想……")


def test_parse_react_errors_speak_about_action_input():
    error = parse_react('Thought: x\nAction: get_weather\nAction Input: {"city": ')
    assert isinstance(error, ParseError)
    assert error.message.startswith(ERROR_PREFIX) and "Action Input" in error.message
    not_object = parse_react("Action: calc\nAction Input: [1, 2]")
    assert isinstance(not_object, ParseError) and "JSON 对象" in not_object.message
    no_name = parse_react("Action: \nAction Input: {}")
    assert isinstance(no_name, ParseError) and "工具名" in no_name.message


# ---------------------------------------------------------------------------------------------
# Robustness: arbitrary text never raises, and stays fast
# ---------------------------------------------------------------------------------------------

JSONISH = st.text(
    alphabet=st.sampled_from(
        list("{}[]\"'“”‘’：，:,\\/#*\n abcxyz01.-TrueFalsNonmegrustAcio<>_中")
    ),
    max_size=300,
)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=300), JSONISH))
def test_parse_tool_call_never_raises(text):
    result = parse_tool_call(text)
    assert result is None or isinstance(result, (ToolCall, ParseError))
    if isinstance(result, ToolCall):
        assert isinstance(result.name, str) and result.name and isinstance(result.args, dict)
    calls = parse_tool_calls(text)
    assert isinstance(calls, (list, ParseError))
    assert isinstance(repair_json(text), str)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**6), 10**6) | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)
NAMES = st.from_regex(r"[a-z][a-z_]{0,15}", fullmatch=True)


@settings(max_examples=100, deadline=None)
@given(NAMES, st.dictionaries(st.text(max_size=8), JSON_VALUES, max_size=4), st.booleans())
def test_any_json_call_round_trips_even_with_prose_around(name, arguments, ascii_only):
    payload = json.dumps({"name": name, "arguments": arguments}, ensure_ascii=ascii_only)
    assert parse_tool_call(payload) == ToolCall.from_arguments(name, arguments)
    assert parse_tool_call(
        f"好的，我来调用工具。\n```json\n{payload}\n```\n请稍等。"
    ) == ToolCall.from_arguments(name, arguments)


@settings(max_examples=100, deadline=None)
@given(NAMES, st.dictionaries(st.text(max_size=8), JSON_VALUES, max_size=4))
def test_fullwidth_structure_round_trips_and_values_survive(name, arguments):
    """Full-width ， and ： between members (as a Chinese keyboard types them) and ｛｝ around the
    object.
    """
    payload = json.dumps(
        {"name": name, "arguments": arguments}, ensure_ascii=False, separators=("，", "：")
    )
    payload = "｛" + payload[1:-1] + "｝"
    assert parse_tool_call(payload) == ToolCall.from_arguments(name, arguments)


PRINTABLE = st.text(
    alphabet=st.characters().filter(str.isprintable), max_size=12
)  # repr() escapes the rest
PY_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**6), 10**6) | PRINTABLE,
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(PRINTABLE, children, max_size=3)
    ),
    max_leaves=10,
)


@settings(max_examples=100, deadline=None)
@given(NAMES, st.dictionaries(PRINTABLE, PY_VALUES, max_size=4))
def test_python_repr_of_a_call_round_trips(name, arguments):
    """A Python dict printed with repr() (single quotes, True, None) is read back exactly."""
    text = repr({"name": name, "arguments": arguments})
    assert parse_tool_call(text) == ToolCall.from_arguments(name, arguments)


LONG_INPUTS = {
    "open_braces": "{" * 100_000,
    "deep_nesting": "[" * 50_000 + "]" * 50_000,
    "double_quotes": '"' * 100_000,
    "single_quoted_apostrophes": "{'a': '" + "x'" * 50_000,
    "many_small_objects": '{"a":1}' * 14_000,
    "many_calls": '{"name":"a","arguments":{}}' * 3_700,
    "backslashes": '{"a": "' + "\\" * 100_000,
    "curly_quotes": "｛“a”：“" + "”，" * 50_000,
    "react_input": "Action: x\nAction Input: " + "{" * 100_000,
    "huge_string_value": '{"name": "a", "arguments": {"t": "' + "中" * 100_000 + '"}}',
    "prose": "这是一段很长的回答。" * 10_000,
}


@pytest.mark.parametrize("text", LONG_INPUTS.values(), ids=LONG_INPUTS.keys())
def test_long_inputs_are_fast(text):
    assert len(text) >= 70_000
    started = time.process_time()  # CPU time: other processes on the machine do not count
    parse_tool_call(text)
    parse_tool_calls(text)
    elapsed = time.process_time() - started
    assert elapsed < 1.0, f"parsing {len(text)} characters twice took {elapsed:.2f}s of CPU time"


def test_many_calls_are_bounded():
    calls = parse_tool_calls('{"name":"a","arguments":{}}' * 500)
    assert isinstance(calls, list) and len(calls) == parsing.MAX_BLOCKS


def test_react_action_input_double_encoded_as_a_json_string_is_decoded():
    text = 'Thought: 需要计算\nAction: calculator\nAction Input: "{\\"expression\\": \\"17 * 9\\"}"'
    assert parse_tool_call(text) == ToolCall.from_arguments("calculator", {"expression": "17 * 9"})


def test_doubled_braces_copied_from_a_template_are_collapsed():
    text = (
        '<tool_call>\n{{"name": "calculator", "arguments": {{"expression": "17*9"}}}}\n</tool_call>'
    )
    assert parse_tool_call(text) == ToolCall.from_arguments("calculator", {"expression": "17*9"})
    outer_only = '{{"name": "calculator", "arguments": {"expression": "17*9"}}}'
    assert parse_tool_call(outer_only) == ToolCall.from_arguments(
        "calculator", {"expression": "17*9"}
    )
    # ordinary nested JSON that merely ends in }} is left alone
    assert collapse_doubled_braces('{"a": {"b": 1}}') == '{"a": {"b": 1}}'


def test_nesting_bound_is_the_same_on_every_python():
    # json's own limit follows the recursion limit (about 1,000 levels on 3.11, over 5,000 on 3.13)
    deepest_allowed = "[" * parsing.MAX_DEPTH + "]" * parsing.MAX_DEPTH
    assert parsing.extract_json(deepest_allowed) is not None
    with pytest.raises(ValueError, match="嵌套层数太多"):
        parsing.extract_json("[" * (parsing.MAX_DEPTH + 1) + "]" * (parsing.MAX_DEPTH + 1))
    brackets_in_a_string = '{"a": "' + "[" * 5000 + '"}'
    assert parsing.extract_json(brackets_in_a_string) == {"a": "[" * 5000}
