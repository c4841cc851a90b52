"""Redaction before anything is written: secrets, then personal data, in every string of a trace
line.

Two kinds of things must never reach a trace file:

- **secrets** — API keys and tokens in the formats ``masking`` knows (``sk-…``, ``AKIA…``,
  ``ghp_…``, ``LTAI…``, JWTs, ``Bearer …``, ``password=…``, private keys …; one definition, shared
  with the permission gate's cards and audit), the values of ``.env`` / environment variables whose
  names say they are secret (``…KEY``, ``…TOKEN``, ``…SECRET``, ``…PASSWORD``), values of fields
  named like ``api_key`` or ``authorization``, and any string you list;
- **personal data** — phone (mobile and landline), ID, email and bank-card numbers, masked by the
  same ``masking`` module the permission gate uses for confirmation cards and tool results.

``Redactor`` walks a line (dicts, lists, strings — ``masking.walk_json``, the walk the permission
gate uses) and returns a redacted copy; the tracer calls it on every line before it is encoded, so
full messages, tool arguments and results are covered alike. Secrets are replaced whole
(``masking.HIDDEN``, ``***``), personal data keeps its masked shape (``138****5678``).

Left out: names and addresses (no pattern finds them reliably), secrets in dict *keys*, and secrets
shorter than 8 characters from the environment (too likely to match ordinary words).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from ..masking import HIDDEN, SECRET_NAME, hide_secret_fields, walk_json

SECRET = HIDDEN
"""The one marker of a value hidden whole (``masking.HIDDEN``)."""


def environment_secrets(
    environ: Mapping[str, str] | None = None, *, dotenv: bool = True, min_length: int = 8
) -> list[str]:
    """Values of variables whose names say they are secret, from ``.env`` and the environment."""
    from ..config import read_env

    values, _ = read_env(None, environ, dotenv=dotenv)
    found = {
        value
        for name, value in values.items()
        if SECRET_NAME.search(name) and len(value) >= min_length
    }
    return sorted(
        found, key=len, reverse=True
    )  # longest first, so a value containing another is replaced whole


def _default_personal_data() -> Callable[[str], str]:
    from ..masking import PERSONAL_KINDS, mask_text

    return lambda text: mask_text(text, PERSONAL_KINDS)


def _secrets_by_format(text: str) -> str:
    from ..masking import mask_text

    return mask_text(text, ("secret",))


_MEMO_LENGTH, _MEMO_SIZE = 256, 8192
"""Texts up to this many characters have their masked form remembered, at most this many."""
_MEMOS: dict[tuple[Any, ...], dict[str, str]] = {}


def _memo_for(rules: tuple[Any, ...]) -> dict[str, str]:
    """The memory shared by the redactors with these rules (at most 64 sets of rules kept)."""
    if rules not in _MEMOS and len(_MEMOS) >= 64:
        _MEMOS.clear()
    return _MEMOS.setdefault(rules, {})


class Redactor:
    """Redacts secrets and personal data in any JSON-like value; returns a copy, never changes its
    input.
    """

    def __init__(
        self,
        secrets: Iterable[str] = (),
        *,
        environment: bool = True,
        personal_data: bool | Callable[[str], str] = True,
        extra_patterns: Iterable[tuple[str, str]] = (),
    ):
        """``secrets``: strings to hide wherever they appear; ``environment``: also hide the
        secret-looking variables of ``.env`` and the environment; ``personal_data``: mask
        phone/ID/email/card numbers (or your own ``str -> str``); ``extra_patterns``: ``(regex,
        replacement)`` pairs of your own, applied after the secrets ``masking`` finds.
        """
        listed = [s for s in secrets if isinstance(s, str) and s]
        self.secrets = sorted(
            set(listed + (environment_secrets() if environment else [])), key=len, reverse=True
        )
        self.by_format: Callable[[str], str] | None = _secrets_by_format
        self.patterns = [(re.compile(p), r) for p, r in extra_patterns]
        if personal_data is True:
            self.personal_data: Callable[[str], str] | None = _default_personal_data()
        else:
            self.personal_data = personal_data or None
        # a function of the learner's own may depend on more than its argument: never remembered;
        # redactors with the same rules (a tracer per run, say) share one memory
        self._memo: dict[str, str] | None = (
            None
            if callable(personal_data)
            else _memo_for(
                (
                    tuple(self.secrets),
                    tuple((p.pattern, r) for p, r in self.patterns),
                    bool(personal_data),
                )
            )
        )

    def text(self, text: str) -> str:
        """``text`` with secrets and personal data masked. Short texts repeat (tool names, keys,
        model names, ids), so their answers are remembered: the rules are fixed at ``__init__``
        (unless ``personal_data`` is a function of your own).
        """
        if self._memo is None or len(text) > _MEMO_LENGTH:
            return self._text(text)
        known = self._memo.get(text)
        if known is None:
            if len(self._memo) >= _MEMO_SIZE:
                self._memo.clear()
            known = self._memo[text] = self._text(text)
        return known

    def _text(self, text: str) -> str:
        for secret in self.secrets:
            if secret in text:
                text = text.replace(secret, SECRET)
        if self.by_format is not None:
            text = self.by_format(text)
        for pattern, replacement in self.patterns:
            text = pattern.sub(replacement, text)
        return self.personal_data(text) if self.personal_data is not None else text

    def field(self, name: str, item: Any) -> Any:
        """The ``walk_json`` field rule of a trace line: a field named like a secret is hidden
        whole.
        """
        return hide_secret_fields(name, item)

    def __call__(self, value: Any) -> Any:
        return walk_json(value, self.text, self.field)


__all__ = ["Redactor", "SECRET", "SECRET_NAME", "environment_secrets"]
