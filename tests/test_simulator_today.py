"""The simulator reads "今天是 …" / "Today is …" in system or developer messages as its reference
date, like a model would.
"""

from __future__ import annotations

import json
from datetime import datetime

import openai
import pytest

from handwritten_agent.course.offline import serve
from handwritten_agent.course.offline.simulator.today import stated_now

CLOCK = datetime(2020, 1, 6, 9, 5)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("今天是 2026-03-12（星期四），现在是 14:30。", datetime(2026, 3, 12, 14, 30)),
        ("今天是2026年3月12日 14:30", datetime(2026, 3, 12, 14, 30)),
        ("当前日期：2025/12/31", datetime(2025, 12, 31, 9, 5)),
        ("Today is 2026-03-12.", datetime(2026, 3, 12, 9, 5)),
        (
            "You are helpful. Today's date is Thursday, March 12, 2026, 14:30.",
            datetime(2026, 3, 12, 14, 30),
        ),
        ("The current date is February 29, 2024", datetime(2024, 2, 29, 9, 5)),
    ],
)
def test_a_stated_date_sets_today(text, expected):
    assert stated_now([{"role": "system", "content": text}], CLOCK) == expected
    assert (
        stated_now([{"role": "developer", "content": [{"type": "text", "text": text}]}], CLOCK)
        == expected
    )


@pytest.mark.parametrize(
    "messages",
    [
        [{"role": "user", "content": "今天是 2026-03-12"}],  # a user talking, not a configuration
        [{"role": "system", "content": "今天是 2026-02-30"}],  # no such day
        [{"role": "system", "content": "今天天气不错，2026-03-12 有雨"}],  # a date, but not today's
        [{"role": "system", "content": "你是助手。"}],
        [],
    ],
)
def test_anything_else_keeps_the_clock(messages):
    assert stated_now(messages, CLOCK) == CLOCK


def test_the_latest_statement_wins():
    messages = [
        {"role": "system", "content": "今天是 2026-03-12"},
        {"role": "user", "content": "hi"},
        {"role": "system", "content": "Today is 2027-01-05"},
    ]
    assert stated_now(messages, CLOCK).date() == datetime(2027, 1, 5).date()


def test_the_server_resolves_tomorrow_against_the_stated_date():
    tool = {
        "type": "function",
        "function": {
            "name": "query_room_availability",
            "description": "查询空闲会议室",
            "parameters": {
                "type": "object",
                "required": ["start_time", "end_time"],
                "properties": {
                    "start_time": {
                        "type": "string",
                        "description": "开始时间，格式 YYYY-MM-DD HH:MM，例如：2026-03-13 15:00",
                    },
                    "end_time": {
                        "type": "string",
                        "description": "结束时间，格式 YYYY-MM-DD HH:MM，例如：2026-03-13 16:00",
                    },
                },
            },
        },
    }
    ask = {"role": "user", "content": "明天下午 3 点到 4 点有哪些会议室空着？"}
    with serve(now=CLOCK) as server:
        client = openai.OpenAI(base_url=server.base_url, api_key="x", max_retries=0)
        stated = client.chat.completions.create(
            model="course-sim",
            tools=[tool],
            messages=[
                {"role": "system", "content": "今天是 2026-03-12（星期四），现在是 14:30。"},
                ask,
            ],
        )
        unstated = client.chat.completions.create(model="course-sim", tools=[tool], messages=[ask])
    arguments = json.loads(stated.choices[0].message.tool_calls[0].function.arguments)
    assert arguments == {"start_time": "2026-03-13 15:00", "end_time": "2026-03-13 16:00"}
    assert (
        json.loads(unstated.choices[0].message.tool_calls[0].function.arguments)["start_time"]
        == "2020-01-07 15:00"
    )
