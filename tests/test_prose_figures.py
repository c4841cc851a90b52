"""No notebook states a figure in its prose that none of its outputs shows (see
tests/prose_figures.py for the rule).
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest
from prose_figures import (
    amount,
    cjk_number,
    disclaimer_cells,
    other_words,
    outputs_text,
    stale_figures,
    wrong_claims,
    wrong_line_counts,
    wrong_prices,
    wrong_section_titles,
    wrong_shares,
    wrong_step_counts,
)

from handwritten_agent.pricing import DEFAULT_PRICES

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb")) + sorted(
    (ROOT / "solutions").glob("*.ipynb")
)
EXERCISES = sorted((ROOT / "exercises").glob("*.ipynb"))


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def markdown(text: str) -> dict:
    return {"cell_type": "markdown", "metadata": {}, "source": text.splitlines(keepends=True)}


def code(source: str, printed: str) -> dict:
    return {
        "cell_type": "code",
        "metadata": {},
        "execution_count": 1,
        "source": source,
        "outputs": [{"output_type": "stream", "name": "stdout", "text": printed}],
    }


def stated_time(path: Path) -> list[str]:
    """The day's stated time, which ``test_reading_time`` checks against the estimate."""
    from handwritten_agent.course import reading_time

    if path.parent.name != "notebooks":
        return []
    return [reading_time.stated_time(reading_time.estimate_notebook(path))]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_every_figure_in_the_prose_is_shown_by_an_output(path):
    stale = stale_figures(load(path), checked=stated_time(path))
    assert not stale, "\n".join(str(s) for s in stale)


def test_a_planted_stale_figure_is_caught_in_a_real_notebook():
    path = ROOT / "notebooks" / "day3_native_tools_react_loop.ipynb"
    notebook = copy.deepcopy(load(path))
    # figures no output is likely to show (a timing such as "37.3 ms" would show a planted 37%)
    notebook["cells"].append(markdown("在开发机上测得中位数 123.4 ms，\n比上一版快 73.41%。"))
    figures = [s.figure for s in stale_figures(notebook, checked=stated_time(path))]
    assert figures == ["123.4 ms", "73.41%"]


def test_a_figure_an_output_shows_passes_and_a_changed_one_does_not():
    notebook = {
        "cells": [
            code("print(run())", "p50 = 0.54 s，共 1,200 token\n"),
            markdown("测得的中位数是 0.54 秒，\n一共约 1200 个 token。"),
        ]
    }
    assert stale_figures(notebook) == []
    notebook["cells"][1] = markdown(
        "测得的中位数是 0.61 秒。"
    )  # the prose went stale after a re-run
    assert [s.figure for s in stale_figures(notebook)] == ["0.61 秒"]


def test_settings_written_in_code_may_be_quoted_but_not_as_measurements():
    notebook = {
        "cells": [
            code("agent = Agent(client, tools, max_seconds=0.5)", ""),
            markdown("超时设成 0.5 秒。"),
        ]
    }
    assert stale_figures(notebook) == []
    notebook["cells"][1] = markdown(
        "测得平均 0.5 秒。"
    )  # a measurement must be printed, not only configured
    assert [s.figure for s in stale_figures(notebook)] == ["0.5 秒"]


def test_figures_inside_code_spans_are_not_prose():
    assert stale_figures({"cells": [markdown("平均耗时见 `bench --n 500 ms`。")]}) == []


def test_only_the_checked_sentence_is_skipped():
    stated = "今天约 4 小时 15 分钟（阅读并运行约 2 小时 15 分钟，4 道练习约 2 小时）"
    notebook = {"cells": [markdown(f"{stated}。另外测得中位数 15 分钟。")]}
    assert [s.figure for s in stale_figures(notebook, checked=[stated])] == ["15 分钟"]
    assert len(stale_figures(notebook)) == 3


# --- Claims in words: frequency, ratio, line count, step count, price -----------------------------

PRICES = DEFAULT_PRICES


def code_lines(count: int, printed: str = "") -> dict:
    source = "\n".join(f"value_{n} = {n}" for n in range(count))
    return code(source, printed)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_every_claim_in_words_agrees_with_the_output_it_is_about(path):
    wrong = wrong_claims(load(path), PRICES)
    assert not wrong, "\n".join(str(w) for w in wrong)


def test_spoken_amounts_are_read_as_ranges():
    assert [cjk_number(t) for t in ("两", "三十", "一百零六", "12", "十二")] == [2, 30, 106, 12, 12]
    assert amount("三十", "几") == (30, 39)
    assert amount("十几") == (11, 19)
    assert amount("二三十") == (20, 30)
    assert amount("一百", "来") == (80, 120)
    assert amount("12") == (12, 12)


SUMMARIES = "超出预算以后的 12 轮里，有 6 轮写了摘要（6/12 轮），有的轮写了两三次\n"


@pytest.mark.parametrize(
    "prose",
    [
        "一旦超出预算，差不多每一轮都要重写摘要。",
        "一旦超出预算，几乎每轮都要重写摘要。",
        "超出预算以后，每一轮都要重写摘要。",
        "超出预算以后，很少有轮要重写摘要。",
        "超出预算以后，大多数轮都要重写摘要。",
    ],
)
def test_a_frequency_word_the_count_contradicts_is_caught(prose):
    notebook = {"cells": [code("print(summary_rounds())", SUMMARIES), markdown(prose)]}
    assert [w.kind for w in wrong_shares(notebook)] == ["频率/比例"]


def test_a_frequency_word_the_count_bears_out_passes():
    for prose in ("超出预算以后，有一半的轮要重写摘要。", "重写摘要的轮数见上一格。"):
        notebook = {"cells": [code("print(summary_rounds())", SUMMARIES), markdown(prose)]}
        assert wrong_shares(notebook) == []


def test_the_count_is_found_by_what_it_counts_not_by_being_next_to_the_prose():
    notebook = {
        "cells": [
            code("print(summary_rounds())", SUMMARIES),
            markdown("## 7. 费用"),
            code("print(cost())", "合计 0.1 元\n"),
            markdown("回顾：只压缩必要部分的手写版几乎每轮都写一次摘要。"),
        ]
    }
    assert [w.claim for w in wrong_shares(notebook)] == ["几乎每"]


FLAKY = "pass^1 = 87%（26/30 次运行通过），pass^3 = 60%\n"


def test_a_ratio_of_failures_is_read_against_a_count_of_passes():
    notebook = {
        "cells": [markdown("按种子，大约三次里有一次走偏。"), code("print(report.table())", FLAKY)]
    }
    assert [w.claim for w in wrong_shares(notebook)] == ["三次里有一次"]
    notebook["cells"][0] = markdown("按种子，三十次里有四次走偏。")
    assert wrong_shares(notebook) == []
    notebook["cells"][0] = markdown("按种子，一半的运行走偏。")
    assert [w.claim for w in wrong_shares(notebook)] == ["一半"]


def test_a_sentence_about_something_else_or_only_possible_is_not_read_against_a_count():
    notebook = {
        "cells": [
            code("print(report.table())", FLAKY),
            markdown("时间戳每次都不一样，所以不打印。真实模型可能三次里有一次走偏。"),
        ]
    }
    assert wrong_shares(notebook) == []


def test_a_line_count_the_code_does_not_have_is_caught():
    prose = "能用了。但只要换几种请求，就能看到这三十几行离上线还差多远："
    long = {"cells": [markdown("## 2. 手写服务"), code_lines(106), markdown(prose)]}
    assert [w.claim for w in wrong_line_counts(long)] == ["三十几行"]
    short = {"cells": [markdown("## 2. 手写服务"), code_lines(34), markdown(prose)]}
    assert wrong_line_counts(short) == []
    under = {
        "cells": [
            markdown("## 4. 暂停"),
            code_lines(80),
            markdown("不到五十行，暂停、继续都有了。"),
        ]
    }
    assert [w.claim for w in wrong_line_counts(under)] == ["不到五十行"]


def test_a_line_count_is_read_against_its_own_section_not_another():
    notebook = {
        "cells": [
            markdown("## 1. 小函数"),
            code_lines(33),
            markdown("## 2. 服务"),
            code_lines(106),
            markdown("这三十几行还差得远。"),
        ]
    }
    assert [w.claim for w in wrong_line_counts(notebook)] == ["三十几行"]


RUN = "第 1 步：调用 get_exchange_rate\n第 2 步：调用 calculator\n第 3 步：回答 720 元\n"


def test_a_step_count_the_run_does_not_show_is_caught():
    notebook = {
        "cells": [markdown("所以必须分两步：先拿到汇率，再计算。"), code("run_case(q)", RUN)]
    }
    assert [w.claim for w in wrong_step_counts(notebook)] == ["分两步"]
    notebook["cells"][0] = markdown("所以工具要调用两次，模型一共走三步。")
    assert wrong_step_counts(notebook) == []
    notebook["cells"][0] = markdown("真实模型也可能分两步来调用。")  # only possible: not a claim
    assert wrong_step_counts(notebook) == []
    notebook["cells"][0] = markdown("按第 8 节的五步排查清单查。")  # a name, not a count
    assert wrong_step_counts(notebook) == []


def test_a_price_that_is_not_the_price_tables_is_caught_in_prose_and_in_outputs():
    day4 = copy.deepcopy(load(ROOT / "notebooks" / "day4_memory.ipynb"))
    day4["cells"].append(markdown("deepseek-chat 每百万 token：输入 0.27 美元，输出 1.10 美元。"))
    assert sorted(w.claim for w in wrong_prices(day4, PRICES)) == ["0.27", "1.1"]
    day6 = {
        "cells": [code("print(prices)", "deepseek-chat  输入 0.14 · 输出 0.28 美元/百万 token\n")]
    }
    assert [w.claim for w in wrong_prices(day6, PRICES)] == ["0.14"]
    told = {
        "cells": [markdown("DeepSeek 的价格（每百万 token）：输入 0.28 美元、输出 0.42 美元。")]
    }
    assert wrong_prices(told, PRICES) == []


def test_day_4_and_day_6_state_the_same_deepseek_prices_the_price_table_holds():
    stated = []
    for name in ("day4_memory.ipynb", "day6_observability.ipynb"):
        shown = outputs_text(load(ROOT / "notebooks" / name))
        line = next(
            line for line in shown.splitlines() if "deepseek-chat" in line and "百万" in line
        )
        stated.append(sorted(set(re.findall(r"\d+\.\d+", line.split("读取")[-1] + line))))
    price = PRICES["deepseek-chat"]
    for numbers in stated:
        assert {str(price["input"]), str(price["output"]), str(price["cached_input"])} <= set(
            numbers
        )


def test_a_subsection_is_read_on_its_own_unless_the_prose_opens_it():
    service = {
        "cells": [
            markdown("## 2. 先手写"),
            code_lines(38),
            markdown("### 2.4 调用它"),
            code_lines(76),
            markdown("就能看到这三十几行离上线还差多远："),
        ]
    }
    assert [w.claim for w in wrong_line_counts(service)] == ["三十几行"]
    adapter = {
        "cells": [
            markdown("## 4. 适配器"),
            code_lines(24),
            markdown("### 4.2 用起来"),
            code_lines(5),
            markdown("### 4.3 手写适配器的漏洞\n\n二十行就能用了，但它把别人的工具当成了自己的："),
        ]
    }
    assert wrong_line_counts(adapter) == []
    adapter["cells"][1] = code_lines(60)
    assert [w.claim for w in wrong_line_counts(adapter)] == ["二十行"]


@pytest.mark.parametrize("path", NOTEBOOKS + EXERCISES, ids=lambda p: p.name)
def test_every_section_a_notebook_names_has_that_title(path):
    wrong = wrong_section_titles(path)
    assert not wrong, "\n".join(str(w) for w in wrong)


def test_a_section_title_that_does_not_exist_is_caught(tmp_path):
    (tmp_path / "notebooks").mkdir()
    lesson = {
        "cells": [
            markdown("## 4. 手写 `extract_json`：三个关键想法\n"),
            markdown("## 10. 成本：价格表\n"),
        ]
    }
    (tmp_path / "notebooks" / "day2.ipynb").write_text(json.dumps(lesson), encoding="utf-8")
    exercise = tmp_path / "day2_solutions.ipynb"
    for reference, wrong in [
        ("第 4 节「手写一个更好的 `extract_json`」", ["第 4 节「手写一个更好的 `extract_json`」"]),
        (
            "第 5 节「手写 `extract_json`：三个关键想法」",
            ["第 5 节「手写 `extract_json`：三个关键想法」"],
        ),
        ("第 4 节「手写 `extract_json`：三个关键想法」", []),
        ("第 10 节「成本」", []),
    ]:
        text = f"（课程内容：[Day 2 笔记本](notebooks/day2.ipynb){reference}）"
        exercise.write_text(json.dumps({"cells": [markdown(text)]}), encoding="utf-8")
        assert [w.claim for w in wrong_section_titles(exercise)] == wrong


DAYS_1_TO_7 = [
    path
    for folder in ("notebooks", "solutions", "exercises")
    for path in sorted((ROOT / folder).glob("day[1-7]_*.ipynb"))
]


@pytest.mark.parametrize("path", DAYS_1_TO_7, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_one_word_for_one_thing(path):
    wrong = other_words(load(path))
    assert not wrong, "\n".join(str(w) for w in wrong)


def test_a_second_word_for_the_same_thing_is_caught_in_prose_and_in_code_comments():
    notebook = {
        "cells": [
            markdown("手机号在结果里已经被打码。"),
            code("mask(text)  # 给手机号脱敏\nprint('打码后的样子：', text)", ""),
            code("x = '打码'.join(parts)", ""),
        ]
    }
    assert [(w.cell, w.claim) for w in other_words(notebook)] == [
        (0, "打码"),
        (1, "打码"),
        (2, "打码"),
    ]
    assert other_words({"cells": [markdown("手机号在结果里已经脱敏。")]}) == []


def test_the_user_who_asked_is_called_the_requester():
    notebook = {"cells": [markdown("每个决定——放行、等待确认、用户确认、审批通过——都记下来。")]}
    found = [(w.claim, w.shown) for w in other_words(notebook)]
    assert found == [("用户确认", "课程叫它“发起人确认”")]
    assert other_words({"cells": [markdown("放行、等待确认、发起人确认、审批通过。")]}) == []


@pytest.mark.parametrize(
    "path", sorted((ROOT / "notebooks").glob("day[1-6]_*.ipynb")), ids=lambda p: p.name
)
def test_the_rule_engine_disclaimer_is_in_one_prose_cell_a_day(path):
    cells = disclaimer_cells(load(path))
    assert len(cells) <= 1, f"“规则引擎，不是 LLM”出现在第 {cells} 格：每天说一次就够了（横幅另算）"


def test_repeated_disclaimers_are_counted():
    notebook = {
        "cells": [
            markdown("它是一个确定性的**规则引擎，不是 LLM**。"),
            markdown("这一节固定使用离线课程模拟器（规则引擎，不是 LLM）。"),
            markdown("离线课程模拟器（一个规则引擎，不是大模型）。"),
            markdown("模拟器不读否定句。"),
        ]
    }
    assert disclaimer_cells(notebook) == [0, 1, 2]


def test_claims_planted_in_real_notebooks_are_caught():
    day6 = copy.deepcopy(load(ROOT / "notebooks" / "day6_observability.ipynb"))
    day6["cells"].append(markdown("按种子，`course-sim:flaky` 大约三次里有一次走偏。"))
    assert [w.claim for w in wrong_shares(day6)] == ["三次里有一次"]

    day3 = copy.deepcopy(load(ROOT / "notebooks" / "day3_native_tools_react_loop.ipynb"))
    run = next(
        i
        for i, cell in enumerate(day3["cells"])
        if "查询汇率后计算 100 美元" in "".join(cell["source"]) and cell["cell_type"] == "code"
    )
    day3["cells"].insert(run, markdown("第二个工具的参数依赖第一个工具的结果，所以必须分两步。"))
    assert [w.claim for w in wrong_step_counts(day3)] == ["分两步"]


@pytest.mark.parametrize(
    ("words", "caught"),
    [
        ("差不多每一轮都要重写摘要", True),
        ("大多数轮都要重写摘要", True),
        ("很少有轮要重写摘要", True),
        ("有一半的轮要重写摘要", False),
    ],
)
def test_day_4_prose_is_read_against_the_count_its_code_prints(words, caught):
    day4 = copy.deepcopy(load(ROOT / "notebooks" / "day4_memory.ipynb"))
    counted = next(
        cell
        for cell in day4["cells"]
        if cell["cell_type"] == "code" and "after_first" in "".join(cell["source"])
    )
    counted["outputs"] = [
        {
            "output_type": "stream",
            "name": "stdout",
            "text": "第一次超出预算以后的 12 轮里，有 6 轮写了摘要（6/12 轮），"
            "其中 6 轮写了不止一次\n",
        }
    ]
    prose = day4["cells"][day4["cells"].index(counted) + 1]
    text = "".join(prose["source"])
    assert "就一再重写摘要" in text
    prose["source"] = text.replace("就一再重写摘要", words)
    assert bool(wrong_shares(day4)) == caught


FINAL_CHECK_TITLE = "今天的结果（断言）"
APPENDIX_FINAL_CHECK_TITLE = "本附录的结果（断言）"


def last_section_title(notebook: dict) -> str | None:
    """The title of a notebook's last ``## `` section, without its number, leaving out the
    optional ones after the final check (``## 附：…`` recordings, ``## 结语…``)."""
    titles = [
        re.sub(r"^\d+(?:\.\d+)*\.?\s*", "", line[3:].strip())
        for cell in notebook["cells"]
        if cell["cell_type"] == "markdown"
        for line in "".join(cell["source"]).splitlines()
        if line.startswith("## ")
    ]
    titles = [t for t in titles if not t.startswith(("附：", "结语"))]
    return titles[-1] if titles else None


@pytest.mark.parametrize("path", sorted((ROOT / "notebooks").glob("*.ipynb")), ids=lambda p: p.name)
def test_every_day_ends_with_the_same_final_check_title(path):
    wanted = APPENDIX_FINAL_CHECK_TITLE if path.name.startswith("appendix") else FINAL_CHECK_TITLE
    assert last_section_title(load(path)) == wanted


def test_another_final_check_title_is_caught():
    notebook = {"cells": [markdown("## 13. 练习"), markdown("## 14. 今天的成果（自动检查）")]}
    assert last_section_title(notebook) == "今天的成果（自动检查）"
    notebook["cells"].append(markdown("## 附：课程本地模型的一次录制"))
    assert last_section_title(notebook) == "今天的成果（自动检查）"
