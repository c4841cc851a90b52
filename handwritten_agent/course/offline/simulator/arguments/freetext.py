"""Free text for a query, a message or a topic: a quoted span, the words after a colon, or the
request minus its verbs.

"How many words are in 'the quick brown fox'?" → ``text="the quick brown fox"``; "发短信：您好" →
``content="您好"``; "搜索一下 Python 教程" → ``query="Python 教程"``. A quote in any style ('…' "…"
“…” ‘…’ 「…」 『…』 《…》, see ``..text.find_quotes``) fills a free-text parameter instead of the
whole question. With several free-text parameters and several quotes, a quote goes to the
parameter whose name or description is written just before it ("主题是《周报》，内容是「…」"), the
rest in order; without quotes only the first free-text parameter takes the request's words, so
two parameters never repeat one text.

Left out: summarizing, and telling several free-text parameters apart without quotes.
"""

from __future__ import annotations

import re

from ..text import Quote, find_quotes, normalize, split_identifier, tokens
from .params import Param, examples_of

_FILLER = re.compile(
    r"^(?:请|麻烦|帮我|帮忙|给我|替我|你|能不能|可不可以|可以|我想|我要|想)+|"
    r"^(?:please |can you |could you |would you |i want to |i'd like to )+",
    re.I,
)
_TEXT_VERBS = re.compile(
    r"^(?:搜索一下|搜一下|搜索|查找|查询一下|查询|查一下|查|找一下|找|检索|翻译一下|翻译|search"
    r" for|search|look up|find|translate)\s*",
    re.I,
)
# "给张三发短信", "帮我发一封邮件": the words that ask for the message, not the message itself.
_MESSAGE_LEAD = re.compile(
    r"^(?:给|向|跟|对|帮)?\s*[^，,。\s]{0,12}?\s*(?:发|写|回|寄|推送|发送)(?:一?[条封个份])?\s*"
    r"(?:短信|消息|邮件|信息|通知|私信|微信|email|e-mail|mail|sms|message)\s*[，,:]?\s*"
    r"|^(?:跟|和|对|向|给)?\s*[^，,。\s]{0,8}?\s*(?:说一声|说一下|讲一声|捎个话|带个话)\s*[，"
    r",:]?\s*"
    r"|^(?:告诉|转告|通知|提醒)\s*[^，,。\s“\"「]{1,8}?\s*(?=[“\"「]|[，,:])[，,:]?\s*"
    r"|^(?:send|write|email|text)\s+(?:an?\s+)?(?:email|e-mail|mail|sms|text|message|note)?\s"
    r"*(?:to\s+)?"
    r"(?:(?:with|and)\s+(?:the\s+)?)?",
    re.I,
)
_NEXT_STEP = re.compile(
    r"[，,；;。.!！]\s*(?:然后|接着|随后|之后|同时|另外|并且|再(?![见次])|and"
    r" then\b|then\b|also\b)"
    # the other branch of a condition ("…；够的话就不用发", "，否则就算了"): no part of the message
    r"|[，,；;。]\s*(?:否则|不然|要不然|如果|要是|假如|若|倘若|[^，,；;。]{0,10}?的话"
    r"|[^，,；;。]{0,8}?(?:就|则)?(?:算了|不用|不必|别发|别通知))",
    re.I,
)
# "不到 2 个就发短信让他续费": the condition before the action is no part of the message
_CONDITION_LEAD = re.compile(
    r"^(?:如果|要是|假如|若是?|倘若)?[^，,。；;]{0,12}?(?:不到|少于|低于|超过|多于|高于|不足|不够|够了?|满"
    r"|的话)[^，,。；;]{0,8}?(?:那)?就\s*"
)
# "告诉他积分快过期了", "提醒大家带电脑": who is told is not part of what they are told.
_TELL_LEAD = re.compile(
    r"^(?:(?:告诉|提醒|通知|转告|跟|和)(?:一下)?(?:他们|她们|他|她|对方|客户|大家|各位|所有人)(?:一"
    r"下|一声|说)?|(?:说|讲)(?:一下|一声)?)"
    r"\s*[，,:：]?\s*(?=\S)"
)
# A free-text parameter that holds the content itself (the one that takes the request's words).
CONTENT_WORDS = re.compile(
    r"\b(?:content|body|text|message|query|keywords?|search|question|prompt)\b|内容|正文|消息|文本|"
    r"关键词|搜索|问题|原文"
)
_AFTER_COLON = re.compile(r"(?<!\s)\s*:(?!\d)\s*(.+)$", re.S)  # not the colon of a time (10:30)
# A parameter that holds what to search for: its words are the thing, not what the tool returns.
SEARCH_WORDS = re.compile(
    r"\b(?:query|q|keywords?|search|term|filter)\b|关键词|关键字|搜索词|查询词|搜索|检索"
)
_OWN_TAIL = re.compile(r"(?:相关|有关|方面|之类|这类|那类)?\s*的?\s*$")


def without_own_words(text: str, own: frozenset[str]) -> str:
    """A search term without the words for what the tool itself returns: "耳机的订单" → 耳机 for a
    tool that searches orders, "键盘相关的订单" → 键盘, "去年买的键盘" → 键盘. What is left must
    still say something, else the text stays.
    """
    rest = text.strip()
    for _ in range(4):
        match = re.search(r"([\u4e00-\u9fff]{2,4})$", rest)
        if not match or not any(
            match.group(1)[i : i + 2] in own for i in range(len(match.group(1)) - 1)
        ):
            break
        head = rest[: match.start()]
        # the noun ends the text: drop it (and only the part of the run the tool's words cover)
        run = match.group(1)
        cut = next(i for i in range(len(run) - 1) if run[i : i + 2] in own)
        head = rest[: match.start() + cut]
        head = _OWN_TAIL.sub("", head).strip()
        if not head:
            break
        rest = head
    tail = rest.rsplit("的", 1)[-1].strip()
    if tail != rest and re.fullmatch(r"[\u4e00-\u9fffA-Za-z0-9 ]{2,}", tail):
        rest = tail  # "去年买的键盘" → 键盘: the thing, not what is said about it
    return rest


# Words for what a free-text parameter holds, so "主题是《…》" finds a parameter named ``subject``.
_LABEL_WORDS: dict[str, tuple[str, ...]] = {
    "subject": ("主题", "标题", "title"),
    "title": ("标题", "题目", "名字", "subject"),
    "body": ("正文", "内容", "content", "message", "text"),
    "content": ("内容", "正文", "body", "message", "text"),
    "message": ("消息", "内容", "留言", "body", "content", "text"),
    "text": ("文本", "这句话", "句子", "文字"),
    "query": ("搜索", "查询", "关键词", "搜"),
    "keyword": ("关键词", "关键字"),
    "keywords": ("关键词", "关键字"),
    "topic": ("主题", "话题"),
    "question": ("问题",),
    "note": ("备注",),
    "remark": ("备注",),
    "comment": ("评论", "备注"),
    "name": ("名字", "名称", "姓名"),
    "id": ("编号", "标识"),
    "age": ("年龄",),
    "prompt": ("提示",),
    "sentence": ("句子", "这句话"),
    "description": ("描述", "说明"),
    "reason": ("原因", "理由", "事由"),
    "item": ("物品", "品名"),
    "product": ("商品", "产品"),
}


def free_text(segment: str) -> str:
    """The free text of ``segment``: its first quote, else what follows a colon, else its words
    without the verbs.
    """
    text = normalize(segment).strip()
    quotes = find_quotes(text)
    if quotes:
        return quotes[0].text
    after_colon = _AFTER_COLON.search(text)
    if after_colon:
        content = after_colon.group(1)
        stop = _NEXT_STEP.search(content)
        return (content[: stop.start()] if stop else content).strip()
    text = " ".join(text.split())
    text = _CONDITION_LEAD.sub("", text).strip()
    for _ in range(3):
        text = _FILLER.sub("", text).strip()
        text = _TEXT_VERBS.sub("", text).strip()
        text = _MESSAGE_LEAD.sub("", text).strip()
        text = _TELL_LEAD.sub("", text).strip()
    text = re.sub(r"(?:\s+(?:with|and)(?:\s+the)?)+\s*$", "", text, flags=re.I)
    text = re.sub(r"[吧吗呢啊。？?！!，,\s]+$", "", text)
    text = re.sub(r"^(?:关于|有关|about)\s*", "", text, flags=re.I).strip(" :：,，")
    if re.fullmatch(r"(?:[\W_]|\b(?:the|a|an|with|and|to|of|for|in|on)\b)*", text, re.I):
        return ""  # only the little words were left: nothing to say
    return text


_CLAUSE_LEAD = re.compile(
    r"^(?:请|麻烦|帮我|帮忙|给我|替我|我想|我要|想要|需要|要|再|并且|而且|另外|因为|由于|原因是|理"
    r"由是)*\s*"
)


def leftover_clauses(text: str, own: frozenset[str]) -> list[str]:
    """The clauses of ``text`` (other values already blanked out) that still say something of their
    own: not just verbs and the tool's own words ("申请采购" for a purchase tool), not a lone
    character left by the blanking — "…，每包 25 元，办公室用纸不够了" → ["办公室用纸不够了"]."""
    found = []
    for clause in re.split(r"[，,。；;！!？?:：\n]", text):
        words = _CLAUSE_LEAD.sub("", " ".join(clause.split())).lstrip(" 的").rstrip(" 吧呀啊")
        words = re.sub(
            r"^(?:提交|申请|申购|采购|购买|订购|预订|发送|创建|新建|帮我|买(?:点|些)?(?:东西)?)+",
            "",
            words,
        )
        runs = re.findall(r"[\u4e00-\u9fffA-Za-z0-9]{2,}", words)
        if not runs:
            continue
        bigrams = {run[i : i + 2] for run in runs for i in range(len(run) - 1)}
        if bigrams and bigrams <= own | _VERB_BIGRAMS:
            continue
        found.append(words)
    return found


_VERB_BIGRAMS = frozenset(
    "提交 申请 采购 购买 申购 预订 订购 帮我 麻烦 发送 一下 一台 一个 一把 一张 一份 每包 每把 每台"
    " 每个 价格 单价 总价".split()
)


def label_tokens(param: Param) -> set[str]:
    words = split_identifier(param.name)
    found = {w for w in words if len(w) > 2}
    for word in words:
        found.update(_LABEL_WORDS.get(word, ()))
    found.update(tok for tok in tokens(param.label()) if len(tok) >= 2)
    return found


def quotes_for(params: list[Param], text: str) -> dict[str, Quote]:
    """Which quote of ``text`` each free-text parameter takes (see the module docstring).

    A quote goes to the parameter whose own words stand nearest before it; words two parameters
    share ("笔记" in 笔记标题 and 笔记正文) tell nothing and are ignored. Quotes nobody claimed go
    in order.
    """
    quotes = find_quotes(text)
    if not quotes or not params:
        return {}
    labels = {p.name: label_tokens(p) for p in params}
    shared = {
        t
        for name, tokens in labels.items()
        for t in tokens
        if any(t in other for n, other in labels.items() if n != name)
    }
    chosen: dict[str, Quote] = {}
    free: list[Quote] = []
    for index, quote in enumerate(quotes):
        lead_start = quotes[index - 1].end if index else 0
        lead = text[max(lead_start, quote.start - 12) : quote.start].lower()
        best: tuple[int, str] | None = None
        for param in params:
            if param.name in chosen:
                continue
            for token in labels[param.name] - shared:
                at = lead.rfind(token.lower())
                if at >= 0 and (best is None or len(lead) - at < best[0]):
                    best = (len(lead) - at, param.name)
        if best:
            chosen[best[1]] = quote
        else:
            free.append(quote)
    for param in params:
        if param.name not in chosen and free:
            chosen[param.name] = free.pop(0)
    return chosen


_SAYING = (
    r"\s*(?:就|要|请|可以|麻烦)?\s*(?:写成|写上|写为|写着|写|说|填上|填)(?:的是|是|为|成)?"
    r"\s*[:：=]?\s*(?=\S)"
)


def one_word(param: Param) -> bool:
    """Whether the parameter lists several examples, each a single short word ("如：数学、英语、
    物理"): its value is one such word, never a clause and what follows it. A message's content
    ("短信内容，例如：您的订单已发货") is a sentence, whatever its example."""
    examples = examples_of(param)
    if CONTENT_WORDS.search(param.words):
        return False
    return len(examples) >= 2 and all(
        len(e) <= 8 and not re.search(r"[\s，,。；;：:！!？?]", e) for e in examples
    )


def labelled_for(params: list[Param], text: str) -> dict[str, tuple[str, int, int]]:
    """The words each free-text parameter's label introduces: "主题：周会，内容：明天十点开会" →
    subject "周会", content "明天十点开会"; "with the subject customer list" → subject "customer
    list". A Chinese label needs是/为/：after it, or starts a clause and a space follows it ("主题
    周会取消"); a value runs to the next label or the end. Each value comes with the span of its
    label and itself, so the words can be left out of the other parameters' text."""
    labels = {p.name: label_tokens(p) for p in params}
    shared = {
        t
        for name, tokens in labels.items()
        for t in tokens
        if any(t in other for n, other in labels.items() if n != name)
    }
    hits: list[tuple[int, int, str]] = []
    for param in params:
        for token in labels[param.name] - shared:
            chinese = bool(re.search(r"[^\x00-\x7f]", token))
            marker = (
                r"\s*(?:(?:是|为)\s*[:：=]?|[:：=])\s*" if chinese else r"\s*(?:is\s+|[:=]\s*)?"
            )
            edge = "" if chinese else r"\b"
            hits += [
                (m.start(), m.end(), param.name)
                for m in re.finditer(edge + re.escape(token) + edge + marker, text, re.I)
            ]
            # "主题 周会取消，正文 本周五不开会": a label that starts a clause, then a space, then
            # its value
            if chinese:
                hits += [
                    (m.start(), m.end(), param.name)
                    for m in re.finditer(
                        r"(?:^|(?<=[，,；;\s]))" + re.escape(token) + r"\s+(?=\S)", text
                    )
                ]
                # "主题写“…”", "内容就说…": a label that starts a clause, then a verb of saying
                hits += [
                    (m.start(), m.end(), param.name)
                    for m in re.finditer(
                        r"(?:^|(?<=[，,；;。\s]))" + re.escape(token) + _SAYING, text
                    )
                ]
    hits.sort()
    found: dict[str, tuple[str, int, int]] = {}
    end = -1
    kept = [hit for hit in hits if hit[0] >= end and not (end := max(end, hit[1])) < 0]
    for index, (start, stop, name) in enumerate(kept):
        following = kept[index + 1][0] if index + 1 < len(kept) else len(text)
        value = text[stop:following]
        value = re.sub(
            r"(?:[，,；;]\s*|\s+)(?:and|with|和|并且|以及)?\s*(?:the\s+)?$", "", value, flags=re.I
        )
        if one_word(next(p for p in params if p.name == name)):
            # "科目是数学，帮我预约" for "科目（如：数学、英语）": like its examples, one word
            value = re.split(r"[，,；;。！!？?]", value.strip(" ，,;；"), maxsplit=1)[0]
        value = value.strip(" ，,;；。.、:：\"'“”")
        if (
            value
        ):  # a label said again later is the more specific one ("提交报销：…，原因是加班晚归")
            found[name] = (value, start, following)
    return found


__all__ = [
    "CONTENT_WORDS",
    "SEARCH_WORDS",
    "free_text",
    "labelled_for",
    "leftover_clauses",
    "quotes_for",
    "without_own_words",
]
