"""Text basics for the simulator: normalization, language, match tokens and numbers (Chinese
numerals too).

Everything here is a small, predictable rule, because the simulator must give the same answer to
the same request. Tokens are what tool choice compares: character bigrams for Chinese (there are no
spaces to split on) and lower-case words for English, with identifiers split on ``_`` and camelCase.
Numbers are read from Arabic digits (``3.5``, ``1,000``), Chinese numerals (``十七``, ``两百``,
``三点五``) and mixtures (``3.5万``). Quoted spans are read in every common style: '…' "…" “…” ‘…’
「…」 『…』 《…》 (an apostrophe inside a word, as in "what's", opens nothing).

Left out: word segmentation (bigrams are enough to compare short texts), traditional/simplified
conversion, numbers written as English words ("seventeen"), and any language but Chinese and
English.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

CJK_RANGE = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
CJK_RUN = re.compile(f"[{CJK_RANGE}]+")
LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*|\d+(?:\.\d+)?")

# Bigrams and words that say nothing about what a tool does. Overlap on them is ignored, so that
# "帮我看一下" or "please tell me" cannot make a tool look relevant.
STOP_BIGRAMS = frozenset(
    """
一个 一下 帮我 请问 请你 什么 怎么 怎样 多少 可以 这个 那个 我们 你们 他们 是否 如果 的话 一些
一点 一样 我的 你的 他的 她的 我想 想要 需要 能否 能不 不能 告诉 给我 麻烦 谢谢 你好 您好 好的
还是 或者 以及 并且 指定 用于 工具 参数 格式 例如 比如 支持 执行 返回 获取 信息 内容 结果 进行
提供 使用 根据 相关 当前 对应 一个个 是什 么样 怎么样 多少钱
""".split()
)

STOP_WORDS = frozenset(
    """
a an the is are was were be been am do does did to of in on at by for from with and or not no
yes it its this that these those what which who whom how when where why can could would should
will shall may might me my i you your we our us he she they them their please tell give get set
show let make help want need about into than then also just some any all there here as if so
such use used using tool tools function returns return given specified specific value values e g
eg example examples format string number info information data result results current now's
what's
""".split()
)

# Words a naive plural stemmer would break ("times" is multiplication, not "time").
NO_STEM = frozenset(
    {
        "times",
        "plus",
        "minus",
        "news",
        "less",
        "has",
        "was",
        "is",
        "its",
        "this",
        "status",
        "always",
        "address",
        "process",
        "access",
        "yes",
        "us",
        "bus",
        "gas",
        "analysis",
    }
)


def normalize(text: str) -> str:
    """Full-width letters, digits and punctuation to their ASCII forms (NFKC); keeps Chinese as
    is.
    """
    return unicodedata.normalize("NFKC", text or "")


def language(text: str) -> str:
    """``"zh"`` when the text is mostly Chinese, else ``"en"``."""
    text = normalize(text)
    han = sum(len(run) for run in CJK_RUN.findall(text))
    words = len(re.findall(r"[A-Za-z]+", text))
    return "zh" if han and han >= words else "en"


def split_identifier(name: str) -> list[str]:
    """``get_currentTime`` → ``["get", "current", "time"]``."""
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", name or "")
    spaced = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1 \2", spaced)
    return [part.lower() for part in re.split(r"[^A-Za-z0-9]+", spaced) if part]


def stem(word: str) -> str:
    """A very small English stemmer: plural ``-s`` only."""
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss") and word not in NO_STEM:
        return word[:-1]
    return word


def tokens(text: str) -> list[str]:
    """Match tokens: Chinese character bigrams (a lone character stands for itself) and English
    words.
    """
    text = normalize(text)
    found: list[str] = []
    for run in CJK_RUN.findall(text):
        if len(run) == 1:
            found.append(run)
        found.extend(run[i : i + 2] for i in range(len(run) - 1))
    latin = CJK_RUN.sub(" ", text)
    for word in re.findall(r"[A-Za-z][A-Za-z0-9]*", latin):
        for part in split_identifier(word):
            found.append(stem(part))
    return [
        tok
        for tok in found
        if tok not in STOP_BIGRAMS and tok not in STOP_WORDS and not tok.isdigit()
    ]


# ---------------------------------------------------------------------------------------------
# Numbers
# ---------------------------------------------------------------------------------------------

CN_DIGITS = {
    "零": 0,
    "〇": 0,
    "一": 1,
    "二": 2,
    "两": 2,
    "俩": 2,  # colloquial 两个
    "三": 3,
    "仨": 3,  # colloquial 三个
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
}
CN_UNITS = {"十": 10, "百": 100, "千": 1000}
CN_BIG_UNITS = {"万": 10_000, "亿": 100_000_000}
CN_NUMERAL_CHARS = "".join(CN_DIGITS) + "".join(CN_UNITS) + "".join(CN_BIG_UNITS)

# "一下", "一些", "一起" … are not the number one.
_NOT_A_NUMBER_AFTER_ONE = "下些起直样般定共切边旦会向再同致道天块"

_VAGUE_AFTER = re.compile(r"\s*(?:几|多(?!少)|来[个位人名台张件])")

NUMBER_PATTERN = re.compile(
    r"(?P<arabic>(?<![A-Za-z0-9_.])\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\d.])|(?<![A-Za-z0-9_.])\d+(?:\."
    r"\d+)?)(?P<scale>\s*[万亿千百])?"
    rf"|(?P<chinese>[{CN_NUMERAL_CHARS}]+(?:点[{''.join(CN_DIGITS)}]+)?)"
)


@dataclass(frozen=True)
class NumberMatch:
    value: float
    start: int
    end: int
    text: str

    @property
    def as_number(self) -> int | float:
        """An ``int`` when the value is whole, else the ``float``."""
        return int(self.value) if float(self.value).is_integer() else self.value


def parse_chinese_number(text: str) -> float | None:
    """``十七`` → 17, ``两百`` → 200, ``三万五千`` → 35000, ``三千五`` → 3500, ``三点五`` → 3.5;
    ``None`` when not a numeral.
    """
    if not text:
        return None
    whole, _, frac = text.partition("点")
    if any(ch not in CN_NUMERAL_CHARS for ch in whole) or any(ch not in CN_DIGITS for ch in frac):
        return None
    total, section, digit = 0, 0, None
    for ch in whole:
        if ch in CN_DIGITS:
            if digit is not None and digit != 0 and section == 0 and total == 0:
                # digits written one by one, e.g. 二〇二四
                digit = digit * 10 + CN_DIGITS[ch]
            else:
                digit = CN_DIGITS[ch]
        elif ch in CN_UNITS:
            section += (digit if digit is not None else 1) * CN_UNITS[ch]
            digit = None
        else:  # 万 / 亿
            section += digit or 0
            total = (
                (total + section) * CN_BIG_UNITS[ch]
                if ch == "亿"
                else total + section * CN_BIG_UNITS[ch]
            )
            section, digit = 0, None
    tail = digit or 0
    if (
        len(whole) >= 2
        and whole[-1] in CN_DIGITS
        and whole[-2] in ("百", "千", "万", "亿")
        and tail
    ):
        # 三千五 is 3500 and 一万二 is 12000, as people say them (三千零五 is 3005)
        tail *= {"百": 10, "千": 100, "万": 1000, "亿": 10_000_000}[whole[-2]]
    value = float(total + section + tail)
    if frac:
        value += float("0." + "".join(str(CN_DIGITS[ch]) for ch in frac))
    if not whole and frac:
        return None
    return value


def find_numbers(text: str) -> list[NumberMatch]:
    """Every number in ``text`` with its span, in order. ``3.5万`` → 35000; ``一下`` is not a
    number.
    """
    found: list[NumberMatch] = []
    for match in NUMBER_PATTERN.finditer(text):
        if match.group("arabic"):
            value = float(match.group("arabic").replace(",", ""))
            scale = (match.group("scale") or "").strip()
            if scale:
                value *= {"万": 10_000, "亿": 100_000_000, "千": 1000, "百": 100}[scale]
        else:
            raw = match.group("chinese")
            after = text[match.end() : match.end() + 1]
            if raw == "一" and after and after in _NOT_A_NUMBER_AFTER_ONE:
                continue
            if raw in CN_BIG_UNITS or raw in CN_UNITS and raw != "十":
                continue  # a bare 万/百 is not a number
            parsed = parse_chinese_number(raw)
            if parsed is None:
                continue
            value = parsed
        if (
            _VAGUE_AFTER.match(text, match.end())
            or text[max(0, match.start() - 1) : match.start()] == "几"
        ):
            continue  # "十几个", "20 多人", "几十": an approximate count is no value to act on
        found.append(
            NumberMatch(value=value, start=match.start(), end=match.end(), text=match.group(0))
        )
    return found


def format_number(value: float | int) -> str:
    """``153.0`` → ``"153"``; other floats keep up to 10 significant digits."""
    if isinstance(value, bool):
        return str(value)
    if float(value).is_integer() and abs(value) < 1e16:
        return str(int(value))
    return f"{value:.10g}"


@lru_cache(maxsize=4096)
def _word_regex(word: str) -> re.Pattern[str] | None:
    if word.isascii() and re.fullmatch(r"[\w .'-]+", word):
        return re.compile(rf"(?<![a-z0-9_]){re.escape(word)}(?![a-z0-9_])")
    return None


def find_word(text: str, word: str, start: int = 0) -> int:
    """Index of ``word`` in ``text`` (case-insensitive; whole words for ASCII), or -1."""
    low = text.lower()
    word = word.lower()
    regex = _word_regex(word)
    if regex is not None:
        match = regex.search(low, start)
        return match.start() if match else -1
    return low.find(word, start)


# ---------------------------------------------------------------------------------------------
# Quotes
# ---------------------------------------------------------------------------------------------

QUOTE_MARKS = {"“": "”", "‘": "’", "「": "」", "『": "』", "《": "》", '"': '"', "'": "'"}


@dataclass(frozen=True)
class Quote:
    start: int  # index of the opening mark
    end: int  # index just after the closing mark
    text: str  # what is inside, stripped


def find_quotes(text: str) -> list[Quote]:
    """Quoted spans in ``text``, in order, in any of the styles of ``QUOTE_MARKS``; quotes never
    span a line.
    """
    found: list[Quote] = []
    index = 0
    while index < len(text):
        closing = QUOTE_MARKS.get(text[index])
        if closing is None or (text[index] == "'" and index > 0 and text[index - 1].isalnum()):
            index += 1  # not a quote mark, or an apostrophe ("what's")
            continue
        stop = index + 1
        while stop < len(text) and text[stop] != "\n":
            if text[stop] == closing and not (
                closing == "'" and stop + 1 < len(text) and text[stop + 1].isalnum()
            ):
                break
            stop += 1
        if stop >= len(text) or text[stop] != closing or not text[index + 1 : stop].strip():
            index += 1
            continue
        found.append(Quote(index, stop + 1, text[index + 1 : stop].strip()))
        index = stop + 1
    return found
