"""The simulator on requests the local model wrote (``scripts/fuzz_simulator.py``), not the team.

Two sets in ``tests/data/fuzz/``: paraphrases of every scored source request (each inherits its
source's expected outcome and scorer), and tool sets the local model invented with requests it wrote
for them. On every request the simulator must act right, ask, or say it cannot — never a wrong side
effect, never a claim the results do not support. The README states the figures; a test recomputes
them, so the prose cannot drift from what the simulator does.
"""

from __future__ import annotations

import dataclasses
import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest

from tests import test_simulator_generated as generated
from tests import test_simulator_kinds2 as kinds2
from tests.simkit import run_request

DATA = Path(__file__).parent / "data" / "fuzz"
README = Path(__file__).parents[1] / "README.md"


def _load(name: str) -> dict[str, Any]:
    return json.loads((DATA / name).read_text(encoding="utf-8"))


PARAPHRASES = _load("paraphrases.json")
# Tool sets whose failures were read and fixed by kind (toolsets_2.json was held out when it was
# made: 7 of 22 handled before the kinds it showed were fixed).
TOOLSETS = _load("toolsets.json")
TOOLSETS["sets"] = TOOLSETS["sets"] + _load("toolsets_2.json")["sets"]
# Tool sets made after the last rule change, in domains of their own, and scored before anyone read
# their requests: the figure for tools and words the rules were not written against.
HELDOUT = _load("heldout_toolsets.json")
# A second held-out batch (issue #27), in four domains of its own, made and scored before anyone
# read its requests; its first score is in the README beside the one after the fixes.
HELDOUT_2 = _load("heldout_toolsets_2.json")
# A third batch in five domains of its own (seed 13000), and requests the local model wrote for the
# course's own office tools (seed 15000), each scored once before anyone read them; the README
# gives that first score beside the one after the kinds they showed were fixed.
HELDOUT_3 = _load("heldout_toolsets_3.json")
OFFICE = _load("heldout_office.json")
# A fourth batch (seed 17000), made after the fixes the third one showed, scored once before anyone
# read it.
HELDOUT_4 = _load("heldout_toolsets_4.json")
# A fifth batch (seed 19000), made after the fixes the fourth one showed, scored once before anyone
# read it: 9 of 29 handled, 1 wrong action (two modify_pet calls, one giving the owner the pet's
# new name), before the kinds it showed were fixed (tests/test_simulator_heldout6_kinds.py).
HELDOUT_5 = _load("heldout_toolsets_5.json")
# A sixth batch (seed 21000, four domains), made after the fixes the fifth one showed and before
# the kinds of its remaining questions were fixed (tests/test_simulator_heldout7_kinds.py), scored
# once before anyone read it; the README gives that first score beside the one after.
HELDOUT_6 = _load("heldout_toolsets_6.json")
# A seventh batch (seed 23000, four domains), made after the fixes the sixth one showed and before
# the kinds of its questions and the sixth one's were fixed
# (tests/test_simulator_heldout8_kinds.py), scored once before anyone read it; the README gives
# that first score beside the one after.
HELDOUT_7 = _load("heldout_toolsets_7.json")
# An eighth batch (seed 25000, four domains asked for; the first two timed out in the local model,
# on a machine shared with other runs of it), made after the fixes the seventh one showed and
# scored once before anyone read it, with the code before the kinds of
# tests/test_simulator_heldout9_kinds.py (bb0a439); the README gives that first score beside the
# one after.
HELDOUT_8 = _load("heldout_toolsets_8.json")


def score_paraphrase(item: dict[str, Any]) -> tuple[str, list[str]]:
    """(handled | asked | declined | wrong, problems) by the source's own scorer."""
    if item["source"] == "kinds2":
        case = dataclasses.replace(kinds2.CASES[item["index"]], request=item["paraphrase"])
        outcome = kinds2.run(case)
        verdict, problems = kinds2.verdict(case, outcome)
        read_only = kinds2.READ_ONLY
    else:
        case = dataclasses.replace(generated.CASES[item["index"]], request=item["paraphrase"])
        outcome = generated.run(case)
        verdict, false = generated.score_case(case, outcome)
        problems = [f"虚假声明：{outcome.answer}"] if false else []
        read_only = generated.READ_ONLY
    if verdict == "wrong" and _partial(case.act, outcome, read_only):
        # fewer calls than asked for, each of them right, and the answer says the rest was not
        # done: part of the request handled, the rest honestly declined
        verdict = "partial"
        problems = [p for p in problems if not p.startswith("期望")]
    return verdict, problems


def _partial(act: Any, outcome: Any, read_only: set[str]) -> bool:
    effects = [(n, a) for n, a in outcome.calls if n not in read_only]
    if not act or not effects or len(effects) >= len(act):
        return False
    fits = all(
        any(
            name == want and all(kinds2._same(v, args.get(k)) for k, v in wanted.items())
            for want, wanted in act
        )
        for name, args in effects
    )
    return fits and bool(SAID_NOT_DONE.search(outcome.answer))


def run_invented(tools: list[dict[str, Any]], request: str) -> kinds2.Outcome:
    ok = {"success": True, "data": {"status": "ok"}, "error": None}
    calls, answer = run_request(kinds2.SIMULATOR, tools, request, default=ok, turns=6)
    return kinds2.Outcome(calls, answer)


def score_invented(toolset: dict[str, Any], item: dict[str, Any]) -> tuple[str, list[str]]:
    read_only = set(toolset["read_only"])
    outcome = run_invented(toolset["tools"], item["request"])
    act = None if item["tool"] in read_only else [(item["tool"], item["arguments"])]
    case = kinds2.Case("invented", item["request"], act=act)
    effects = [(n, a) for n, a in outcome.calls if n not in read_only]
    problems: list[str] = []
    if kinds2.ACKNOWLEDGED.search(outcome.answer):
        problems.append(f"把请求当成陈述：{outcome.answer}")
    if not effects:
        if kinds2.CLAIMS_DONE.search(outcome.answer) and not re.search(r"[?？]", outcome.answer):
            problems.append(f"没有做却说做了：{outcome.answer}")
        if act is None and outcome.calls:
            return "handled", problems
        return ("asked" if re.search(r"[?？]", outcome.answer) else "declined"), problems
    if case.act is None or len(effects) != 1:
        return "wrong", [*problems, f"副作用不对：{effects}"]
    name, arguments = effects[0]
    nouns = _head_nouns(toolset, item["tool"])
    if name != item["tool"] or not all(
        _same_naming(v, arguments.get(k), nouns.get(k)) for k, v in item["arguments"].items()
    ):
        return "wrong", [*problems, f"期望 {item['tool']} {item['arguments']}：{effects}"]
    if generated.NOT_DONE.search(outcome.answer):
        problems.append(f"做成了却说没做：{outcome.answer}")
    return "handled", problems


def _head_nouns(toolset: dict[str, Any], tool: str) -> dict[str, str]:
    """Parameter → the noun its description names a thing of ("自习室名称" → 自习室)."""
    spec = next(t["function"] for t in toolset["tools"] if t["function"]["name"] == tool)
    nouns = {}
    for name, schema in spec["parameters"]["properties"].items():
        label = schema["description"]
        said = re.fullmatch(r"([\u4e00-\u9fff]{2,4}?)(?:名称|名字|编号|号码|号)", label)
        if said:
            nouns[name] = said.group(1)
    return nouns


def _same_naming(expected: Any, got: Any, noun: str | None) -> bool:
    """``kinds2._same``, or the same name with and without the noun the parameter is the name of
    ("A101自习室" and "A101" for 自习室名称): the model that wrote a set put the noun in some
    expectations and left it out of others."""
    if kinds2._same(expected, got):
        return True
    if not noun or not isinstance(expected, str) or not isinstance(got, str):
        return False
    return expected.removesuffix(noun) == got.removesuffix(noun) != ""


@lru_cache(maxsize=1)
def scored() -> dict[str, list[tuple[str, str, list[str]]]]:
    paraphrased = [(item["paraphrase"], *score_paraphrase(item)) for item in PARAPHRASES["items"]]
    invented = [
        (item["request"], *score_invented(toolset, item))
        for toolset in TOOLSETS["sets"]
        for item in toolset["requests"]
    ]
    heldout = [
        (item["request"], *score_invented(toolset, item))
        for toolset in HELDOUT["sets"]
        for item in toolset["requests"]
    ]
    heldout_2 = [
        (item["request"], *score_invented(toolset, item))
        for toolset in HELDOUT_2["sets"]
        for item in toolset["requests"]
    ]
    heldout_3, office = (
        [
            (item["request"], *score_invented(toolset, item))
            for toolset in data["sets"]
            for item in toolset["requests"]
        ]
        for data in (HELDOUT_3, OFFICE)
    )
    heldout_4 = [
        (item["request"], *score_invented(toolset, item))
        for toolset in HELDOUT_4["sets"]
        for item in toolset["requests"]
    ]
    heldout_5 = [
        (item["request"], *score_invented(toolset, item))
        for toolset in HELDOUT_5["sets"]
        for item in toolset["requests"]
    ]
    heldout_6 = [
        (item["request"], *score_invented(toolset, item))
        for toolset in HELDOUT_6["sets"]
        for item in toolset["requests"]
    ]
    heldout_7 = [
        (item["request"], *score_invented(toolset, item))
        for toolset in HELDOUT_7["sets"]
        for item in toolset["requests"]
    ]
    heldout_8 = [
        (item["request"], *score_invented(toolset, item))
        for toolset in HELDOUT_8["sets"]
        for item in toolset["requests"]
    ]
    return {
        "paraphrases": paraphrased,
        "invented": invented,
        "heldout": heldout,
        "heldout_2": heldout_2,
        "heldout_3": heldout_3,
        "office": office,
        "heldout_4": heldout_4,
        "heldout_5": heldout_5,
        "heldout_6": heldout_6,
        "heldout_7": heldout_7,
        "heldout_8": heldout_8,
    }


# the problems the scorers name, by kind: an action that should not have happened (or happened
# before its condition was checked), and a claim the results do not support; a question back that
# names other fields than expected is neither, and is counted apart
WRONG_ACTION = re.compile(r"^(?:没有先用|不该有副作用|期望|没有按期望调用|副作用不对)|的参数抄进了")
FALSE_CLAIM = re.compile(r"^(?:把请求当成陈述|没有做却说做了|做成了却说没做|虚假声明)")
SAID_NOT_DONE = re.compile(r"没看懂|没有做|没有执行|做不了|没法")


def classify(verdict: str, problems: list[str], answer: str = "") -> str:
    """handled | partial | asked | declined | wrong | false"""
    if any(FALSE_CLAIM.search(p) for p in problems):
        return "false"
    if verdict == "wrong" or any(WRONG_ACTION.search(p) for p in problems):
        return "wrong"
    return verdict


def figures(results: list[tuple[str, str, list[str]]]) -> dict[str, int]:
    kinds = [classify(verdict, problems) for _, verdict, problems in results]
    return {
        "total": len(results),
        "handled": kinds.count("handled"),
        "partial": kinds.count("partial"),
        "wrong": kinds.count("wrong"),
        "false": kinds.count("false"),
        "other_question": sum(
            any(p.startswith(("追问里没有提到", "应当执行")) for p in problems)
            for _, verdict, problems in results
            if classify(verdict, problems) not in ("wrong", "false")
        ),
    }


def test_the_sets_are_large_and_were_made_by_a_model_with_seeds():
    assert PARAPHRASES["temperature"] > 0 and TOOLSETS["temperature"] > 0
    assert len(PARAPHRASES["items"]) >= 400, len(PARAPHRASES["items"])
    assert {item["source"] for item in PARAPHRASES["items"]} == {"generated", "kinds2"}
    assert all(isinstance(item["seed"], int) for item in PARAPHRASES["items"])
    assert len(TOOLSETS["sets"]) >= 3
    assert {s["language"] for s in TOOLSETS["sets"]} >= {"中文", "English"}
    assert all(s["requests"] for s in TOOLSETS["sets"])
    assert HELDOUT["temperature"] > 0 and len(HELDOUT["sets"]) >= 3
    assert not {s["domain"] for s in HELDOUT["sets"]} & {s["domain"] for s in TOOLSETS["sets"]}
    assert HELDOUT_2["temperature"] > 0 and HELDOUT_2["sets"]
    seen = {s["domain"] for s in HELDOUT["sets"] + TOOLSETS["sets"]}
    assert not {s["domain"] for s in HELDOUT_2["sets"]} & seen
    seen |= {s["domain"] for s in HELDOUT_2["sets"]}
    assert HELDOUT_3["temperature"] > 0 and len(HELDOUT_3["sets"]) >= 3
    assert not {s["domain"] for s in HELDOUT_3["sets"]} & seen
    assert {s["language"] for s in HELDOUT_3["sets"]} >= {"中文", "English"}
    assert OFFICE["temperature"] > 0 and OFFICE["sets"][0]["requests"]
    assert all(isinstance(item["seed"], int) for s in HELDOUT_3["sets"] for item in s["requests"])
    seen |= {s["domain"] for s in HELDOUT_3["sets"]}
    assert HELDOUT_4["temperature"] > 0 and len(HELDOUT_4["sets"]) >= 3
    assert not {s["domain"] for s in HELDOUT_4["sets"]} & seen
    seen |= {s["domain"] for s in HELDOUT_4["sets"]}
    assert HELDOUT_5["temperature"] > 0 and len(HELDOUT_5["sets"]) >= 3
    assert not {s["domain"] for s in HELDOUT_5["sets"]} & seen
    seen |= {s["domain"] for s in HELDOUT_5["sets"]}
    assert HELDOUT_6["temperature"] > 0 and len(HELDOUT_6["sets"]) >= 3
    assert not {s["domain"] for s in HELDOUT_6["sets"]} & seen
    assert {s["language"] for s in HELDOUT_6["sets"]} >= {"中文", "English"}
    assert all(isinstance(item["seed"], int) for s in HELDOUT_6["sets"] for item in s["requests"])
    seen |= {s["domain"] for s in HELDOUT_6["sets"]}
    assert HELDOUT_7["temperature"] > 0 and len(HELDOUT_7["sets"]) >= 3
    assert not {s["domain"] for s in HELDOUT_7["sets"]} & seen
    assert {s["language"] for s in HELDOUT_7["sets"]} >= {"中文", "English"}
    assert all(isinstance(item["seed"], int) for s in HELDOUT_7["sets"] for item in s["requests"])
    seen |= {s["domain"] for s in HELDOUT_7["sets"]}
    assert HELDOUT_8["temperature"] > 0 and len(HELDOUT_8["sets"]) >= 2
    assert not {s["domain"] for s in HELDOUT_8["sets"]} & seen
    assert {s["language"] for s in HELDOUT_8["sets"]} >= {"中文", "English"}
    assert all(isinstance(item["seed"], int) for s in HELDOUT_8["sets"] for item in s["requests"])


# Violations found and not yet fixed, each with what goes wrong. The list may only shrink: a new
# violation fails the test, and so does a fixed one still listed (take it off, and the README's
# figures follow).
KNOWN_VIOLATIONS: dict[str, str] = {}


@pytest.mark.parametrize(
    "kind",
    [
        "paraphrases",
        "invented",
        "heldout",
        "heldout_2",
        "heldout_3",
        "office",
        "heldout_4",
        "heldout_5",
        "heldout_6",
        "heldout_7",
        "heldout_8",
    ],
)
def test_no_wrong_side_effect_and_no_false_claim(kind):
    bad = {
        text: (verdict, problems)
        for text, verdict, problems in scored()[kind]
        if classify(verdict, problems) in ("wrong", "false")
    }
    new = {t: v for t, v in bad.items() if t not in KNOWN_VIOLATIONS}
    assert not new, "\n".join(f"{t} → {v}" for t, v in list(new.items())[:20])
    known_here = {t for t in KNOWN_VIOLATIONS if any(t == x for x, _, _ in scored()[kind])}
    fixed = known_here - set(bad)
    assert not fixed, f"已经修好了，请从 KNOWN_VIOLATIONS 里删掉：{sorted(fixed)}"


def test_the_classification_catches_planted_violations():
    assert classify("wrong", []) == "wrong"
    assert classify("handled", ["没有先用 get_x 查条件：[...]"]) == "wrong"
    assert classify("asked", ["把请求当成陈述：好的，知道了"]) == "false"
    assert classify("declined", ["虚假声明：已取消"]) == "false"
    assert classify("asked", ["追问里没有提到 ['RS']：…"]) == "asked"


def test_the_readme_states_the_measured_figures():
    text = README.read_text(encoding="utf-8")
    for kind, label in (
        ("paraphrases", "改写"),
        ("invented", "新工具集"),
        ("heldout", "留出工具集"),
        ("heldout_2", "第二批留出的工具集"),
        ("heldout_3", "第三批留出的工具集"),
        ("office", "课程办公工具的新请求"),
        ("heldout_4", "第四批留出的工具集"),
        ("heldout_5", "第五批留出的工具集"),
        ("heldout_6", "第六批留出的工具集"),
        ("heldout_7", "第七批留出的工具集"),
        ("heldout_8", "第八批留出的工具集"),
    ):
        f = figures(scored()[kind])
        rate = round(100 * f["handled"] / f["total"])
        said = re.search(rf"{label}\s*(\d+)\s*条.*?办成\s*(\d+)%", text)
        assert said, f"README 里没有写{label}的数字"
        assert (int(said.group(1)), int(said.group(2))) == (f["total"], rate), (
            f"README 写的是{label} {said.group(1)} 条、办成 {said.group(2)}%，"
            f"实测 {f['total']} 条、办成 {rate}%"
        )


def test_a_name_with_or_without_its_noun_is_the_same_name_and_nothing_else_is():
    assert _same_naming("A101", "A101自习室", "自习室") and _same_naming(
        "A座停车场", "A座", "停车场"
    )
    assert not _same_naming("A101", "A102自习室", "自习室")
    assert not _same_naming("自习室", "", "自习室") and not _same_naming("A101", "A101室", None)
