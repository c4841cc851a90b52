"""trimmed_source: a function's real source with named statements replaced by one line."""

from __future__ import annotations

import ast

import pytest

from handwritten_agent.agent import Agent
from handwritten_agent.course.source import trimmed_source


def sample(items: list[int]) -> int:
    total = 0
    # resuming: only a later day needs this
    if not items:
        items = [0]
        total -= 1
    for item in items:
        try:
            total += item
        except TypeError as exc:
            print(exc)
            raise
    return total


def test_a_left_out_statement_becomes_one_line_with_its_comment() -> None:
    text = trimmed_source(sample, {"if not items:": "以后再读"})
    assert "    ...  # 以后再读" in text.splitlines()
    assert "items = [0]" not in text and "resuming" not in text
    assert "for item in items:" in text
    ast.parse(text)


def test_an_except_keeps_its_header_and_loses_its_body() -> None:
    text = trimmed_source(sample, {"except TypeError": "出错时"})
    lines = text.splitlines()
    header = lines.index("        except TypeError as exc:")
    assert lines[header + 1] == "            ...  # 出错时"
    assert "print(exc)" not in text
    ast.parse(text)


def test_neighbouring_placeholders_with_one_label_are_one_line() -> None:
    text = trimmed_source(sample, {"items = [0]": "略", "total -= 1": "略"})
    assert text.count("...  # 略") == 1


def test_a_key_that_matches_nothing_is_an_error() -> None:
    with pytest.raises(ValueError, match="没有以这些文字开头的语句"):
        trimmed_source(sample, {"while True:": "略"})


def test_day3s_loop_without_the_later_days_parts_still_parses() -> None:
    text = trimmed_source(
        Agent._loop, {"if run.paused:": "Day 5", "note = self.hooks.review_answer(": "Day 6"}
    )
    assert "run.paused" not in text and "review_answer" not in text
    assert "self._call_model(" in text and "_unusable(" in text
    ast.parse(text)
