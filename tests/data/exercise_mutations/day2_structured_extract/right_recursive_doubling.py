"""Correct, another style: retries by recursion (each truncated try asks again with twice the
``max_tokens`` and one try fewer), the schema kept in a module constant."""

import json

SCHEMA = {
    "type": "object",
    "properties": {
        "employee": {"type": "string", "description": "谁请假（姓名）"},
        "start_date": {"type": "string", "description": "第一天，写成 YYYY-MM-DD"},
        "days": {"type": "integer", "description": "一共请几天"},
        "leave_type": {"type": ["string", "null"], "enum": ["年假", "病假", "事假", None], "description": "哪种假；用户没说就填 null"},
    },
    "required": ["employee", "start_date", "days", "leave_type"],
    "additionalProperties": False,
}


def leave_schema():
    return json.loads(json.dumps(SCHEMA))


def extract_leave(client, text, max_tokens=200, max_tries=3):
    if max_tries <= 0:
        return "length", None
    choice = client.chat.completions.create(
        model="course-sim",
        messages=[{"role": "system", "content": "把用户的请假申请提取成 JSON。"}, {"role": "user", "content": text}],
        response_format={"type": "json_schema", "json_schema": {"name": "leave", "schema": leave_schema(), "strict": True}},
        max_tokens=max_tokens,
    ).choices[0]
    if choice.finish_reason == "length":
        return extract_leave(client, text, max_tokens * 2, max_tries - 1)
    if choice.message.refusal:
        return "refusal", choice.message.refusal
    return "ok", json.loads(choice.message.content)


ARGS = (extract_leave, leave_schema)
