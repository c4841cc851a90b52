"""Summary mode: a request to summarize a conversation gets an extractive summary, within the budget
it states.

When a request offers no tools and its instruction asks for a summary (摘要/总结/概括/压缩/
summarize …), the simulator reads the conversation it is given — a transcript with lines like
"用户：…", "工具 get_weather 返回：…", or the messages as JSON — and answers with the sentences
worth keeping, grouped:

=====================  =============================================================================
事实与数字              a sentence with a number, an amount, a date, a time or an id; each tool
                       result, shortened
人名                    a sentence naming a person after a word that introduces one (联系人是王芳,
                       叫…, 和张伟…, 找…, 问…)
地点                    a city the simulator knows, or a place named by its kind (…区, …路, …镇);
                       asked for by 地名/地点 and by 人名 (a prompt that wants names wants these)
偏好                    喜欢 / 偏好 / 不喜欢 / 习惯 / prefer …
约束                    必须 / 不能 / 不超过 / 至少 / 预算 / 截止 / 过敏 / must / at most …
决定                    决定 / 定在 / 就按 / 确定 / decided …
未完成的任务            提醒 / 记得 / 还没 / 需要 / 待办 / remind / to do …
备忘                    what the user asked to be remembered and fits none of the above: a neutral
                       heading rather than a wrong one
=====================  =============================================================================

A request to remember ("记一下：", "帮我记住，", "别忘了，", "请记住：", "Remember that", "Note
that") is taken off the sentence it introduces, and that sentence outranks everything else.

Like a model, it keeps **what the instruction asks for**: only the groups whose names (or synonyms)
the instruction mentions; an instruction that names none gets a short gist — the first clause of
each thing the user said — and loses the rest. So a summary prompt that forgets "偏好" loses the
user's preferences, offline as with a real model. A previous summary in the input ("之前的摘要")
is kept item by item. The user's "我" becomes "用户" so the summary reads the same whoever reads it.

**The budget.** An instruction that states one — "不超过 300 个 token", "摘要的长度上限：300 个
token", "不超过 80 字", "at most 120 tokens" — is obeyed: the items are ranked and taken in order
while the summary (as ``tokens.estimate_tokens`` counts it) still fits: what the user asked to be
remembered, then everything else the user stated (names, places, numbers, ids, dates, constraints,
preferences, decisions, tasks; the shorter first, so that more of them fit), then tool results; a
previous summary's items keep their rank. A tight summary puts a group on one line and drops "用户
的", "是"; if that still leaves items out, it also drops a stated item's clauses that carry nothing
("工号 E2409，报销用得上" → "工号 E2409"); and if that still leaves out something the user said, it
drops the headings too — they cost 3 to 6 tokens a group, up to seven groups — for one dense line
per item, "-工号 E2409", the groups one after another, an English note without its article and
copula ("the meeting room is B462" → "-meeting room B462"). The headings go only for what the user
said, never to fit a tool result. A dense summary rolled into the next one is read line by line,
each item under the group its words call for. Chatter — greetings, thanks, small talk
(嗯嗯好的, 哈哈, 辛苦了, and a clause about the weather, a mood, a compliment … with no number, id,
name or place in it, even when it has a group's word: 别客气, 一定要开心哦) — is never kept, and
never filed under a group: a clause of chatter is cut off a sentence that also states a fact.

Left out: abstractive rewording, merging two sentences into one, and anything said by the
assistant other than tool results (its answers restate them).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from ....messages import message_text
from ....tokens import count_message_tokens, estimate_tokens
from ..backend import ChatRequest, Completion
from .lexicon import CITIES, SURNAMES
from .text import normalize

SUMMARY_WORDS = re.compile(
    r"摘要|总结|概括|压缩|提炼|归纳|汇总|summar|recap|condense|compress", re.I
)

# group: (label, words in an instruction that ask for it, words in a sentence that belong to it)
GROUPS: dict[str, tuple[str, re.Pattern[str], re.Pattern[str]]] = {
    "constraints": (
        "约束",
        re.compile(r"约束|限制|条件|要求|规则|底线|constraint|limit|requirement|rule", re.I),
        re.compile(
            r"必须|务必|一定要|不能|不可以|不要|(?<![特区分告类级性个识辨差派])别(?![人的处])|禁止|不超过|不少于|不低于|不高于|至少|最多|最少|"
            r"以内|之内|之前|只能|"
            r"只要|预算|上限|下限|截止|过敏|忌口|不吃|不喝|吃素|\bmust\b|\bnever\b|at most|at"
            r" least|no more than|only|budget|deadline",
            re.I,
        ),
    ),
    "preferences": (
        "偏好",
        re.compile(r"偏好|喜好|喜欢|口味|习惯|preference|likes", re.I),
        re.compile(
            r"喜欢|偏好|爱吃|爱喝|讨厌|习惯|更想|宁愿|倾向|不爱|\bprefer|\blike\b|\bhate\b"
            r"|favou?rite",
            re.I,
        ),
    ),
    "tasks": (
        "未完成的任务",
        re.compile(r"待办|未完成|没完成|任务|后续|跟进|todo|to-do|open task|pending|follow", re.I),
        re.compile(
            r"提醒|待办|记得|别忘|还没|还要|需要|要做|要提交|要交|回头|稍后|\bremind|to"
            r" do|todo|need to|pending",
            re.I,
        ),
    ),
    "decisions": (
        "决定",
        re.compile(r"决定|决策|结论|定下|decision|agreed", re.I),
        re.compile(
            r"决定|定了|定在|就按|确定|选定|敲定|采用|改成|改到|decided|agreed|settled", re.I
        ),
    ),
    "names": (
        "人名",
        re.compile(r"人名|姓名|名字|名称|name|people|who", re.I),
        re.compile(r"(?!)"),
    ),
    "places": (
        "地点",
        # asked for with the names, too: a prompt that wants 人名 wants proper names
        re.compile(r"地名|地点|城市|位置|住址|人名|姓名|名字|name|place|location|city|where", re.I),
        re.compile(
            "|".join(c for c in CITIES if len(c) >= 2 and not c.isascii())
            + r"|(?:在|去|到|住|于)[\u4e00-\u9fff]{2,5}?(?:省|市|区|县|镇|村|街道|大道|路)"
        ),
    ),
    "facts": (
        "事实与数字",
        re.compile(
            r"事实|数字|数据|数值|金额|日期|时间|数量|编号|信息|fact|number|figure|data|detail",
            re.I,
        ),
        re.compile(
            r"\d|(?<![这那前近])(?:[二两三四五六七八九十百千万]|一[十百千万])[一二两三四五六七八九十百千万]*"
            r"(?:元|块|人|位|个|间|张|份|台|天|晚|次|岁|点|号|月|年|公里|小时|分钟)"
        ),
    ),
    # what the user asked to be remembered and fits no other group (a neutral heading, never a
    # wrong one)
    "notes": ("备忘", re.compile(r"(?!)"), re.compile(r"(?!)")),
}
ORDER = (
    "facts",
    "names",
    "places",
    "preferences",
    "constraints",
    "decisions",
    "tasks",
    "notes",
)  # how the summary lists them
PRIORITY = (
    "constraints",
    "preferences",
    "tasks",
    "decisions",
    "names",
    "places",
    "facts",
)  # where a sentence goes first
# what a tight budget keeps first: what the user asked to be remembered, then everything else the
# user stated, then tool results, then a gist
MEMORY_RANK, STATED_RANK, TOOL_RANK, GIST_RANK = 0, 1, 2, 3
FLAT = 3  # the layout without headings (see ``_render``)
QUESTION = re.compile(r"[?？]\s*$|吗\s*$|呢\s*$")
PREVIOUS = re.compile(r"^(?:之前的摘要|previous summary)\s*[:：]?\s*$", re.I)
_SPEAKER = re.compile(
    r"^\s*(助手调用工具|工具\s*\S*\s*返回|tool\s*\S*\s*returned|用户|user|助手|assistant|（系统）"
    r"|system)\s*[:：]?\s*",
    re.I,
)
_NAME_AFTER = re.compile(
    rf"(?:叫|名叫|名字是|(?:联系人|负责人|对接人|经理|老师|同事|客户|领导|主管|朋友|对方|老板|秘书|"
    rf"司机)(?:是|为|叫)?|和|跟|与|找|问|请教|交给|由|联系|通知|、)"
    rf"\s*([{''.join(sorted(SURNAMES))}][\u4e00-\u9fff]{{1,2}}?)(?=[，。、"
    r",.；;\s和与]|$|[说讲来去负对联的])"
)
# Words that begin with a surname's character but are no name ("和高兴的人", "跟周末", "找方法").
_NOT_NAMES = re.compile(
    r"^(?:高兴|高温|高铁|高速|周[一二三四五六日天末]|马上|方便|方法|方案|方向|白天|金额|许多|万一|"
    r"江湖|黄金|张开|毛病|"
    r"林子|何时|朱红|陈述|程序|田地|董事|于是|余下|叶子|任何|钟头|谭|汪洋|石头|夏天|秦|邱|江边|史上"
    r"|龙井|贺卡|严重|孔子|汤|戴上)"
)
# Chatter: a clause that says nothing worth keeping ("嗯嗯好的", "哈哈", "辛苦了", "你说得对").
CHATTER = re.compile(
    r"^(?:嗯+|哦+|噢+|啊+|哈+|呵+|好的?|好吧|行|可以|没问题|对|是的|收到|明白|了解|知道了|谢谢你?|多谢你?"
    r"|辛苦了?|不客气|不用客气|别客气|你好|您好|早上好|晚上好|哈喽|嗨|在吗|在不在|再见|拜拜|太?感谢你?了?"
    r"|麻烦你了|帮了大忙|马上回来|稍等|good morning|good night|hi|hello|hey|bye|thanks a lot|"
    r"你说得对|有道理|太好了|真不错|不错|厉害|原来如此|这样啊|我想想|让我想想|对了|顺便说一下|另外|"
    r"话说|其实|"
    r"ok|okay|thanks|thank you|sure|got it|cool|nice|great|haha|lol)[\s,，.。"
    r"!！~～吧呀啊呢哈的了]*$",
    re.I,
)
# Small talk: a clause with one of these words and no hard content (a number, an id, a name, a
# place) is chatter, even when it has a group's word ("别客气", "一定要开心哦", "挺喜欢和你聊天的").
SMALL_TALK = re.compile(
    r"客气|开心|高兴|聊天|天气|心情|(?<!帮)忙|累(?!计)|哈哈|笑|辛苦|加油|愉快|幽默|有意思|不错|真好|太好了"
    r"|厉害|\b(?:weather|fun|tired|busy|nice|great|awesome)\b",
    re.I,
)
_HARD = re.compile(r"\d|[A-Za-z]+-?\d")
# A request to remember what follows: "记一下：", "帮我记住，", "别忘了，", "Remember that" …
MEMORY = re.compile(
    r"^(?:请|麻烦)?你?(?:帮我|给我|替我|帮忙)?(?:记一下|记住|记下|记着|记好|记录一下|备注一下|备忘一下"
    r"|别忘了|别忘记|不要忘了|不要忘记)(?:这个|这件事|这点|一下)?\s*[:：,，]?\s*"
    r"|^(?:please\s+)?(?:remember|note|keep in mind|don't forget)\b(?:\s+that)?\s*[:,]?\s*",
    re.I,
)
_FILLER_LEAD = re.compile(
    r"^(?:(?:嗯+|哦+|噢+|哈+|对了|顺便说一下|顺便|另外|话说|其实|那个|就是)[，,\s]*)+"
)


def _instruction_and_transcript(request: ChatRequest) -> tuple[str, str]:
    system = "\n".join(
        message_text(m) for m in request.messages if m.get("role") in ("system", "developer")
    )
    users = [message_text(m) for m in request.messages if m.get("role") == "user"]
    body = "\n".join(users)
    if system:
        return system, body
    lines = (
        body.splitlines()
    )  # no system message: the instruction is the first line of the user message
    return (lines[0] if lines else ""), "\n".join(lines[1:])


def is_summary_request(request: ChatRequest) -> bool:
    """No tools, an instruction that asks for a summary, and something to summarize."""
    if request.tools:
        return False
    instruction, transcript = _instruction_and_transcript(request)
    return bool(SUMMARY_WORDS.search(instruction) and transcript.strip())


def _transcript_lines(transcript: str) -> list[tuple[str, str]]:
    """(speaker, text) pairs; the messages may come as JSON (the seeds pass
    ``json.dumps(history)``).
    """
    try:
        data = json.loads(transcript)
    except ValueError:
        data = None
    if isinstance(data, list) and all(isinstance(m, dict) for m in data):
        lines = []
        for message in data:
            role = str(message.get("role"))
            if role == "tool":
                lines.append(("tool", message_text(message)))
            elif message_text(message):
                lines.append((role, message_text(message)))
            for call in message.get("tool_calls") or []:
                function = (call.get("function") or {}) if isinstance(call, dict) else {}
                lines.append(
                    (
                        "call",
                        f"{function.get('name', '工具')}，参数 {function.get('arguments', '')}",
                    )
                )
        return lines
    lines = []
    speaker = "user"
    for raw in transcript.splitlines():
        if not raw.strip():
            continue
        match = _SPEAKER.match(raw)
        if match:  # a line without a speaker continues the previous message
            word = match.group(1).lower()
            speaker = (
                "user"
                if word in ("用户", "user")
                else (
                    "tool"
                    if "返回" in word or "returned" in word
                    else (
                        "call"
                        if "调用" in word
                        else "system"
                        if word in ("（系统）", "system")
                        else "assistant"
                    )
                )
            )
            raw = raw[match.end() :]
        lines.append((speaker, raw.strip()))
    return lines


def _sentences(text: str) -> list[str]:
    parts = re.split(r"(?<=[。！？!?；;~～])|(?<=\.)\s+(?=[A-Z])|\n", text)
    return [p.strip(" ，,。；;.~～") for p in parts if p.strip(" ，,。；;.~～")]


def _third_person(sentence: str) -> str:
    sentence = re.sub(r"我的", "用户的", sentence)
    return re.sub(r"我(?!们)", "用户", sentence)


def _has_name(sentence: str) -> bool:
    """A person's name after a word that introduces one (a city is a place, not a name)."""
    return any(not _NOT_NAMES.match(sentence[m.start(1) :]) for m in _NAME_AFTER.finditer(sentence))


def _is_chatter(clause: str, marked: bool) -> bool:
    """Chatter, or small talk that no request to remember (``marked``) asked to keep."""
    if CHATTER.match(clause):
        return True
    hard = _HARD.search(clause) or _has_name(clause) or GROUPS["places"][2].search(clause)
    return not marked and not hard and bool(SMALL_TALK.search(clause))


def _carries(clause: str) -> bool:
    """Whether a clause has a number, an id, a name or a group's word."""
    hard = _HARD.search(clause) or _has_name(clause)
    return bool(hard or any(pattern.search(clause) for _, _, pattern in GROUPS.values()))


def _kept_clauses(sentence: str, wanted: set[str]) -> tuple[str, str | None, bool]:
    """The sentence without its chatter clauses and its request to remember ("哈哈，对了，记一下：我
    的预算是 5000 元" → "我的预算是 5000 元"), its group, and whether it asked to be remembered.
    """
    clauses, marked = [], False
    for clause in re.split(r"[，,]", sentence):
        clause = _FILLER_LEAD.sub("", clause.strip())
        memory = MEMORY.match(clause)
        if memory:
            marked, clause = True, clause[memory.end() :].strip()
        clauses.append((clause, marked))  # what comes before the request is not asked to be kept
    kept = [c for c, asked in clauses if c and not _is_chatter(c, asked)]
    if not kept:
        return "", None, marked
    text = "，".join(kept)
    group = _group_of(text, wanted)
    return text, ("notes" if group is None and marked and wanted else group), marked


def _group_of(sentence: str, wanted: set[str]) -> str | None:
    for group in PRIORITY:
        if group not in wanted:
            continue
        if group == "names":
            if _has_name(sentence):
                return group
        elif GROUPS[group][2].search(sentence):
            return group
    return None


def _tool_fact(text: str, limit: int = 60) -> str:
    """A tool result, shortened: its data as ``key value`` pairs, without the envelope."""
    try:
        value: Any = json.loads(text)
    except ValueError:
        value = text
    if isinstance(value, dict) and "success" in value:
        value = value.get("data") if value.get("success") else f"失败：{value.get('error')}"
    if isinstance(value, dict):
        value = "，".join(f"{k} {v}" for k, v in value.items() if k not in ("note", "unit"))
    text = " ".join(str(value).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _call_label(text: str) -> str:
    """ "get_weather，参数 {"city": "北京"}" → "get_weather(city=北京)"."""
    name, _, rest = text.strip().partition("，")
    name = name.split()[0] if name.split() else "工具"
    start = rest.find("{")
    try:
        arguments = json.loads(rest[start:]) if start >= 0 else {}
    except ValueError:
        arguments = {}
    shown = (
        ", ".join(f"{k}={v}" for k, v in arguments.items()) if isinstance(arguments, dict) else ""
    )
    return f"{name}({shown})"


def _limit(instruction: str) -> int | None:
    """A limit in characters ("不超过 80 字")."""
    match = re.search(
        r"(?:不超过|不多于|最多|限)\s*(\d+)\s*(?:个)?(?:汉)?字(?!节)|(\d+)\s*字以内|at most (\d+)"
        r" (?:words|characters)",
        instruction,
    )
    return int(next(g for g in match.groups() if g)) if match else None


def _token_limit(instruction: str) -> int | None:
    """A limit in tokens ("不超过 300 个 token", "长度上限：300 个 token", "at most 120 tokens")."""
    match = re.search(r"(\d+)\s*(?:个)?\s*(?:tokens?|词元)", instruction, re.I)
    return int(match.group(1)) if match else None


@dataclass
class _Item:
    text: str
    group: str
    rank: int  # lower is kept first when the budget is tight
    order: int


_TERSE = (
    (re.compile(r"^(?:记得|别忘了|别忘记)?(?=提醒)"), ""),
    (re.compile(r"^用户的?(?=\S)"), ""),
    (re.compile(r"^(?:我们|咱们)(?=\S)"), ""),
    (re.compile(r"(?<=[\u4e00-\u9fff])是(?=\s*[\dA-Za-z])"), " "),
)


# A dense item says its value without the words around it that a note leaves out: "the meeting
# room is B462" → "meeting room B462".
_TELEGRAPHIC = (
    (re.compile(r"^(?:the|a|an|my|our)\s+(?=[A-Za-z])", re.I), ""),
    (re.compile(r"(?<=[A-Za-z])\s+(?:is|are|was|were)\s+(?=[A-Za-z]*\d)", re.I), " "),
)


def _terse(text: str, dense: bool = False) -> str:
    """An item in fewer tokens for a tight budget: "用户的预算上限是 3700 元" → "预算上限 3700 元"
    (the summary is about the user); ``dense`` keeps only the clauses that carry something ("工号
    E2409，报销用得上" → "工号 E2409").
    """
    for pattern, replacement in _TERSE:
        text = pattern.sub(replacement, text)
    text = re.sub(r"\s+", " ", text).strip(" .")
    if not dense or " → " in text:  # a tool result's fields all carry something
        return text
    text = "，".join(c for c in text.split("，") if _carries(c)) or text
    for pattern, replacement in _TELEGRAPHIC:
        text = pattern.sub(replacement, text)
    return text


def _render(items: list[_Item], gist: list[_Item], compact: int = 0) -> str:
    """The summary: a heading per group and one "- " line per item; ``compact`` (1) puts a group's
    items on one line, tersely, (2) densely, and (3) drops the headings: one dense "-" line per
    item, the groups one after another (each item still says what it is: "工号 E2409").
    """
    if compact >= FLAT:
        ordered = [item.text for item in gist] + [
            item.text
            for item in sorted(items, key=lambda i: (ORDER.index(i.group), i.order))
            if item.group in ORDER
        ]
        return "\n".join("-" + text for text in dict.fromkeys(_terse(t, True) for t in ordered))
    lines: list[str] = []
    groups = ([("要点", [item.text for item in gist])] if gist else []) + [
        (
            GROUPS[group][0],
            list(
                dict.fromkeys(
                    item.text
                    for item in sorted(items, key=lambda i: i.order)
                    if item.group == group
                )
            ),
        )
        for group in ORDER
    ]
    for label, texts in groups:
        if not texts:
            continue
        if compact:
            terse = (_terse(text, compact > 1) for text in texts)
            lines.append(f"【{label}】" + "；".join(dict.fromkeys(terse)))
        else:
            lines.append(f"【{label}】")
            lines.extend(f"- {text}" for text in texts)
    return "\n".join(lines)


def _fits(text: str, tokens: int | None, chars: int | None) -> bool:
    return (tokens is None or estimate_tokens(text) <= tokens) and (
        chars is None or len(text) <= chars
    )


def _previous_rank(item: str, group: str) -> int:
    """An earlier summary's item keeps its rank: a tool result ("get_weather(…) → …") stays below
    what the user stated.
    """
    return TOOL_RANK if " → " in item else MEMORY_RANK if group == "notes" else STATED_RANK


def extractive_summary(instruction: str, transcript: str) -> str:
    """The summary text (see the module docstring)."""
    low = normalize(instruction)
    wanted = {group for group, (_, asks, _) in GROUPS.items() if asks.search(low)}
    items: list[_Item] = []
    gist: list[_Item] = []
    in_previous = False
    previous_group: str | None = None  # no heading yet: a dense summary's "-" lines have none
    labels = {label: group for group, (label, _, _) in GROUPS.items()}
    call_name = "工具"
    pending_facts: list[_Item] = []
    round_facts: list[_Item] = []
    order = 0

    def add(target: list[_Item], text: str, group: str, rank: int) -> None:
        nonlocal order
        order += 1
        target.append(_Item(text, group, rank, order))

    for speaker, text in _transcript_lines(transcript):
        if PREVIOUS.match(text):
            in_previous = True
            continue
        if in_previous:
            heading = re.fullmatch(r"【(.+)】|(\S{2,8})[:：]", text)
            if heading:
                previous_group = labels.get(heading.group(1) or heading.group(2), "facts")
                continue
            if text.startswith(("-", "•", "*")):
                item = text.lstrip("-•* ").strip()
                if previous_group is None:  # a line of a dense summary: its words tell its group
                    group = _group_of(item, set(GROUPS)) or "notes"
                    add(items, item, group, TOOL_RANK if " → " in item else STATED_RANK)
                else:
                    group = previous_group if previous_group in GROUPS else "facts"
                    add(items, item, group, _previous_rank(item, group))
                continue
            compact = re.fullmatch(
                r"【([^】]{1,8})】(.+)", text
            )  # a tight summary's group on one line: "【约束】a；b"
            if compact:
                group = labels.get(compact.group(1), "facts")
                for part in compact.group(2).split("；"):
                    if part.strip():
                        add(items, part.strip(), group, _previous_rank(part.strip(), group))
                continue
            if re.match(r"^(?:之后的对话|later)", text):
                in_previous = False
                continue
            in_previous = False
        if speaker == "call":
            call_name = _call_label(text)
        elif speaker == "tool":
            if "facts" in wanted:
                add(items, f"{call_name} → {_tool_fact(text)}", "facts", TOOL_RANK)
        elif speaker == "user":
            # a sentence kept only for its number waits: if tools answer it, it was a request
            round_facts = []
            for sentence in _sentences(text):
                if QUESTION.search(sentence):
                    continue  # what the user asked is answered elsewhere; what they told is kept
                kept, group, marked = _kept_clauses(sentence, wanted)
                if not kept:
                    continue  # chatter: never kept, never filed under a group
                rank = MEMORY_RANK if marked else STATED_RANK
                if group == "facts" and not marked:
                    add(round_facts, _third_person(kept), group, rank)
                elif group is not None:
                    add(items, _third_person(kept), group, rank)
                elif not wanted:
                    gist_text = kept if marked else re.split(r"[，,]", kept)[0][:24]
                    add(gist, _third_person(gist_text), "gist", min(rank, GIST_RANK))
        if speaker == "user" or speaker == "system":
            items.extend(pending_facts)
            pending_facts = round_facts if speaker == "user" else []
        elif speaker == "call":
            pending_facts = []  # "刚才那个结果乘以 2" was a request: its tool result is the fact
    items.extend(pending_facts)
    gist = gist if not wanted else []
    if not items and not gist:
        return "（这段对话里没有需要保留的事实、偏好、约束或待办事项。）"
    tokens, chars = _token_limit(low), _limit(low)
    if tokens is None and chars is None or _fits(_render(items, gist), tokens, chars):
        return _render(items, gist)
    # over budget: one line per group, the most important items first while they still fit; when
    # that leaves some out, the dense layout (only the clauses that carry something), then the one
    # without headings, if it keeps more
    best: tuple[tuple[int, ...], str] = ((-1, -1, -1), "")
    for compact in (1, 2, FLAT):
        chosen_items: list[_Item] = []
        chosen_gist: list[_Item] = []
        for item in sorted(items + gist, key=lambda i: (i.rank, estimate_tokens(i.text), i.order)):
            target = chosen_gist if item.group == "gist" else chosen_items
            target.append(item)
            if not _fits(_render(chosen_items, chosen_gist, compact), tokens, chars):
                target.pop()
        chosen = chosen_items + chosen_gist
        # a denser layout is worth it only for what it keeps more of: what the user asked to be
        # remembered, then what the user stated, then anything; the headings go only for the first
        # two (a tool result is not worth them)
        score = (
            sum(i.rank == MEMORY_RANK for i in chosen),
            sum(i.rank <= STATED_RANK for i in chosen),
            len(chosen),
        )
        if score[: 2 if compact == FLAT else 3] > best[0][: 2 if compact == FLAT else 3]:
            best = (score, _render(chosen_items, chosen_gist, compact))
        if len(chosen) == len(items) + len(gist):
            break
    return best[1] or "（预算太小，放不下任何要点。）"


def summary_reply(request: ChatRequest) -> Completion | None:
    """The completion for a summary request, or ``None`` when the request is not one."""
    if not is_summary_request(request):
        return None
    instruction, transcript = _instruction_and_transcript(request)
    content = extractive_summary(instruction, transcript)
    return Completion(
        content=content,
        tool_calls=[],
        finish_reason="stop",
        prompt_tokens=count_message_tokens(request.messages, request.tools),
        completion_tokens=estimate_tokens(content),
    )


__all__ = ["extractive_summary", "is_summary_request", "summary_reply"]
