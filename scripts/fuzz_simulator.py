"""Requests for the course simulator that nobody on the team wrote: made by the local model.

Three sets, each written to ``tests/data/fuzz/`` with the seed of every generation, and scored by
``tests/test_simulator_fuzz.py`` (the evaluation's paraphrases by
``tests/test_simulator_fuzz_eval.py``):

- ``paraphrases.json``: the requests of the simulator's scored request sets (the cases of
  ``tests/test_simulator_generated.py`` and ``tests/test_simulator_kinds2.py``, each with its
  expected outcome; all of them, or an evenly spaced ``--limit`` of them) each said ten other ways,
  colloquially, by the local model at temperature 0.9. A paraphrase
  inherits its source's expected outcome, so one that drops a value the outcome depends on (an id, a
  number, a quoted text, a name) is not kept: the check is mechanical (``keeps_values``), and the
  dropped ones are counted in the file.
- ``eval_paraphrases.json``: the user message of every case of the course's evaluation (the ten
  of ``office_cases.py`` and the twelve of ``extra_cases.py``) said ten other ways, the same way and
  with the same prompt, schema and value check as ``paraphrases.json`` (a larger token budget for
  a long request; a reply that is no JSON is asked again with the next seed, ``RETRIES`` times at
  most); scored with the evaluation's own engine. A case is one turn: its
  ``request`` is the only message the user writes (``decide`` is how a person answers the gate's
  confirmation, not a message to the model), so the request is what is paraphrased. The values a
  paraphrase must keep are ``values_of`` the request, with the case's expected arguments, the
  strings of its database checks and its answer facts as the expected values (``OneOf`` options
  each), plus the words a refusal case depends on (``EVAL_KEEP``: 身份证, 银行卡, 手机号 — without
  them the request is no longer the one to refuse).
- ``toolsets.json``: tool sets the local model invents (a domain each, Chinese or English
  descriptions), then requests it writes for each tool with the argument values it chose. A request
  is kept only when every chosen value appears in its words; its expected outcome is that call when
  the tool changes something, and no side effect when the tool only reads.

Run on a machine with the local model (``make local``):

    .venv/bin/python scripts/fuzz_simulator.py paraphrases --per-request 10
    .venv/bin/python scripts/fuzz_simulator.py toolsets --sets 3
    .venv/bin/python scripts/fuzz_simulator.py evalcases --per-request 10

A held-out batch in domains of its own, one domain at a time (``--first`` keeps the ones before;
``heldout_toolsets_2.json`` was made so, seed 11000):

    .venv/bin/python scripts/fuzz_simulator.py toolsets --first 1 --sets 1 --seed 11000 \
        --domain 婚纱摄影工作室:中文 --domain 搬家公司:中文 --out heldout_toolsets_2.json

The third batch was made in one go (``heldout_toolsets_3.json``, five domains, seed 13000), and
``heldout_office.json`` holds requests written for the course's own office tools (their real
schemas, three requests asked per tool, kept like a tool set's; seed 15000):

    .venv/bin/python scripts/fuzz_simulator.py toolsets --sets 5 --seed 13000 \
        --domain 家电维修上门服务:中文 --domain "a pharmacy counter:English" ... \
        --out heldout_toolsets_3.json
    .venv/bin/python scripts/fuzz_simulator.py office --seed 15000

The fourth batch (``heldout_toolsets_4.json``, seed 17000) was made the same way as the third,
after the third one's fixes.

Left out: judging whether a paraphrase still means what its source meant beyond the values it
keeps (the local model sometimes turns a request into a question; the scorer accepts asking and
declining, so such a paraphrase cannot make a wrong action look right).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

OUT = ROOT / "tests" / "data" / "fuzz"
TEMPERATURE = 0.9

PARAPHRASE_SCHEMA = {
    "type": "object",
    "properties": {
        "paraphrases": {
            "type": "array",
            "items": {"type": "string", "minLength": 2, "maxLength": 120},
            "minItems": 3,
            "maxItems": 12,
        }
    },
    "required": ["paraphrases"],
}

PARAPHRASE_PROMPT = """把下面这句用户对助手说的话，换 {n} 种不同的说法改写。要求：
- 意思不变：要做的事、对象和条件都不变；
- 原句里的编号、数字、金额、日期、时间、人名、物品名、引号里的内容，每一个都要原样保留（数字可以写成汉字）；
- 说法要多样：口语化、换词序、用同义词、省略主语、加语气词、换一种礼貌程度，像不同的真人在说；
- 不要添加原句没有的信息，不要写成解释。
只输出 JSON：{{"paraphrases": [...]}}

原句：{request}"""  # noqa: E501 (the prompt's words, one line each)

TOOLSET_SCHEMA = {
    "type": "object",
    "properties": {
        "domain": {"type": "string"},
        "tools": {
            "type": "array",
            "minItems": 3,
            "maxItems": 5,
            "items": {
                "type": "object",
                "properties": {
                    "name": {"type": "string", "pattern": "^[a-z][a-z0-9_]{2,40}$"},
                    "description": {"type": "string"},
                    "read_only": {"type": "boolean"},
                    "parameters": {
                        "type": "array",
                        "minItems": 1,
                        "maxItems": 4,
                        "items": {
                            "type": "object",
                            "properties": {
                                "name": {"type": "string", "pattern": "^[a-z][a-z0-9_]{1,30}$"},
                                "type": {"type": "string", "enum": ["string", "integer"]},
                                "description": {"type": "string"},
                            },
                            "required": ["name", "type", "description"],
                        },
                    },
                },
                "required": ["name", "description", "read_only", "parameters"],
            },
        },
    },
    "required": ["domain", "tools"],
}

TOOLSET_PROMPT = """为一个{domain}设计 3 到 5 个给 AI 助手调用的工具（函数）。
- 至少一个只查询（read_only 为 true），至少两个会改动数据（预约、取消、登记、修改之类，read_only 为 false）；
- 工具名用小写英文和下划线；描述和参数说明用{language}写，参数说明里给一个例子（编号一类的参数给出格式，例如 AB1234）；
- 每个工具 1 到 4 个参数，类型只用 string 或 integer；不要用日期和时间参数。
只输出 JSON。"""  # noqa: E501 (the prompt's words, one line each)

REQUESTS_SCHEMA = {
    "type": "object",
    "properties": {
        "requests": {
            "type": "array",
            "minItems": 2,
            "maxItems": 4,
            "items": {
                "type": "object",
                "properties": {
                    "arguments": {"type": "object"},
                    "request": {"type": "string", "minLength": 4, "maxLength": 100},
                },
                "required": ["arguments", "request"],
            },
        }
    },
    "required": ["requests"],
}

REQUESTS_PROMPT = """下面是一个工具的说明。请替不同的用户写 3 句用中文对助手说的话，每句都需要调用这个工具一次：
先给出这次调用的参数值（arguments，按参数说明填写，值要具体），再写用户的原话（request）。
用户的原话里必须原样出现每一个参数值；说法要口语、多样，不要提到工具名。
只输出 JSON：{{"requests": [{{"arguments": {{...}}, "request": "..."}}]}}

工具：{tool}"""  # noqa: E501 (the prompt's words, one line each)

DOMAINS = [
    ("宠物美容店", "中文"),
    ("a public library's front desk", "English"),
    ("共享办公空间", "中文"),
    ("a car rental counter", "English"),
    ("社区医院的体检中心", "中文"),
]


# --- the checks that decide what is kept ----------------------------------------------------------


def _numbers(text: str) -> set[float]:
    from handwritten_agent.course.offline.simulator.text import find_numbers, normalize

    return {n.value for n in find_numbers(normalize(text))}


def _squash(text: str) -> str:
    from handwritten_agent.course.offline.simulator.text import normalize

    return re.sub(r"\s+", "", normalize(text)).lower()


# the words that fix a day or a time: a paraphrase that changes one ("晚上" → "早上") asks for
# something else, and the source's expected outcome no longer applies
TIME_WORDS = re.compile(
    r"大?[前后]天|[今明昨]天|[今明昨]儿|[上下这本]+(?:周|星期|礼拜)[一二三四五六日天]?|周[一二三四五六日天末]"
    r"|(?:星期|礼拜)[一二三四五六日天]|上午|下午|中午|晚上|早上|早晨|凌晨|傍晚|夜里|一早|半"
)


def values_of(request: str, expected: Any) -> tuple[list[str], set[float]]:
    """The words and numbers of ``request`` a paraphrase must keep: every id-like token, every
    quoted span, every word that fixes a day or a time, every number, and every expected argument
    value (or list item) the request itself spells out."""
    words = set(re.findall(r"[A-Za-z]+-?\d+[A-Za-z0-9-]*", request))
    words |= set(re.findall(r"[“\"「『]([^”\"」』]{1,40})[”\"」』]", request))
    words |= set(TIME_WORDS.findall(request))
    numbers = _numbers(request)
    for value in _expected_strings(expected):
        if _squash(value) in _squash(request):
            words.add(value)
    return sorted(words), numbers


def _expected_strings(expected: Any) -> list[str]:
    found: list[str] = []
    for _, arguments in expected or []:
        for value in arguments.values():
            for item in value if isinstance(value, list) else [value]:
                if isinstance(item, str) and len(item) >= 2:
                    found.append(item)
    return found


def _expected_numbers(expected: Any) -> set[float]:
    found: set[float] = set()
    for _, arguments in expected or []:
        for value in arguments.values():
            for item in value if isinstance(value, list) else [value]:
                if isinstance(item, (int, float)) and not isinstance(item, bool):
                    found.add(float(item))
    return found


def keeps_values(paraphrase: str, words: list[str], numbers: set[float]) -> bool:
    squashed = _squash(paraphrase)
    return all(_squash(w) in squashed for w in words) and numbers <= _numbers(paraphrase)


# --- generation -----------------------------------------------------------------------------------


def kept_paraphrases(
    request: str, said: list[Any], words: list[str], numbers: set[float]
) -> tuple[list[str], int]:
    """The paraphrases worth scoring, in order: not empty, not the request again, not a repeat,
    and keeping every value (``keeps_values``); and how many were dropped for a lost value.
    """
    kept: list[str] = []
    dropped = 0
    seen = {_squash(request)}
    for text in (str(item).strip() for item in said):
        if not text or _squash(text) in seen:
            continue
        seen.add(_squash(text))
        if keeps_values(text, words, numbers):
            kept.append(text)
        else:
            dropped += 1
    return kept, dropped


def refilter() -> None:
    """Apply the current ``keeps_values`` to the paraphrases already made (no model needed)."""
    path = OUT / "paraphrases.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    sources = {(m, i): (r, e) for m, i, r, e in source_cases()}
    kept = []
    for item in data["items"]:
        request, expected = sources[(item["source"], item["index"])]
        if keeps_values(item["paraphrase"], *values_of(request, expected)):
            kept.append(item)
    data["dropped_for_lost_values"] += len(data["items"]) - len(kept)
    data["items"] = kept
    _write("paraphrases.json", data)
    print(f"kept {len(kept)}, dropped {data['dropped_for_lost_values']} in all", file=sys.stderr)


def _client():
    from handwritten_agent.llm import connect

    return connect("local", quiet=True)


def _ask(client, prompt: str, schema: dict[str, Any], seed: int, max_tokens: int) -> Any:
    result = client.complete(
        [{"role": "user", "content": prompt}],
        temperature=TEMPERATURE,
        seed=seed,
        max_tokens=max_tokens,
        response_format={
            "type": "json_schema",
            "json_schema": {"name": "out", "schema": schema, "strict": False},
        },
    )
    return json.loads(result.content or "{}")


def source_cases() -> list[tuple[str, int, str, Any]]:
    """(module, index, request, expected side effects) of every scored source request."""
    from tests import test_simulator_generated as generated
    from tests import test_simulator_kinds2 as kinds2

    found = []
    for module, cases in (("generated", generated.CASES), ("kinds2", kinds2.CASES)):
        for index, case in enumerate(cases):
            found.append((module, index, case.request, case.act))
    return found


def paraphrases(per_request: int, limit: int | None, seed: int) -> None:
    client = _client()
    every = source_cases()
    # evenly spaced when limited: every kind of source, not the first few templates
    sources = (
        [every[round(i * len(every) / limit)] for i in range(limit)]
        if limit and limit < len(every)
        else every
    )
    items, dropped, started = [], 0, time.time()
    for number, (module, index, request, expected) in enumerate(sources):
        words, numbers = values_of(request, expected)
        this_seed = seed + number
        try:
            said = _ask(
                client,
                PARAPHRASE_PROMPT.format(n=per_request, request=request),
                PARAPHRASE_SCHEMA,
                this_seed,
                max_tokens=60 * per_request,
            ).get("paraphrases", [])
        except (json.JSONDecodeError, ValueError) as exc:
            print(f"  {request}: no JSON ({exc})", file=sys.stderr)
            continue
        texts, lost = kept_paraphrases(request, said, words, numbers)
        dropped += lost
        items += [
            {
                "source": module,
                "index": index,
                "request": request,
                "paraphrase": text,
                "seed": this_seed,
            }
            for text in texts
        ]
        print(
            f"[{number + 1}/{len(sources)}] {time.time() - started:.0f}s kept {len(items)}",
            file=sys.stderr,
        )
        _write(
            "paraphrases.json",
            {
                "model": client.model,
                "temperature": TEMPERATURE,
                "per_request": per_request,
                "sources": number + 1,
                "dropped_for_lost_values": dropped,
                "items": items,
            },
        )


# words the expected outcome of a case depends on that no argument holds: what makes a request one
# to refuse (a paraphrase that drops them asks for something else)
EVAL_KEEP: dict[str, list[str]] = {
    "refuse_export": ["身份证", "银行卡"],
    "x_refuse_phones": ["手机号"],
}
EVAL_ABOUT = (
    "Paraphrases of the user message of every case of the course's evaluation (office_cases.py,"
    " extra_cases.py), made by scripts/fuzz_simulator.py evalcases. A case is one turn: its request"
    " is the only message the user writes (decide is how a person answers the confirmation gate),"
    " so the request is what is paraphrased. Kept: the paraphrases that keep every word and number"
    " in must_keep; dropped_for_lost_values counts the others."
)
RETRIES = 3  # generations per case at most: a reply cut off by max_tokens is retried, next seed


def _flat(value: Any) -> list[Any]:
    """The plain values of an expected value: ``OneOf`` options and list items, recursively."""
    from handwritten_agent.course.evaluation import OneOf

    if isinstance(value, OneOf):
        return [item for option in value.options for item in _flat(option)]
    if isinstance(value, (list, tuple)):
        return [item for option in value for item in _flat(option)]
    return [value]


def eval_expected(case: Any) -> list[tuple[str, dict[str, Any]]]:
    """A case's expected outcome in ``values_of``'s shape, ``[(tool, arguments)]``: its expected
    calls, the values of its database checks and its answer facts, each value flattened to a list of
    the plain values that would be right (``values_of`` keeps the strings the request spells out).
    """
    expected = [
        (call.tool, {name: _flat(value) for name, value in call.arguments.items()})
        for call in case.expected_calls
    ]
    expected.append(("state", {"rows": _flat([check.rows for check in case.state])}))
    expected.append(("answer", {"facts": _flat(list(case.answer_facts))}))
    expected.append(("keep", {"words": EVAL_KEEP.get(case.id, [])}))
    return expected


def eval_cases() -> list[tuple[str, Any]]:
    """(set name, case) of every evaluation case: the office ten, then the extra twelve."""
    from handwritten_agent.course.evaluation.extra_cases import EXTRA_CASES
    from handwritten_agent.course.evaluation.office_cases import OFFICE_CASES

    return [("office", case) for case in OFFICE_CASES] + [("extra", case) for case in EXTRA_CASES]


def eval_values(case: Any) -> tuple[list[str], set[float]]:
    """The words and numbers a paraphrase of ``case.request`` must keep."""
    words, numbers = values_of(case.request, eval_expected(case))
    for word in EVAL_KEEP.get(case.id, []):  # kept even when spelled apart in the request
        if word not in words:
            words.append(word)
    return sorted(words), numbers


def evalcases(per_request: int, seed: int, only: list[str] | None = None) -> None:
    """Paraphrase the request of every evaluation case and write ``eval_paraphrases.json``."""
    client = _client()
    name = "eval_paraphrases.json"
    cases = [(s, c) for s, c in eval_cases() if not only or c.id in only]
    # cases made earlier are kept when only some are made again
    done: list[dict[str, Any]] = (
        json.loads((OUT / name).read_text(encoding="utf-8"))["cases"]
        if only and (OUT / name).exists()
        else []
    )
    order = [c.id for _, c in eval_cases()]
    started = time.time()
    for number, (case_set, case) in enumerate(cases):
        words, numbers = eval_values(case)
        first_seed = seed + 10 * order.index(case.id)
        said: list[Any] | None = None
        failed: list[dict[str, Any]] = []
        this_seed = first_seed
        for this_seed in range(first_seed, first_seed + RETRIES):
            began = time.time()
            try:
                said = _ask(
                    client,
                    PARAPHRASE_PROMPT.format(n=per_request, request=case.request),
                    PARAPHRASE_SCHEMA,
                    this_seed,
                    # the paraphrases subcommand's budget, more for a long request (a reply cut
                    # off is no JSON)
                    max_tokens=max(60, 2 * len(case.request)) * per_request,
                ).get("paraphrases", [])
                break
            except (json.JSONDecodeError, ValueError) as exc:
                failed.append({"seed": this_seed, "error": str(exc)[:200]})
                print(f"  {case.id} seed {this_seed}: no JSON ({exc})", file=sys.stderr)
            finally:
                print(f"  {case.id} seed {this_seed}: {time.time() - began:.0f}s", file=sys.stderr)
        texts, dropped = kept_paraphrases(case.request, said or [], words, numbers)
        kept = [{"paraphrase": text, "seed": this_seed} for text in texts]
        done = [item for item in done if item["id"] != case.id]
        done.append(
            {
                "id": case.id,
                "set": case_set,
                "request": case.request,
                "must_keep": {"words": words, "numbers": sorted(numbers)},
                "seed": this_seed if said is not None else None,
                "failed_generations": failed,
                "paraphrases": kept,
                "dropped_for_lost_values": dropped,
            }
        )
        done.sort(key=lambda item: order.index(item["id"]))
        print(
            f"[{number + 1}/{len(cases)}] {case.id}: kept {len(kept)}, dropped {dropped}"
            f" ({time.time() - started:.0f}s in all)",
            file=sys.stderr,
        )
        _write(
            name,
            {
                "about": EVAL_ABOUT,
                "model": client.model,
                "temperature": TEMPERATURE,
                "per_request": per_request,
                "cases": done,
            },
        )


def _tool_spec(tool: dict[str, Any]) -> dict[str, Any]:
    properties = {
        p["name"]: {"type": p["type"], "description": p["description"]} for p in tool["parameters"]
    }
    return {
        "type": "function",
        "function": {
            "name": tool["name"],
            "description": tool["description"],
            "parameters": {
                "type": "object",
                "properties": properties,
                "required": list(properties),
            },
        },
    }


def toolsets(
    sets: int,
    seed: int,
    first: int = 0,
    domains: list[tuple[str, str]] | None = None,
    name: str = "toolsets.json",
) -> None:
    """Invent ``sets`` tool sets from ``domains`` (default ``DOMAINS``) starting at ``first``, and
    write them to ``name`` under ``tests/data/fuzz/``.
    """
    client = _client()
    path = OUT / name
    # sets made earlier are kept (a long run can be done a few domains at a time)
    out: list[dict[str, Any]] = json.loads(path.read_text())["sets"] if first else []
    domains = domains or DOMAINS
    for number, (domain, language) in enumerate(domains[first : first + sets], start=first):
        this_seed = seed + 100 * number
        made = _ask(
            client,
            TOOLSET_PROMPT.format(domain=domain, language=language),
            TOOLSET_SCHEMA,
            this_seed,
            max_tokens=900,
        )
        tools = [t for t in made.get("tools", []) if t.get("parameters")]
        names = [t["name"] for t in tools]
        if len(set(names)) != len(names):
            continue
        specs = [_tool_spec(t) for t in tools]
        requests, dropped = [], 0
        for k, tool in enumerate(tools):
            try:
                written = _ask(
                    client,
                    REQUESTS_PROMPT.format(
                        tool=json.dumps(specs[k]["function"], ensure_ascii=False)
                    ),
                    REQUESTS_SCHEMA,
                    this_seed + k + 1,
                    max_tokens=500,
                ).get("requests", [])
            except (json.JSONDecodeError, ValueError):
                continue
            wanted = {p["name"]: p["type"] for p in tool["parameters"]}
            for item in written:
                arguments = {
                    k2: v for k2, v in (item.get("arguments") or {}).items() if k2 in wanted
                }
                text = str(item.get("request", "")).strip()
                if set(arguments) != set(wanted) or not all(
                    _squash(str(v)) in _squash(text)
                    or (isinstance(v, (int, float)) and float(v) in _numbers(text))
                    for v in arguments.values()
                ):
                    dropped += 1
                    continue
                requests.append(
                    {
                        "tool": tool["name"],
                        "arguments": arguments,
                        "request": text,
                        "seed": this_seed + k + 1,
                    }
                )
        out = [kept for kept in out if kept["domain"] != domain]
        out.append(
            {
                "domain": domain,
                "language": language,
                "seed": this_seed,
                "tools": specs,
                "read_only": [t["name"] for t in tools if t["read_only"]],
                "requests": requests,
                "dropped_for_lost_values": dropped,
            }
        )
        print(
            f"{domain}: {len(tools)} tools, {len(requests)} requests kept, {dropped} dropped",
            file=sys.stderr,
        )
        _write(name, {"model": client.model, "temperature": TEMPERATURE, "sets": out})


def office_requests(seed: int, name: str = "heldout_office.json") -> None:
    """Requests the local model writes for the course's own office tools (their real schemas,
    three per tool, ``REQUESTS_PROMPT``), kept as ``toolsets`` keeps its requests, and written as
    one tool set in the same shape (scored the same way: a tool that changes something expects its
    call, a tool that only reads expects no side effect).
    """
    import tempfile

    from handwritten_agent.scenarios.office import OfficeScenario

    client = _client()
    with tempfile.TemporaryDirectory() as folder:
        registry = OfficeScenario.create(folder, customers=5).registry("u_fuzz")
        specs = registry.schemas()
        read_only = [tool.name for tool in registry if not tool.side_effects]
    requests, dropped = [], 0
    for k, spec in enumerate(specs):
        function = spec["function"]
        wanted = set(function["parameters"].get("properties", {}))
        required = set(function["parameters"].get("required", []))
        try:
            written = _ask(
                client,
                REQUESTS_PROMPT.format(tool=json.dumps(function, ensure_ascii=False)),
                REQUESTS_SCHEMA,
                seed + k + 1,
                max_tokens=500,
            ).get("requests", [])
        except (json.JSONDecodeError, ValueError):
            continue
        for item in written:
            arguments = {a: v for a, v in (item.get("arguments") or {}).items() if a in wanted}
            text = str(item.get("request", "")).strip()
            if not required <= set(arguments) or not all(
                _squash(str(v)) in _squash(text)
                or (isinstance(v, (int, float)) and float(v) in _numbers(text))
                for v in arguments.values()
            ):
                dropped += 1
                continue
            requests.append(
                {
                    "tool": function["name"],
                    "arguments": arguments,
                    "request": text,
                    "seed": seed + k + 1,
                }
            )
        print(f"{function['name']}: {len(requests)} kept, {dropped} dropped", file=sys.stderr)
    office = {
        "domain": "课程自己的办公工具",
        "language": "中文",
        "seed": seed,
        "tools": specs,
        "read_only": read_only,
        "requests": requests,
        "dropped_for_lost_values": dropped,
    }
    _write(name, {"model": client.model, "temperature": TEMPERATURE, "sets": [office]})


def _write(name: str, data: dict[str, Any]) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / name).write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    p = sub.add_parser("paraphrases")
    p.add_argument("--per-request", type=int, default=10)
    p.add_argument("--limit", type=int, default=None)
    p.add_argument("--seed", type=int, default=1000)
    t = sub.add_parser("toolsets")
    t.add_argument("--sets", type=int, default=3)
    t.add_argument("--seed", type=int, default=5000)
    t.add_argument("--first", type=int, default=0, help="the first domain (keeps the sets before)")
    t.add_argument(
        "--domain",
        action="append",
        metavar="DOMAIN:LANGUAGE",
        help="a domain of your own instead of DOMAINS (repeat), e.g. 牙科诊所:中文",
    )
    t.add_argument("--out", default="toolsets.json", help="the file under tests/data/fuzz/")
    o = sub.add_parser("office", help="requests for the course's own office tools")
    o.add_argument("--seed", type=int, default=15000)
    o.add_argument("--out", default="heldout_office.json", help="the file under tests/data/fuzz/")
    sub.add_parser("refilter", help="apply the current value check to paraphrases.json")
    e = sub.add_parser("evalcases", help="paraphrase the evaluation's cases (office and extra)")
    e.add_argument("--per-request", type=int, default=10)
    e.add_argument("--seed", type=int, default=2000)
    e.add_argument(
        "--only", action="append", metavar="CASE", help="only this case (repeat; keeps the rest)"
    )
    args = parser.parse_args()
    if args.what == "refilter":
        refilter()
    elif args.what == "office":
        office_requests(args.seed, args.out)
    elif args.what == "evalcases":
        evalcases(args.per_request, args.seed, args.only)
    elif args.what == "paraphrases":
        paraphrases(args.per_request, args.limit, args.seed)
    else:
        domains = [tuple(d.rsplit(":", 1)) for d in args.domain] if args.domain else None
        toolsets(args.sets, args.seed, args.first, domains, args.out)


if __name__ == "__main__":
    main()
