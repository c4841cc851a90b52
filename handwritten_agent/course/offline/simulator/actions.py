"""What a request asks to *do*, and what a tool does: the action, so that tool choice can weigh them.

Word overlap alone picks ``send_sms_to_customers`` for "把所有客户的名单导出给我" (both speak of 所有客户),
though sending a message is not exporting a list. An action is one of a few families:

- ``read``    finding something out: 查/看/搜/读/列出/算/换算…, get/query/search/calculate/convert…
- ``send``    a message to someone: 发送/发邮件/通知/转发…, send/notify/email/reply…
- ``export``  data handed over in bulk: 导出/下载/备份…, export/download/dump…
- ``create``  a new record: 订/预订/创建/添加/提交/申请/安排…, book/create/add/submit/schedule…
- ``update``  an existing record changed: 修改/更新/设置…, update/modify/set/edit…
- ``delete``  a record removed: 删除/取消/撤销…, delete/remove/cancel…
- ``pay``     money moved: 支付/付款/转账/退款…, pay/transfer/refund…

A request's actions come from its verbs (``request_actions``; a word like 订单 or 发货 is a noun, not
a verb); a tool's action from the first word of its name, else the leading verb of its description
(``tool_action``). A tool *contradicts* a request when the request names actions, the tool's action is
known, and it is none of them — except that a ``read`` request accepts a tool that only reads, and a
request that reads accepts nothing that changes things unless it also asks for that change.

Left out: verbs beyond these lists, negation ("不要发短信"), and actions a tool performs as a side effect
its name and description do not state.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .text import normalize, split_identifier

READ, SEND, EXPORT, CREATE, UPDATE, DELETE, PAY = "read", "send", "export", "create", "update", "delete", "pay"

# Chinese verbs per family; each pattern avoids the nouns that contain the verb (订单, 发货, 发票, 取消费…).
_ZH: dict[str, str] = {
    READ: r"查(?!收)|看看|看一下|看下|瞧瞧|获取|读取|读一下|搜索|搜一下|检索|找一下|找找|查找|列出|列一下|显示|告诉我|"
          r"有没有|有哪些|是多少|多少|几[个点号度天]|什么|哪些|哪个|哪里|哪儿|谁|怎么样|如何|算一下|算算|计算|换算|折合|能换|翻译|统计",
    SEND: r"发送|发(?=[个一封条]|短信|邮件|消息|信息|通知|给|微信)|群发|转发|通知(?!邮件|短信|书)|寄给|回复|抄送",
    EXPORT: r"导出|下载|备份|打包(?:发|给)|拷贝出|dump",
    CREATE: r"预订|预定|预约|(?<![预])订(?![单阅购])(?:下来|一间|个|间|好|上)?|创建|新建|添加|新增|提交|申请|登记|安排(?!表)|开个|建个|下单",
    UPDATE: r"修改|更新|改成|改为|改到|更改|设置|设为|调整|改一下|重命名",
    DELETE: r"删除|删掉|删了|取消|撤销|撤回|移除|作废",
    PAY: r"支付|付款|付钱|转账|退款|缴费|报销",
}
_EN: dict[str, str] = {
    READ: r"get|query|fetch|read|search|find|check|look up|lookup|retrieve|view|what|how many|how much|calculate|compute|"
          r"convert|translate|count|tell me",
    SEND: r"send|notify|reply|forward|text (?:me|him|her|them)|sms",
    EXPORT: r"export|download|dump|back up|backup",
    CREATE: r"book|reserve|create|add|submit|apply for|schedule|register|sign up",
    UPDATE: r"update|modify|change|edit|rename",
    DELETE: r"delete|remove|cancel|revoke",
    PAY: r"pay|transfer|refund",
}
_ZH_RE = {family: re.compile(pattern) for family, pattern in _ZH.items()}
_EN_RE = {family: re.compile(rf"(?<![a-z])(?:{pattern})(?![a-z])", re.I) for family, pattern in _EN.items()}

# The first word of a tool's name as a family.
NAME_VERBS: dict[str, str] = {
    **{w: READ for w in ("get", "fetch", "query", "lookup", "look", "search", "find", "list", "check", "read", "retrieve", "show",
                         "view", "calculate", "calc", "compute", "evaluate", "convert", "translate", "count", "track", "estimate",
                         "summarize", "analyze", "recommend", "validate", "verify", "describe", "lookup")},
    **{w: SEND for w in ("send", "notify", "post", "reply", "forward", "email", "sms", "text", "message", "broadcast", "publish")},
    **{w: EXPORT for w in ("export", "download", "dump", "backup")},
    **{w: CREATE for w in ("book", "reserve", "create", "add", "new", "make", "submit", "apply", "schedule", "register", "open",
                           "insert", "generate")},
    **{w: UPDATE for w in ("update", "set", "modify", "change", "edit", "rename", "move", "assign")},
    **{w: DELETE for w in ("delete", "remove", "cancel", "revoke", "drop", "clear")},
    **{w: PAY for w in ("pay", "transfer", "refund", "charge")},
}

# What ends a verb's reach at the start of a description ("内部管理接口：导出…" — the part before the colon is a label).
_DESCRIPTION_LEAD = re.compile(r"^[^：:。]{0,12}[：:]\s*")


def request_actions(text: str) -> frozenset[str]:
    """The action families the request's verbs name (empty when it names none: "北京明天天气")."""
    text = normalize(text)
    found = {family for family, regex in _ZH_RE.items() if regex.search(text)}
    found |= {family for family, regex in _EN_RE.items() if regex.search(text)}
    return frozenset(found)


@lru_cache(maxsize=1024)
def tool_action(name: str, description: str) -> str | None:
    """A tool's action family: from its name's first word, else the first verb its description starts with."""
    words = split_identifier(name)
    if words and words[0] in NAME_VERBS:
        return NAME_VERBS[words[0]]
    lead = _DESCRIPTION_LEAD.sub("", normalize(description).strip())[:12]
    hits = []
    for family, regex in list(_ZH_RE.items()) + list(_EN_RE.items()):
        match = regex.search(lead)
        if match:
            hits.append((match.start(), family))
    return min(hits)[1] if hits else None


def contradicts(wanted: frozenset[str], action: str | None) -> bool:
    """Whether a tool doing ``action`` is the wrong tool for a request asking for ``wanted`` (see the module docstring)."""
    if not wanted or action is None:
        return False
    return action not in wanted


__all__ = ["READ", "SEND", "EXPORT", "CREATE", "UPDATE", "DELETE", "PAY", "request_actions", "tool_action", "contradicts"]
