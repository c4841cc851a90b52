"""Final answers that claim what no tool did: "已为您预订" when nothing was booked, "我已经将客户的
银行卡号列出来了" when no tool returned a card number.

Small models (and large ones, now and then) end a run by saying the work is done — 已预订, 发送
成功, 已提交, "I have deleted it", 列出来了 — when the tool that would have done it was never
called, failed, or was refused at the confirmation, or when no tool returned the data the answer
says it shows. The user believes it; the database says otherwise. The loop cannot know what the
words mean, but it knows what ran: every tool call of the run, whether it executed, whether it
succeeded, what it returned, and what each tool is (its name, description, parameters, level).

A claim is found by its *form*, not by a list of sentences: the completion aspect of any verb of a
broad lexicon (预订 发送 提交 创建 删除 修改 取消 支付 下单 通知 登记 安排 审批 保存 导出 分配
开通 邀请 退款 查询 计算 列出 展示 …) — 已/已经 + verb (also 已经将…列出来), verb + 了/好了/完了
/完成/成功/完毕, 成功 + verb, 完成/办好/搞定 on their own — and in English "I have/I've/was/has
been/successfully + a past participle", "I booked", "Done". Each verb has a kind:

- ``action``: a change in the world. Backed by a successful call of a tool that is not read-only
  (``side_effects``, or level L2/L3) and whose name, description or parameters name the action
  (Chinese words, English words of the name split at ``_`` and camelCase, pinyin); when no such
  tool names it, by any successful call of a tool that is not read-only.
- ``read``: a look-up (查询, 计算, searched). Backed by a successful call of a tool that names it,
  or of any tool when none does.
- ``shown``: data put before the user (列出, 展示, 提供, listed). Backed by a successful call whose
  result is not empty and (when the claim names what it shows, 客户的银行卡号) whose tool or
  result names it too; and every data token of the answer (an e-mail, a number of 4+ digits, an
  id such as room_301 or BK0002) must be found in a tool result, the arguments, or the messages
  the model was given — data that came from nowhere is made up.
- ``generic``: 已完成, 办好了, done — and a 把/将 sentence of the speaker's with any verb done
  to its object (我已经把结果告诉你了). Backed by any successful call. When the characters
  before its 了 begin a word of the lexicon (我已经将客户全名导给了您: 导 → 导出), the claim
  takes that verb's kind instead.

Data presented as such — "邮件 M003 内容如下：", "以下是查询结果：" (a 内容/结果/信息/名单… noun
before 如下 or after 以下是) — is a ``shown`` claim too, unless it asks the user for something
(需要您提供的信息如下); any successful call that returned something backs it, and its data
tokens must come from the results like any shown claim's.

Not claims: a negation just before (没有, 未能, 无法, 不, not, never, failed to) or a failure just
after (已提交失败); a question (the sentence ends with ？/吗, or asks 是否/要不要); a plan or a
condition (我将…, 可以帮您…, 如果已经…, 预订成功后…, I will …, once …); a passive (已被预订:
someone else did it); another subject (您已经预订了: the user did); an attribute (您已预订的
会议室); anything inside quotation marks. A claim that repeats what a successful result states
(the result says 已提交 or "submitted") reports that result and is backed.

- ``find_claims(answer)`` → the ``Claim``s, in order.
- ``unbacked_claims(answer, done, tools, results=…, given=…)`` keeps the claims nothing backs.
  ``tools`` is either the old mapping of side-effect tools (name → description; any other name is
  read-only) or ``ToolInfo``s.
- ``ClaimCheck`` is a hook (``Agent(..., hooks=[ClaimCheck.from_registry(registry)])``): its
  ``review_answer(answer, run, context)`` returns the note to send the model (the loop appends it
  as a user message after the assistant's answer and asks again) when the final answer makes
  unbacked claims — or None, and the answer stands. The note says what really happened (nothing
  ran, the call failed with …, the call was refused, what the reads returned), repeats the user's
  request (a small model otherwise answers the note instead of the user), and asks the model to
  do what is still to be done with the tools, or to answer from the tool results as they are.
  One note per run: an answer that still claims what did not happen after it ends the run with
  its own stop reason, ``unbacked_claim`` (``StopRun``), and an error that says what the answer
  claimed and what really happened — a false claim never reaches the user as the final answer.

An answer can also be true and still leave the user short: "已提交。" after a purchase request
whose result holds its number. ``unreported_ids`` finds the ids a successful call of a tool that
changes something returned (a result key such as ``booking_id``, ``requestId`` or 编号; not an id
the call was given) when the answer names nothing of that call (none of its ids or arguments),
and ``ClaimCheck`` sends such an answer back once too, asking for the number and the result's key
facts and for no new calls. A second short answer, or one at the last step, stands: it is short,
not false.

Left out: judging whether a claim is *true in detail* (right room, right time — the evaluation's
database checks do that), verbs outside the lexicon in Chinese (English takes any past participle
after "I have"; in Chinese a verb outside it counts only in a 把/将 sentence of the speaker's,
我已经将…导给了您, as ``generic``), claims spread over several sentences
("关于银行卡号。已经列好。" is caught, but without its object), and languages other than
Chinese and English.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .messages import latest_user_index
from .run import RunResult, StopRun, ToolCallRecord

NOTE_MARK = "【系统检查】"
UNREPORTED_NOTE = "你的回答没有告诉用户办理的结果"
"""How a note about an answer that names nothing of a successful action begins (after NOTE_MARK)."""
UNBACKED = "unbacked_claim"
"""The stop reason of a run whose answer claimed what did not happen even after the note."""

ACTION, READ, SHOWN, GENERIC = "action", "read", "shown", "generic"


@dataclass(frozen=True)
class Verb:
    """One claimed action: its name (how the note names it), kind, words, English stems, pinyin."""

    name: str
    kind: str
    words: tuple[str, ...]
    english: tuple[str, ...] = ()
    pinyin: tuple[str, ...] = ()
    needs_agent: bool = False
    """The words also name a state (操作已取消, 会议已关闭): a claim only with an agent (为您, 我已)
    or an object brought forward (已经把…取消了)."""


VERBS: tuple[Verb, ...] = (
    Verb(
        "预订", ACTION, ("预订", "预定", "订好", "订下", "约好"), ("book", "reserve"), ("yuding",)
    ),
    Verb(
        "发送",
        ACTION,
        ("发送", "发出", "寄出", "发好", "发给", "转发", "群发", "回复", "寄送"),
        ("send", "email", "mail", "forward", "reply", "message"),
        ("fasong", "zhuanfa"),
    ),
    Verb("提交", ACTION, ("提交", "递交", "上报"), ("submit", "file"), ("tijiao",)),
    Verb(
        "创建",
        ACTION,
        ("创建", "新建", "建立", "生成", "添加", "新增"),
        ("create", "add", "generate", "new", "insert"),
        ("chuangjian", "xinjian", "tianjia"),
    ),
    Verb(
        "删除",
        ACTION,
        ("删除", "删掉", "移除", "清除", "清空", "注销"),
        ("delete", "remove", "clear", "erase", "purge"),
        ("shanchu",),
    ),
    Verb(
        "修改",
        ACTION,
        ("修改", "更改", "更新", "改好", "调整", "变更", "设置", "重置", "改为", "改成"),
        ("update", "change", "modify", "set", "reset", "edit"),
        ("xiugai", "gengxin", "shezhi"),
    ),
    Verb(
        "取消",
        ACTION,
        ("取消", "撤销", "撤回", "退订"),
        ("cancel", "revoke", "withdraw"),
        ("quxiao",),
        needs_agent=True,
    ),
    Verb(
        "支付",
        ACTION,
        ("支付", "付款", "转账", "缴费", "付好"),
        ("pay", "transfer", "charge"),
        ("zhifu", "fukuan"),
    ),
    Verb(
        "下单",
        ACTION,
        ("下单", "订购", "采购", "购买", "买好"),
        ("order", "purchase", "buy"),
        ("xiadan", "goumai", "caigou"),
    ),
    Verb(
        "通知",
        ACTION,
        ("通知", "告知", "提醒"),
        ("notify", "remind", "inform", "alert"),
        ("tongzhi", "tixing"),
    ),
    Verb(
        "登记",
        ACTION,
        ("登记", "报名", "注册", "录入", "记录", "记下", "备案"),
        ("register", "record", "log", "enroll"),
        ("dengji", "jilu"),
    ),
    Verb(
        "安排",
        ACTION,
        ("安排", "预约", "排期", "约了"),
        ("schedule", "arrange", "appoint"),
        ("anpai", "yuyue"),
    ),
    Verb("审批", ACTION, ("审批", "批准", "驳回", "审核"), ("approve", "reject"), ("shenpi",)),
    Verb(
        "保存",
        ACTION,
        ("保存", "存好", "存档", "归档", "备份", "上传"),
        ("save", "archive", "upload", "backup", "store"),
        ("baocun", "guidang"),
    ),
    Verb(
        "导出",
        ACTION,
        ("导出", "下载", "打印"),
        ("export", "download", "print"),
        ("daochu", "xiazai"),
    ),
    Verb("分配", ACTION, ("分配", "指派", "转交"), ("assign", "allocate"), ("fenpei",)),
    Verb(
        "开通",
        ACTION,
        ("开通", "启用", "停用", "禁用", "关闭"),
        ("enable", "disable", "activate", "deactivate", "close"),
        ("kaitong", "qiyong"),
        needs_agent=True,
    ),
    Verb("邀请", ACTION, ("邀请",), ("invite",), ("yaoqing",)),
    Verb("退款", ACTION, ("退款", "退还"), ("refund",), ("tuikuan",)),
    Verb(
        "查询",
        READ,
        (
            "查询",
            "查到",
            "查过",
            "查看",
            "检索",
            "搜索",
            "搜到",
            "查找",
            "核对",
            "检查",
            "统计",
            "计算",
            "算好",
            "算出",
            "读取",
            "获取",
        ),
        ("query", "search", "look", "check", "fetch", "calculate", "compute", "find"),
        ("chaxun", "sousuo", "jisuan", "chazhao"),
    ),
    Verb(
        "列出",
        SHOWN,
        ("列出", "列好", "展示", "显示", "给出", "提供", "调出", "整理出", "汇总"),
        ("list", "show", "display", "provide", "attach"),
        ("liechu", "xianshi"),
    ),
    Verb(
        "完成",
        GENERIC,
        ("完成", "办好", "办妥", "搞定", "处理好", "弄好", "做好", "办完", "处理完"),
        ("complete", "finish", "done", "handle"),
    ),
)
_BY_WORD = {word: verb for verb in VERBS for word in verb.words}
_BY_NAME = {verb.name: verb for verb in VERBS}

# The old public mapping: a side-effect action → its Chinese words.
ACTIONS: dict[str, tuple[str, ...]] = {v.name: v.words for v in VERBS if v.kind == ACTION}

_IRREGULAR = {
    "sent": "send",
    "bought": "buy",
    "paid": "pay",
    "found": "find",
    "shown": "show",
    "done": "done",
    "set": "set",
    "reset": "reset",
    "got": "get",
    "gotten": "get",
    "made": "make",
    "written": "write",
    "wrote": "write",
    "given": "give",
    "taken": "take",
    "put": "put",
    "looked up": "look",
}
_EN_BY_STEM = {stem: verb for verb in VERBS for stem in verb.english}


def _past(stem: str) -> set[str]:
    forms = {stem + "d"} if stem.endswith("e") else {stem + "ed"}
    if re.search(r"[^aeiou][aeiou][bdglmnprt]$", stem):  # submit → submitted, log → logged
        forms.add(stem + stem[-1] + "ed")
    if stem.endswith("y") and stem[-2:-1] not in ("a", "e", "o"):
        forms.add(stem[:-1] + "ied")
    return forms


_EN_PAST: dict[str, str] = {form: stem for stem in _EN_BY_STEM for form in _past(stem)}
_EN_PAST.update({form: stem for form, stem in _IRREGULAR.items()})

_FOR = r"(?:为您|为你|帮您|帮你|给您|给你|替您|替你)"
_WORDS = sorted(_BY_WORD, key=len, reverse=True)
_WORD = "(?:" + "|".join(map(re.escape, _WORDS)) + ")"
_NOT_AFTER = r"(?!失败|未成功|不了|不成|的(?!话))"
_CLAIM = re.compile(
    rf"(?P<agent>我们?|{_FOR})?"
    rf"(?:已经?|都已经?){_FOR}?(?:成功)?地?(?:(?P<ba>将|把)(?P<obj>[^，。！？；;,!?\n]{{1,30}}?))?"
    rf"(?P<a>{_WORD})(?:出来|出|好|完|掉|下)?了?{_NOT_AFTER}"  # 已为您预订 / 已经将…列出来了
    rf"|(?P<agent2>我们?|{_FOR})?(?P<b>{_WORD})(?:出来|好|完|掉)?"
    rf"(?:成功|完成|完毕|妥当|好了|完了|了)(?!吗|么|没|\?|？|后|之后|以后|的话|时|再|解)"
    rf"|成功地?{_FOR}?(?P<c>{_WORD}){_NOT_AFTER}"  # 成功预订 / 成功为您提交
    rf"|(?P<d>{_FOR}|我们?)(?P<e>[订发删改买寄交查算记存列])了(?!吗|么|没|\?|？)"  # 帮您订了
)
_BA_DONE = re.compile(  # 我已经将客户全名导给了您 / 我把名单导出来了: any verb, done to an object
    rf"(?:(?P<agent>我们?|{_FOR})(?:已经?|都已经?)?|(?:已经?|都已经?)){_FOR}?(?P<ba>将|把)"
    rf"(?P<obj>[^，。！？；;,!?\n]{{1,30}}?)(?P<v>[\u4e00-\u9fff]{{1,2}}?)"
    rf"(?:出来|出去|过去|好|完|掉|下|到|上|给)?了(?!吗|么|没|\?|？)"
)
_SHOWN_NOUN = r"(?:内容|结果|信息|详情|记录|列表|清单|名单|数据|资料|明细|正文|原文|情况)"
_PRESENTED = re.compile(  # 邮件 M003 内容如下： / 以下是查询结果： — data put before the user
    rf"(?P<p1>[^，。！？；;,!?\n：:]{{0,24}}?{_SHOWN_NOUN})\s*(?:如下|是)\s*[:：]"
    rf"|以下(?:是|为|就是)(?P<p2>[^，。！？；;,!?\n：:]{{0,24}}?{_SHOWN_NOUN})\s*[:：]?"
)
_ASKING = re.compile(r"需要|请|麻烦|提供|填写|补充|告诉我|确认一下|核对一下")
_SINGLE = {
    "订": "预订",
    "发": "发送",
    "删": "删除",
    "改": "修改",
    "买": "下单",
    "寄": "发送",
    "交": "提交",
    "查": "查询",
    "算": "查询",
    "记": "登记",
    "存": "保存",
    "列": "列出",
}
_EN_WORD = "|".join(sorted(map(re.escape, _EN_PAST), key=len, reverse=True))
_EN_CLAIM = re.compile(
    r"\b(?:i have|i've|we have|we've|has been|have been|had been|was|were|is now|are now"
    r"|successfully|i|we)\s+(?:(?:also|now|just|already|successfully|been|all)\s+)*"
    rf"(?P<v>{_EN_WORD}|[a-z]+ed)\b"
    r"|(?P<done>\b(?:all\s+)?done\b(?!\s+(?:yet|anything|so far)))",
    re.IGNORECASE,
)
_NEGATION = re.compile(
    r"(?:没有|没能|没|未能|未|无法|不能|不会|不|尚未|还没|并未|并没有|暂未|暂时没|别|未曾|失败)"
    r"[^，。！？；,!?]{0,4}$"
)
_EN_NEGATION = re.compile(
    r"(?:\bnot\b|\bnever\b|n't\b|\bunable to\b|\bfailed to\b|\bcould not\b|\bno\b)[\w\s]{0,12}$",
    re.IGNORECASE,
)
_PLAN = re.compile(
    r"如果|若是|假如|要是|一旦|是否|有没有|要不要|需不需要|需要我|可以|能否|能不能|打算|准备|计划"
    r"|即将|将会|稍后|待会|之前|以便|确认后|会为您|会帮您|会给您|我会|我将(?!.*了$)|^\s*请"
)
_EN_PLAN = re.compile(
    r"\b(?:will|shall|would|can|could|let me|going to|if|once|after|before|when|unless|want me"
    r"|should)\b",
    re.IGNORECASE,
)
_OTHER_SUBJECT = re.compile(
    r"(?:您|你|他|她|它|他们|她们|对方|客户|用户|同事)(?:之前|此前|刚才|早就|本人|自己)?\s*$"
)
_DONE_BEFORE = r"\s*(?:(?:ok|okay|it's|it is|that's|that is|everything is|everything's),?\s*)?"
_QUOTES = re.compile(r"“[^”]*”|「[^」]*」|『[^』]*』|‘[^’]*’|\"[^\"\n]*\"|《[^》]*》")
_SENTENCE_END = "。！？!?\n"
_CLAUSE_END = "。！？!?\n，,；;：:"
_DATA = re.compile(
    r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+|(?<![\w])(?:[A-Za-z]+[_-]?\d+[\w-]*|\d{4,})(?![\w])"
)
_GENERIC_OBJECTS = {"这些", "它们", "结果", "以上", "如下", "信息", "内容", "数据", "资料"}


@dataclass(frozen=True)
class Claim:
    """One phrase of an answer stating that something was done: the phrase, the action's name, its
    kind (``action``, ``read``, ``shown``, ``generic``) and what it names, if it says (the object
    of 已经将…列出来)."""

    phrase: str
    action: str
    kind: str = ACTION
    obj: str = ""
    own: bool = False
    """The answer says *it* did it (我已, 为您, 帮您, "I have"): a result's status never backs
    it."""


@dataclass(frozen=True)
class ToolInfo:
    """What the check knows of one tool: its name, the text that says what it does, read-only or
    not."""

    name: str
    text: str
    read_only: bool

    @classmethod
    def from_tool(cls, tool: Any) -> ToolInfo:
        """From a ``Tool`` (read-only: no side effects and level L0/L1) or an OpenAI tool schema
        (read-only when it says ``readOnlyHint`` or names no action)."""
        if isinstance(tool, Mapping):
            function = tool.get("function", tool)
            name = str(function.get("name", ""))
            text = _tool_text(name, function.get("description"), function.get("parameters"))
            hint = (function.get("annotations") or {}).get("readOnlyHint")
            read_only = hint if isinstance(hint, bool) else not _names_action(text)
            return cls(name, text, read_only)
        level = str(getattr(tool, "level", "L1"))
        read_only = not getattr(tool, "side_effects", False) and level in ("L0", "L1")
        return cls(tool.name, _tool_text(tool.name, tool.description, tool.parameters), read_only)


def _tool_text(name: str, description: Any, parameters: Any) -> str:
    params = json.dumps(parameters, ensure_ascii=False) if parameters else ""
    return f"{name} {description or ''} {params}"


def _tokens(text: str) -> set[str]:
    """English and pinyin words of a text: ``sendEmail_now`` → send, email, now."""
    spaced = re.sub(r"([a-z])([A-Z])", r"\1 \2", text)
    return {word.lower() for word in re.findall(r"[A-Za-z]+", spaced)}


def _names(verb: Verb, text: str) -> bool:
    """True when a tool's text names ``verb``: a Chinese word, an English word, or pinyin."""
    if any(word in text for word in verb.words):
        return True
    tokens = _tokens(text)
    if any(stem in tokens or stem + "s" in tokens for stem in verb.english):
        return True
    return any(p in token for token in tokens for p in verb.pinyin)


def _names_action(text: str) -> bool:
    return any(_names(verb, text) for verb in VERBS if verb.kind == ACTION)


def _masked(answer: str) -> str:
    """``answer`` with quoted text blanked out (same length, so positions hold)."""
    return _QUOTES.sub(lambda m: "□" * len(m.group(0)), answer)


def _around(text: str, start: int, end: int) -> tuple[str, str, str]:
    """The clause before a match, the whole sentence, and the text after it up to the sentence
    end."""
    s_start = max((text.rfind(ch, 0, start) for ch in _SENTENCE_END), default=-1) + 1
    s_ends = [i for i in (text.find(ch, end) for ch in _SENTENCE_END) if i >= 0]
    s_end = min(s_ends) + 1 if s_ends else len(text)
    c_start = max((text.rfind(ch, 0, start) for ch in _CLAUSE_END), default=-1) + 1
    return text[c_start:start], text[s_start:s_end], text[end:s_end]


def _is_question(sentence: str) -> bool:
    return bool(re.search(r"(?:[？?]|[吗么呢][。！!…\s]*)\s*$", sentence.strip()))


def _chinese_claims(text: str) -> list[tuple[int, Claim]]:
    found = []
    for match in _CLAIM.finditer(text):
        before, sentence, _ = _around(text, match.start(), match.end())
        if _is_question(sentence) or _NEGATION.search(before):
            continue
        if (
            re.search(r"被[^，。！？；]{0,6}$", before)
            or text[match.start() : match.end()].find("被") >= 0
        ):
            continue
        if _OTHER_SUBJECT.search(before) and not match.group("agent"):
            continue  # 您已经预订了 room_301: the user's own doing, read from a result
        phrase = match.group(0)
        plan = _PLAN.search(before)
        if plan and not (plan.group(0) == "我将" and phrase.endswith("了")):
            continue
        if match.group("e"):
            verb = _BY_NAME[_SINGLE[match.group("e")]]
        else:
            word = next(g for g in match.group("a", "b", "c") if g)
            verb = _BY_WORD[word]
        agent = bool(
            match.group("agent")
            or match.group("agent2")
            or match.group("ba")
            or match.group("d")
            or re.search(rf"(?:我们?|{_FOR})$", before)
        )
        if verb.needs_agent and not agent:
            continue
        obj = (match.group("obj") or "").strip()
        own = bool(agent or re.search(_FOR, phrase))
        found.append((match.start(), Claim(phrase.strip(), verb.name, verb.kind, obj, own)))
    taken = [(start, start + len(claim.phrase)) for start, claim in found]
    for match in _BA_DONE.finditer(text):
        before, sentence, _ = _around(text, match.start(), match.end())
        if any(a < match.end() and match.start() < b for a, b in taken):
            continue  # 我已经把会议室订好了: the lexicon's claim says it already, with its kind
        if _is_question(sentence) or _NEGATION.search(before) or _PLAN.search(before):
            continue
        if _OTHER_SUBJECT.search(before) and not match.group("agent"):
            continue
        phrase = match.group(0).strip()
        verb = _ba_verb(match.group("obj") + match.group("v"))
        if verb is None:
            found.append((match.start(), Claim(phrase, phrase, GENERIC, match.group("obj"), True)))
        else:
            found.append((match.start(), Claim(phrase, verb.name, verb.kind, "", True)))
    for match in _PRESENTED.finditer(text):
        before, sentence, _ = _around(text, match.start(), match.end())
        obj = (match.group("p1") or match.group("p2") or "").strip()
        if _ASKING.search(before + obj) or _NEGATION.search(before) or _PLAN.search(before + obj):
            continue  # 需要您提供的信息如下: a question for the user, nothing shown
        # no object: any read that returned something backs it; its data tokens are checked
        found.append((match.start(), Claim(match.group(0).strip(), "列出", SHOWN, "", True)))
    return found


def _ba_verb(words: str) -> Verb | None:
    """The lexicon's verb a 把/将 sentence ends with, by the characters before its 了 and
    complement: 客户全名导(给了) → 导出, 名单整理(好了) → 整理出; None when no word starts so."""
    for size in (2, 1):
        tail = words[-size:]
        found = next((word for word in _WORDS if word.startswith(tail)), None)
        if len(words) >= size and found is not None:
            return _BY_WORD[found]
    return None


def _english_claims(text: str) -> list[tuple[int, Claim]]:
    found = []
    for match in _EN_CLAIM.finditer(text):
        before, sentence, _ = _around(text, match.start(), match.end())
        if _is_question(sentence) or _EN_NEGATION.search(before) or _EN_PLAN.search(before):
            continue
        if re.search(r"\bnot\b|n't\b", match.group(0), re.IGNORECASE):
            continue
        if match.group("done"):
            if not re.fullmatch(_DONE_BEFORE, before, re.IGNORECASE):
                continue  # "this must be done by Friday" claims nothing
            found.append((match.start(), Claim(match.group(0), "完成", GENERIC)))
            continue
        word = match.group("v").lower()
        stem = _EN_PAST.get(word)
        if stem is None:  # any past participle after "I have": "I have archived …"
            if not re.match(r"(?:i have|i've|we have|we've|successfully)\b", match.group(0), re.I):
                continue
            stem = word[:-2] if word.endswith("ed") else word
            found.append((match.start(), Claim(match.group(0), stem, ACTION)))
            continue
        own = re.match(r"(?:i|we|i've|we've)\b", match.group(0), re.IGNORECASE) is not None
        verb = _EN_BY_STEM.get(stem)
        if verb is None:  # "I made a mistake", "I got it": no action of the lexicon
            continue
        if not own and verb.kind in (READ, SHOWN):
            continue  # "the list was shown" says nothing of this run; "was booked" does
        found.append((match.start(), Claim(match.group(0), verb.name, verb.kind, "", own)))
    return found


def find_claims(answer: str) -> list[Claim]:
    """Every phrase of ``answer`` that states something was done (negations, questions, plans,
    passives and quotations excluded), in order."""
    text = _masked(answer)
    found = _chinese_claims(text) + _english_claims(text)
    return [claim for _, claim in sorted(found, key=lambda item: item[0])]


def _as_tools(tools: Mapping[str, str] | Iterable[ToolInfo]) -> dict[str, ToolInfo]:
    if isinstance(tools, Mapping):  # the side-effect tools, name → description
        return {name: ToolInfo(name, f"{name} {text}", False) for name, text in tools.items()}
    return {info.name: info for info in tools}


def _verb_of(claim: Claim) -> Verb:
    return _BY_NAME.get(claim.action) or Verb(claim.action, claim.kind, (), (claim.action,))


def _object_named(obj: str, texts: Iterable[str]) -> bool:
    """True when a tool's text or result names what a claim says it shows (the part after the
    last 的: 客户的银行卡号 → 银行卡号), by a shared character pair or English word."""
    head = obj.rsplit("的", 1)[-1].strip()
    if not head or head in _GENERIC_OBJECTS or re.fullmatch(r"[这那此其它他她们些个]+", head):
        return True
    pairs = {head[i : i + 2] for i in range(len(head) - 1)} or {head}
    words = {w for w in _tokens(head) if len(w) > 2}
    return any(any(p in text for p in pairs) or words & _tokens(text) for text in texts)


def _reported(verb: Verb, returned: str) -> bool:
    """True when a tool result itself states ``verb`` as done (状态：已提交, "status": "submitted"):
    an answer repeating it reports a result, it claims nothing of its own."""
    if not returned:
        return False
    if any(f"已{w}" in returned or f"{w}成功" in returned for w in verb.words):
        return True
    words = set(re.findall(r"[a-z]+", returned.lower()))
    forms = {form for form, stem in _EN_PAST.items() if stem in verb.english}
    return bool(forms & words)


def unbacked_claims(
    answer: str,
    done: Iterable[tuple[str, bool]],
    tools: Mapping[str, str] | Iterable[ToolInfo],
    results: Mapping[str, Sequence[str]] | None = None,
    given: str = "",
) -> list[Claim]:
    """The claims of ``answer`` that nothing of this run backs.

    ``done``: ``(tool name, succeeded)`` for each call that actually ran in this run (not refused,
    not answered from an earlier identical call). ``tools``: the tools — either ``ToolInfo``s or,
    as before, a mapping name → description of the tools with side effects (any other name is
    read-only). ``results``: tool name → the texts its successful calls returned (for claims of
    shown data; without it a successful call counts as a result). ``given``: the other text the
    model had (the request, the arguments) — data found there is not made up.
    """
    infos = _as_tools(tools)
    ok = [name for name, succeeded in done if succeeded]
    known = results or {}
    returned = " ".join(t for name in dict.fromkeys(ok) for t in known.get(name, ()))
    unbacked = []
    for claim in find_claims(answer):
        verb = _verb_of(claim)
        if claim.kind in (ACTION, GENERIC) and not claim.own and _reported(verb, returned):
            continue  # 申请已提交: a status a successful call returned, reported
        if claim.kind == ACTION:
            pool = [n for n in ok if n in infos and not infos[n].read_only]
            related = [
                n for n, info in infos.items() if not info.read_only and _names(verb, info.text)
            ]
            backers = [n for n in pool if n in related] if related else pool
        elif claim.kind == READ:
            related = [n for n, info in infos.items() if _names(verb, info.text)]
            backers = [n for n in ok if n in related] or ([] if related else ok)
        elif claim.kind == SHOWN:
            backers = [
                n
                for n in ok
                if (results is None or any(t.strip() for t in known.get(n, ())))
                and _object_named(
                    claim.obj, [infos[n].text if n in infos else n, *known.get(n, ())]
                )
            ]
        else:
            backers = ok
        if not backers:
            unbacked.append(claim)
    if results is not None and any(claim.kind == SHOWN for claim in find_claims(answer)):
        seen = given + " ".join(t for texts in known.values() for t in texts)
        made_up = [token for token in _DATA.findall(_masked(answer)) if token not in seen]
        if made_up:
            unbacked.append(Claim("、".join(dict.fromkeys(made_up)), "列出", SHOWN))
    return unbacked


def _result_text(record: ToolCallRecord) -> str:
    if record.content:
        return record.content
    return json.dumps(record.result.data, ensure_ascii=False, default=str)


NOTHING_FOUND = re.compile(
    r"没(?:有)?(?:找到|查到|查询到|搜到|发现)|(?:找|查|搜)不到|没有(?:符合|满足|合适|可用|空闲|空着|空的)"
    r"|一个都没有|一个也没有|都没有空|\bno\s+(?:\w+\s+){0,3}(?:found|available)\b"
    r"|\b(?:could\s*n[o']t|did\s*n[o']t|cannot|can't)\s+find\b",
    re.I,
)


def _listed(data: Any) -> list[Any]:
    """The items a read returned: the data itself when it is a list, else its list values."""
    if isinstance(data, list):
        return data
    if isinstance(data, dict):
        return [item for value in data.values() if isinstance(value, list) for item in value]
    return []


def _names_of(item: Any) -> list[str]:
    """The texts an answer could name an item by (its string and number values, 2+ characters)."""
    values = item.values() if isinstance(item, dict) else [item]
    return [
        str(v)
        for v in values
        if isinstance(v, (str, int)) and not isinstance(v, bool) and len(str(v).strip()) >= 2
    ]


NAMED_ITEMS = 5
"""How many of a read's items a note names (a small model reads the note, not the result above)."""


def _first_names(items: Sequence[Any]) -> str:
    """The items a read returned, each by its first name (``_names_of``), for a note: 'room_301、
    room_502 等 7 条' — what the model must not say is not there, said where it reads it."""
    names = [next(iter(_names_of(item)), "") for item in items[:NAMED_ITEMS]]
    names = [name[:40] for name in names if name]
    if not names:
        return "见上面"
    rest = "" if len(items) <= NAMED_ITEMS else f" 等，共 {len(items)} 条"
    return "、".join(names) + rest + "，详见上面"


def denied_results(
    answer: str, records: Sequence[ToolCallRecord], tools: Mapping[str, ToolInfo]
) -> list[Claim]:
    """A "nothing was found" in ``answer`` (没有找到, 查不到, no rooms available) when a successful
    read-only call of the run returned items and the answer names none of them: the user is told
    there is nothing when the result says there is."""
    said = NOTHING_FOUND.search(answer)
    if said is None:
        return []
    for record in records:
        info = tools.get(record.call.name)
        if not record.executed or not record.result.success or info is None or not info.read_only:
            continue
        items = _listed(record.result.data)
        if items and not any(name in answer for item in items for name in _names_of(item)):
            return [Claim(said.group(0), "查询", READ, own=True)]
    return []


ID_KEY = re.compile(r"(?:^|_)id$|[a-z]Id$|编号|单号", re.I)


def unreported_ids(
    answer: str, records: Sequence[ToolCallRecord], tools: Mapping[str, ToolInfo]
) -> list[tuple[str, str, str]]:
    """``(tool, key, value)`` of the ids that successful calls of tools that change something
    returned (a result key such as ``booking_id``, ``requestId``, 编号; not an id the call was
    given) when the answer names nothing of that call — none of its ids, none of its arguments'
    values: the user would not learn what was done to what.
    """
    missing: list[tuple[str, str, str]] = []
    for record in records:
        info = tools.get(record.call.name)
        data = record.result.data
        if (
            record.repeated
            or not record.executed
            or not record.result.success
            or info is None
            or info.read_only
            or not isinstance(data, dict)
        ):
            continue
        given = str(record.call.arguments)
        ids = [
            (str(key), str(value))
            for key, value in data.items()
            if ID_KEY.search(str(key))
            and isinstance(value, (str, int))
            and not isinstance(value, bool)
            and len(str(value)) >= 3
            and str(value) not in given
        ]
        named = [value for _, value in ids] + _argument_values(record.call.arguments)
        if ids and not any(value in answer for value in named):
            missing += [(record.call.name, key, value) for key, value in ids]
    return missing


def _argument_values(arguments: Any) -> list[str]:
    """The values of a call's arguments an answer could name: texts of 2+ characters, numbers of
    3+ digits (a quantity of 2 is no name)."""
    if isinstance(arguments, str):  # a ToolCall keeps the model's JSON text
        try:
            arguments = json.loads(arguments)
        except ValueError:
            return []
    values = arguments.values() if isinstance(arguments, dict) else []
    return [
        str(v)
        for v in values
        if (isinstance(v, str) and len(v.strip()) >= 2)
        or (isinstance(v, int) and not isinstance(v, bool) and abs(v) >= 100)
    ]


def _what_happened(
    records: Sequence[ToolCallRecord], tools: Mapping[str, ToolInfo], reads: bool = False
) -> str:
    """What the calls of a run really did, in one Chinese sentence (the read-only ones too when
    ``reads``)."""
    facts = []
    for record in records:
        name = record.call.name
        info = tools.get(name)
        if record.repeated or (not reads and (info is None or info.read_only)):
            continue
        if not record.executed:
            facts.append(f"{name} 没有执行（{record.result.error or '被拒绝'}）")
        elif not record.result.success:
            facts.append(f"{name} 执行失败（{record.result.error or '没有说明原因'}）")
        elif reads and (info is None or info.read_only):
            data = record.result.data
            empty = data in (None, "", [], {})
            listed = _listed(data)
            facts.append(
                f"{name} 执行成功"
                + (
                    "，但没有返回任何数据"
                    if empty
                    else f"，返回了 {len(listed)} 条结果（{_first_names(listed)}）"
                    if listed
                    else "，结果见上面"
                )
            )
        else:
            facts.append(f"{name} 执行成功")
    if facts:
        return "；".join(facts)
    if reads:
        return "这次运行没有调用任何工具，也没有任何工具结果含有你说的这些内容"
    return "这次运行没有调用任何会产生实际效果的工具（预订、发送、提交之类）"


class ClaimCheck:
    """The tools of a registry, and the hook that sends a final answer with unbacked claims back
    once."""

    def __init__(
        self, side_effect_tools: Mapping[str, str], tools: Iterable[ToolInfo] | None = None
    ):
        self.side_effect_tools = dict(side_effect_tools)
        self.tools = (
            {info.name: info for info in tools}
            if tools is not None
            else _as_tools(side_effect_tools)
        )

    @classmethod
    def from_registry(cls, registry: Iterable[Any]) -> ClaimCheck:
        """From a ``ToolRegistry`` (or any iterable of ``Tool``s or OpenAI tool schemas)."""
        infos = [ToolInfo.from_tool(tool) for tool in registry]
        return cls({i.name: i.text for i in infos if not i.read_only}, infos)

    def check(self, answer: str, records: Sequence[ToolCallRecord], given: str = "") -> list[Claim]:
        """``unbacked_claims`` over a run's tool-call records, and ``denied_results``."""
        ran = [r for r in records if r.executed and not r.repeated]
        done = [(r.call.name, r.result.success) for r in ran]
        results: dict[str, list[str]] = {}
        for record in ran:
            if record.result.success:
                results.setdefault(record.call.name, []).append(_result_text(record))
        arguments = " ".join(str(r.call.arguments) for r in records)
        claims = unbacked_claims(answer, done, self.tools.values(), results, f"{given} {arguments}")
        return claims + denied_results(answer, ran, self.tools)

    def _unreported_note(self, answer: str, run: RunResult) -> str | None:
        """The note for an answer that leaves out the ids a successful action returned (a small
        model's bare "已提交。"); None when it names them or nothing returned one."""
        missing = unreported_ids(answer, run.tool_calls, self.tools)
        if not missing:
            return None
        said = "、".join(
            dict.fromkeys(f"{name} 返回的 {key}（{value}）" for name, key, value in missing)
        )
        request = user_request(run.messages)
        again = f"用户的请求是：“{request}”。" if request else ""
        return (
            f"{NOTE_MARK}{UNREPORTED_NOTE}：{said}。{again}不需要再调用工具，"
            "请直接用中文回答用户：办成了什么，以及上面这个编号，还有工具结果里的时间、数量、金额等"
            "关键信息。"
        )

    def review_answer(self, answer: str, run: RunResult, context: Any = None) -> str | None:
        """The hook: the note for the model when ``answer`` claims what the run did not do; else
        None. Once per run: a second answer that still does raises ``StopRun("unbacked_claim")``,
        and so does one at the last step (``context.last``), when a note could not be acted on.
        """
        given = " ".join(
            m["content"]
            for m in run.messages
            if m.get("role") in ("system", "user") and isinstance(m.get("content"), str)
        )
        claims = self.check(answer, run.tool_calls, given)
        if not claims:
            if already_noted(run.messages) or getattr(context, "last", False):
                return None  # an answer short of an id is no false claim: it stands
            return self._unreported_note(answer, run)
        said = "、".join(dict.fromkeys(f"“{claim.phrase}”" for claim in claims))
        reads = any(claim.kind != ACTION for claim in claims)
        happened = _what_happened(run.tool_calls, self.tools, reads)
        last = bool(getattr(context, "last", False))  # no step left to act on a note
        if already_noted(run.messages) or last:
            quoted = answer.strip()
            quoted = quoted if len(quoted) <= 200 else quoted[:200] + "…"
            when = (
                "模型被提醒之后，回答仍然说"
                if already_noted(run.messages)
                else "这是最后一步（max_steps 用完了，没有机会再提醒模型），回答却说"
            )
            raise StopRun(
                UNBACKED,
                f"{when}{said}，但实际情况是：{happened}。"
                f"为免误导，这个回答没有作为最终回答交给用户。模型的原话：“{quoted}”",
            )
        request = user_request(run.messages)
        again = f"用户的请求是：“{request}”。" if request else ""
        return (
            f"{NOTE_MARK}你刚才的回答说{said}，但实际情况是：{happened}。{again}请重新处理这个"
            "请求：还需要办理的事，现在就调用相应的工具；只是查询、或者办不了、失败了、被拒绝了，"
            "就只按上面的工具结果如实回答用户，不要说没有做成的事已经做了，也不要写工具结果里"
            "没有的数据。"
        )


def _is_note(message: dict[str, Any]) -> bool:
    content = message.get("content")
    return isinstance(content, str) and content.startswith(NOTE_MARK)


def note_kind(message: dict[str, Any]) -> str | None:
    """``"claim"`` for a note about an unbacked claim, ``"unreported"`` for one about an answer
    that named nothing of a successful action, None for any other message."""
    if not _is_note(message):
        return None
    return (
        "unreported"
        if message["content"][len(NOTE_MARK) :].startswith(UNREPORTED_NOTE)
        else "claim"
    )


def user_request(messages: Sequence[dict[str, Any]]) -> str:
    """The text of the last user message that is not a note: the request the run is answering."""
    index = latest_user_index(
        messages, skip=lambda m: _is_note(m) or not isinstance(m.get("content"), str)
    )
    return messages[index]["content"] if index >= 0 else ""


def already_noted(messages: Sequence[dict[str, Any]]) -> bool:
    """True when the current run (the messages after the last user message that is not a note)
    already got a note.
    """
    index = latest_user_index(messages)
    return index >= 0 and _is_note(messages[index])


__all__ = [
    "ACTIONS",
    "VERBS",
    "Claim",
    "ClaimCheck",
    "NOTE_MARK",
    "UNBACKED",
    "ToolInfo",
    "Verb",
    "already_noted",
    "find_claims",
    "denied_results",
    "note_kind",
    "unbacked_claims",
    "unreported_ids",
    "user_request",
]
