"""Masking personal data and secrets: mobile and landline numbers, Chinese ID numbers, emails, bank
cards, API keys and tokens.

The course's rule: a tool result is masked before it enters the model's context, unless a later step
really needs the clear value. The same masking is used for confirmation cards, the audit log and
traces, so one module finds and masks, and everyone else calls it:

- ``mask_text(text)`` masks every match in a string;
- ``mask_value(value, rules)`` walks nested JSON values (dicts, lists, strings, and integers that
  are really phone or card numbers) and applies ``MaskingRules``, which say per field name what to
  do: keep it clear, hide it whole, or look only for some kinds of data;
- ``walk_json(value, text, field)`` is that walk, the only one: the trace's ``Redactor`` and the
  service's stored events use it too, with their own text function and field rule, and everything
  hidden whole — a field marked ``hide``, a field named like a secret (``SECRET_NAME``), a listed
  secret — becomes the one marker ``HIDDEN`` (``***``);
- ``find_personal_data(text)`` lists what was found (kind, position, value), e.g. for tests.

What is found, and how it is shown:

==============  ======================================================  ==========================
kind            found                                                   shown as
==============  ======================================================  ==========================
``secret``      API keys and tokens by their published formats: ``sk-…``  ``AKIA***``, ``ghp_***``,
                (OpenAI and compatible), ``AKIA…`` (AWS), ``LTAI…``      ``sk-***``, ``Bearer ***``,
                (Alibaba Cloud), ``AKID…`` (Tencent Cloud), ``ghp_…`` and     ``password=***``
                ``github_pat_…`` (GitHub), ``glpat-…``, ``xox…-`` (Slack),
                ``AIza…`` (Google), ``hf_…``, ``sk_live_…`` (Stripe), JWTs,
                Zhipu's ``id.secret``, this service's ``hat_…`` tokens,
                ``Bearer <token>``, ``password=…``/``api_key: …`` and
                PEM private-key blocks
``id_card``     18-character resident ID: region, a real birth date      ``110***********123X``
                (18xx–20xx), sequence, check character — also when the
                check character is wrong (a typo in a real ID is still
                personal data), unless the number is then a valid card
``bank_card``   16–19 digits, in one run or in groups of four split by    ``6222***********0123``
                spaces or dashes, that pass the Luhn check
``phone``       mainland mobile numbers 1[3-9]x xxxx xxxx, with an       ``138****5678``
                optional +86 / 0086 / 86 prefix and spaces or dashes
``landline``    a landline with its area code written apart: ``010-``      ``010-****5678``
                ``62345678``, ``(0755) 8888 9999``, ``021 6666 7777``,
                with an optional ``-123`` extension
``email``       ``local@domain.tld``                                     ``z***@example.com``
==============  ======================================================  ==========================

A number is only matched whole (no digit directly before or after it), so an order number such as
``OD20240615``, an amount or a date is left alone. Kinds are tried in the order above, so a card
number is never half-masked as a phone number and a token is hidden whole. Masked values contain
``*`` and never match again: masking twice changes nothing. A secret keeps only the prefix that says
what it was (``AKIA***``): enough to know which key leaked, nothing to use.

Landlines are masked only with the area code set apart (a dash, a space, brackets): a bare run of
digits starting with 0 is as likely a serial or order number, and a local number without its area
code is indistinguishable from an amount.

Left out: 15-digit (pre-1999) ID numbers, passports, names and addresses (no pattern can find those
reliably), secrets with no recognisable format or label (a random 40-character string alone), and
un-masking — the clear value stays where it came from (the database).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

KINDS: tuple[str, ...] = ("secret", "id_card", "bank_card", "phone", "landline", "email")
"""Every kind this module finds, in the order they are tried."""

PERSONAL_KINDS: tuple[str, ...] = tuple(kind for kind in KINDS if kind != "secret")
"""The kinds that are personal data (everything but ``secret``)."""

KIND_NAMES_ZH: dict[str, str] = {
    "secret": "密钥",
    "id_card": "身份证号",
    "bank_card": "银行卡号",
    "phone": "手机号",
    "landline": "座机号",
    "email": "邮箱",
}

KEEP, HIDE = "keep", "hide"
"""Field rules besides kind names: leave the field's value clear, or replace it whole with
``HIDDEN``.
"""

HIDDEN = "***"
"""What replaces a value hidden whole: a field marked ``hide``, a field named like a secret, a
listed secret.
"""

SECRET_NAME = re.compile(
    r"(api[_-]?key|apikey|access[_-]?key|secret|token|password|passwd|authorization|credentials?|cookie)$",
    re.I,
)
"""A field or variable whose name *ends* like this holds a secret: its whole value is hidden
(``input_tokens`` does not).
"""

_ID_CARD = re.compile(
    r"(?<!\d)[1-9]\d{5}(?:19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])\d{3}[\dXx](?![\dXx])"
)
_BANK_CARD = re.compile(r"(?<![\d-])(?:\d{16,19}|\d{4}(?:[ -]\d{4}){3}(?:[ -]\d{1,3})?)(?![\d])")
_PHONE = re.compile(
    r"(?<![\d+])(?P<prefix>(?:\+86|0086|86)[ -]?)?(?P<number>1[3-9]\d(?:[ -]?\d{4}){2})(?![\d])"
)
_LANDLINE = re.compile(
    r"(?<![\d+\-])(?:\((?P<paren>0\d{2,3})\)\s?|(?P<area>0\d{2,3})[ -])(?P<local>[2-9]\d{2,3}["
    r" -]?\d{4})"
    r"(?:-(?P<ext>\d{1,5}))?(?![\d])"
)
_EMAIL = re.compile(
    r"(?P<local>[A-Za-z0-9._%+-]+)@(?P<domain>[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,})"
)

_NOT_BEFORE = r"(?<![A-Za-z0-9_])"
_VALUE_END = "\\s\"',;&，。；、）)"
_SECRETS: tuple[re.Pattern[str], ...] = tuple(
    re.compile(pattern)
    for pattern in (
        (
            r"(?P<show>-----BEGIN (?:[A-Z]+ )*PRIVATE KEY-----)[\s\S]*?-----END (?:[A-Z]+ )*PRIVATE"
            r" KEY-----"
        ),
        r"(?i)(?P<show>\bbearer\s+)[A-Za-z0-9._~+/=-]{8,}",
        r"(?i)" + _NOT_BEFORE + r"(?P<show>[A-Za-z0-9_-]*?"
        r"(?:api[_-]?key|apikey|access[_-]?key|secret|token|password|passwd|pwd)"
        r"\"?\s*[=:]\s*\"?)"
        r"[^" + _VALUE_END + r"]{6,}",
        _NOT_BEFORE
        + r"(?P<show>eyJ)[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}",  # a JWT
        _NOT_BEFORE
        # OpenAI and the many compatible APIs
        + r"(?P<show>sk-)(?:proj-|ant-|live-)?[A-Za-z0-9_-]{16,}",
        _NOT_BEFORE + r"(?P<show>(?:sk|rk)_(?:live|test)_)[A-Za-z0-9]{16,}",  # Stripe
        _NOT_BEFORE
        # AWS access key ids
        + r"(?P<show>A(?:KIA|SIA|GPA|IDA|ROA|NPA|NVA|IPA))[A-Z0-9]{16}(?![A-Za-z0-9])",
        _NOT_BEFORE
        + r"(?P<show>LTAI)[A-Za-z0-9]{12,24}(?![A-Za-z0-9])",  # Alibaba Cloud AccessKey ids
        _NOT_BEFORE + r"(?P<show>AKID)[A-Za-z0-9]{13,40}(?![A-Za-z0-9])",  # Tencent Cloud SecretIds
        _NOT_BEFORE + r"(?P<show>gh[pousr]_)[A-Za-z0-9]{30,255}(?![A-Za-z0-9])",  # GitHub tokens
        _NOT_BEFORE + r"(?P<show>github_pat_)[A-Za-z0-9_]{22,255}",
        _NOT_BEFORE + r"(?P<show>glpat-)[A-Za-z0-9_-]{20,}",  # GitLab
        _NOT_BEFORE + r"(?P<show>xox[abprs]-)[A-Za-z0-9-]{10,}",  # Slack
        _NOT_BEFORE + r"(?P<show>AIza)[0-9A-Za-z_-]{35}",  # Google API keys
        _NOT_BEFORE + r"(?P<show>hf_)[A-Za-z0-9]{30,}",  # Hugging Face
        _NOT_BEFORE + r"(?P<show>hat_)[A-Za-z0-9_-]{40,}",  # this package's service tokens
        r"(?P<show>)\b[0-9a-f]{32}\.[A-Za-z0-9]{16}\b",  # Zhipu: <id>.<secret>
    )
)
"""Secrets by format or label; ``show`` is the part that stays visible (what kind of key it was)."""


def _digits(text: str) -> str:
    return "".join(ch for ch in text if ch.isdigit())


def luhn_valid(number: str) -> bool:
    """The check every bank card number passes (the Luhn algorithm); ``number`` may contain
    separators.
    """
    digits = [int(ch) for ch in _digits(number)]
    if len(digits) < 2:
        return False
    total = 0
    for position, digit in enumerate(reversed(digits)):
        if position % 2 == 1:
            digit *= 2
            if digit > 9:
                digit -= 9
        total += digit
    return total % 10 == 0


_ID_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
_ID_CHECK = "10X98765432"


def id_number_valid(value: str) -> bool:
    """The check character of an 18-character resident ID number (GB 11643, ISO 7064 MOD 11-2) is
    right.
    """
    if len(value) != 18 or not value[:17].isdigit():
        return False
    return (
        _ID_CHECK[sum(int(d) * w for d, w in zip(value[:17], _ID_WEIGHTS)) % 11]
        == value[17].upper()
    )


def _mask_id_card(match: re.Match[str]) -> str | None:
    value = match.group(0)
    if not id_number_valid(value) and luhn_valid(value):
        # ID-shaped with a wrong check character, but a valid card number: masked as a card, next
        return None
    return (
        value[:3] + "*" * (len(value) - 7) + value[-4:].upper()
    )  # a wrong check character is a typo in a real ID: still masked


def _mask_bank_card(match: re.Match[str]) -> str | None:
    if not luhn_valid(match.group(0)):
        return None  # a long number that is not a card (an id, a timestamp): leave it
    digits = _digits(match.group(0))
    return digits[:4] + "*" * (len(digits) - 8) + digits[-4:]


def _mask_phone(match: re.Match[str]) -> str:
    digits = _digits(match.group("number"))
    return (match.group("prefix") or "") + digits[:3] + "****" + digits[-4:]


def _mask_landline(match: re.Match[str]) -> str:
    digits = _digits(match.group("local"))
    area = f"({match.group('paren')}) " if match.group("paren") else match.group("area") + "-"
    return area + "****" + digits[-4:] + (f"-{match.group('ext')}" if match.group("ext") else "")


def _mask_email(match: re.Match[str]) -> str:
    return match.group("local")[:1] + "***@" + match.group("domain")


def _mask_secret(match: re.Match[str]) -> str:
    return match.group("show") + "***"


_DETECTORS: dict[str, tuple[tuple[re.Pattern[str], Any], ...]] = {
    "secret": tuple((pattern, _mask_secret) for pattern in _SECRETS),
    "id_card": ((_ID_CARD, _mask_id_card),),
    "bank_card": ((_BANK_CARD, _mask_bank_card),),
    "phone": ((_PHONE, _mask_phone),),
    "landline": ((_LANDLINE, _mask_landline),),
    "email": ((_EMAIL, _mask_email),),
}


def _check_kinds(kinds: Iterable[str]) -> tuple[str, ...]:
    chosen = tuple(kinds)
    unknown = [kind for kind in chosen if kind not in _DETECTORS]
    if unknown:
        raise ValueError(f"不认识的敏感信息类型 {unknown}：可用的有 {', '.join(KINDS)}。")
    return tuple(kind for kind in KINDS if kind in chosen)  # always in the module's order


@dataclass(frozen=True)
class Found:
    """One piece of personal data in a text: its kind, where it is, the clear value and how it is
    shown.
    """

    kind: str
    start: int
    end: int
    value: str
    masked: str


def find_personal_data(text: str, kinds: Iterable[str] = KINDS) -> list[Found]:
    """Every piece of personal data in ``text``, left to right (what ``mask_text`` would mask)."""
    found: list[Found] = []
    taken: list[tuple[int, int]] = []
    for kind in _check_kinds(kinds):
        for pattern, mask in _DETECTORS[kind]:
            for match in pattern.finditer(text):
                if any(start < match.end() and match.start() < end for start, end in taken):
                    continue  # already part of an earlier match
                masked = mask(match)
                if masked is None:
                    continue
                found.append(Found(kind, match.start(), match.end(), match.group(0), masked))
                taken.append((match.start(), match.end()))
    return sorted(found, key=lambda item: item.start)


def mask_text(text: str, kinds: Iterable[str] = KINDS) -> str:
    """``text`` with every secret, ID number, bank card, phone number and email (or only ``kinds``)
    masked.
    """
    if not isinstance(text, str):
        raise TypeError(
            f"mask_text 需要一个字符串，收到的是 {type(text).__name__}。JSON 值（dict、list）请用"
            " mask_value。"
        )
    pieces: list[str] = []
    position = 0
    for item in find_personal_data(text, kinds):
        pieces.append(text[position : item.start])
        pieces.append(item.masked)
        position = item.end
    pieces.append(text[position:])
    return "".join(pieces)


@dataclass
class MaskingRules:
    """What to mask, configurable per field.

    ``kinds`` are looked for in every string (and in integers long enough to be a phone or card
    number). ``fields`` maps a field name (a dict key, matched case-insensitively, at any depth) to:

    - ``"keep"``: leave this field's value as it is (e.g. the email address a confirmation must
      show);
    - ``"hide"``: replace the whole value with ``HIDDEN`` (``***``; e.g. a password, a home
      address);
    - a kind name or a list of them: look only for those kinds inside this field.

    A field rule applies to everything under the field. ``MaskingRules()`` masks every kind
    everywhere.
    """

    kinds: tuple[str, ...] = KINDS
    fields: Mapping[str, str | Iterable[str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if isinstance(self.kinds, str):
            self.kinds = (self.kinds,)
        self.kinds = _check_kinds(self.kinds)
        normalized: dict[str, str | tuple[str, ...]] = {}
        for name, rule in dict(self.fields).items():
            if rule in (KEEP, HIDE):
                normalized[str(name).lower()] = str(rule)
            else:
                normalized[str(name).lower()] = _check_kinds(
                    [rule] if isinstance(rule, str) else rule
                )
        self.fields = normalized

    def rule_for(self, name: str) -> str | tuple[str, ...] | None:
        """The rule for a field name, or None when the field has no rule of its own."""
        return self.fields.get(str(name).lower())  # type: ignore[union-attr]

    def with_fields(self, **rules: str | Iterable[str]) -> MaskingRules:
        """A copy with more field rules, e.g. ``rules.with_fields(to_address="keep")``."""
        return MaskingRules(self.kinds, {**self.fields, **rules})

    def to_dict(self) -> dict[str, Any]:
        return {
            "kinds": list(self.kinds),
            "fields": {k: v if isinstance(v, str) else list(v) for k, v in self.fields.items()},
        }


DEFAULT_RULES = MaskingRules()
"""Every kind, everywhere, no field exceptions."""


def mask_value(value: Any, rules: MaskingRules | None = None) -> Any:
    """A copy of a JSON value with personal data masked according to ``rules`` (default: everything,
    everywhere).

    Dicts, lists and tuples are walked; strings are masked with ``mask_text``; an integer whose
    digits are a phone or card number becomes its masked string; everything else is returned as is.
    The input is never changed.
    """
    rules = rules or DEFAULT_RULES
    return _mask(value, rules, rules.kinds)


WALK = object()
"""Returned by a ``walk_json`` field rule: no answer of its own, walk the field's value as usual."""


def walk_json(
    value: Any, text: Callable[[str], str], field: Callable[[str, Any], Any] | None = None
) -> Any:
    """A copy of a JSON value with ``text`` applied to every string — and to every integer long
    enough to be a phone or card number (it becomes the masked string when ``text`` changes it).
    ``field(name, item)`` is asked first for each dict entry with a string key: its answer replaces
    the value, unless it is ``WALK``. Floats, booleans and None are kept; the input is never
    changed."""
    if isinstance(value, str):
        return text(value)
    if isinstance(value, bool) or value is None or isinstance(value, float):
        return value
    if isinstance(value, int):
        if value >= 10**10:
            digits = str(value)
            changed = text(digits)
            return changed if changed != digits else value
        return value
    if isinstance(value, Mapping):
        out: dict[Any, Any] = {}
        for key, item in value.items():
            answer = field(key, item) if field is not None and isinstance(key, str) else WALK
            out[key] = walk_json(item, text, field) if answer is WALK else answer
        return out
    if isinstance(value, (list, tuple)):
        return [walk_json(item, text, field) for item in value]
    return value


def hide_secret_fields(name: str, item: Any) -> Any:
    """A ``walk_json`` field rule: a non-empty string under a name like ``api_key`` is hidden
    whole.
    """
    return HIDDEN if SECRET_NAME.search(name) and isinstance(item, str) and item else WALK


def _mask(value: Any, rules: MaskingRules, kinds: tuple[str, ...]) -> Any:
    def field(name: str, item: Any) -> Any:
        rule = rules.rule_for(name)
        if rule == KEEP:
            return item
        if rule == HIDE:
            return HIDDEN
        if rule is not None:
            return _mask(item, rules, rule)  # type: ignore[arg-type]
        return WALK

    return walk_json(
        value, (lambda text: mask_text(text, kinds)) if kinds else (lambda text: text), field
    )


__all__ = [
    "DEFAULT_RULES",
    "Found",
    "id_number_valid",
    "HIDDEN",
    "HIDE",
    "KEEP",
    "KINDS",
    "KIND_NAMES_ZH",
    "MaskingRules",
    "PERSONAL_KINDS",
    "SECRET_NAME",
    "WALK",
    "find_personal_data",
    "hide_secret_fields",
    "luhn_valid",
    "mask_text",
    "mask_value",
    "walk_json",
]
