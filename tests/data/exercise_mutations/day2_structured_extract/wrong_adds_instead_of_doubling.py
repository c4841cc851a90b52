"""Adds 200 to max_tokens after a cut-off reply instead of doubling it."""

import json
from handwritten_agent.parsing import ParseError, parse_tool_call

LEAVE_PROMPT = "从用户的话里提取请假申请，用 JSON 回答。"


def leave_schema() -> dict:
    """请假申请的 JSON Schema：strict 模式能接受，描述四个字段。"""
    return {
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



def extract_leave(client, text: str, max_tokens: int = 200, max_tries: int = 3):
    """按 leave_schema() 提取：返回 ("ok", dict)、("refusal", 原因) 或 ("length", None)。"""
    response_format = {
        "type": "json_schema",
        "json_schema": {"name": "leave_request", "schema": leave_schema(), "strict": True},
    }
    messages = [{"role": "system", "content": LEAVE_PROMPT}, {"role": "user", "content": text}]
    for _ in range(max_tries):
        choice = client.chat.completions.create(
            model="course-sim", messages=messages, response_format=response_format, max_tokens=max_tokens
        ).choices[0]
        if choice.finish_reason == "length":  # 被截断：同样的上限再问只会断在同一处
            max_tokens += 200
            continue
        if choice.message.refusal:  # 拒答：不是格式问题，不重试
            return "refusal", choice.message.refusal
        return "ok", json.loads(choice.message.content)
    return "length", None


ARGS = (extract_leave, leave_schema,)
