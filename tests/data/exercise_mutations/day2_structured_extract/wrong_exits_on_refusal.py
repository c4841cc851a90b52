"""Calls ``sys.exit`` when the model refuses, instead of returning ("refusal", reason): in a notebook
that ends the cell, in a service the whole process."""

import json
import sys

LEAVE_PROMPT = "从用户的话里提取请假申请，用 JSON 回答。"


def leave_schema():
    return {
        "type": "object",
        "properties": {
            "employee": {"type": "string", "description": "请假员工的姓名，例如：张三"},
            "start_date": {"type": "string", "description": "开始日期，格式 YYYY-MM-DD"},
            "days": {"type": "integer", "description": "请假天数"},
            "leave_type": {"type": ["string", "null"], "enum": ["年假", "病假", "事假", None], "description": "假期类型；没说就是 null"},
        },
        "required": ["employee", "start_date", "days", "leave_type"],
        "additionalProperties": False,
    }


def extract_leave(client, text, max_tokens=200, max_tries=3):
    response_format = {"type": "json_schema", "json_schema": {"name": "leave_request", "schema": leave_schema(), "strict": True}}
    messages = [{"role": "system", "content": LEAVE_PROMPT}, {"role": "user", "content": text}]
    for _ in range(max_tries):
        choice = client.chat.completions.create(model="course-sim", messages=messages, response_format=response_format, max_tokens=max_tokens).choices[0]
        if choice.finish_reason == "length":
            max_tokens *= 2
            continue
        if choice.message.refusal:
            sys.exit(f"模型拒答：{choice.message.refusal}")
        return "ok", json.loads(choice.message.content)
    return "length", None


ARGS = (extract_leave, leave_schema)
