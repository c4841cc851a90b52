"""Checks for the Day 2 structured-outputs exercise (2.4): a strict JSON Schema for a leave request,
and ``extract_leave``, which asks with ``response_format`` and handles refusals and cut-off replies.

The learner's schema is sent to the real offline server, so "strict" means what the server (and
the real API) accepts; the extraction is judged by the facts in the reply, and the handling of
``length`` and ``refusal`` by the requests the learner's code made (recorded on the way through).

Left out: judging the descriptions' wording — a description is good when the simulator fills the
field from it, which the extraction cases show.
"""

from __future__ import annotations

import json
from typing import Any

from .framework import (
    _callable,
    _Check,
    _short,
    exercise,
    offline_base_url,
    typed,
    value_difference,
)

__all__ = ["day2_structured_extract"]

FIELDS = ("employee", "start_date", "days", "leave_type")
LEAVE_TYPES = ("年假", "病假", "事假")
MODEL = "course-sim"
_NOT_GIVEN = object()
MAX_REQUESTS = 12  # far beyond any ``max_tries`` a case passes: a loop without a bound stops here

# (case, text, expected result)
_OK_CASES = [
    (
        "信息齐全",
        "王芳从 2026-03-16 开始请 3 天年假",
        {"employee": "王芳", "start_date": "2026-03-16", "days": 3, "leave_type": "年假"},
    ),
    (
        "中文数字和另一种假期",
        "李雷从 2026-04-01 开始请两天病假",
        {"employee": "李雷", "start_date": "2026-04-01", "days": 2, "leave_type": "病假"},
    ),
    (
        "没说假期类型（可以为空）",
        "张伟从 2026-05-06 开始请 4 天假",
        {"employee": "张伟", "start_date": "2026-05-06", "days": 4, "leave_type": None},
    ),
]
_REFUSAL_CASES = [
    ("没说天数（不可以为空）", "陈静从 2026-03-20 开始请事假"),
    ("没说开始日期（不可以为空）", "赵敏请 2 天事假"),
]
_DESCRIBE = (
    "模拟器和真实模型一样，只能靠每个字段的 description 知道该填什么：写清楚它是什么，"
    "并带一个例子（姓名“例如：张三”，日期“格式 YYYY-MM-DD”，天数“请假天数”，类型列出 enum）。"
)


class _Completions:
    def __init__(self, owner: _RecordingClient):
        self._owner = owner

    def create(self, **kwargs: Any) -> Any:
        return self._owner.create(kwargs)


class _Chat:
    def __init__(self, owner: _RecordingClient):
        self.completions = _Completions(owner)


class _RecordingClient:
    """An ``openai.OpenAI`` for the offline server that keeps each request and reply: only
    ``client.chat.completions.create`` is offered, as the task says."""

    def __init__(self) -> None:
        import openai

        self._sdk = openai.OpenAI(base_url=offline_base_url(), api_key="offline", max_retries=0)
        self.requests: list[dict[str, Any]] = []
        self.replies: list[Any] = []
        self.chat = _Chat(self)

    def create(self, kwargs: dict[str, Any]) -> Any:
        self.requests.append(kwargs)
        if len(self.requests) > MAX_REQUESTS:
            raise RuntimeError(
                f"调用模型超过了 {MAX_REQUESTS} 次：重试没有上限吗？最多问 max_tries 次。"
            )
        reply = self._sdk.chat.completions.create(**kwargs)
        self.replies.append(reply)
        return reply

    def limits(self) -> list[Any]:
        return [r.get("max_tokens", r.get("max_completion_tokens")) for r in self.requests]


def _send_schema(schema: dict[str, Any]) -> str | None:
    """The server's 400 message for ``schema`` under strict mode, or ``None`` when accepted."""
    import openai

    sdk = openai.OpenAI(base_url=offline_base_url(), api_key="offline", max_retries=0)
    try:
        sdk.chat.completions.create(
            model=MODEL,
            messages=[{"role": "user", "content": "王芳从 2026-03-16 开始请 3 天年假"}],
            response_format={
                "type": "json_schema",
                "json_schema": {"name": "leave_request", "schema": schema, "strict": True},
            },
        )
    except openai.BadRequestError as exc:
        body = exc.body if isinstance(exc.body, dict) else {}
        return str(body.get("message") or exc)
    return None


_FIELD_TYPES = {
    "employee": "string",
    "start_date": "string",
    "days": "integer",
    "leave_type": "string",
}
"""The JSON type of each field apart from null, as the exercise's table gives it."""


def _json_types(schema: Any, depth: int = 0) -> set[str] | None:
    """The JSON types a property's schema allows (``type``, ``anyOf``/``oneOf`` branches, or the
    values of an ``enum``); None when it does not say."""
    if not isinstance(schema, dict) or depth > 5:
        return None
    kind = schema.get("type")
    if isinstance(kind, str):
        return {kind}
    if isinstance(kind, list):
        return {str(item) for item in kind}
    branches = schema.get("anyOf") or schema.get("oneOf")
    if isinstance(branches, list):
        found = [_json_types(branch, depth + 1) for branch in branches]
        return set().union(*found) if found and None not in found else None
    values = schema.get("enum")
    if isinstance(values, list) and values:
        names = {
            "null"
            if v is None
            else "boolean"
            if isinstance(v, bool)
            else "integer"
            if isinstance(v, int)
            else "number"
            if isinstance(v, float)
            else "string"
            if isinstance(v, str)
            else "other"
            for v in values
        }
        return names
    return None


def _check_schema(check: _Check, schema: Any) -> None:
    case = "leave_schema() 返回 strict 能接受的 schema"
    if not isinstance(schema, dict):
        raise check.fail(
            case,
            expected="一个 dict（JSON Schema）",
            got=typed(schema),
            hint='leave_schema() 返回一个字典：{"type": "object", "properties": {...}, ...}。',
        )
    properties = schema.get("properties")
    names = set(properties) if isinstance(properties, dict) else set()
    if names != set(FIELDS):
        missing = [f for f in FIELDS if f not in names]
        extra = sorted(str(n) for n in names - set(FIELDS))
        raise check.fail(
            "leave_schema() 的字段",
            expected=f"properties 正好是 {', '.join(FIELDS)}",
            got=f"缺少 {missing or '无'}；多出 {extra or '无'}",
            hint="字段名要和练习说明里的一字不差，程序按名字读取它们。",
        )
    for field, wanted in _FIELD_TYPES.items():
        found = _json_types(properties.get(field))
        if found is not None and found - {"null"} != {wanted}:
            raise check.fail(
                "leave_schema() 的字段",
                expected=f"{field} 的类型是 {wanted}"
                + ("（可以再加 null）" if field == "leave_type" else ""),
                got=f"{field} 的类型是 {' / '.join(sorted(found)) or '（没有写）'}",
                hint=(
                    '按练习的表格写类型：天数是整数（"integer"，不是 "number"——number 允许'
                    ' 1.5 天），姓名、日期和假期类型是字符串（"string"）。'
                ),
            )
    try:
        json.dumps(schema, ensure_ascii=False)
    except (TypeError, ValueError) as exc:
        raise check.fail(
            case,
            expected="能写成 JSON 的 dict",
            got=f"json.dumps 失败：{exc}",
            hint="schema 里只能有 dict、list、str、数字、True/False/None。",
        ) from None
    problem = _send_schema(schema)
    if problem:
        hint = 'strict 要求：每个对象都写 "additionalProperties": False，每个属性都列进 required。'
        if "required" in problem:
            hint = (
                "strict 下每个属性都必须列进 required；可以没有的字段写成必填 + 可以为空："
                '"type": ["string", "null"]（enum 里也加上 None）。'
            )
        raise check.fail(case, expected="服务器接受这个 schema", got=f"400：{problem}", hint=hint)
    check.ok(case)


def _ask(
    check: _Check, answer: Any, case: str, text: str, **options: Any
) -> tuple[Any, _RecordingClient]:
    client = _RecordingClient()
    got = check.call(
        case,
        answer,
        client,
        text,
        given=text,
        hint=lambda exc: _exception_hint(exc, client),
        **options,
    )
    return got, client


def _exception_hint(exc: Exception, client: _RecordingClient) -> str:
    import openai

    if isinstance(exc, AttributeError) and "parse" in str(exc):
        return "这道题用 client.chat.completions.create，自己处理 refusal 和 finish_reason。"
    if isinstance(exc, json.JSONDecodeError):
        last = client.replies[-1].choices[0] if client.replies else None
        if last is not None and last.finish_reason == "length":
            return (
                '回复被截断了（finish_reason 是 "length"），半截的 JSON 不能 json.loads：'
                "先看 finish_reason，是 length 就把 max_tokens 翻倍再问。"
            )
        return "content 为 None 时是拒答：先看 message.refusal，再 json.loads。"
    if (
        isinstance(exc, TypeError)
        and client.replies
        and client.replies[-1].choices[0].message.refusal
    ):
        return '拒答时 content 是 None：先看 message.refusal，返回 ("refusal", 原因)。'
    if isinstance(exc, openai.APIStatusError):
        return (
            f'服务器拒绝了请求（{exc.status_code}）：model 用 "{MODEL}"，response_format 写成'
            ' {"type": "json_schema", "json_schema": {"name": …, "schema": leave_schema(),'
            ' "strict": True}}。'
        )
    return ""


def _shape(check: _Check, case: str, text: str, got: Any) -> tuple[str, Any]:
    if not isinstance(got, tuple) or len(got) != 2 or got[0] not in ("ok", "refusal", "length"):
        raise check.fail(
            case,
            given=text,
            expected='一个二元组：("ok", dict)、("refusal", 原因) 或 ("length", None)',
            got=typed(got),
            hint='按练习说明返回二元组，第一个元素是 "ok"、"refusal" 或 "length"。',
        )
    return got


def _check_ok_cases(check: _Check, answer: Any, max_tokens: int) -> None:
    for case, text, expected in _OK_CASES:
        got, client = _ask(check, answer, case, text, max_tokens=max_tokens, max_tries=3)
        status, value = _shape(check, case, text, got)
        sent = client.requests[0] if client.requests else {}
        if status == "refusal":
            said = client.replies[-1].choices[0].message.refusal if client.replies else None
            raise check.fail(
                case,
                given=text,
                expected=("ok", expected),
                got=(status, value),
                hint=(
                    f"模拟器拒答了（{_short(said, 80)}）："
                    + (
                        'leave_type 没说时应该是 null，它的类型要能为空：["string", "null"]，'
                        "enum 里也加上 None。"
                        if expected["leave_type"] is None
                        else _DESCRIBE
                    )
                ),
            )
        if status != "ok":
            raise check.fail(
                case,
                given=text,
                expected=("ok", expected),
                got=(status, value),
                hint="这一句不会被截断，也不该拒答：看看你的判断顺序。",
            )
        difference = value_difference(expected, value)
        if difference:
            model_sent = sent.get("model")
            raise check.fail(
                case,
                given=text,
                expected=("ok", expected),
                got=(status, value),
                why=difference,
                hint=(
                    f'model 要用 "{MODEL}"（你用了 {model_sent!r}）。'
                    if model_sent != MODEL
                    else "返回 json.loads(message.content) 得到的 dict，不要改动它。 " + _DESCRIBE
                ),
            )
        form = sent.get("response_format") or {}
        strict = (form.get("json_schema") or {}).get("strict") if isinstance(form, dict) else None
        if form.get("type") != "json_schema" or strict is not True:
            raise check.fail(
                case,
                given=text,
                expected="请求里 response_format 是 json_schema，且 strict 为 True",
                got=f"response_format={_short(form, 160)}",
                hint="用 response_format 让服务端保证格式，而不是只在提示词里要求 JSON。",
            )
        if len(client.requests) != 1:
            raise check.fail(
                case,
                given=text,
                expected="问 1 次",
                got=f"问了 {len(client.requests)} 次",
                hint="回复完整（finish_reason 是 stop）时不需要再问。",
            )
        check.ok(case, f"{value}")


def _check_refusals(check: _Check, answer: Any) -> None:
    for case, text in _REFUSAL_CASES:
        got, client = _ask(check, answer, case, text, max_tokens=200, max_tries=3)
        status, value = _shape(check, case, text, got)
        said = client.replies[0].choices[0].message.refusal if client.replies else None
        if status != "refusal" or value != said:
            hint = '拒答时返回 ("refusal", message.refusal)，原样返回服务端给的原因。'
            if status == "ok":
                hint = (
                    '天数、开始日期不能为空：它们的 type 只写 "integer" / "string"，不要加 null——'
                    "没说的必填字段应该让模型拒答，而不是填一个 null。"
                )
            raise check.fail(
                case, given=text, expected=("refusal", said), got=(status, value), hint=hint
            )
        if len(client.requests) != 1:
            raise check.fail(
                case,
                given=text,
                expected="问 1 次",
                got=f"问了 {len(client.requests)} 次（max_tokens：{client.limits()}）",
                hint="拒答不是格式错误，也不是截断：再问一遍只会得到同样的拒答，不要重试。",
            )
        check.ok(case, "拒答，没有重试")


def _check_length(check: _Check, answer: Any) -> None:
    text, expected = _OK_CASES[0][1], _OK_CASES[0][2]
    runs = [
        ("截断后翻倍再问", 10, 3, [10, 20, 40], ("ok", expected)),
        ("一次都不许重问", 10, 1, [10], ("length", None)),
        ("问满 max_tries 次仍被截断", 5, 2, [5, 10], ("length", None)),
    ]
    for case, max_tokens, max_tries, limits, expected_result in runs:
        shown = f"{text}（max_tokens={max_tokens}, max_tries={max_tries}）"
        client = _RecordingClient()
        got = check.call(
            case,
            answer,
            client,
            text,
            max_tokens=max_tokens,
            max_tries=max_tries,
            given=shown,
            hint=lambda exc, client=client: _exception_hint(exc, client),
        )
        got = _shape(check, case, shown, got)
        sent = client.limits()
        if sent != limits:
            if len(set(sent)) == 1 and len(sent) > 1:
                hint = "每次都用同样的 max_tokens 重问，只会断在同一处：被截断后把上限翻倍。"
            elif len(sent) < len(limits):
                hint = (
                    f'被截断（finish_reason 是 "length"）就要再问，'
                    f"最多一共问 max_tries={max_tries} 次。"
                )
            elif len(sent) > len(limits):
                hint = f"一共最多问 max_tries={max_tries} 次（包括第一次），回复完整就停。"
            else:
                hint = "第一次用传进来的 max_tokens，之后每次翻倍。"
            raise check.fail(
                case,
                given=shown,
                expected=f"依次用 max_tokens={limits} 发请求",
                got=f"依次用了 {sent}",
                hint=hint,
            )
        if got != expected_result:
            raise check.fail(
                case,
                given=shown,
                expected=expected_result,
                got=got,
                hint='问满 max_tries 次都被截断时返回 ("length", None)；半截的文字不要返回。',
            )
        check.ok(case, f"max_tokens 依次为 {sent}")


@exercise
def day2_structured_extract(check: _Check, extract_leave: Any, schema: Any = _NOT_GIVEN) -> None:
    """2.4: ``extract_leave(client, text, max_tokens=200, max_tries=3)`` returns ``("ok", dict)``,
    ``("refusal", reason)`` or ``("length", None)``, doubling ``max_tokens`` on a cut-off reply
    and never retrying a refusal; ``leave_schema()`` is accepted under strict mode and describes the
    four fields."""
    _callable(check.exercise, extract_leave, "extract_leave")
    if schema is _NOT_GIVEN:
        raise check.fail(
            "传入 leave_schema",
            expected="check.day2_structured_extract(extract_leave, leave_schema)",
            got="只传了一个参数",
            hint="检查需要你的函数和你的 schema 两样东西，按这个顺序传进来。",
        )
    if callable(schema):  # the notebook passes leave_schema, the function that returns the schema
        schema = check.call("调用 leave_schema()", schema, expected="返回一个 JSON Schema 字典")
    check.forbid(
        "不用 eval/exec 处理模型的输出",
        extract_leave,
        why="模型的输出是不可信的文字，用 json.loads 解析，绝不能 eval。",
    )
    _check_schema(check, schema)
    _check_ok_cases(check, extract_leave, max_tokens=200)
    _check_refusals(check, extract_leave)
    _check_length(check, extract_leave)
    # the same answer on other inputs in a row: a result kept from an earlier call shows here
    check.independent(
        "连续调用互不影响",
        [
            (text, lambda text=text: extract_leave(_RecordingClient(), text), ("ok", want), text)
            for _, text, want in reversed(_OK_CASES)
        ],
    )
    check.done()
