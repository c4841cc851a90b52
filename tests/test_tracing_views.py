"""Looking at a trace: the table of steps, the timeline picture, the self-contained HTML page, the
trace CLI.
"""

from __future__ import annotations

import re
import subprocess
import sys
from datetime import datetime
from pathlib import Path

from handwritten_agent.agent import Agent
from handwritten_agent.scenarios import basic_registry
from handwritten_agent.scripted import ScriptedClient, call, calls, reply
from handwritten_agent.text import display_width
from handwritten_agent.tracing import Redactor, Tracer, format_steps, read_trace, steps_table
from handwritten_agent.tracing.html import to_html
from handwritten_agent.tracing.spans import intervals

NOW = datetime(2026, 3, 12, 14, 30)
ROOT = Path(__file__).resolve().parents[1]


def sample(tmp_path) -> Path:
    path = tmp_path / "t.jsonl"
    tracer = Tracer(path, redactor=Redactor(environment=False), user_id="u_9")
    script = [
        calls(
            call("calculator", {"expression": "1/0"}, id="c1"),
            call("get_weather", {"city": "北京"}, id="c2"),
        ),
        reply("<b>完成</b>"),
    ]
    Agent(ScriptedClient(script), basic_registry(NOW), hooks=[tracer]).run(
        "算一下 1/0，再查北京天气"
    )
    tracer.close()
    return path


def test_table_has_a_row_per_model_call_tool_result_and_ending(tmp_path):
    rows = steps_table(sample(tmp_path))
    assert [r["类型"] for r in rows] == ["模型", "工具", "工具", "模型", "结束"]
    assert rows[1]["状态"] == "失败" and rows[2]["状态"] == "成功" and rows[-1]["状态"] == "成功"
    assert rows[0]["tokens 入/出"] == "0/0"
    text = format_steps(sample(tmp_path / "b"))
    lines = text.splitlines()
    assert lines[0].startswith("运行 run_") and "用户 u_9" in lines[0]
    header, rule = lines[1], lines[2]
    assert display_width(header.split("  ")[0]) == len(
        rule.split("  ")[0]
    )  # columns line up with wide characters


def test_intervals_and_the_timeline_picture(tmp_path):
    import matplotlib

    matplotlib.use("Agg")
    run = read_trace(sample(tmp_path)).run()
    bars = intervals(run)
    assert [b.kind for b in bars] == ["model", "tool", "tool", "model"]
    assert all(b.end_ms >= b.start_ms >= 0 for b in bars) and bars[1].status == "error"
    from handwritten_agent.tracing.timeline import save_timeline, timeline

    figure = timeline(run)
    labels = [t.get_text() for t in figure.axes[0].get_yticklabels()]
    assert labels == ["模型", "calculator", "get_weather"]
    out = save_timeline(run, str(tmp_path / "t.png"))
    assert Path(out).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_html_page_is_self_contained_and_escapes_the_trace(tmp_path):
    page = to_html(sample(tmp_path))
    assert (
        page.startswith("<!DOCTYPE html>")
        and "<svg" in page
        and "诊断" in page
        and "工具报错" in page
    )
    assert not re.search(r"<script|<link|<img|src=|href=|url\(|@import|https?://", page)
    assert "<b>完成</b>" not in page and "&lt;b&gt;完成&lt;/b&gt;" in page


def test_trace_cli_show_html_and_diagnose(tmp_path):
    path = sample(tmp_path)
    run = lambda *args: subprocess.run(
        [sys.executable, "-m", "handwritten_agent", "trace", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    shown = run("show", str(path))
    assert (
        shown.returncode == 0
        and "calculator" in shown.stdout
        and "工具报错，但回答没有提到" in shown.stdout
    )
    made = run("html", str(path), "-o", str(tmp_path / "page.html"))
    assert made.returncode == 0 and (tmp_path / "page.html").read_text(encoding="utf-8").startswith(
        "<!DOCTYPE html>"
    )
    assert run("diagnose", str(path)).returncode == 1
    missing = run("show", str(tmp_path / "nope.jsonl"))
    assert missing.returncode == 2 and "找不到" in missing.stderr
    with path.open("a", encoding="utf-8") as handle:
        handle.write('{"cut')
    partial = run("show", str(path))
    assert partial.returncode == 0 and "不完整" in partial.stderr


def test_chinese_labels_draw_without_warnings_when_a_cjk_font_is_installed(recwarn):
    import matplotlib

    matplotlib.use("agg")
    import matplotlib.pyplot as plt

    from handwritten_agent.plotting import use_chinese_font

    chosen = use_chinese_font()
    figure, ax = plt.subplots()
    ax.set_title("模型调用与工具调用的时间线")
    figure.canvas.draw()
    plt.close(figure)
    assert not [
        w for w in recwarn if "missing from font" in str(w.message)
    ]  # silenced, with or without a CJK font
    if chosen is not None:
        assert matplotlib.rcParams["font.sans-serif"][0] == chosen


def test_the_timeline_and_the_page_explain_every_colour_they_use(tmp_path):
    import matplotlib

    matplotlib.use("Agg")
    from handwritten_agent.tracing.timeline import LEGEND, timeline

    run = read_trace(sample(tmp_path)).run()  # a model, a failing tool and a working one, an end
    figure = timeline(run)
    legend = figure.axes[0].get_legend()
    labels = [text.get_text() for text in legend.get_texts()]
    assert labels == [
        LEGEND["model"][1],
        LEGEND["success"][1],
        LEGEND["error"][1],
        LEGEND["end"][1].replace("虚线：", ""),
    ]
    assert not any("等待确认" in label for label in labels)  # only what the picture shows
    page = to_html(run)
    assert all(LEGEND[key][1].lstrip("▼ ") in page for key in ("model", "success", "error"))
    assert ">模型</text>" in page and 'aria-label="timeline"' not in page


def test_the_table_says_decisions_and_statuses_in_chinese(tmp_path):
    from handwritten_agent.permissions import PolicyGate, User, approve
    from handwritten_agent.scenarios.office import OfficeScenario

    office = OfficeScenario.create(tmp_path / "office", now=NOW)
    zhang = User("E001", role="行政助理", name="张明")
    tracer = Tracer(redactor=Redactor(environment=False), user_id="u_1")
    booking = {
        "room_id": "room_999",
        "start_time": "2026-03-13 15:00",
        "end_time": "2026-03-13 16:00",
        "attendee_count": 6,
    }
    agent = Agent(
        ScriptedClient(
            [
                calls(call("book_meeting_room", booking, id="b1")),
                reply("没有订成：没有这间会议室。"),
            ]
        ),
        office.registry(zhang),
        hooks=[PolicyGate(office.policy(), zhang), tracer],
    )
    paused = agent.run("订 room_999")
    agent.resume(paused, {request.id: approve(by=zhang) for request in paused.pending})
    text = format_steps(tracer.lines, timings=False)
    for english in (
        "allowed",
        "asked",
        "confirmed",
        "paused",
        "success",
        "error",
        "decision=",
        "level=",
        "finish_reason=",
    ):
        assert english not in text, (english, text)
    assert (
        "等待确认" in text
        and "发起人已确认" in text
        and "失败" in text
        and "needs_confirmation\n" not in text
    )
