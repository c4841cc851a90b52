"""The Days 4–7 transcript script, run on the offline simulator: the files have what the notebooks
read.

The notebooks read ``notebooks/data/dayN_local_transcript.json`` (captured on the local model); this
runs the same script on the simulator into a temporary folder, so a change in the package that
breaks the capture (or the record's shape) is found without a model. Left out: the local model
itself (``make live``).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

import capture_office_transcripts as capture  # noqa: E402


@pytest.fixture(scope="module")
def captured(tmp_path_factory) -> dict[int, dict]:
    out = tmp_path_factory.mktemp("transcripts")
    assert capture.main(["--backend", "offline", "--out", str(out)]) == 0
    return {
        day: json.loads((out / f"day{day}_local_transcript.json").read_text(encoding="utf-8"))
        for day in (4, 5, 6, 7)
    }


def test_every_file_says_where_and_when(captured):
    for data in captured.values():
        assert {
            "model",
            "runtime",
            "machine",
            "clock",
            "captured_at",
            "load_at_start",
            "load_at_end",
            "runs",
        } <= set(data)
        for run in data["runs"]:
            assert {
                "question",
                "stop_reason",
                "answer",
                "seconds",
                "steps",
                "tool_calls",
                "decisions",
            } <= set(run)
            assert all(
                {"index", "model_ms", "prompt_tokens", "completion_tokens"} <= set(step)
                for step in run["steps"]
            )


def test_day4_is_one_conversation(captured):
    runs = captured[4]["runs"]
    assert [run["question"] for run in runs] == capture.DAY4_QUESTIONS
    assert (
        "306" in runs[-1]["answer"]
    )  # the simulator doubles the earlier 153: the history was sent


def test_office_runs_are_decided_and_the_database_follows(captured):
    for day in (5, 6, 7):
        query, booking, bulk, *rest = captured[day]["runs"]
        assert not query["decisions"] and query["database"]["bookings"] == 1
        assert [(d["tool"], d["decision"], d["by"]) for d in booking["decisions"]] == [
            ("book_meeting_room", "approve", "张明")
        ]
        assert booking["stop_reason"] == "final" and booking["database"]["bookings"] == 2
        assert [(d["level"], d["decision"], d["by"]) for d in bulk["decisions"]] == [
            ("L3", "reject", "李丽")
        ]
        assert bulk["database"]["sms_outbox"] == 0 and not any(
            c["executed"] for c in bulk["tool_calls"]
        )
    email = captured[7]["runs"][3]
    assert [(d["level"], d["by"]) for d in email["decisions"]] == [("L3", "李丽")] and email[
        "database"
    ]["email_outbox"] == 1


def test_day6_keeps_the_trace_to_diagnose(captured):
    from handwritten_agent.tracing import diagnose

    trace = captured[6]["trace"]
    assert {line["request_id"] for line in trace} == {"run_day6_01", "run_day6_02", "run_day6_03"}
    missing = diagnose(
        trace,
        expect_tools={
            "run_day6_01": [
                "query_room_availability",
                "query_customer_info",
                "send_sms_to_customers",
            ]
        },
    )
    assert any(
        f.rule == "no_tool_call" and "send_sms_to_customers" in f.detail for f in missing
    )  # a tool it did not call is found
