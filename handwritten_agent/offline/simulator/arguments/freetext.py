"""Free text for a query, a message or a topic: a quoted span, the words after a colon, or the request minus its verbs.

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
from .params import Param

_FILLER = re.compile(r"^(?:请|麻烦|帮我|帮忙|给我|替我|你|能不能|可不可以|可以|我想|我要|想)+|"
                     r"^(?:please |can you |could you |would you |i want to |i'd like to )+", re.I)
_TEXT_VERBS = re.compile(r"^(?:搜索一下|搜一下|搜索|查找|查询一下|查询|查一下|查|找一下|找|检索|翻译一下|翻译|search for|search|look up|find|translate)\s*",
                         re.I)
# "给张三发短信", "帮我发一封邮件": the words that ask for the message, not the message itself.
_MESSAGE_LEAD = re.compile(r"^(?:给|向|跟|对|帮)?\s*[^，,。\s]{0,12}?\s*(?:发|写|回|寄|推送|发送)(?:一?[条封个份])?\s*"
                           r"(?:短信|消息|邮件|信息|通知|私信|微信|email|e-mail|mail|sms|message)\s*[，,:]?\s*", re.I)
_AFTER_COLON = re.compile(r"(?<![\d\s])\s*:(?!\d)\s*(.+)$", re.S)
# Words for what a free-text parameter holds, so "主题是《…》" finds a parameter named ``subject``.
_LABEL_WORDS: dict[str, tuple[str, ...]] = {
    "subject": ("主题", "标题"), "title": ("标题", "题目", "名字"), "body": ("正文", "内容"), "content": ("内容", "正文"),
    "message": ("消息", "内容", "留言"), "text": ("文本", "这句话", "句子", "文字"), "query": ("搜索", "查询", "关键词", "搜"),
    "keyword": ("关键词", "关键字"), "keywords": ("关键词", "关键字"), "topic": ("主题", "话题"), "question": ("问题",),
    "note": ("备注",), "remark": ("备注",), "comment": ("评论", "备注"), "name": ("名字", "名称"), "prompt": ("提示",),
    "sentence": ("句子", "这句话"), "description": ("描述", "说明"),
}


def free_text(segment: str) -> str:
    """The free text of ``segment``: its first quote, else what follows a colon, else its words without the verbs."""
    text = normalize(segment).strip()
    quotes = find_quotes(text)
    if quotes:
        return quotes[0].text
    after_colon = _AFTER_COLON.search(text)
    if after_colon:
        return after_colon.group(1).strip()
    text = " ".join(text.split())
    for _ in range(3):
        text = _FILLER.sub("", text).strip()
        text = _TEXT_VERBS.sub("", text).strip()
        text = _MESSAGE_LEAD.sub("", text).strip()
    text = re.sub(r"[吧吗呢啊。？?！!，,\s]+$", "", text)
    text = re.sub(r"^(?:关于|有关|about)\s*", "", text, flags=re.I).strip(" :：,，")
    return text


def _label_tokens(param: Param) -> set[str]:
    words = split_identifier(param.name)
    found = {w for w in words if len(w) > 2}
    for word in words:
        found.update(_LABEL_WORDS.get(word, ()))
    found.update(tok for tok in tokens(param.label()) if len(tok) >= 2)
    return found


def quotes_for(params: list[Param], text: str) -> dict[str, Quote]:
    """Which quote of ``text`` each free-text parameter takes (see the module docstring)."""
    quotes = find_quotes(text)
    if not quotes or not params:
        return {}
    chosen: dict[str, Quote] = {}
    free = list(quotes)
    for param in params:  # first a quote introduced by the parameter's own words
        labels = _label_tokens(param)
        for index, quote in enumerate(free):
            previous_end = max([q.end for q in quotes if q.end <= quote.start], default=0)
            lead = text[max(previous_end, quote.start - 10):quote.start].lower()
            if any(label.lower() in lead for label in labels):
                chosen[param.name] = free.pop(index)
                break
    for param in params:  # then the remaining quotes in order
        if param.name not in chosen and free:
            chosen[param.name] = free.pop(0)
    return chosen


__all__ = ["free_text", "quotes_for"]
