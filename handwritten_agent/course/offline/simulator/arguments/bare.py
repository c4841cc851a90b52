"""Values for string parameters whose schema shows no example, no enum and no known kind (a pet's
name, a breed, a library's id): read from how the request itself names them.

- by label: the parameter's own words, then 是/为/改为/：and the value ("预约编号是 12345",
  "小花的品种为贵宾犬", "plate: V001"); the owner before "的" is the object's name ("小花");
- by shape: an id parameter takes the one code of letters and digits the request holds ("图书馆
  L123"), or digits a number label introduces ("订单号 12345"); an example's shape with other
  letters ("例如 AB1234" → CD5678) when its own letters are nowhere;
- by position: the name right after the tool's own verb ("注册小花，…") goes to the object's name;
- in two parts: a whole name the request introduces ("名为 Alice Smith", "叫欧阳娜娜") fills a
  given-name and a family-name parameter (first_name / last_name, 名 / 姓氏);
- in English, by capitals: a name of two or more capitalised words ("the Science Museum", "John
  Doe") goes to the parameter whose own name ends with its last word (``museum_name``), and the one
  name left, if only one, to a person parameter (``english_names``).

Left out: a value the request gives with none of these (then it is asked for, never guessed).
"""

from __future__ import annotations

import re

from ..actions import request_actions, verb_at
from ..lexicon import COURTESIES, SURNAMES, TITLES
from ..text import CJK_RANGE
from ..vocabulary import members
from .entities import Span
from .freetext import label_tokens
from .params import Param, examples_of

ID_WORDS = re.compile(
    r"\b(?:ids?|no|code|number|num)\b|编号|单号|号码|编码|代码|\bid|(?<![a-z])id(?![a-z])", re.I
)
NAME_WORDS = re.compile(r"名称|名字|姓名|昵称|\bname\b", re.I)
# a code of letters and digits ("L123", "V001"); three characters or more, so "A4" is no id
CODE = re.compile(r"(?<![A-Za-z0-9_-])[A-Za-z]{1,4}-?\d{2,12}(?![A-Za-z0-9_-])")
# "ID" right after Chinese ("客户ID为12345") has no word boundary before it: no letter is enough
NUMBERED = re.compile(
    r"(?:编号|单号|号码|号|(?<![A-Za-z])(?:ID|id|No\.?)|#)\s*(?:是|为|[:：=])?\s*(\d{3,12})(?!\d)"
)
_MARK_ZH = r"\s*(?:是|为|改为|改成|换成|设为|设置为|[:：=])\s*"
_MARK_EN = r"\s*(?:is|:|=|to)\s+"
_VALUE = (
    rf"([{CJK_RANGE}]?[A-Za-z0-9][A-Za-z0-9_.\-]*(?: [A-Z][A-Za-z0-9_.\-]*)*"  # "京A-12345"
    # "123 Main St, Anytown": a comma and a space inside Latin words go on with the value
    rf"(?:, [A-Z][A-Za-z0-9_.\-]*(?: [A-Z][A-Za-z0-9_.\-]*)*)*"
    rf"|[{CJK_RANGE}]{{1,12}}?)"
    rf"(?=并|且|和|的|，|,|。|；|;|、|！|!|？|\?|\s|$)"
)
# a value right after its label, alone to its clause's end ("密码123456，", "用户名张三")
# (never the mark of a new value: "类型改为猫" is 猫, not 改为猫)
_BARE_VALUE = (
    rf"\s*([A-Za-z0-9][A-Za-z0-9_.@\-]*|(?!改为|改成|换成|设为)[{CJK_RANGE}]{{2,4}})"
    r"\s*(?=[，,。；;]|$)"
)
# words that lead the owner before "的" and are not part of it ("请修改小花的品种")
_OWNER_LEAD = re.compile(
    r"^.*(?:请|帮我|麻烦|把|将|给|修改|更改|更新|改一下|改|查询|查|注册|登记|添加|新增)"
)
_OWNER = re.compile(
    rf"(?<![{CJK_RANGE}])([{CJK_RANGE}]{{2,4}}|[A-Z][A-Za-z]+(?: [A-Z][A-Za-z]+)?)\s*的\s*"
    rf"([{CJK_RANGE}]{{0,4}})$"
)


def is_id(param: Param) -> bool:
    """An id parameter that says whose id it is ("入住单编号", "The ID of the library"): a bare
    "编号" tells no more than the name, and is asked for."""
    said = param.description or param.name
    rest = re.sub(r"\b(?:the|of|a|an)\b|[^\w]", "", ID_WORDS.sub("", said), flags=re.I)
    return bool(ID_WORDS.search(said)) and bool(rest)


def glossed(param: Param) -> set[str]:
    """The Chinese words the glossary gives for an English label ("Teacher name" → 老师, 教师,
    姓名 …), so "老师是李老师" names the teacher; none for a label in Chinese."""
    label = param.label()
    if re.search(f"[{CJK_RANGE}]", label):
        return set()
    return {m for m in members(label) if re.fullmatch(f"[{CJK_RANGE}]{{2,}}", m)}


def by_label(
    params: list[Param], text: str, among: list[Param] | None = None
) -> dict[str, tuple[str, Span, str | None]]:
    """Each parameter whose own words stand before 是/为/：and a value: (value, span, owner); a
    label that is part of another's of ``among`` (all the tool's parameters) says neither."""
    labels = {p.name: label_tokens(p) | glossed(p) for p in params}
    shared = {
        t for n, ts in labels.items() for t in ts for m, o in labels.items() if m != n and t in o
    }
    found: dict[str, tuple[str, Span, str | None]] = {}
    for param in params:
        # "用户名张三，密码123456": the whole label (or its start or end) opens a clause, and the
        # value is the rest of it
        label = param.label()
        ends = {label[:n] for n in range(2, len(label) + 1)} | {label[-n:] for n in (2, 3)}
        others = [o.label() for o in among or params if o.name != param.name]
        for token in sorted(ends, key=len, reverse=True):
            if not re.fullmatch(f"[{CJK_RANGE}]+", token) or any(token in o for o in others):
                continue
            if request_actions(token):
                continue  # "报名人姓名": 报名 opens the order ("报名读书会"), not this label
            match = re.search(
                rf"(?:^|(?<=[，,；;。\s]))\s*{re.escape(token)}(?:{_MARK_ZH})?{_BARE_VALUE}", text
            )
            if match:
                found[param.name] = (match.group(1).strip(), match.span(1), None)
                break
        if param.name in found:
            continue
        for token in sorted(labels[param.name] - shared, key=len, reverse=True):
            chinese = bool(re.search(f"[{CJK_RANGE}]", token))
            mark = _MARK_ZH if chinese else _MARK_EN
            edge = ("", "") if chinese else (r"(?<![A-Za-z0-9])", r"(?![A-Za-z0-9])")
            match = re.search(edge[0] + re.escape(token) + edge[1] + mark + _VALUE, text, re.I)
            if match and match.group(1).lower() not in labels[param.name] | set(COURTESIES):
                # "东三货架的所属区域": the owner, then the rest of the label before the token
                owner = _OWNER.search(_OWNER_LEAD.sub("", text[: match.start()]))
                mine = owner and owner.group(2) in param.label()
                found[param.name] = (match.group(1).strip(), match.span(1), mine and owner.group(1))
                break
    return found


# the part of a building a place's code may end with ("A座", "3号楼" → "3楼")
_PLACE = "[座楼区栋层馆]"


_ANYONE = re.compile(r"随便|任何|任意|哪位|谁都")
_SURNAME_CHARS = "".join(sorted(s for s in SURNAMES if len(s) == 1))
# what a label calls a noun's number or name ("车位编号", "班级的唯一标识", "学生ID", "门店名称")
_HEADED = re.compile(rf"([{CJK_RANGE}]{{2,4}}?)的?(编号|号码|号|唯一标识|标识|ID|id|名称|名字)")


def by_head_noun(params: list[Param], text: str) -> dict[str, str]:
    """A parameter described as a noun's number or name ("车位编号", "班级的唯一标识", "停车场名
    称") takes the one number said before 号 and that noun ("403 号车位") or right after it ("座位
    号1234"), or the one code right before the noun or its first character alone ("B101班",
    "1234班级" for 班级); or the one name ending with the noun after letters or digits ("A座停车场",
    "example停车场") or the code right after the noun ("自习室A320", "自习室B座")."""
    found: dict[str, str] = {}
    for param in params:
        said = _HEADED.fullmatch(param.label())
        if not said:
            continue
        head = re.escape(said.group(1))
        if said.group(2).startswith("名") and said.group(1) in TITLES:
            # "教练名字": the person named before the title ("约张三教练"), a surname alone is no
            # name, and "任何教练" leaves the choice open
            shapes = (
                ()
                if _ANYONE.search(text)
                else (rf"([{_SURNAME_CHARS}][{CJK_RANGE}]{{1,2}}?){head}",)
            )
        elif said.group(2).startswith("名"):
            shapes = (
                rf"(?:^|(?<=[\s，,在到于的]))([A-Za-z0-9]+[{CJK_RANGE}]?{head})",
                # "自习室A320", "自习室B座的座位": a code right after the noun
                rf"{head}\s*([A-Za-z0-9]*[A-Za-z][A-Za-z0-9]*(?:{_PLACE}(?=[的，,。；;\s]|$))?|"
                rf"\d+{_PLACE}(?=[的，,。；;\s]|$))(?![A-Za-z0-9])",
            )
        else:
            shapes = (
                rf"(?<![A-Za-z0-9])([A-Za-z]?\d+)\s*号\s*{head}",
                # "座位号1234", "座位 123": the number right after the noun (and its 号)
                rf"{head}\s*(?:号码|编号|号|ID|id)?\s*(?:是|为|[:：])?\s*([A-Za-z]?\d+)"
                r"(?![A-Za-z0-9])",
                # "B101班的学生", "1234班级": a code right before the noun, or before the one
                # character Chinese shortens it to, and nothing more of a word after it
                rf"(?<![A-Za-z0-9])([A-Za-z]{{0,3}}\d+)\s*(?:{head}|{head[0]})"
                rf"(?=的|[，,。；;、\s]|$)",
            )
        hits = {m.group(1) for shape in shapes for m in re.finditer(shape, text)}
        if len(hits) == 1:
            found[param.name] = hits.pop()
    return found


# "884213号停车证", "1203号房间的预约": a number before 号 and the noun it numbers (to 的)
_NUMBER_OF = re.compile(
    rf"(?<![\d.A-Za-z])(\d{{3,12}})\s*号\s*([{CJK_RANGE}]{{1,6}}?)(?=的|[^{CJK_RANGE}]|$)"
)


def numbered_noun(param: Param, text: str) -> list[tuple[str, Span]]:
    """Numbers said before 号 and a noun the id parameter's own words name, in either language
    ("884213号停车证" for "ID of the parking permit"); never a number of another noun ("1203号房
    间的预约" for a booking's id)."""
    own = members(param.description or param.name)
    return [(m[1], m.span(1)) for m in _NUMBER_OF.finditer(text) if own & members(m[2])]


def codes(text: str, used: list[Span]) -> list[tuple[str, Span]]:
    """Codes of letters and digits, and digits a number label introduces, not already taken."""
    hits = [(m.group(0), m.span()) for m in CODE.finditer(text)]
    hits += [(m.group(1), m.span(1)) for m in NUMBERED.finditer(text)]
    free = [
        (value, span)
        for value, span in hits
        if not any(a < span[1] and span[0] < b for a, b in used)
    ]
    return sorted(set(free), key=lambda hit: hit[1])


# letters that stand for any letters in an example ("AB1234", "XX0001", "A1B2"); a real prefix
# ("OD" for orders) says which kind of id it is, and another prefix is another kind
_PLACEHOLDER = re.compile(r"ABCD|ABC|AB|A|XXXX|XXX|XX|X|XYZ|XY", re.I)
# an example of letters and digits in turns, starting with letters ("AB1234", "A1B2")
_RUNS = re.compile(r"(?:[A-Za-z]{1,4}\d{1,12}){1,3}")


def loosened(param: Param) -> list[re.Pattern[str]]:
    """An example's shape with any letters ("例如 AB1234" → two letters, four digits; "例如 A1B2" →
    a letter, a digit, a letter, a digit), when its letters together are placeholders."""
    shapes = []
    for example in examples_of(param):
        runs = re.findall(r"[A-Za-z]+|\d+", example)
        letters = "".join(run for run in runs if run.isalpha())
        digits = len(example) - len(letters)
        if not _RUNS.fullmatch(example) or digits < 2 or not _PLACEHOLDER.fullmatch(letters):
            continue
        shape = "".join(
            f"[A-Z]{{{len(run)}}}" if run.isalpha() else f"\\d{{{len(run)}}}" for run in runs
        )
        shapes.append(re.compile(rf"(?<![A-Za-z0-9]){shape}(?![A-Za-z0-9])"))
    return shapes


# a name in capitalised Latin words, one to four ("Rex", "VIP Bus Pass")
_CAPITALISED = r"[A-Z][A-Za-z0-9]*(?: [A-Z][A-Za-z0-9]*){0,3}"


def after_verb(text: str, verbs: list[str]) -> tuple[str, Span] | None:
    """The short name right after the tool's own verb, alone in its clause ("注册小花，是…",
    "注册VIP Bus Pass，…")."""
    for verb in verbs:
        match = re.search(
            re.escape(verb) + rf"\s*([{CJK_RANGE}]{{2,4}}|{_CAPITALISED})\s*(?=[，,。；;]|$)", text
        )
        if match:
            return match.group(1), match.span(1)
    return None


IS_CLAUSE = re.compile(
    rf"(?:^|[，,；;])\s*(?:它|他|她)?是\s*([{CJK_RANGE}]{{1,8}})\s*(?=[，,。；;]|$)"
)


# "小明，我要取消…": the speaker's own name the request opens with ("小王，帮我…" addresses
# someone else: not read); "Alice 的预约": a Latin name in Chinese words
_ADDRESSED = re.compile(rf"^\s*([{CJK_RANGE}]{{2,3}}|[A-Z][a-z]+)\s*[，,]\s*(?=我(?:要|想|需要))")
_LATIN_NAME = re.compile(
    rf"(?:(?<=[{CJK_RANGE}\s])|^)[A-Z][a-z]{{1,15}}(?: [A-Z][a-z]{{1,15}})?(?=\s*[{CJK_RANGE}])"
)


def people(text: str) -> list[tuple[str, Span]]:
    """People named in ways ``find_people`` does not read: addressed first, or in Latin letters."""
    if not re.search(f"[{CJK_RANGE}]", text):
        return []
    found = [(m[1], m.span(1)) for m in _ADDRESSED.finditer(text) if m[1] not in COURTESIES]
    return found or [
        (m.group(0), m.span())
        for m in _LATIN_NAME.finditer(text)
        # "Python进阶课程": a word written into a Chinese word is part of it, no one's name;
        # "Alice 的预约", "帮Olivia约一下" name someone
        if text[m.end() : m.end() + 1] in (" ", "的") or verb_at(text, m.end())
    ]


# --- a whole name for a given-name and a family-name parameter ------------------------------------

_GIVEN = re.compile(r"\b(?:first|given|fore)\b|^名$|名字（不含姓）", re.I)
_FAMILY = re.compile(r"\b(?:last|family|sur)\b|\bsurname\b|^姓$|姓氏", re.I)
_COMPOUND_SURNAMES = (
    *("欧阳", "司马", "诸葛", "上官", "东方", "皇甫", "尉迟"),
    *("公孙", "慕容", "长孙", "宇文", "司徒", "夏侯", "令狐"),
)
_WHOLE_LATIN = r"[A-Z][a-z]+(?:[ \-][A-Z][a-z]+)+"
_FULL_NAME = re.compile(
    rf"(?:名为|名叫|叫做?|姓名(?:是|为)|名字(?:是|叫)|\bnamed|\bcalled|\bname is)\s*"
    rf"({_WHOLE_LATIN}|[{CJK_RANGE}]{{2,4}}?)(?=的|，|,|。|；|;|、|\s|$)"
)


def name_pair(params: list[Param]) -> tuple[Param, Param] | None:
    """The (given name, family name) parameters of a tool that asks for a name in two parts."""

    def said(param: Param) -> str:
        return " ".join([*split_words(param.name), param.description or ""])

    given = [p for p in params if _GIVEN.search(said(p)) and NAME_WORDS.search(said(p))]
    family = [p for p in params if _FAMILY.search(said(p)) and p not in given]
    return (given[0], family[0]) if len(given) == 1 and len(family) == 1 else None


# two or more capitalised words; a greeting or a polite word before them is not part of the name
_TITLE_CASE = re.compile(r"\b[A-Z][a-z]+(?:[ \-][A-Z][a-z]+)+\b")
_NOT_A_NAME_START = frozenset({"Hello", "Hi", "Hey", "Dear", "Please", "Thanks", "Thank"})


def english_names(text: str) -> list[tuple[str, Span]]:
    """The names of two or more capitalised words in an English request ("Science Museum", "John
    Doe"), without a leading greeting ("Hello John Doe" → "John Doe"); none in Chinese text."""
    if re.search(f"[{CJK_RANGE}]", text):
        return []
    found = []
    for match in _TITLE_CASE.finditer(text):
        words, start = match.group(0).split(" "), match.start()
        while words and words[0] in _NOT_A_NAME_START:
            start += len(words.pop(0)) + 1
        if len(words) >= 2:
            name = " ".join(words)
            found.append((name, (start, start + len(name))))
    return found


def full_name(text: str) -> tuple[str, str, Span] | None:
    """(given, family, span) of the one whole name the request introduces ("名为 Alice Smith",
    "叫欧阳娜娜"); None when it introduces none or several."""
    found = [(m.group(1), m.span(1)) for m in _FULL_NAME.finditer(text)]
    if len(found) != 1:
        return None
    name, span = found[0]
    if re.match(_WHOLE_LATIN, name):
        parts = re.split(r"\s+", name)
        return " ".join(parts[:-1]), parts[-1], span
    family = next((s for s in _COMPOUND_SURNAMES if name.startswith(s) and len(name) > len(s)), "")
    family = family or (name[0] if name[0] in SURNAMES and len(name) >= 2 else "")
    return (name[len(family) :], family, span) if family else None


# --- a maker and its model for a make parameter and a model parameter ----------------------------

_MAKER = re.compile(r"\b(?:make|brand|manufacturer|maker)\b|品牌|厂商|厂家|牌子", re.I)
_MODEL = re.compile(r"\bmodel\b|型号|车型|机型", re.I)
_MAKE_AND_MODEL = re.compile(
    rf"(?:(?<=[{CJK_RANGE}\s])|^)([A-Z][A-Za-z]+)[ \-]([A-Z0-9][A-Za-z0-9\-]*"
    rf"(?: [A-Z0-9][A-Za-z0-9\-]*)?)(?=[{CJK_RANGE}\s，,。；;.!?]|$)"
)


def maker_pair(params: list[Param]) -> tuple[Param, Param] | None:
    """The (make, model) parameters of a tool that asks for a product in two parts ("Make of the
    vehicle", "Model of the vehicle"; 品牌, 型号)."""

    def said(param: Param) -> str:
        return " ".join([*split_words(param.name), param.description or ""])

    makers = [p for p in params if _MAKER.search(said(p)) and not _MODEL.search(said(p))]
    models = [p for p in params if _MODEL.search(said(p)) and p not in makers]
    return (makers[0], models[0]) if len(makers) == 1 and len(models) == 1 else None


def make_and_model(text: str) -> tuple[str, str, Span] | None:
    """(make, model, span) of the one product named in capitalised words ("一辆Toyota Corolla",
    "a Dell XPS 13"): its first word is the maker; None when no such name, or several."""
    found = [
        m
        for m in _MAKE_AND_MODEL.finditer(text)
        if m.group(1) not in _NOT_A_NAME_START and m.group(1) not in {"The", "A", "An", "My"}
    ]
    if len(found) != 1:
        return None
    return found[0].group(1), found[0].group(2), found[0].span()


def split_words(name: str) -> list[str]:
    return [w.lower() for w in re.split(r"[_\W]+|(?<=[a-z])(?=[A-Z])", name) if w]
