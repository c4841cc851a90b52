"""What the simulator says in words: final answers from tool results, clarifying questions, the fallback.

A tool result may be plain text, any JSON, or the course's envelope ``{"success", "data", "error"}``.
``read_result`` sorts it into one of five statuses — ok, error, confirm (waiting for the user's
confirmation), denied (rejected or not allowed) and repeated (the agent's repeated-call guard said the
call was already made) — and the answer relays each honestly: an error is never turned into a
number, a pending confirmation is explained, a rejection is reported as not done.

Answers are written in the request's language (Chinese or English). They are composed from
templates, so they read like a careful report rather than a conversation: this is a rule engine.

Left out: summarizing long results, unit conversions, and anything the results do not say.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from .arguments import Param
from .text import format_number, language, normalize

OK, ERROR, CONFIRM, DENIED, REPEATED = "ok", "error", "confirm", "denied", "repeated"

_REPEATED = re.compile(r"already (?:been )?(?:called|made|executed|ran|run|done|requested)|already have (?:this|that|the) result|"
                       r"repeated (?:tool )?call|same call|identical call|duplicate call|重复调用|重复的调用|已经调用|已调用过|"
                       r"已经执行过|已经查询过|已经有(?:了)?(?:这个|该)?结果|调用过(?:了)?(?:这个|该)?工具", re.I)
_CONFIRM = re.compile(r"need_confirmation|needs? confirmation|requires? (?:user )?confirmation|awaiting (?:user )?confirmation|"
                      r"pending (?:confirmation|approval)|needs? approval|需要(?:你|您|用户)?(?:的)?(?:二次)?确认|请确认|待确认|等待确认|"
                      r"需要审批|等待审批|待审批|等待批准", re.I)
_DENIED = re.compile(r"\bdenied\b|\brejected\b|\brefused\b|not approved|permission|forbidden|not allowed|拒绝|驳回|未获批准|"
                     r"没有权限|无权|权限不足|不允许|已取消|被取消", re.I)
_ERROR = re.compile(r"^\s*(?:error|错误|出错|失败|exception|traceback)|error:|错误[:：]|出错|计算失败|执行失败|调用失败|异常[:：]", re.I)
_CONFIRM_STATUSES = {"need_confirmation", "needs_confirmation", "pending_confirmation", "confirmation_required",
                     "awaiting_confirmation", "pending_approval", "need_approval", "needs_approval", "confirmation_request"}
_DENIED_STATUSES = {"denied", "rejected", "refused", "forbidden", "cancelled", "canceled", "not_approved"}


@dataclass(frozen=True)
class ResultView:
    status: str  # ok | error | confirm | denied | repeated
    value: Any = None  # the data, when ok
    message: str = ""  # the error / confirmation / rejection text


def _message_of(value: Any) -> str:
    if isinstance(value, dict):
        for key in ("message", "error", "reason", "detail", "tips", "summary", "msg"):
            if value.get(key):
                return _message_of(value[key])
        return json.dumps(value, ensure_ascii=False)
    return str(value).strip()


def _classify_text(text: str) -> str | None:
    if _REPEATED.search(text):
        return REPEATED
    if _CONFIRM.search(text):
        return CONFIRM
    if _DENIED.search(text):
        return DENIED
    return None


def _read_dict(value: dict[str, Any]) -> ResultView:
    status = str(value.get("status", value.get("type", ""))).lower()
    if value.get("repeated") is True or value.get("already_called") is True:
        # an agent's repeated-call guard: the earlier result, sent back with a note
        return ResultView(REPEATED, value.get("data"), _message_of(value.get("note") or value))
    if status in _CONFIRM_STATUSES or value.get("need_confirmation") is True or value.get("requires_confirmation") is True:
        return ResultView(CONFIRM, value, _message_of(value))
    if status in _DENIED_STATUSES or value.get("denied") is True or value.get("rejected") is True:
        return ResultView(DENIED, value, _message_of(value))
    if "success" in value:
        if value.get("success") is False or (value.get("error") and value.get("data") is None):
            message = _message_of(value.get("error") or value)
            return ResultView(_classify_text(message) or ERROR, None, message)
        data = value.get("data")
        if isinstance(data, dict):
            inner = _read_dict(data)
            if inner.status in (CONFIRM, DENIED):
                return inner
        return ResultView(OK, data)
    if value.get("error"):
        message = _message_of(value["error"])
        return ResultView(_classify_text(message) or ERROR, None, message)
    return ResultView(OK, value)


def read_result(raw: str) -> ResultView:
    """Sort a tool message's text into ok / error / confirm / denied / repeated."""
    text = (raw or "").strip()
    try:
        value: Any = json.loads(text)
    except ValueError:
        value = text
    if isinstance(value, dict):
        return _read_dict(value)
    if isinstance(value, str):
        status = _classify_text(value)
        if status:
            return ResultView(status, None, value)
        if _ERROR.search(value):
            return ResultView(ERROR, None, value)
    return ResultView(OK, value)


# ---------------------------------------------------------------------------------------------
# Rendering
# ---------------------------------------------------------------------------------------------


def render_value(value: Any, lang: str, *, limit: int = 400) -> str:
    """A tool result's data as one readable line."""
    if value is None:
        text = "（空）" if lang == "zh" else "(empty)"
    elif isinstance(value, bool):
        text = ("是" if value else "否") if lang == "zh" else ("yes" if value else "no")
    elif isinstance(value, (int, float)):
        text = format_number(value)
    elif isinstance(value, str):
        text = value.strip()
    elif isinstance(value, dict):
        sep = "，" if lang == "zh" else ", "
        text = sep.join(f"{key}: {render_value(item, lang, limit=limit)}" for key, item in value.items())
    elif isinstance(value, list):
        sep = "；" if lang == "zh" else "; "
        text = sep.join(render_value(item, lang, limit=limit) for item in value) or ("（无）" if lang == "zh" else "(none)")
    else:
        text = str(value)
    return text if len(text) <= limit else text[:limit] + "…"


def purpose(spec: dict[str, Any], lang: str) -> str:
    """What a tool does, for the user: its description's first clause (or its name)."""
    description = normalize(str(spec.get("description", "") or "")).strip()
    first = re.split(r"[。！？!?\n]|\.(?:\s|$)", description, maxsplit=1)[0].strip()
    head = re.split(r"[，,；;（(]", first, maxsplit=1)[0].strip()
    if len(head) >= 4 or len(first) > 30:
        first = head
    if not first or language(first) != lang or len(first) > 40:
        return f"`{spec.get('name', 'tool')}`"
    return first


def _label(spec: dict[str, Any], arguments: dict[str, Any], lang: str) -> str:
    base = purpose(spec, lang)
    shown = [render_value(v, lang, limit=40) for k, v in arguments.items() if v not in (None, "", [], {}) and not k.startswith("_")]
    if not shown:
        return base
    return f"{base}（{'，'.join(shown)}）" if lang == "zh" else f"{base} ({', '.join(shown)})"


_EXPRESSION_LIKE = re.compile(r"^[\d\s.+\-*/%()]+$|sqrt\(")


def _expression_argument(arguments: dict[str, Any]) -> str | None:
    for value in arguments.values():
        if isinstance(value, str) and re.search(r"\d", value) and _EXPRESSION_LIKE.search(value) and re.search(r"[-+*/%]|sqrt", value):
            return value
    return None


def _is_division_by_zero(message: str, arguments: dict[str, Any]) -> bool:
    if re.search(r"zero|零|ZeroDivision|除数", message, re.I) and re.search(r"divi|除|zero", message, re.I):
        return True
    if re.search(r"argument|参数|json|schema|string|unknown|不存在|未知|valid", message, re.I):
        return False  # the call itself was rejected, whatever the expression
    expression = _expression_argument(arguments) or ""
    return bool(re.search(r"/\s*0+(?:\.0+)?(?![\d.])", expression))


def result_line(spec: dict[str, Any], arguments: dict[str, Any], view: ResultView, lang: str) -> str:
    """One sentence about one tool result."""
    zh = lang == "zh"
    label = _label(spec, arguments, lang)
    if view.status == OK:
        expression = _expression_argument(arguments)
        if expression and isinstance(view.value, (int, float, str)) and re.fullmatch(r"-?[\d.]+(?:e[-+]?\d+)?", str(view.value).strip(), re.I):
            number = view.value if not isinstance(view.value, str) else float(view.value)
            return f"{expression} = {format_number(number)}"
        return f"{label}：{render_value(view.value, lang)}" if zh else f"{label}: {render_value(view.value, lang)}"
    message = view.message.strip().rstrip("。.") if view.message else ""
    message = re.sub(r"^(?:error|错误|出错)\s*[:：]\s*(?=\S)", "", message, flags=re.I)
    if view.status == ERROR:
        if _is_division_by_zero(message, arguments):
            explanation = ("除数为零，这个算式在数学上没有结果，所以我无法给出数值" if zh
                           else "the divisor is zero, so the expression has no result and I cannot give a number")
        else:
            explanation = "所以这一项没有得到结果，我不能替它编一个答案" if zh else "so there is no result for this part, and I will not make one up"
        return f"{label}出错了：{message}。{explanation}" if zh else f"{label} failed: {message}. {explanation[0].upper() + explanation[1:]}"
    if view.status == CONFIRM:
        ask = "" if re.search(r"确认|confirm", message, re.I) else ("。请确认是否继续" if zh else ". Please confirm whether to go ahead")
        return (f"{label}需要你确认后才会执行：{message}{ask}" if zh
                else f"{label} is waiting for your confirmation: {message}{ask}")
    if view.status == DENIED:
        return f"{label}没有执行：{message}" if zh else f"{label} was not carried out: {message}"
    if view.value is not None:
        return result_line(spec, arguments, ResultView(OK, view.value), lang)
    return (f"{label}：此前已经调用过，结果见前面的对话" if zh
            else f"{label}: this call was already made earlier; its result is above")


def compose_final(lines: list[str], notes: list[str], lang: str) -> str:
    """The final answer: one line per result, then notes (unfinished parts, questions)."""
    zh = lang == "zh"
    end = "。" if zh else "."

    def finish(line: str) -> str:
        return line if line.endswith(("。", ".", "？", "?", "！", "!")) else line + end

    lines = list(dict.fromkeys(lines))
    if not lines:
        body = ""
    elif len(lines) == 1:
        body = finish(lines[0])
    else:
        head = "根据工具返回的结果：" if zh else "Here is what the tools returned:"
        body = head + "\n" + "\n".join(f"{index}. {finish(line)}" for index, line in enumerate(lines, 1))
    parts = [body] if body else []
    parts += [finish(note) for note in notes]
    return "\n".join(parts).strip()


def clarify_question(spec: dict[str, Any], missing: list[Param], lang: str) -> str:
    """Ask for the required arguments that could not be filled, using their descriptions."""
    zh = lang == "zh"
    items = []
    for param in missing:
        description = param.description.strip().rstrip("。.")
        if zh:
            items.append(f"{description}（{param.name}）" if description else param.name)
        else:
            items.append(f"{param.name} ({description})" if description else param.name)
    what = purpose(spec, lang)
    if zh:
        action = f"调用 {what}" if what.startswith("`") else what
        return f"要{action}，我还需要你提供：{'；'.join(items)}。请补充一下？"
    action = f"call {what}" if what.startswith("`") else what[:1].lower() + what[1:]
    return f"To {action}, I still need: {'; '.join(items)}. Could you tell me?"


def unfinished_note(segment: str, reason: str, lang: str) -> str:
    """A note about a part of the request that was not done."""
    if lang == "zh":
        return {"no_tool": f"「{segment}」这部分没有合适的工具，我无法回答",
                "blocked": f"「{segment}」这一步依赖上一步的结果，但上一步没有得到可用的结果，所以无法完成"}[reason]
    return {"no_tool": f"No tool fits \"{segment}\", so I cannot answer that part",
            "blocked": f"\"{segment}\" depends on the previous step, which gave no usable result, so it could not be done"}[reason]


_GREETINGS = ("你好", "您好", "嗨", "哈喽", "早上好", "晚上好", "hello", "hi", "hey")


def _is_greeting(text: str) -> bool:
    lowered = text.strip().lower()
    return any(lowered.startswith(word) for word in _GREETINGS)


def fallback_reply(user_text: str, tools: list[dict[str, Any]], lang: str, *, tools_disabled: bool = False) -> str:
    """The honest reply when no offered tool fits: what this simulator is and what it can do."""
    names = [str(t.get("name", "")) for t in tools if t.get("name")]
    if lang == "zh":
        if tools_disabled:
            situation = "这次请求不允许调用工具（tool_choice 为 none），而这个规则引擎离开工具就答不了具体问题。"
        elif names:
            situation = f"这次提供的工具（{'、'.join(names)}）里没有适合这句话的，所以我不调用任何工具。"
        else:
            situation = "这次请求没有提供任何工具。"
        greeting = "你好！" if _is_greeting(user_text) else ""
        return (f"{greeting}我是本课程的离线模拟器：一个确定性的规则引擎，不是大语言模型（LLM），没法像真人一样聊天。"
                f"{situation}"
                "我能做的是：根据工具的名称、描述和参数说明挑选工具，按参数的 JSON Schema 从你的话里填写参数，"
                "再根据工具返回的结果组织回答。想和真正的模型对话，请在 .env 中配置 LLM_BASE_URL、LLM_API_KEY 和 LLM_MODEL。")
    if tools_disabled:
        situation = "This request does not allow tool calls (tool_choice is none), and without tools this rule engine cannot answer questions. "
    elif names:
        situation = f"None of the tools offered ({', '.join(names)}) fits your message, so I am not calling any. "
    else:
        situation = "This request offers no tools. "
    greeting = "Hello! " if _is_greeting(user_text) else ""
    return (f"{greeting}I am the course's offline simulator: a deterministic rule engine, not an LLM, so I cannot really chat. "
            f"{situation}"
            "What I can do: pick a tool from its name, description and parameter descriptions, fill its arguments from "
            "your words using the JSON Schema, and compose an answer from the tool results. "
            "For a real conversation, configure LLM_BASE_URL, LLM_API_KEY and LLM_MODEL in .env.")
