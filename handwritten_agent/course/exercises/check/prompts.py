"""What Exercise 2.3 checks in a learner's tool prompt: the tool sets it is rendered for, what the
prompt must state about each tool (found wherever and however it is written), and how the
simulator's reading of the prompt compares with the tools it was made from.

Left out: the wording. Any layout passes (JSON, tables, lists, trees, signatures, YAML, tags, prose)
as long as the facts are there and the simulator reads the same tools back. Which parameters are
required is judged only by that reading (a Python signature says it with ``= None``, a table with a
column, a sentence with 必填).
"""

from __future__ import annotations

import json
import re
from typing import Any

from ....messages import ToolCall
from .framework import mentions
from .reading import says_answer_without_tools

_STOCKS = [
    {
        "name": "get_stock_price",
        "description": "查询一只股票的最新价格（示例数据），例如“苹果公司的股价是多少”。",
        "parameters": {
            "type": "object",
            "properties": {
                "symbol": {"type": "string", "description": "股票代码，例如：AAPL"},
                "market": {
                    "type": "string",
                    "enum": ["US", "HK", "CN"],
                    "description": "交易所所在的市场",
                },
            },
            "required": ["symbol"],
        },
    },
    {
        "name": "translate_text",
        "description": "把一段文字翻译成另一种语言，例如“把你好翻译成英文”。",
        "parameters": {
            "type": "object",
            "properties": {
                "text": {"type": "string", "description": "要翻译的原文"},
                "target_language": {
                    "type": "string",
                    "enum": ["英文", "日文", "法文"],
                    "description": "目标语言",
                },
            },
            "required": ["text", "target_language"],
        },
    },
    {
        "name": "get_current_time",
        "description": "获取当前的日期和时间，不需要参数。",
        "parameters": {"type": "object", "properties": {}},
    },
]

_OFFICE = [
    {
        "name": "book_meeting_room",
        "description": "预订一间会议室，例如“帮我订明天下午的 B202 会议室”。",
        "parameters": {
            "type": "object",
            "properties": {
                "room": {
                    "type": "string",
                    "enum": ["A101", "B202", "C303"],
                    "description": "会议室编号",
                },
                "date": {"type": "string", "description": "日期，格式 YYYY-MM-DD，例如 2026-03-20"},
                "attendees": {"type": "integer", "description": "参会人数，例如 6"},
                "projector": {"type": "boolean", "description": "是否需要投影仪"},
            },
            "required": ["room", "date", "attendees"],
        },
    },
    {
        "name": "search_orders",
        "description": "按商品关键词查询我的订单，例如“我买的耳机发货了吗”。",
        "parameters": {
            "type": "object",
            "properties": {
                "keyword": {"type": "string", "description": "商品关键词，例如：耳机"},
                "status": {
                    "type": "string",
                    "enum": ["待付款", "已发货", "已完成"],
                    "description": "订单状态",
                },
                "limit": {"type": "integer", "description": "最多返回几条，例如 10"},
            },
            "required": ["keyword"],
        },
    },
]

_WEATHER = [
    {
        "name": "get_weather",
        "description": "查询某个城市今天的天气，例如“北京今天天气怎么样”。",
        "parameters": {
            "type": "object",
            "properties": {"city": {"type": "string", "description": "城市名称，例如：北京"}},
            "required": ["city"],
        },
    },
]

# Two names where one is the start of the other, a camelCase name and five enum values
_MESSAGING = [
    {
        "name": "send_sms",
        "description": "给一个手机号发一条短信，例如“给 13800000000 发短信说我到了”。",
        "parameters": {
            "type": "object",
            "properties": {
                "phone": {"type": "string", "description": "手机号，例如：13800000000"},
                "text": {"type": "string", "description": "短信内容"},
            },
            "required": ["phone", "text"],
        },
    },
    {
        "name": "send_sms_to_all",
        "description": "给通讯录里的所有人群发同一条短信，例如“群发短信通知明天放假”。",
        "parameters": {
            "type": "object",
            "properties": {"text": {"type": "string", "description": "短信内容"}},
            "required": ["text"],
        },
    },
    {
        "name": "lookupHRPolicy",
        "description": "查询公司的人事制度，例如“年假有几天”“出差怎么报销”。",
        "parameters": {
            "type": "object",
            "properties": {
                "topic": {
                    "type": "string",
                    "enum": ["年假", "病假", "报销", "加班", "出差"],
                    "description": "制度的主题",
                },
            },
            "required": ["topic"],
        },
    },
]
# The same name as _WEATHER with other parameters: a prompt cached by the tools' names is stale;
# the optional `day` is a part of the required `days`
_WEATHER_UNITS = [
    {
        "name": "get_weather",
        "description": "查询某个城市未来几天的天气预报，可以选温度单位，例如“明天广州多少度”。",
        "parameters": {
            "type": "object",
            "properties": {
                "city": {"type": "string", "description": "城市名称，例如：广州"},
                "unit": {
                    "type": "string",
                    "enum": ["摄氏度", "华氏度"],
                    "description": "温度单位",
                },
                "days": {"type": "integer", "description": "预报几天，例如 3"},
                "day": {"type": "string", "description": "只看其中一天时填日期，例如 2026-03-20"},
            },
            "required": ["city", "days"],
        },
    },
]

PROMPT_TOOL_SETS: list[tuple[str, list[dict[str, Any]], list[tuple[str, str, dict[str, Any]]]]] = [
    (
        "三个工具（股价、翻译、时间）",
        _STOCKS,
        [
            ("帮我查一下 AAPL 的股价", "get_stock_price", {"symbol": "AAPL"}),
            (
                "把“早上好”翻译成日文",
                "translate_text",
                {"text": "早上好", "target_language": "日文"},
            ),
            ("现在几点了？", "get_current_time", {}),
        ],
    ),
    (
        "另一组工具（会议室、订单：有整数、布尔和可选参数）",
        _OFFICE,
        [
            (
                "帮我订 2026-03-20 的 B202 会议室，6 个人参加",
                "book_meeting_room",
                {"room": "B202", "date": "2026-03-20", "attendees": 6},
            ),
            ("帮我查一下耳机的订单", "search_orders", {"keyword": "耳机"}),
        ],
    ),
    ("只有一个工具", _WEATHER, [("杭州今天天气怎么样？", "get_weather", {"city": "杭州"})]),
    (
        "名字相近的三个工具（send_sms、send_sms_to_all、lookupHRPolicy）",
        _MESSAGING,
        [
            (
                "给 13800000000 发短信说我到了",
                "send_sms",
                {"phone": "13800000000", "text": "我到了"},
            ),
            ("年假有几天？", "lookupHRPolicy", {"topic": "年假"}),
        ],
    ),
    (
        "同名的 get_weather 换了参数（温度单位、天数）",
        _WEATHER_UNITS,
        [("广州未来 3 天的天气，用华氏度", "get_weather", {"city": "广州", "days": 3})],
    ),
    ("没有工具（空列表）", [], []),
]
"""(label, tools, [(request, tool the simulator must call, the required arguments it must
fill)]).
"""

_TYPE_WORDS = {
    "string": r"string|str\b|字符串|文本|text",
    "integer": r"integer|int\b|整数",
    "number": r"number|float|double|数字|数值|小数",
    "boolean": r"boolean|bool\b|布尔|true\s*/\s*false|是否",
    "array": r"array|list|数组|列表",
    "object": r"object|dict|对象",
}


def _found(prompt: str, word: str) -> bool:
    """``word`` in ``prompt``: as a whole name for identifiers and codes (US ≠ USD), as a substring
    otherwise.
    """
    return mentions(prompt, word) if re.fullmatch(r"[\w.\-]+", word, re.A) else word in prompt


def _type_stated(prompt: str, name: str, json_type: str, enum: Any = None) -> bool:
    """Some occurrence of parameter ``name`` has a word for ``json_type`` close to it (before or
    after); for a string with an ``enum``, its values in quotes right after the name say it too
    (a TypeScript union ``"年假" | "病假"``).
    """
    pattern = re.compile(_TYPE_WORDS.get(json_type, re.escape(json_type)), re.I)
    quoted = (
        [f'"{value}"' for value in enum if isinstance(value, str)]
        if json_type == "string" and isinstance(enum, list)
        else []
    )
    for match in re.finditer(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])", prompt):
        if pattern.search(prompt[max(0, match.start() - 40) : match.end() + 160]):
            return True
        after = prompt[match.end() : match.end() + 12 + sum(len(value) + 3 for value in quoted)]
        if quoted and all(value in after for value in quoted):
            return True
    return False


def excerpt(prompt: str, *words: str, width: int = 90) -> str:
    """The part of ``prompt`` around the first of ``words`` it contains (the start of the prompt if
    none), with its place.
    """
    for word in words:
        match = (
            (
                re.search(rf"(?<![A-Za-z0-9_]){re.escape(word)}(?![A-Za-z0-9_])", prompt)
                or re.search(re.escape(word), prompt)
            )
            if word
            else None
        )
        if match:
            start, end = max(0, match.start() - width // 3), min(len(prompt), match.end() + width)
            return (
                f"（第 {match.start() + 1} 个字符附近）"
                + ("…" if start else "")
                + prompt[start:end]
                + ("…" if end < len(prompt) else "")
            )
    return (
        prompt[: width * 2]
        + ("…" if len(prompt) > width * 2 else "")
        + f"（共 {len(prompt)} 个字符）"
    )


def _escaped_chinese(prompt: str) -> tuple[str, str] | None:
    """``(the escaped part, what it says)`` when the prompt writes Chinese as ``\\uXXXX`` escapes,
    else None."""
    match = re.search(r"(?:\\u[0-9a-fA-F]{4})+", prompt)
    if match is None:
        return None
    try:
        text = json.loads(f'"{match.group(0)}"')
    except ValueError:
        return None
    wide = re.search(r"[\u3000-\u9fff\uff00-\uffef]", text)
    return (match.group(0)[:60], text[:20]) if wide else None


def prompt_problems(prompt: str, tools: list[dict[str, Any]]) -> list[tuple[str, str, str, str]]:
    """What the prompt leaves out, as (case, expected, the part of the prompt to look at, hint), in
    reading order.
    """
    problems: list[tuple[str, str, str, str]] = []
    escaped = _escaped_chinese(prompt)
    if escaped:
        problems.append(
            (
                "中文原样写出",
                f"提示词里的中文原样写出，例如 {escaped[1]}",
                escaped[0],
                (
                    "json.dumps 默认把中文转成 \\uXXXX（ensure_ascii=True），模型读到的是一串编码："
                    "用 json.dumps(..., ensure_ascii=False)，中文原样放进提示词。"
                ),
            )
        )
    for spec in tools:
        name, description = spec["name"], spec.get("description", "")
        if not mentions(prompt, name):
            glued = name in prompt
            folded = next(
                (
                    prompt[m.start() : m.end()]
                    for m in re.finditer(re.escape(name), prompt, re.I)
                    if prompt[m.start() : m.end()] != name
                ),
                None,
            )
            problems.append(
                (
                    f"写出工具 {name} 的名字",
                    f"提示词里有工具名 {name}（前后用空格或标点隔开）",
                    excerpt(prompt, *([name] if glued else [folded] if folded else [])),
                    (
                        "工具名和别的字连在了一起，模型分不出哪里是名字：名字之间用逗号、"
                        "换行或列表隔开。"
                        if glued
                        else (
                            f"提示词里写的是 {folded}：工具名要一字不差，大小写也不能改——模型照着"
                            f"写出的名字调用，{folded} 这个工具不存在。"
                            if folded
                            else "每个工具都要写出 name：模型要用这个名字调用它。"
                        )
                    ),
                )
            )
        if description and description not in prompt:
            problems.append(
                (
                    f"写出工具 {name} 的描述",
                    f"提示词里有完整的描述：{description}",
                    excerpt(prompt, name),
                    "每个工具都要写出完整的 description（不要截断或改写）："
                    "模型靠描述决定用哪个工具。",
                )
            )
        parameters = spec.get("parameters") or {}
        for pname, pschema in (parameters.get("properties") or {}).items():
            where = f"{name}.{pname}"
            if not mentions(prompt, pname):
                problems.append(
                    (
                        f"写出参数 {where}",
                        f"提示词里有参数名 {pname}",
                        excerpt(prompt, name),
                        "每个参数都要写出名字：模型按这个名字填 arguments。",
                    )
                )
                continue
            if pschema.get("description") and pschema["description"] not in prompt:
                problems.append(
                    (
                        f"写出参数 {where} 的描述",
                        f"提示词里有 {pschema['description']}",
                        excerpt(prompt, pname),
                        "每个参数都要写出描述：模型靠它知道该填什么。",
                    )
                )
            if pschema.get("type") and not _type_stated(
                prompt, pname, pschema["type"], pschema.get("enum")
            ):
                problems.append(
                    (
                        f"写出参数 {where} 的类型",
                        f"参数 {pname} 附近写出类型 {pschema['type']}",
                        excerpt(prompt, pname),
                        f"每个参数都要写出类型：{pname} 是 {pschema['type']}，模型才不会把数字写成"
                        f"字符串。",
                    )
                )
            missing = [
                str(value) for value in pschema.get("enum", []) if not _found(prompt, str(value))
            ]
            if missing:
                problems.append(
                    (
                        f"写出参数 {where} 的全部可选值",
                        f"列出 {pschema['enum']}",
                        excerpt(prompt, pname),
                        f"有 enum 的参数要列出全部可选值，缺少 {'、'.join(missing)}：否则模型会填出"
                        f"系统不认的值。",
                    )
                )
    if '"name"' not in prompt or '"arguments"' not in prompt:
        missing_keys = [key for key in ('"name"', '"arguments"') if key not in prompt]
        problems.append(
            (
                "规定回复格式：一个含 name 和 arguments 的 JSON 对象",
                f"提示词里有带双引号的键 {'、'.join(missing_keys)}",
                "……" + prompt[-200:] if len(prompt) > 200 else prompt,
                (
                    '写明调用工具时只输出一个 JSON 对象，并给出例子：{"name": "工具名",'
                    ' "arguments": {…}}（键名带双引号）。'
                ),
            )
        )
    if not says_answer_without_tools(prompt):
        problems.append(
            (
                "说明不需要工具时怎么回答",
                "提示词里说明：不需要工具时直接用文字回答",
                "……" + prompt[-200:] if len(prompt) > 200 else prompt,
                "加一句“不需要调用工具时，直接用自然语言回答”："
                "否则模型可能对“你好”也硬塞一个工具调用。",
            )
        )
    return problems


def _parameter_facts(spec: dict[str, Any]) -> dict[str, tuple[str, tuple[str, ...] | None, bool]]:
    parameters = spec.get("parameters") or {}
    required = set(parameters.get("required") or [])
    facts = {}
    for pname, pschema in (parameters.get("properties") or {}).items():
        if not isinstance(pschema, dict):
            continue
        enum = (
            tuple(sorted(str(value) for value in pschema["enum"]))
            if isinstance(pschema.get("enum"), list)
            else None
        )
        facts[pname] = (str(pschema.get("type", "string")), enum, pname in required)
    return facts


def reading_difference(tools: list[dict[str, Any]], read: list[dict[str, Any]]) -> str | None:
    """The first way the simulator's reading of a prompt differs from the tools it was made from, in
    words.
    """
    by_name = {spec["name"]: spec for spec in read}
    missing = [spec["name"] for spec in tools if spec["name"] not in by_name]
    if missing:
        return f"没有读出工具 {'、'.join(missing)}"
    extra = [name for name in by_name if name not in {spec["name"] for spec in tools}]
    if extra:
        return f"多读出了工具 {'、'.join(extra)}（它可能是参数名或别的词，被当成了工具名）"
    for spec in tools:
        name = spec["name"]
        want, got = _parameter_facts(spec), _parameter_facts(by_name[name])
        lost = [p for p in want if p not in got]
        if lost:
            return f"工具 {name} 没有读出参数 {'、'.join(lost)}"
        added = [p for p in got if p not in want]
        if added:
            return f"工具 {name} 多读出了参数 {'、'.join(added)}"
        for pname, (json_type, enum, required) in want.items():
            read_type, read_enum, read_required = got[pname]
            if read_type != json_type:
                return f"参数 {name}.{pname} 的类型读出来是 {read_type}，应该是 {json_type}"
            if enum and read_enum != enum:
                return (
                    f"参数 {name}.{pname} 的可选值读出来是"
                    f" {list(read_enum) if read_enum else '（没有）'}，应该是 {list(enum)}"
                )
            if read_required != required:
                return (
                    f"参数 {name}.{pname} 读出来是{'必填' if read_required else '可选'}，"
                    f"应该是{'必填' if required else '可选'}"
                )
    return None


def describe_reading(read: list[dict[str, Any]]) -> str:
    """The simulator's reading in one line per tool, e.g. ``get_weather(city: string 必填)``."""
    if not read:
        return "（一个工具也没有读出）"
    lines = []
    for spec in read:
        facts = _parameter_facts(spec)
        params = ", ".join(
            f"{p}: {t}{' 必填' if r else ' 可选'}{' ' + '/'.join(e) if e else ''}"
            for p, (t, e, r) in facts.items()
        )
        lines.append(f"{spec['name']}({params})")
    return "；".join(lines)


def fills_arguments(got: ToolCall, expected: ToolCall, spec: dict[str, Any]) -> bool:
    """``got`` calls the same tool and fills every argument of ``expected``; anything more it fills
    is valid for ``spec``.

    Free-text strings count as filled when they contain the expected text ("耳机的订单" for "耳机"):
    how much of the request a model copies into such a field is its own choice. Enums, numbers and
    booleans must be equal.
    """
    from ....tools import validation_errors

    if not isinstance(got, ToolCall) or got.name != expected.name:
        return False
    try:
        have, want = got.args, expected.args
    except ValueError:
        return False
    properties = (spec.get("parameters") or {}).get("properties") or {}
    for key, value in want.items():
        free_text = isinstance(value, str) and "enum" not in properties.get(key, {})
        if not (
            isinstance(have.get(key), str) and value in have[key]
            if free_text
            else have.get(key) == value
        ):
            return False
    return all(key in properties for key in have) and not validation_errors(
        spec.get("parameters") or {}, have
    )
