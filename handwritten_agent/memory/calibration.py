"""How far off is the token estimate? A fixed corpus, the real counts of a real tokenizer, and the
error.

``handwritten_agent.tokens`` estimates tokens without a tokenizer. This module measures that
estimate against the local course model's tokenizer (Qwen2.5, loaded vocabulary-only through
llama.cpp) on a fixed corpus kept as data in ``memory/data/token_corpus.json``:

- ``texts``: Chinese, English, mixed, JSON, numbers, code — the real count is the text's tokens;
- ``requests``: whole Chat Completions requests (messages, some with tools) taken from the course's
  own conversations — the real count is the prompt the model reads, rendered with the model's chat
  template exactly as the local backend renders it (``prompt_tokens`` of the local model).

The real counts are stored in the same file, so the tests and the Day 4 notebook need no tokenizer:
``corpus_errors()`` compares the estimate with them; ``fit_text_weights`` says which weights would
fit them best. Measuring again (after changing the corpus, or for another GGUF model) needs the
local model and is course tooling, with the ``local`` extra installed::

    python -m handwritten_agent.course.offline.calibrate        # measure, write, print the error
    python -m handwritten_agent.course.offline.calibrate --fit  # also print weights for tokens.py

Left out: the tokenizer itself (``course.offline.calibrate``), and other tokenizers (OpenAI's,
DeepSeek's …) — their counts differ from Qwen's by a few percent on English and more on Chinese;
the estimate is calibrated on one and says so.
"""

from __future__ import annotations

import json
import statistics
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import tokens

CORPUS_PATH = Path(__file__).parent / "data" / "token_corpus.json"
TOKENIZER = "Qwen2.5-Coder-1.5B-Instruct (GGUF vocabulary through llama.cpp)"


@dataclass(frozen=True)
class CorpusError:
    """One corpus entry: what it is, the real count, the estimate, and the relative error."""

    id: str
    kind: str
    real: int
    estimate: int

    @property
    def error(self) -> float:
        """Relative error, signed: positive when the estimate is too high."""
        return (self.estimate - self.real) / self.real


def load_corpus(path: Path = CORPUS_PATH) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def corpus_errors(corpus: dict[str, Any] | None = None) -> list[CorpusError]:
    """The estimate next to the measured count for every entry of the corpus."""
    corpus = corpus or load_corpus()
    rows = [
        CorpusError(
            item["id"], item["kind"], item["real_tokens"], tokens.estimate_tokens(item["text"])
        )
        for item in corpus["texts"]
    ]
    rows += [
        CorpusError(
            item["id"],
            "request" + ("+tools" if item.get("tools") else ""),
            item["real_tokens"],
            tokens.count_message_tokens(item["messages"], item.get("tools")),
        )
        for item in corpus["requests"]
    ]
    return rows


def error_summary(rows: list[CorpusError]) -> dict[str, float]:
    """Mean absolute relative error, the worst one, and the bias (mean signed error), as
    fractions.
    """
    errors = [row.error for row in rows]
    return {
        "count": len(rows),
        "mean_abs": statistics.fmean(abs(e) for e in errors),
        "max_abs": max(abs(e) for e in errors),
        "bias": statistics.fmean(errors),
        "total_real": sum(r.real for r in rows),
        "total_estimate": sum(r.estimate for r in rows),
    }


# ---------------------------------------------------------------------------------------------
# Fitting weights (advice for tokens.py; the constants there are set by hand from it)
# ---------------------------------------------------------------------------------------------


def _solve(rows: list[list[float]], targets: list[float]) -> list[float]:
    """Least squares by the normal equations (a handful of features: no numpy needed)."""
    n = len(rows[0])
    a = [[sum(r[i] * r[j] for r in rows) for j in range(n)] for i in range(n)]
    b = [sum(r[i] * t for r, t in zip(rows, targets)) for i in range(n)]
    for col in range(n):  # Gauss-Jordan with partial pivoting
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot], b[col], b[pivot] = a[pivot], a[col], b[pivot], b[col]
        if abs(a[col][col]) < 1e-12:
            continue
        for r in range(n):
            if r != col:
                factor = a[r][col] / a[col][col]
                a[r] = [x - factor * y for x, y in zip(a[r], a[col])]
                b[r] -= factor * b[col]
    return [b[i] / a[i][i] if abs(a[i][i]) > 1e-12 else 0.0 for i in range(n)]


def fit_text_weights(corpus: dict[str, Any]) -> dict[str, float]:
    """Per-feature weights that best predict the texts' real counts (relative error, so short texts
    count too).
    """
    names = list(tokens.text_features("").keys())
    rows, targets = [], []
    for item in corpus["texts"]:
        features = tokens.text_features(item["text"])
        weight = 1 / item["real_tokens"]
        rows.append([features[name] * weight for name in names])
        targets.append(1.0)
    return dict(zip(names, _solve(rows, targets)))


__all__ = [
    "CORPUS_PATH",
    "TOKENIZER",
    "CorpusError",
    "corpus_errors",
    "error_summary",
    "fit_text_weights",
    "load_corpus",
]
