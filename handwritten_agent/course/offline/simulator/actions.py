"""What a request asks to *do*, and what a tool does: the action, so that tool choice can weigh
them.

Word overlap alone picks ``send_sms_to_customers`` for "把所有客户的名单导出给我" (both speak of 所
有客户), though sending a message is not exporting a list. An action is one of a few families:

- ``read``    finding something out: 查/看/搜/读/列出/算/换算…, 发给我 (sent to the user is shown to
              the user), get/query/search/calculate/convert…
- ``send``    a message to someone: 发送/发邮件/通知/转发…, send/notify/email/reply…
- ``export``  data handed over in bulk: 导出/下载/备份…, export/download/dump…
- ``create``  a new record: 订/预订/创建/添加/提交/申请/安排…, book/create/add/submit/schedule…
- ``update``  an existing record changed: 修改/更新/设置…, update/modify/set/edit…
- ``delete``  a record removed: 删除/取消/撤销…, delete/remove/cancel…
- ``pay``     money moved: 支付/付款/转账/退款…, pay/transfer/refund…

A request's actions come from its verbs (``request_actions``; a word like 订单 or 发货 is a noun,
not a verb); a tool's action from the first word of its name, else the leading verb of its
description (``tool_action``). A tool *contradicts* a request when the request names actions, the
tool's action is known, and it is none of them — except that a ``read`` request accepts a tool that
only reads, and a request that reads accepts nothing that changes things unless it also asks for
that change.

A tool *reads* (``is_read_only``) when its action is ``read``; any other action, or none the
simulator can tell, counts as a side effect — the conservative side: a tool that may change
something is never used to look something up, and its targets are checked against what the user
named. Only the tool's own name and description decide, never metadata a learner's tool would lack.

Two more readings of a request: ``negated`` — a part that takes an action back ("先别给他发短信", "
不要预订", "don't email them"); and ``request_object`` — what a create/send verb acts on ("订一张明
天去上海的*机票*"), so a booking tool for meeting rooms is not chosen to book a flight.

Left out: verbs beyond these lists, and actions a tool performs as a side effect its name and
description do not state.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .text import normalize, split_identifier

READ, SEND, EXPORT, CREATE, UPDATE, DELETE, PAY = (
    "read",
    "send",
    "export",
    "create",
    "update",
    "delete",
    "pay",
)

# Chinese verbs per family; each pattern avoids the nouns that contain the verb (订单, 发货, 发票,
# 取消费…).
_ZH: dict[str, str] = {
    READ: (
        r"(?<!检)查(?!收)|检查(?![费单])|看看|看一下|看下|瞧瞧|[看瞅瞧瞄]一眼|瞅瞅|获取|读取|读一下|搜索|搜一下|检索|找一下|找找|查找|列出|列"
        r"一下|显示|告诉我|发给我|发我|给我发|"
        r"有没有|有哪些|是多少|多少|几[个点号度天]|什么|哪些|哪个|哪里|哪儿|谁|怎么样|如何|算一下|"
        r"算算|计算|换算|折合|能换|翻译|统计|"
        r"^(?!.*(?:帮我|请|麻烦)).*?吗\s*[？?]?\s*$"
    ),
    SEND: (
        r"发送|(?<!给我)发(?=[个一封条]|短信|邮件|消息|信息|通知|给(?!我)|微信)|群发|转发|通知(?!邮"
        r"件|短信|书)|寄给|回复|抄送|"
        r"告诉(?!我)|转告|说一声|(?:跟|和|对)[\u4e00-\u9fff]{1,4}说(?:一下|下)|捎个话|带个话|知会"
    ),
    EXPORT: r"导出|下载|备份|打包(?:发|给)|拷贝出|dump",
    CREATE: (
        r"预订|预定|预约|预留|(?<![预])订(?![单阅购])(?:下来|一间|个|间|好|上)?|创建|新建|添加|新增|提交"
        r"|申请|登记|安排(?!表)|开个|建个|下单|(?<![大节合条公契预制])约(?![束合莫为定等])|挂(?=[^，。,]{0,8}号)"
        r"|开(?:一?间|个)房|"
        r"采购|购买|申购|订购|(?<![购采])买(?!单|家)"
        # a colloquial order by its count ("来两杯拿铁", "要一碗"); not a time ("三点两刻")
        r"|(?:来|(?<![\d一二三四五六七八九十两])点|要)"
        r"(?=[一两二三四五六七八九十几\d]+\s*[杯份碗瓶盒串件])"
    ),
    UPDATE: (
        r"修改|更新|改成|改为|改到|更改|设置|设为|调整|改一下|重命名|结单|关闭|关(?=[了掉])|分配|指派"
        r"|派(?=给|工|单)|交给|挪(?=到|去|一下|个|后|前)|推迟|延后|延期|改期|提前到|往[后前][推挪]"
    ),
    DELETE: r"删除|删掉|删了|取消|撤销|撤回|移除|作废|退(?=[了掉])|不要了",
    # 收了: money received
    PAY: r"支付|付款|付钱|转账|退款|退费|退钱|缴费|报销|付了|收了|收款|交了|刷卡",
}
_EN: dict[str, str] = {
    READ: (
        r"get|query|fetch|read|search|find|check|look up|lookup|retrieve|view|what|how many|how"
        r" much|calculate|compute|"
        r"convert|translate|count|tell me"
    ),
    SEND: (
        r"send|notify|reply|forward|(?:e-?mail|message|text)"
        r" (?=me\b|him\b|her\b|them\b|us\b|\S+@)|sms"
    ),
    EXPORT: r"export|download|dump|back up|backup",
    CREATE: (
        r"book|reserve|create|add|submit|apply for|schedule|register|sign up|order|buy|purchase"
    ),
    UPDATE: r"update|modify|change|edit|rename|reschedule|postpone",
    DELETE: r"delete|remove|cancel|revoke",
    PAY: r"pay|transfer|refund",
}
_ZH_RE = {family: re.compile(pattern) for family, pattern in _ZH.items()}
_EN_RE = {
    family: re.compile(rf"(?<![a-z])(?:{pattern})(?![a-z])", re.I)
    for family, pattern in _EN.items()
}

# The first word of a tool's name as a family.
NAME_VERBS: dict[str, str] = {
    **{
        w: READ
        for w in (
            "get",
            "fetch",
            "query",
            "lookup",
            "look",
            "search",
            "find",
            "list",
            "check",
            "read",
            "retrieve",
            "show",
            "view",
            "calculate",
            "calc",
            "compute",
            "evaluate",
            "convert",
            "translate",
            "count",
            "track",
            "estimate",
            "summarize",
            "analyze",
            "recommend",
            "validate",
            "verify",
            "describe",
            "lookup",
        )
    },
    **{
        w: SEND
        for w in (
            "send",
            "notify",
            "post",
            "reply",
            "forward",
            "email",
            "sms",
            "text",
            "message",
            "broadcast",
            "publish",
        )
    },
    **{w: EXPORT for w in ("export", "download", "dump", "backup")},
    **{
        w: CREATE
        for w in (
            "book",
            "reserve",
            "create",
            "add",
            "new",
            "make",
            "submit",
            "apply",
            "schedule",
            "register",
            "open",
            "insert",
            "generate",
            "order",
            "buy",
            "purchase",
            "rent",
            "enroll",
        )
    },
    **{
        w: UPDATE
        for w in (
            "update",
            "set",
            "modify",
            "change",
            "edit",
            "rename",
            "move",
            "assign",
            "close",
            "reschedule",
            "postpone",
        )
    },
    **{
        w: DELETE
        for w in ("delete", "remove", "cancel", "revoke", "drop", "clear", "void", "withdraw")
    },
    **{w: PAY for w in ("pay", "transfer", "refund", "charge")},
}

# What ends a verb's reach at the start of a description ("内部管理接口：导出…" — the part before
# the colon is a label).
_DESCRIPTION_LEAD = re.compile(r"^[^：:。]{0,12}[：:]\s*")
# a description that ends its first clause on a lookup word names what is looked up
_LOOKUP_TAIL = re.compile(r"[\u4e00-\u9fff](?:查询|查看|查找|检索|一览|列表)\s*$")


def request_actions(text: str) -> frozenset[str]:
    """The action families the request's verbs name (empty when it names none: "北京明天天气")."""
    text = normalize(text)
    found = {family for family, regex in _ZH_RE.items() if regex.search(text)}
    found |= {family for family, regex in _EN_RE.items() if regex.search(text)}
    if CREATE in found and found & {DELETE, UPDATE}:
        # "取消我明天的会议室预订", "修改我的预订": the booking is what is cancelled or changed, not
        # a new one
        first = min(
            m.start()
            for family in (DELETE, UPDATE)
            if family in found
            for m in [_ZH_RE[family].search(text) or _EN_RE[family].search(text)]
            if m
        )
        made = _ZH_RE[CREATE].search(text) or _EN_RE[CREATE].search(text)
        if made and first < made.start():
            found.discard(CREATE)
    return frozenset(found)


def request_verbs(text: str) -> list[str]:
    """The Chinese verbs of the request that ask for a change (订, 提交, 发送 …), as written."""
    text = normalize(text)
    found = [
        m.group(0)
        for family, regex in _ZH_RE.items()
        if family != READ
        for m in regex.finditer(text)
        if re.search(r"[\u4e00-\u9fff]", m.group(0))
    ]
    return [
        re.sub(r"(?<=.)(?:下来|好|上|一间|个|间)$", "", verb) for verb in found
    ]  # "订下来" → 订


@lru_cache(maxsize=1024)
def tool_action(name: str, description: str) -> str | None:
    """A tool's action family: from its name's first word, else the first verb its description
    starts with.
    """
    words = split_identifier(name)
    if words and words[0] in NAME_VERBS:
        return NAME_VERBS[words[0]]
    plain = normalize(description).strip()
    if _LOOKUP_TAIL.search(re.split(r"[，,。;；(（]", _DESCRIPTION_LEAD.sub("", plain))[0]):
        return READ  # "病人付款记录查询": a lookup of payments, whatever verb the noun holds
    # "内部工具：预订会议室" after its label; else "订购配件：配件名、数量", the label is the verb
    for lead in (_DESCRIPTION_LEAD.sub("", plain)[:12], plain[:12]):
        hits = []
        for family, regex in list(_ZH_RE.items()) + list(_EN_RE.items()):
            match = regex.search(lead)
            if match:
                hits.append((match.start(), family))
        if hits:
            return min(hits)[1]
    return None


def is_read_only(action: str | None) -> bool:
    """Whether a tool with this action only reads (see the module docstring); unknown actions do
    not.
    """
    return action == READ


# "先别给他发短信", "不要预订", "不用发邮件", "暂时不要通知", "don't send", "no need to email".
_NEGATION_ZH = re.compile(
    # an id or a pronoun may come first ("CD2207 不需要退", "我们先别发")
    r"^(?:[A-Za-z]{0,4}-?\d{2,}\s*[，,]?\s*)?(?:我们|我|咱们|你)?\s*"
    r"(?:但是?|不过|可是|并且|而且|也|还|就|这次|今天|现在)?\s*(?:先别|先不要|先不用|先不|暂时不要"
    r"|暂时别|暂时不用|"
    r"暂时不|千万别|千万不要|不要再|别再|不要|不用|无需|不必|不需要|用不着|别|勿)\s*"
)
_NEGATION_EN = re.compile(
    r"^(?:but\s+|and\s+)?(?:please\s+)?(?:don'?t|do not|no need to|never|without)\s+", re.I
)


def negated(segment: str) -> bool:
    """Whether this part of a request takes back an action that changes something ("先别给他发短信
    "): a negation at its start, followed closely by a verb of a family other than ``read``."""
    text = normalize(segment).strip()
    match = _NEGATION_ZH.match(text) or _NEGATION_EN.match(text)
    if not match:
        return False
    rest = text[match.end() : match.end() + 14]
    wanted = request_actions(rest)
    # a verb the families do not list ("不需要退") is taken back too; a lookup ("不用查") is not
    return bool(wanted - {READ}) or (not wanted and bool(rest.strip(" ，,。.!！")))


_OBJECT_VERB = re.compile(
    r"(?:预订|预定|预约|订|购买|买|创建|新建|发送|发|寄)(?:下来|好|上|一下)?"
    r"(?!下来|好了|掉|了)(?:一|两|几)?(?:个|张|间|份|封|条|台|套|本)?\s*(?P<body>[^，,。"
    r"；;！!？?:：]{1,40})"
)


_TIME_MARKS = re.compile(r"[今明后昨前周星期午晚早点半号月日年时分秒]")


def request_object(text: str) -> str | None:
    """The Chinese noun a create/send verb of the request acts on, or None when it does not say one:
    the head after the last 的 ("订一张明天去上海的机票" → 机票), else the word right after the verb
    ("发短信…" → 短信…). Words of time (明天下午) are not objects."""
    for match in _OBJECT_VERB.finditer(normalize(text)):
        body = match.group("body")
        if "的" in body:
            body = body.rsplit("的", 1)[-1]
            runs = re.findall(r"[\u4e00-\u9fff]{2,}", body)
            found = runs[-1] if runs else None
        else:
            lead = re.match(r"\s*([\u4e00-\u9fff]{2,})", body)
            found = lead.group(1) if lead else None
        if (
            found and not _TIME_MARKS.search(found[:2]) and not re.match(r"给?我", found)
        ):  # "发给我" names no object
            return found
    return None


def contradicts(wanted: frozenset[str], action: str | None) -> bool:
    """Whether a tool doing ``action`` is the wrong tool for a request asking for ``wanted`` (see
    the module docstring).
    """
    if not wanted or action is None:
        return False
    return action not in wanted


__all__ = [
    "READ",
    "SEND",
    "EXPORT",
    "CREATE",
    "UPDATE",
    "DELETE",
    "PAY",
    "contradicts",
    "is_read_only",
    "negated",
    "request_actions",
    "request_object",
    "request_verbs",
    "tool_action",
]
