"""Correct, in another style: leave_type nullable through anyOf (as pydantic writes it), a while
loop, max_completion_tokens.
"""

import json

LEAVE_PROMPT = "从用户的话里提取请假申请，用 JSON 回答。"

LEAVE_SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "required": ["employee", "start_date", "days", "leave_type"],
    "properties": {
        "employee": {"type": "string", "description": "员工姓名，例如：李四"},
        "start_date": {"type": "string", "description": "请假从哪天开始，格式 YYYY-MM-DD"},
        "days": {"type": "integer", "description": "请假天数"},
        "leave_type": {
            "anyOf": [{"type": "string", "enum": ["年假", "病假", "事假"]}, {"type": "null"}],
            "description": "假期类型",
        },
    },
}


def extract_leave(client, text, max_tokens=200, max_tries=3):
    asked = 0
    limit = max_tokens
    while asked < max_tries:
        asked += 1
        response = client.chat.completions.create(
            model="course-sim",
            messages=[
                {"role": "system", "content": LEAVE_PROMPT},
                {"role": "user", "content": text},
            ],
            response_format={
                "type": "json_schema",
                "json_schema": {"name": "leave_request", "strict": True, "schema": LEAVE_SCHEMA},
            },
            max_completion_tokens=limit,
        )
        message = response.choices[0].message
        if response.choices[0].finish_reason != "length":
            if message.refusal is not None:
                return ("refusal", message.refusal)
            return ("ok", json.loads(message.content))
        limit = limit * 2
    return ("length", None)


ARGS = (extract_leave, LEAVE_SCHEMA)
