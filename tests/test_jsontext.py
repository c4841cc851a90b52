"""describe_json_error: what the Chinese reason can know from the message alone, and what it knows
from the error's text and position."""

from __future__ import annotations

import json

import pytest

from handwritten_agent.jsontext import describe_json_error


def _error(text: str) -> json.JSONDecodeError:
    with pytest.raises(json.JSONDecodeError) as info:
        json.loads(text)
    return info.value


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ('{"a": 1 "b": 2}', "缺少逗号或右花括号"),
        ("[1 2]", "缺少逗号或右方括号"),
        ('{"a": [1, 2}', "缺少逗号或右方括号"),
        ('[{"a": 1 "b": 2}]', "缺少逗号或右花括号"),
        # brackets and quotes inside strings are text, not structure
        ('{"s": "x}\\"[", "b": 1 "c": 2}', "缺少逗号或右花括号"),
        ('{"expression": "17 * 9"', "缺少逗号或右花括号，文字到这里就结束了"),
        ("[1, 2", "缺少逗号或右方括号，文字到这里就结束了"),
        ('{"a": 1,}', "最后一项后面多了一个逗号"),
        ("[1, 2, ]", "最后一项后面多了一个逗号"),
        ('{"a": 1,\n}\n', "最后一项后面多了一个逗号"),
        ("", "文字是空的，没有 JSON"),
        ("{'a': 1}", "键名必须用双引号括起来"),
        ('{"a" 1}', "缺少冒号"),
        ('{"a": 1} x', "JSON 后面还有多余的内容"),
        ("[1, , 2]", "缺少值或出现了非法的值"),
    ],
)
def test_reason_from_the_error_reads_its_position(text: str, reason: str) -> None:
    assert describe_json_error(_error(text)) == reason


def test_reason_from_the_message_alone_names_both_brackets() -> None:
    # The message is the same in an object and in an array: it cannot say which bracket.
    messages = {_error('{"a": 1 "b": 2}').msg, _error("[1 2]").msg}
    assert len(messages) == 1
    assert describe_json_error(messages.pop()) == "缺少逗号、} 或 ]"


def test_text_containing_a_message_and_unknown_messages() -> None:
    assert describe_json_error("Expecting ':' delimiter: line 1 column 5 (char 4)") == "缺少冒号"
    assert describe_json_error("something else entirely") == "不是合法的 JSON"
