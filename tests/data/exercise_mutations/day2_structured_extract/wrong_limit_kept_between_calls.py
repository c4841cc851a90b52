"""Remembers the raised max_tokens in a module global ("it needed more last time"): the next call
starts from the doubled limit instead of its own max_tokens, so a small limit is never tried."""

import json

LEAVE_PROMPT = "从用户的话里提取请假申请，用 JSON 回答。"

_LIMIT = {}

LEAVE_SCHEMA = {
    "type": "object",
    "properties": {
        "employee": {"type": "string", "description": "请假员工的姓名，例如：张三"},
        "start_date": {"type": "string", "description": "开始日期，格式 YYYY-MM-DD"},
        "days": {"type": "integer", "description": "请假天数"},
        "leave_type": {
            "type": ["string", "null"],
            "enum": ["年假", "病假", "事假", None],
            "description": "假期类型；没说就是 null",
        },
    },
    "required": ["employee", "start_date", "days", "leave_type"],
    "additionalProperties": False,
}


def extract_leave(client, text, max_tokens=200, max_tries=3):
    limit = max(max_tokens, _LIMIT.get("tokens", 0))
    form = {
        "type": "json_schema",
        "json_schema": {"name": "leave_request", "schema": LEAVE_SCHEMA, "strict": True},
    }
    messages = [{"role": "system", "content": LEAVE_PROMPT}, {"role": "user", "content": text}]
    for _ in range(max_tries):
        choice = client.chat.completions.create(
            model="course-sim", messages=messages, response_format=form, max_tokens=limit
        ).choices[0]
        if choice.finish_reason == "length":
            limit *= 2
            _LIMIT["tokens"] = limit
            continue
        if choice.message.refusal:
            return "refusal", choice.message.refusal
        return "ok", json.loads(choice.message.content)
    return "length", None


ARGS = (extract_leave, LEAVE_SCHEMA)
FAILS_AT = "一次都不许重问"
