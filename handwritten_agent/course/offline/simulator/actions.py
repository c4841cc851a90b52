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

A verb inside a relative clause describes a noun and asks for nothing ("我们约好的教练叫什么名字？",
"订的机票", "是发给谁的"): it names no action. ``ordered_verb`` reads the verb an order opens with
whether or not a family lists it ("帮我续借一本书" → 续借), so that a tool which does not do it is
not chosen for it (``choose.fits_verb``) and the reply can say which verb no tool does.

Left out: verbs beyond these lists, and actions a tool performs as a side effect its name and
description do not state.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .text import normalize, split_identifier
from .vocabulary import members

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
        r"|申请|登记|注册|安排(?!表)|开个|建个|(?<!一)下单|"
        # "我想参加…": signing up; "能否参加" asks whether one still can, it signs up for nothing
        r"(?<![能否以可])(?<![能否以可][去来])(?:报名|参加|参与)|(?<![大节合条公契预制])约(?![束合莫为定等])|挂(?=[^，。,]{0,8}号)"
        r"|开(?:一?间|个)房|"
        r"采购|购买|申购|订购|(?<![购采])买(?!单|家)"
        # a colloquial order by its count ("来两杯拿铁", "要一碗"); not a time ("三点两刻")
        r"|(?:来|(?<![\d一二三四五六七八九十两])点|要)"
        r"(?=[一两二三四五六七八九十几\d]+\s*[杯份碗瓶盒串件])"
        # "给我 6 把椅子，每把 899 元": things counted and priced each, an order to buy them
        r"|(?:给我|帮我(?:弄|搞|配|备)|替我(?:弄|搞|配|备)|我要|我需要)\s*"
        r"(?=[一两二三四五六七八九十几\d]+\s*[个台把张件套箱本支盒瓶包部块副只桶袋双][^。；;]{1,30}?"
        r"(?:每\s*[个台把张件套箱本支盒瓶包部块副只桶袋双]|单价|一[个台把张件套箱本支盒瓶包部块副只桶袋双])"
        r"\s*(?:是|为)?\s*[\d一两二三四五六七八九十百千万])"
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


# what follows a verb that modifies a noun instead of asking for the action ("约好的教练", "订的机
# 票", "发过的邮件", "取消了的订单"), or that asks about a past one ("是发给谁的"): a relative
# clause — never "…的话", a condition
_RELATIVE_AFTER = re.compile(
    r"\s*(?:好|过|完|了|掉|到)?\s*(?:给|到|在|自)?\s*(?:谁|哪里|哪儿|哪|什么|何处)?\s*的(?!话)"
)  # "是发给谁的": who it went to, asked after the fact
# a verb of booking heading a noun's number or record ("预约编号", "预订记录"): the noun, no action
# ("取消编号为…的" still cancels)
_NOUN_AFTER = re.compile(r"\s*(?:编号|号码|单号|记录)")


# A verb of possibility before the verb ("能预约", "可以订", "可租"): with a question word in the
# same clause ("你能预约哪些会议室吗？", "有哪些场地可以约？") the clause asks which things are
# available, it orders none of them.
_POSSIBLE_BEFORE = re.compile(r"(?:能|能够|可以|可|还能|还可以)\s*(?:被|让我|给我|帮我)?\s*$")
_WHICH = re.compile(r"哪些|哪几|哪个|哪间|哪家|哪一|什么|多少|有没有|几[个间家辆台张]")
_CLAUSE = re.compile(r"[^，,。；;！!？?\n]*")
# the same in English: "can I book any …?", "which rooms can I book", "… available to rent?"
_AVAILABILITY_EN = re.compile(
    r"\b(?:can|could|may)\s+(?:i|we|you)\s+(?:still\s+)?(?:book|reserve|rent|order|buy|hire)\s+"
    r"(?:any|anything)\b"
    r"|\b(?:which|what)\b[^.?!,;]*?\b(?:can|could|may)\s+(?:i|we)\s+(?:still\s+)?(?:book|reserve"
    r"|rent|order|buy|hire)\b"
    r"|\b(?:available|free)\s+(?:to|for)\s+(?:book|reserve|rent|order|hire)(?:ing)?\b",
    re.I,
)


def availability_question(text: str, position: int) -> bool:
    """Whether the verb at ``position`` is what a question asks is possible ("能预约哪些…吗", "有哪
    些…可以订"): a lookup of what is available, not an order."""
    if not _POSSIBLE_BEFORE.search(text[max(0, position - 6) : position]):
        return False
    start = max((text.rfind(mark, 0, position) for mark in "，,。；;！!？?\n"), default=-1) + 1
    clause = _CLAUSE.match(text, start)
    return bool(clause and _WHICH.search(clause.group(0)))


def _verb_matches(family: str, text: str) -> list[re.Match[str]]:
    """The matches of a family's Chinese verbs in ``text`` that ask for the action: a verb inside a
    relative clause ("我们约好的教练叫什么名字？") describes the noun after it, a booking's verb
    heading a noun ("预约编号") is part of it, and one a question
    asks is possible ("你能预约哪些会议室吗？") asks which things are available: neither asks for
    anything. Lookups keep every match (their list holds question words, not only verbs)."""
    found = list(_ZH_RE[family].finditer(text))
    if family == READ:
        return found
    return [
        m
        for m in found
        if not _RELATIVE_AFTER.match(text, m.end())
        and not (family == CREATE and _NOUN_AFTER.match(text, m.end()))
        and not availability_question(text, m.start())
    ]


def verb_at(text: str, position: int) -> bool:
    """Whether a verb that asks for a change (订, 取消, 改成, 交给 …) starts at ``position``:
    the end of a name written right before it ("把张伟取消…")."""
    return any(regex.match(text, position) for family, regex in _ZH_RE.items() if family != READ)


def request_actions(text: str) -> frozenset[str]:
    """The action families the request's verbs name (empty when it names none: "北京明天天气")."""
    text = normalize(text)
    found = {family for family in _ZH_RE if _verb_matches(family, text)}
    if _AVAILABILITY_EN.search(text):  # "can I book any rooms?": a lookup of what is free
        found.add(READ)
        text = _AVAILABILITY_EN.sub(" ", text)
    found |= {family for family, regex in _EN_RE.items() if regex.search(text)}
    if CREATE in found and found & {DELETE, UPDATE}:
        # "取消我明天的会议室预订", "修改我的预订": the booking is what is cancelled or changed, not
        # a new one
        first = min(
            m.start()
            for family in (DELETE, UPDATE)
            if family in found
            for m in [next(iter(_verb_matches(family, text)), None) or _EN_RE[family].search(text)]
            if m
        )
        made = next(iter(_verb_matches(CREATE, text)), None) or _EN_RE[CREATE].search(text)
        if made and first < made.start():
            found.discard(CREATE)
    return frozenset(found)


def request_verbs(text: str) -> list[str]:
    """The Chinese verbs of the request that ask for a change (订, 提交, 发送 …), as written."""
    text = normalize(text)
    found = [
        m.group(0)
        for family in _ZH_RE
        if family != READ
        for m in _verb_matches(family, text)
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
        named = NAME_VERBS[words[0]]
        if named != READ and len(words) >= 2 and words[-1] in _LOOKUP_HEADS:
            # "book_list", "order_detail": a noun that is also a verb, heading a lookup's noun; the
            # description says which ("列出所有图书" reads, "book a list of guests" books)
            return _described_action(description) or named
        return named
    return _described_action(description)


def noun_first(name: str, description: str) -> bool:
    """Whether a tool's name starts with a verb that is a noun here ("book_list" lists books): its
    action is not the one that word names."""
    words = split_identifier(name)
    return (
        bool(words)
        and words[0] in NAME_VERBS
        and tool_action(name, description) != NAME_VERBS[words[0]]
    )


# the last word of a tool's name that makes it a lookup of what its first word names ("book_list",
# "order_details", "message_history")
_LOOKUP_HEADS = frozenset(
    {"list", "lists", "detail", "details", "info", "information", "status", "history", "search"}
    | {"query", "lookup", "overview", "summary"}
)


def _described_action(description: str) -> str | None:
    """The action family of the first verb a tool's description starts with."""
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


# what an order starts with before its verb: an id it is about, politeness, a wish
_ORDER_LEAD = re.compile(
    r"^(?:[A-Za-z]{1,4}-?\d{2,}\s*[，,]?\s*)?"
    r"(?P<polite>(?:(?:请你?|麻烦你?|劳驾|帮我|帮忙|帮|给我|替我|能不能|能否|可不可以|可以|我想|我要"
    r"|想要)\s*)*)"
    r"(?:(?:你|想|要|再|先|就|顺便|赶紧|马上)\s*)*"
)
# what follows the verb of an order, whatever the verb: its object counted ("一本书") or 一下 —
# never 了, which tells what happened ("点错了", "出现了")
_AFTER_ORDER_VERB = re.compile(
    r"\s*(?:一下|[一两二三四五六七八九十几\d]+\s*[个本张份条件台次间位门辆节套杯晚天周])"
)
# what may follow it too, when the word is known as a verb or a request word came first ("帮我续
# 借这本书", "续借 BK1024"): 这/那, an id, or nothing more — a noun is followed by these as well
# ("订单 OD123 …")
_AFTER_KNOWN_VERB = re.compile(r"\s*(?:这|那|[A-Za-z]{1,4}-?\d{2,}|[。！!~]*\s*$)")
# words that open a clause and are no verb: conditions, reasons, connectives
_NOT_ORDER_WORDS = re.compile(
    r"如果|要是|假如|若是|若|倘若|万一|只要|因为|由于|虽然|但是|所以|然后|还有|还是|或者|已经|刚才|之前"
    r"|另外"
    r"|而且|可是|不过|其实|应该"
)
# "把这本书续借一下": the verb after the thing, before 一下/了/掉
_BA_ORDER = re.compile(
    r"^(?:把|将)\s*[^，,。；;]{1,16}?([\u4e00-\u9fff]{1,2})(?:一下|了|掉)\s*[吧。！!~]*$"
)
# words an order may open with that are no verb ("给张三…", "这个…", "那本…")
_NOT_VERBS = frozenset("把将给对向跟和在从这那我你他她它是有被让叫")
_NO_VERB_STARTS = frozenset("这那我你他她它每各某哪被不没别未最太很更第")
# a day or a time an order may open with ("今天这门课…"): no verb
_TIME_WORD = re.compile(
    r"[今明后昨前大]天|[今明昨]儿|[今明昨]晚|[上下中]午|早上|晚上|周[一二三四五六日天末]|星期|礼拜|现在"
)
# verbs that only find something out: a lookup can do what they ask
_READING_CHARACTERS = frozenset("查看找搜读算问听数测量估比核验瞅瞧瞄")
_READING_WORDS = re.compile(
    r"推荐|确认|了解|解释|统计|总结|汇总|浏览|介绍|盘点|跟踪|追踪|监控|规划|对比|比较|核对|核实|分析"
    r"|预测|估算|诊断|识别|翻译|计算|换算|折算|说明|告诉|知道"
)


@lru_cache(maxsize=4096)
def ordered_verb(text: str) -> str | None:
    """The verb a Chinese order opens with, as written, whether or not the families know it ("帮我
    续借一本书" → 续借, "把这本书续借一下" → 续借, "LN5521 续期" → 续期); None when the request
    does not start as an order with a verb (a question about something, a statement)."""
    text = normalize(text).strip()
    if _NOT_ORDER_WORDS.match(text):
        return None  # "要是 S102 …就…", "如果…": a condition, not an order
    lead = _ORDER_LEAD.match(text)
    rest = text[lead.end() :]
    ba = _BA_ORDER.match(rest)
    if ba:
        return ba.group(1)
    for size in (2, 1):
        word = rest[:size]
        if (
            len(word) == size
            and re.fullmatch(r"[\u4e00-\u9fff]+", word)
            and word not in _NOT_VERBS
            and word[0] not in _NO_VERB_STARTS
            and not _TIME_WORD.match(word)
            and not _NOT_ORDER_WORDS.match(word)
        ):
            if _AFTER_ORDER_VERB.match(rest, size):
                return word
            known = bool(lead.group("polite")) or bool(
                request_actions(word) - {READ} or (word in members(word) and _is_verb(word))
            )
            if known and _AFTER_KNOWN_VERB.match(rest, size):
                return word
    known = sorted(
        (
            m
            for m in members(rest[:4])
            if len(m) >= 2
            and rest.startswith(m)
            and _is_verb(m)
            and not re.match(r"[号单码表费人]", rest[len(m) : len(m) + 1])
        ),
        key=len,
    )  # "续借三体": a verb of the vocabulary, whatever follows it (not a noun: "注册表")
    return known[-1] if known else None


def _is_verb(word: str) -> bool:
    """A vocabulary word that is a verb: its synonyms hold one a family lists ("续借" with 延期,
    extend), not a noun ("客户", "图书")."""
    return any(
        (member.isascii() and member in NAME_VERBS)
        or any(regex.search(member) for family, regex in _ZH_RE.items() if family != READ)
        for member in members(word)
    )


# verbs of looking something up the lookup family leaves to the request's other words
_TEXT_VERB_WORDS = re.compile(r"搜一?搜|查一?查|找一?找|看一?看|瞧一?瞧|查|找|搜|看")


def without_reading_words(text: str) -> str:
    """``text`` with the words that ask to find something out blanked ("去北京看看有什么车" → "去北
    京  有  车"): what is left is what is asked about."""
    text = _ZH_RE[READ].sub(lambda m: " " * len(m.group(0)), text)
    return _TEXT_VERB_WORDS.sub(lambda m: " " * len(m.group(0)), text)


def reading_verb(verb: str) -> bool:
    """Whether ``verb`` only asks to find something out (查, 看看, 核对, 翻译 …): a lookup may
    answer it."""
    return (
        bool(set(verb) & _READING_CHARACTERS)
        or bool(_READING_WORDS.search(verb))
        or request_actions(verb) == {READ}
    )


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
    "ordered_verb",
    "reading_verb",
    "without_reading_words",
    "request_actions",
    "request_object",
    "request_verbs",
    "tool_action",
    "verb_at",
]
