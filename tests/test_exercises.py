"""Exercises and solutions come from one source, and every check tells right from wrong.

- the generator: markers, indentation, markdown regions, errors, deterministic bytes;
- ``exercises/`` is byte-for-byte what the generator makes from ``solutions/``;
- every checker passes on the solution's code, fails on the placeholder, and fails on plausible
  wrong answers (written below as small functions) with a message that names the case and a hint;
- the untouched exercise notebooks, executed, fail exactly at their check cells and nowhere else.
"""

from __future__ import annotations

import copy
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable

import httpx
import nbformat
import openai
import pytest

from handwritten_agent.exercises import build, check
from handwritten_agent.parsing import ParseError, parse_tool_call

ROOT = Path(__file__).resolve().parents[1]


# ---------------------------------------------------------------------------------------------
# The generator
# ---------------------------------------------------------------------------------------------

def _notebook(*cells: tuple[str, str], **cell_metadata: Any) -> dict[str, Any]:
    made = []
    for index, (kind, source) in enumerate(cells):
        cell: dict[str, Any] = {"cell_type": kind, "id": f"random-{index}-{os.getpid()}", "metadata": dict(cell_metadata),
                                "source": source}
        if kind == "code":
            cell.update(execution_count=7 + index, outputs=[{"output_type": "stream", "name": "stdout", "text": "old output\n"}])
        made.append(cell)
    return {"cells": made, "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
                                        "language_info": {"name": "python", "version": "3.11.7"}},
            "nbformat": 4, "nbformat_minor": 5}


def test_code_region_becomes_placeholder_at_the_begin_lines_indentation():
    source = ("def extract(text: str) -> dict:\n"
              "    \"\"\"Docstring stays.\"\"\"\n"
              "    ### BEGIN SOLUTION\n"
              "    value = text.strip()\n"
              "    return {'v': value}\n"
              "    ### END SOLUTION\n"
              "\n"
              "print('kept')")
    assert build.strip_code_solutions(source) == ("def extract(text: str) -> dict:\n"
                                                  "    \"\"\"Docstring stays.\"\"\"\n"
                                                  "    # YOUR CODE HERE\n"
                                                  "    raise NotImplementedError()\n"
                                                  "\n"
                                                  "print('kept')")


def test_several_regions_at_different_depths_and_top_level():
    source = ("class Guard:\n"
              "    def check(self):\n"
              "        ### BEGIN SOLUTION\n"
              "        return 1\n"
              "        ### END SOLUTION\n"
              "\n"
              "### BEGIN SOLUTION\n"
              "answer = 42\n"
              "### END SOLUTION")
    out = build.strip_code_solutions(source)
    assert out.splitlines() == ["class Guard:", "    def check(self):", "        # YOUR CODE HERE",
                                "        raise NotImplementedError()", "", "# YOUR CODE HERE", "raise NotImplementedError()"]
    assert "return 1" not in out and "answer = 42" not in out


def test_markers_tolerate_trailing_spaces_and_crlf_but_not_other_text():
    assert build.strip_code_solutions("x = 1\n  ### BEGIN SOLUTION  \r\n  y = 2\r\n  ### END SOLUTION\r\n") == \
        "x = 1\n  # YOUR CODE HERE\n  raise NotImplementedError()"
    # a marker with text after it is not a marker: nothing is stripped
    text = "### BEGIN SOLUTION here\ny = 2\n### END SOLUTION is not alone"
    assert build.strip_code_solutions(text) == text


@pytest.mark.parametrize("source, fragment", [
    ("### BEGIN SOLUTION\nx = 1\n", "line 1: `### BEGIN SOLUTION` is never closed"),
    ("x = 1\n### END SOLUTION\n", "line 2: `### END SOLUTION` without a `### BEGIN SOLUTION`"),
    ("### BEGIN SOLUTION\n  ### BEGIN SOLUTION\n  ### END SOLUTION\n### END SOLUTION", "line 2: nested"),
])
def test_unbalanced_or_nested_code_markers_are_errors(source, fragment):
    with pytest.raises(build.MarkerError, match="demo.ipynb, cell 3") as info:
        build.strip_code_solutions(source, where="demo.ipynb, cell 3")
    assert fragment in str(info.value)


def test_markdown_region_is_replaced_inline_and_across_lines():
    source = "**答：** <!-- BEGIN SOLUTION -->因为超时是连接错误的子类，\n要先判断它。<!-- END SOLUTION -->\n\n下一段保留。"
    assert build.strip_markdown_solutions(source) == "**答：** （在这里写下你的答案）\n\n下一段保留。"
    assert build.strip_markdown_solutions("a <!--BEGIN SOLUTION-->x<!--  END SOLUTION  --> b") == "a （在这里写下你的答案） b"


@pytest.mark.parametrize("source, fragment", [
    ("<!-- BEGIN SOLUTION --> no end", "never closed"),
    ("text\n<!-- END SOLUTION -->", "line 2: `<!-- END SOLUTION -->` without"),
    ("<!-- BEGIN SOLUTION -->a<!-- BEGIN SOLUTION -->b<!-- END SOLUTION -->", "nested"),
])
def test_unbalanced_markdown_markers_are_errors(source, fragment):
    with pytest.raises(build.MarkerError, match="x.ipynb, cell 1") as info:
        build.strip_markdown_solutions(source, where="x.ipynb, cell 1")
    assert fragment in str(info.value)


def test_make_exercise_clears_outputs_retitles_and_keeps_only_tags():
    notebook = _notebook(("markdown", "# Day 9 参考答案：标题\n\n正文里的参考答案不变。"),
                         ("code", "def f():\n    ### BEGIN SOLUTION\n    return 1\n    ### END SOLUTION"),
                         ("code", "check.day9(f)"),
                         tags=["check"], collapsed=True, execution={"iopub.status.busy": "2026-01-01T00:00:00Z"})
    exercise = build.make_exercise(copy.deepcopy(notebook), "day9_solutions.ipynb")
    title, solution, check_cell = exercise["cells"]
    assert "".join(title["source"]).startswith("# Day 9 练习：标题\n")
    assert "正文里的参考答案不变" in "".join(title["source"])
    assert "".join(solution["source"]) == "def f():\n    # YOUR CODE HERE\n    raise NotImplementedError()"
    for cell in (solution, check_cell):
        assert cell["outputs"] == [] and cell["execution_count"] is None
    assert all(cell["metadata"] == {"tags": ["check"]} for cell in exercise["cells"])
    assert [cell["id"] for cell in exercise["cells"]] == ["cell-01", "cell-02", "cell-03"]
    assert exercise["metadata"] == build.NOTEBOOK_METADATA
    nbformat.validate(nbformat.from_dict(exercise))  # a valid nbformat 4.5 notebook


def test_marker_error_names_notebook_and_cell():
    notebook = _notebook(("markdown", "# T"), ("code", "x = 1"), ("code", "### BEGIN SOLUTION\ny = 1"))
    with pytest.raises(build.MarkerError, match=r"solutions/day5_solutions.ipynb, cell 3 \(code\), line 1"):
        build.make_exercise(notebook, "solutions/day5_solutions.ipynb")


def test_output_is_deterministic_whatever_the_ids_metadata_and_source_shape(tmp_path):
    first = _notebook(("markdown", "# Day 1 参考答案"), ("code", "def f():\n    ### BEGIN SOLUTION\n    return 1\n    ### END SOLUTION"))
    second = copy.deepcopy(first)
    for index, cell in enumerate(second["cells"]):
        cell["id"] = f"other-{index}"
        cell["source"] = cell["source"].splitlines(keepends=True)  # list-of-lines form, as Jupyter saves it
        cell["metadata"]["scrolled"] = True
    second["metadata"]["language_info"]["version"] = "3.12.1"
    second["metadata"]["widgets"] = {"state": {}}
    a, b = tmp_path / "solutions" / "a_solutions.ipynb", tmp_path / "solutions" / "b_solutions.ipynb"
    a.parent.mkdir()
    a.write_text(json.dumps(first), encoding="utf-8")
    b.write_text(json.dumps(second, indent=4), encoding="utf-8")
    text = build.render(a)
    assert text == build.render(b)
    assert text.endswith("}\n") and '\n "cells": [\n' in text  # one-space indent, trailing newline
    assert json.loads(text)["cells"][1]["source"] == ["def f():\n", "    # YOUR CODE HERE\n", "    raise NotImplementedError()"]
    assert text == nbformat.writes(nbformat.reads(text, as_version=4)) + "\n"  # the bytes nbformat itself would write


def test_build_and_check_cli(tmp_path):
    solutions = tmp_path / "solutions"
    solutions.mkdir()
    (solutions / "day1_solutions.ipynb").write_text(json.dumps(_notebook(("markdown", "# Day 1 参考答案"), ("code", "x = 1"))), encoding="utf-8")
    run = lambda *args: subprocess.run([sys.executable, "-m", "handwritten_agent.exercises", *args, "--root", str(tmp_path)],
                                       capture_output=True, text=True, timeout=60)
    stale = run("check")
    assert stale.returncode == 1 and "exercises/day1_exercises.ipynb" in stale.stderr
    built = run("build")
    assert built.returncode == 0, built.stderr
    target = tmp_path / "exercises" / "day1_exercises.ipynb"
    assert json.loads(target.read_text(encoding="utf-8"))["cells"][0]["source"] == ["# Day 1 练习"]
    assert run("check").returncode == 0
    target.write_text(target.read_text(encoding="utf-8").replace("练习", "hand edit"), encoding="utf-8")
    edited = run("check")
    assert edited.returncode == 1 and "day1_exercises.ipynb" in edited.stderr
    (solutions / "day1_solutions.ipynb").write_text(json.dumps(_notebook(("code", "### END SOLUTION"))), encoding="utf-8")
    broken = run("build")
    assert broken.returncode == 1 and "day1_solutions.ipynb, cell 1 (code), line 1" in broken.stderr


def test_build_keeps_a_learners_work_unless_forced(tmp_path):
    solutions, exercises = tmp_path / "solutions", tmp_path / "exercises"
    solutions.mkdir()
    source = _notebook(("markdown", "# Day 1 参考答案"), ("code", "def f():\n    ### BEGIN SOLUTION\n    return 1\n    ### END SOLUTION"))
    (solutions / "day1_solutions.ipynb").write_text(json.dumps(source), encoding="utf-8")
    (solutions / "day2_solutions.ipynb").write_text(json.dumps(source), encoding="utf-8")
    assert len(build.build(tmp_path)) == 2
    target = exercises / "day1_exercises.ipynb"
    fresh = target.read_text(encoding="utf-8")
    assert not build.has_learner_work(target)

    filled = fresh.replace("raise NotImplementedError()", "return 1")  # answered, not yet run
    target.write_text(filled, encoding="utf-8")
    assert build.has_learner_work(target)
    (solutions / "day2_solutions.ipynb").write_text(json.dumps(_notebook(("markdown", "# Day 2 参考答案"), ("code", "y = 2"))),
                                                    encoding="utf-8")
    with pytest.raises(build.LearnerWork, match="make check-exercises") as info:
        build.build(tmp_path)
    assert info.value.paths == [target] and info.value.written == [exercises / "day2_exercises.ipynb"]
    assert target.read_text(encoding="utf-8") == filled  # untouched

    run_once = json.loads(fresh)
    run_once["cells"][1]["execution_count"] = 1  # run in JupyterLab and saved, even if unchanged
    target.write_text(json.dumps(run_once), encoding="utf-8")
    assert build.has_learner_work(target)
    assert build.build(tmp_path, force=True) == [target]
    assert target.read_text(encoding="utf-8") == fresh


def test_exercises_directory_is_exactly_what_the_generator_makes():
    pairs = build.pairs(ROOT)
    assert [pair.solution.name for pair in pairs] == [f"day{day}_solutions.ipynb" for day in DAYS] and DAYS[:3] == [1, 2, 3]
    with_answers = []
    for pair in pairs:
        assert pair.exercise.exists(), f"{pair.exercise} is missing: run `python -m handwritten_agent.exercises build`"
        if build.has_learner_work(pair.exercise) and not os.environ.get("CI"):
            with_answers.append(pair.exercise.name)  # a learner's answers: not compared on their machine (CI always compares)
            continue
        assert pair.exercise.read_bytes() == build.render(pair.solution).encode("utf-8"), (
            f"{pair.exercise} is not what the generator makes from {pair.solution}. If you changed solutions/, run "
            "`python -m handwritten_agent.exercises build` and commit the result. If you are a learner who filled in the "
            "exercises, this is expected: check your answers with `make check-exercises` instead.")
    assert build.orphans(ROOT) == []
    if with_answers:
        pytest.skip(f"{', '.join(with_answers)} hold your answers, so they were not compared with the generator's output "
                    "(check them with `make check-exercises`); CI (CI=true) compares every notebook.")


# ---------------------------------------------------------------------------------------------
# The checkers: pass on the solution, fail on the placeholder and on plausible wrong answers
# ---------------------------------------------------------------------------------------------


_CHECK_CALL = re.compile(r"^check\.(day\d_\w+)\((\w+)\)\s*$")


def _is_check_cell(cell: dict[str, Any]) -> bool:
    return "check" in cell.get("metadata", {}).get("tags", [])


def _source(cell: dict[str, Any]) -> str:
    return "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]


def _check_calls(path: Path) -> list[tuple[str, str]]:
    """(checker, argument name) of every check cell, in order."""
    notebook = json.loads(path.read_text(encoding="utf-8"))
    calls = []
    for cell in notebook["cells"]:
        if _is_check_cell(cell):
            match = _CHECK_CALL.match(_source(cell).strip())
            assert match, f"{path.name}: a check cell must be exactly `check.dayN_name(obj)`, got {_source(cell)!r}"
            calls.append((match.group(1), match.group(2)))
    return calls


_NAMESPACES: dict[Path, dict[str, Any]] = {}


def _namespace(path: Path) -> dict[str, Any]:
    """Run a notebook's code cells except the check cells, like a kernel would, and keep the names they define.

    Our own notebooks' source is executed here, never model output.
    """
    if path not in _NAMESPACES:
        namespace: dict[str, Any] = {"__name__": f"notebook_{path.stem}"}
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] == "code" and not _is_check_cell(cell):
                exec(compile(_source(cell), f"{path.name}", "exec"), namespace)  # noqa: S102 - our own notebook
        _NAMESPACES[path] = namespace
    return _NAMESPACES[path]


DAYS = sorted(int(re.fullmatch(r"day(\d)_solutions\.ipynb", path.name).group(1)) for path in (ROOT / "solutions").glob("day*_solutions.ipynb"))
ALL_CHECKS = [(day, checker, argument) for day in DAYS
              for checker, argument in _check_calls(ROOT / "solutions" / f"day{day}_solutions.ipynb")]
CHECKERS = [checker for _, checker, _ in ALL_CHECKS]


def test_every_checker_has_a_check_cell_and_wrong_answers():
    public = sorted(name for name in dir(check) if re.fullmatch(r"day\d_\w+", name) and callable(getattr(check, name)))
    assert sorted(CHECKERS) == public
    mutations = Path(__file__).parent / "data" / "exercise_mutations"
    kept_as_data = {name for name in public if len(list((mutations / name).glob("wrong_*.py"))) >= 5}
    assert sorted(set(WRONG_ANSWERS) | kept_as_data) == public  # wrong answers here, or (newer days) as files
    per_day = [sum(1 for day, _, _ in ALL_CHECKS if day == d) for d in DAYS]
    assert all(3 <= count <= 5 for count in per_day), per_day
    for _, answers in WRONG_ANSWERS.items():
        assert len(answers) >= 3


@pytest.mark.parametrize("day, checker, argument", ALL_CHECKS, ids=CHECKERS)
def test_checker_passes_on_the_solution(day, checker, argument, capsys):
    solution = _namespace(ROOT / "solutions" / f"day{day}_solutions.ipynb")[argument]
    capsys.readouterr()
    getattr(check, checker)(solution)
    out = capsys.readouterr().out
    assert out.count("✅") >= 4 and f"🎉 {checker}：全部" in out


@pytest.mark.parametrize("day, checker, argument", ALL_CHECKS, ids=CHECKERS)
def test_checker_fails_on_the_placeholder(day, checker, argument):
    placeholder = _namespace(ROOT / "exercises" / f"day{day}_exercises.ipynb")[argument]
    with pytest.raises(check.ExerciseFailed) as info:
        getattr(check, checker)(placeholder)
    assert isinstance(info.value, AssertionError)  # nbval and pytest mark the cell failed
    assert "还没有完成" in str(info.value) and "# YOUR CODE HERE" in str(info.value)


def test_checker_asks_for_the_function_not_its_result():
    with pytest.raises(check.ExerciseFailed, match="不带括号"):
        check.day3_unknown_tool_message("not a function")


# Plausible wrong answers, each a small function a learner might write. Every one must fail its
# checker, at the case named on the right (so the message points at the real mistake).


def _post(base_url: str, api_key: str, model: str, message: str) -> httpx.Response:
    return httpx.post(base_url.rstrip("/") + "/chat/completions", headers={"Authorization": f"Bearer {api_key}"},
                      json={"model": model, "messages": [{"role": "user", "content": message}]}, timeout=30)


def chat_returns_whole_json(base_url, api_key, model, message):
    response = _post(base_url, api_key, model, message)
    response.raise_for_status()
    return response.json()


def chat_forgets_trailing_slash(base_url, api_key, model, message):
    response = httpx.post(f"{base_url}/chat/completions", json={"model": model, "messages": [{"role": "user", "content": message}]},
                          headers={"Authorization": f"Bearer {api_key}"}, timeout=30)
    response.raise_for_status()
    return response.json()["choices"][0]["message"]["content"]


def chat_without_status_check(base_url, api_key, model, message):
    return _post(base_url, api_key, model, message).json()["choices"][0]["message"]["content"]


def chat_swallows_errors(base_url, api_key, model, message):
    try:
        response = _post(base_url, api_key, model, message)
        response.raise_for_status()
        return response.json()["choices"][0]["message"]["content"]
    except Exception:  # noqa: BLE001 - the mistake being tested
        return ""


def chat_without_the_key(base_url, api_key, model, message):
    response = httpx.post(base_url.rstrip("/") + "/chat/completions", json={"model": model, "messages": [{"role": "user", "content": message}]},
                          timeout=30)
    response.raise_for_status()
    return response.json()["choices"][0]["message"]["content"]


def chat_ignores_the_message(base_url, api_key, model, message):
    response = _post(base_url, api_key, model, "你好，你是谁？")
    response.raise_for_status()
    return response.json()["choices"][0]["message"]["content"]


def stream_text_only(chunks):
    text = "".join((c["choices"][0]["delta"].get("content") or "") for c in chunks if c["choices"])
    finish = [c["choices"][0]["finish_reason"] for c in chunks if c["choices"] and c["choices"][0]["finish_reason"]]
    return {"content": text, "tool_calls": [], "finish_reason": finish[-1] if finish else None}


def stream_assumes_choices(chunks):
    text, finish = "", None
    for chunk in chunks:
        choice = chunk["choices"][0]
        text += choice["delta"].get("content") or ""
        finish = choice["finish_reason"] or finish
    return {"content": text, "tool_calls": [], "finish_reason": finish}


def stream_overwrites_arguments(chunks):
    text, finish, calls = "", None, {}
    for chunk in chunks:
        for choice in chunk["choices"]:
            text += choice["delta"].get("content") or ""
            finish = choice["finish_reason"] or finish
            for piece in choice["delta"].get("tool_calls") or []:
                call = calls.setdefault(piece["index"], {"id": piece.get("id"), "type": "function", "function": {}})
                call["function"]["name"] = call["function"].get("name") or piece["function"].get("name")
                call["function"]["arguments"] = piece["function"].get("arguments")  # overwritten, not appended
    return {"content": text, "tool_calls": list(calls.values()), "finish_reason": finish}


def stream_ignores_index(chunks):
    text, finish, calls = "", None, []
    for chunk in chunks:
        for choice in chunk["choices"]:
            text += choice["delta"].get("content") or ""
            finish = choice["finish_reason"] or finish
            for piece in choice["delta"].get("tool_calls") or []:
                if piece.get("id"):
                    calls.append({"id": piece["id"], "type": "function", "function": {"name": piece["function"]["name"], "arguments": ""}})
                calls[-1]["function"]["arguments"] += piece["function"].get("arguments") or ""  # always the last call
    return {"content": text, "tool_calls": calls, "finish_reason": finish}


def explain_connection_first(exc):
    if isinstance(exc, openai.APIConnectionError):  # catches timeouts too: the order is wrong
        return "连接失败：请检查 .env 里的 LLM_BASE_URL。"
    if isinstance(exc, openai.APITimeoutError):
        return "请求超时：调大 .env 里的 LLM_TIMEOUT。"
    if isinstance(exc, openai.AuthenticationError):
        return "密钥错误：检查 LLM_API_KEY。"
    if isinstance(exc, openai.NotFoundError):
        return "模型不存在：检查 LLM_MODEL。"
    return "请稍后再试。"


def explain_generically(exc):
    return f"调用模型出错了：{exc}"


def explain_in_english(exc):
    if isinstance(exc, openai.AuthenticationError):
        return "Bad key: check LLM_API_KEY"
    return "Something failed"


def explain_raises_on_the_unknown(exc):
    table = {openai.APITimeoutError: "请求超时：调大 LLM_TIMEOUT。", openai.APIConnectionError: "连不上：检查 LLM_BASE_URL。",
             openai.AuthenticationError: "密钥错误：检查 LLM_API_KEY。", openai.NotFoundError: "模型不存在：检查 LLM_MODEL。",
             openai.RateLimitError: "限流了，请稍后再试。"}
    return table[type(exc)]  # KeyError for anything else


def extract_with_json_loads(text):
    return json.loads(text)


def extract_with_greedy_regex(text):
    match = re.search(r"\{.*\}", text, re.DOTALL)
    if not match:
        raise ValueError("no JSON")
    return json.loads(match.group())


def extract_with_global_replacements(text):
    """Finds the object properly, but repairs with global replacements that also change text inside strings."""
    start = min((i for i in (text.find("{"), text.find("｛")) if i >= 0), default=-1)
    if start < 0:
        raise ValueError("no JSON")
    depth, quote = 0, None
    for i in range(start, len(text)):
        ch = text[i]
        if quote:
            quote = None if ch in "\"'”" else quote
        elif ch in "\"'“":
            quote = ch
        elif ch in "{｛":
            depth += 1
        elif ch in "}｝" and (depth := depth - 1) == 0:
            block = text[start:i + 1]
            break
    else:
        raise ValueError("not closed")
    for wide, narrow in {"｛": "{", "｝": "}", "：": ":", "，": ",", "“": '"', "”": '"', "'": '"'}.items():
        block = block.replace(wide, narrow)
    return json.loads(re.sub(r",\s*([}\]])", r"\1", block))


def extract_returns_empty_dict(text):
    try:
        return _namespace(ROOT / "solutions" / "day2_solutions.ipynb")["extract_json"](text)
    except ValueError:
        return {}


def ask_without_retry(client, messages, max_attempts=3):
    parsed = parse_tool_call(client.complete(messages).content or "")
    if isinstance(parsed, ParseError):
        raise ValueError(parsed.message)
    return parsed


def ask_again_without_feedback(client, messages, max_attempts=3):
    for _ in range(max_attempts):
        parsed = parse_tool_call(client.complete(messages).content or "")
        if not isinstance(parsed, ParseError):
            return parsed
    raise ValueError("gave up")


def ask_one_time_too_many(client, messages, max_attempts=3):
    messages = list(messages)
    for _ in range(max_attempts + 1):
        text = client.complete(messages).content or ""
        parsed = parse_tool_call(text)
        if not isinstance(parsed, ParseError):
            return parsed
        messages += [{"role": "assistant", "content": text}, {"role": "user", "content": parsed.message}]
    raise ValueError("gave up")


def ask_forever(client, messages, max_attempts=3):
    messages = list(messages)
    while True:  # no bound: the mistake being tested
        text = client.complete(messages).content or ""
        parsed = parse_tool_call(text)
        if not isinstance(parsed, ParseError):
            return parsed
        messages += [{"role": "assistant", "content": text}, {"role": "user", "content": parsed.message}]


def prompt_like_the_seed(tools):
    """Names, descriptions and parameter lines — but no enum values and no required list."""
    lines = ["你可以调用下面的工具："]
    for spec in tools:
        lines += [f"工具名称：{spec['name']}", f"描述：{spec['description']}", "参数说明："]
        for name, schema in spec["parameters"]["properties"].items():
            lines.append(f"  - {name} ({schema['type']}): {schema.get('description', '')}")
    lines.append('需要调用工具时只输出 JSON：{"name": "工具名", "arguments": {...}}')
    return "\n".join(lines)


def prompt_names_only(tools):
    return "可用工具：" + "、".join(spec["name"] for spec in tools) + '。调用时输出 {"name": …, "arguments": …}'


def prompt_without_reply_format(tools):
    return "你可以使用这些工具：\n" + "\n".join(json.dumps(spec, ensure_ascii=False) for spec in tools)


def exchange_tool_undecorated():
    def query_exchange_rate(from_currency: str, to_currency: str) -> dict:
        """查询汇率。"""
        return {"rate": 7.2}
    return query_exchange_rate


def exchange_tool_without_examples():
    from handwritten_agent.tools import tool

    @tool
    def query_exchange_rate(from_currency: str, to_currency: str) -> dict:
        """查询汇率。

        Args:
            from_currency: 货币
            to_currency: 货币
        """
        return {"rate": 7.2}
    return query_exchange_rate


def exchange_tool_inverted():
    from handwritten_agent.scenarios.exchange import CNY_PER_UNIT, currency_code
    from handwritten_agent.tools import tool

    @tool
    def query_exchange_rate(from_currency: str, to_currency: str) -> dict:
        """查询两种货币之间的汇率：1 单位 from_currency 能换多少 to_currency。用户问“100 美元能换多少人民币”时使用。

        Args:
            from_currency: 要换出的货币，例如：USD 或 美元
            to_currency: 要换成的货币，例如：CNY 或 人民币
        """
        a, b = currency_code(from_currency), currency_code(to_currency)
        return {"rate": round(CNY_PER_UNIT[b] / CNY_PER_UNIT[a], 6)}  # upside down
    return query_exchange_rate


def exchange_tool_reusing_the_package():
    from handwritten_agent.scenarios import get_exchange_rate
    return get_exchange_rate


def _loop(client, registry, user_message, max_steps=5, *, catch=True, empty_is_final=False, echo=True, fake_ids=False, bounded=True):
    messages = [{"role": "user", "content": user_message}]
    step = 0
    while step < max_steps or not bounded:
        step += 1
        if step > 30:
            return "max_steps", messages
        try:
            reply = client.complete(messages, tools=registry.schemas())
        except Exception:  # noqa: BLE001
            if not catch:
                raise
            return "error", messages
        if not reply.tool_calls:
            if not (reply.content or "").strip() and not empty_is_final:
                return "error", messages
            return "final", messages
        if echo:
            messages.append(reply.to_message())
        for call in reply.tool_calls:
            call_id = f"call_{step}_{call.name}" if fake_ids else call.id
            messages.append({"role": "tool", "tool_call_id": call_id, "content": registry.dispatch(call.name, call.arguments).to_content()})
    return "max_steps", messages


def loop_lets_exceptions_out(client, registry, user_message, max_steps=5):
    return _loop(client, registry, user_message, max_steps, catch=False)


def loop_takes_empty_reply_as_final(client, registry, user_message, max_steps=5):
    return _loop(client, registry, user_message, max_steps, empty_is_final=True)


def loop_forgets_the_assistant_message(client, registry, user_message, max_steps=5):
    return _loop(client, registry, user_message, max_steps, echo=False)


def loop_fakes_tool_call_ids(client, registry, user_message, max_steps=5):
    return _loop(client, registry, user_message, max_steps, fake_ids=True)


def loop_without_bound(client, registry, user_message, max_steps=5):
    return _loop(client, registry, user_message, max_steps, bounded=False)


def unknown_tool_terse(name, valid_names):
    return f"未知工具：{name}"


def unknown_tool_in_english(name, valid_names):
    return f"Unknown tool {name}. Valid tools: {', '.join(valid_names)}"


def unknown_tool_crashes_when_empty(name, valid_names):
    return f"工具 {name} 不存在，你是不是想用 {valid_names[0]}？可用的工具：{', '.join(valid_names)}。"


class GuardComparingRawText:
    def __init__(self):
        self.seen = set()

    def check(self, name, arguments):
        if (name, arguments) in self.seen:
            return f"{name} 已经调用过了，请使用之前的结果。"
        self.seen.add((name, arguments))
        return None


class GuardRememberingOnlyTheLastCall:
    def __init__(self):
        self.last = None

    def check(self, name, arguments):
        key = (name, json.dumps(json.loads(arguments), sort_keys=True))
        repeated, self.last = key == self.last, key
        return f"{name} 已经调用过了，请使用之前的结果。" if repeated else None


class GuardKeyedByName:
    def __init__(self):
        self.seen = set()

    def check(self, name, arguments):
        if name in self.seen:
            return f"{name} 已经调用过了，请使用之前的结果。"
        self.seen.add(name)
        return None


class GuardTrustingTheJson:
    def __init__(self):
        self.seen = set()

    def check(self, name, arguments):
        key = (name, json.dumps(json.loads(arguments), sort_keys=True))  # raises on text that is not JSON
        if key in self.seen:
            return f"{name} 已经调用过了，请使用之前的结果。"
        self.seen.add(key)
        return None


WRONG_ANSWERS: dict[str, list[tuple[Callable[..., Any], str]]] = {
    "day1_raw_chat": [(chat_returns_whole_json, "发出的请求"), (chat_without_the_key, "带密钥"), (chat_forgets_trailing_slash, "base_url 末尾带 /"),
                      (chat_without_status_check, "HTTP 500"), (chat_swallows_errors, "HTTP 500"),
                      (chat_ignores_the_message, "发出的请求")],
    "day1_assemble_stream": [(stream_text_only, "一个工具调用"), (stream_assumes_choices, "choices 是空列表"),
                             (stream_overwrites_arguments, "参数分成几片"), (stream_ignores_index, "两个并行的工具调用")],
    "day1_explain_error": [(explain_connection_first, "超时"), (explain_generically, "401"), (explain_in_english, "401"),
                           (explain_raises_on_the_unknown, "其他任何异常")],
    "day2_extract_json": [(extract_with_json_loads, "代码块"), (extract_with_greedy_regex, "后面还有别的花括号"),
                          (extract_with_global_replacements, "字符串里的全角逗号要保留"), (extract_returns_empty_dict, "没有 JSON")],
    "day2_retry_on_parse_error": [(ask_without_retry, "第一次回复被截断"), (ask_again_without_feedback, "第一次回复被截断"),
                                  (ask_one_time_too_many, "最多尝试 max_attempts 次"), (ask_forever, "最多尝试 max_attempts 次")],
    "day2_render_tool_prompt": [(prompt_like_the_seed, "可选值"), (prompt_names_only, "名字和描述"),
                                (prompt_without_reply_format, "规定回复格式")],
    "day3_exchange_rate_tool": [(exchange_tool_undecorated, "用 @tool 定义工具"), (exchange_tool_without_examples, "描述里有例子"),
                                (exchange_tool_inverted, "100 美元"), (exchange_tool_reusing_the_package, "用 @tool 定义工具")],
    "day3_loop_exits": [(loop_lets_exceptions_out, "抛出异常 → error"), (loop_takes_empty_reply_as_final, "空回复"),
                        (loop_forgets_the_assistant_message, "调用一次工具后给出答案"), (loop_fakes_tool_call_ids, "调用一次工具后给出答案"),
                        (loop_without_bound, "max_steps")],
    "day3_unknown_tool_message": [(unknown_tool_terse, "拼错的工具名"), (unknown_tool_in_english, "拼错的工具名"),
                                  (unknown_tool_crashes_when_empty, "一个工具也没有")],
    "day3_repeat_guard": [(GuardComparingRawText, "只是参数顺序和空格不同"), (GuardRememberingOnlyTheLastCall, "隔了几次"),
                          (GuardKeyedByName, "同一个工具、不同参数"), (GuardTrustingTheJson, "参数不是合法 JSON")],
}

WRONG_CASES = [(checker, answer, case) for checker, answers in WRONG_ANSWERS.items() for answer, case in answers]


@pytest.mark.parametrize("checker, answer, case", WRONG_CASES, ids=[f"{c}-{a.__name__}" for c, a, _ in WRONG_CASES])
def test_checker_fails_on_a_wrong_answer_with_a_useful_message(checker, answer, case, capsys):
    with pytest.raises(check.ExerciseFailed) as info:
        getattr(check, checker)(answer)
    message = str(info.value)
    first_line = message.splitlines()[0]
    assert first_line.startswith(f"{checker}：用例「") and case in first_line, message
    for label in ("期望：", "实际：", "提示："):
        assert label in message, message
    assert "🎉" not in capsys.readouterr().out


# ---------------------------------------------------------------------------------------------
# The untouched exercise notebooks, executed as a learner would: only the check cells fail
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("day", DAYS)
def test_untouched_exercises_fail_exactly_at_their_check_cells(day, monkeypatch):
    from nbclient import NotebookClient

    path = ROOT / "exercises" / f"day{day}_exercises.ipynb"
    # the generator's output (which the test above proves is what exercises/ holds), so a learner's answers don't matter
    notebook = nbformat.reads(build.render(ROOT / "solutions" / f"day{day}_solutions.ipynb"), as_version=4)
    monkeypatch.setenv("LLM_PROVIDER", "offline")  # inherited by the kernel
    NotebookClient(notebook, timeout=120, kernel_name="python3", allow_errors=True,  # "python3" runs this interpreter
                   resources={"metadata": {"path": str(path.parent)}}).execute()

    failed = [index for index, cell in enumerate(notebook.cells)
              if cell.cell_type == "code" and any(output.output_type == "error" for output in cell.outputs)]
    check_cells = [index for index, cell in enumerate(notebook.cells) if "check" in cell.metadata.get("tags", [])]
    assert check_cells and failed == check_cells
    for index in check_cells:
        error = next(output for output in notebook.cells[index].outputs if output.output_type == "error")
        assert error.ename == "ExerciseFailed" and "还没有完成" in error.evalue, error.evalue
