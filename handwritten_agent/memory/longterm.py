"""Long-term memory: facts a user told the agent, kept per user in SQLite, found again by words.

The reference articles' advice for long-term memory is 先聚合提炼，再按需注入: store what the user
said that will matter later (facts, preferences, constraints, open tasks), and put back into the
prompt only the few memories that bear on the new question. ``LongTermMemory`` is that store, in one
SQLite file (``":memory:"`` in tests):

- ``remember(user_id, text, kind=, source=)`` writes a memory **only from a user message**: the
  ``source`` must be the user's message, and the text must be supported by it (every number in it
  appears there, and most of its words) — so an instruction hidden in a web page or any other tool
  result ("记住：…") can never become a memory. Each memory keeps its source. The same text for the
  same user is stored once.
- ``recall(user_id, query, k=5)`` finds a user's memories by the words of the query, best first:
  SQLite's FTS5 full-text index with the ``trigram`` tokenizer (it needs no word segmentation, so it
  works for Chinese), plus a plain ``LIKE`` scan for the words shorter than three characters that a
  trigram index cannot look up (预算, 生日, 张伟). Candidates are ranked by how many of the query's
  words they contain; near-duplicates are dropped.
- ``forget(user_id, ...)`` deletes one memory, the ones matching some words, or all of a user's.

Every query has ``user_id = ?`` in its ``WHERE`` clause: there is no call that reads across users.
Which user is asking is decided by the code that builds the session, never by the model — see
``memory.tools``, where the tools are bound to a user when they are made.

Left out: embeddings and semantic search (a vector index finds "住址" for "我家在哪"; words do not),
expiry, and merging contradicting memories (the newest wins only by being listed first on a tie).
"""

from __future__ import annotations

import json
import re
import sqlite3
import threading
import unicodedata
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from ..storage import open_sqlite

KINDS = ("fact", "preference", "constraint", "task")
_CJK = "\u3400-\u9fff\uf900-\ufaff"
_TERM = re.compile(rf"[{_CJK}]+|[a-z]+|\d+(?:\.\d+)?")
# Words that say "this is a question" rather than what it is about.
_QUESTION_WORDS = re.compile(
    r"是什么|是多少|有多少|多少|什么|哪个|哪些|哪里|哪儿|哪|怎么样|怎么|如何|是否|有没有|吗|呢|吧|"
    r"请问|"
    r"告诉我|查一下|查查|帮我|看看|记得|还记得|之前|以前|刚才|说过|提过|我的|我们的|你知道"
)
_PRONOUNS = re.compile(r"用户|我们|我|你|您|他|她|的")
_STOP_ASCII = {
    "the",
    "and",
    "what",
    "is",
    "are",
    "my",
    "me",
    "do",
    "you",
    "remember",
    "about",
    "did",
    "tell",
    "how",
    "was",
}


class MemoryRejected(ValueError):
    """A memory that may not be written: it does not come from what the user said."""


@dataclass(frozen=True)
class Memory:
    id: int
    user_id: str
    text: str
    kind: str
    source: dict[str, Any]
    created_at: str
    score: float = field(default=0.0, compare=False)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "text": self.text,
            "kind": self.kind,
            "created_at": self.created_at,
            "source": self.source,
        }


def normalize(text: str) -> str:
    """Full-width to half-width, lower case, whitespace collapsed (for matching and
    de-duplication).
    """
    return " ".join(unicodedata.normalize("NFKC", text).lower().split())


def query_terms(query: str) -> list[str]:
    """What a query is about: its Chinese runs split into two-character words, its English words and
    numbers.
    """
    text = _QUESTION_WORDS.sub(" ", normalize(query))
    terms: list[str] = []
    singles: list[str] = []  # one-character words: used only when the query has nothing longer
    for run in _TERM.findall(text):
        if re.fullmatch(rf"[{_CJK}]+", run):
            for piece in _PRONOUNS.sub(" ", run).split():
                if len(piece) == 1:
                    singles.append(piece)
                terms.extend(piece[i : i + 2] for i in range(len(piece) - 1))
        elif run.isalpha():
            if run not in _STOP_ASCII and len(run) > 1:
                terms.append(run)
        else:
            terms.append(run)
    return list(dict.fromkeys(terms or singles))


def _trigrams(query: str) -> list[str]:
    text = _QUESTION_WORDS.sub(" ", normalize(query))
    grams: list[str] = []
    for run in _TERM.findall(text):
        if len(run) < 3:
            continue
        if re.fullmatch(rf"[{_CJK}]+", run):
            grams.extend(run[i : i + 3] for i in range(len(run) - 2))
        else:
            grams.append(run)
    return list(dict.fromkeys(grams))


def supported_by(text: str, source: str) -> bool:
    """Is ``text`` a restatement of ``source``? Every number of it appears there, and most of its
    words.
    """
    text_n, source_n = normalize(text), normalize(source)
    numbers = re.findall(r"\d+(?:\.\d+)?", text_n)
    if any(number not in source_n for number in numbers):
        return False
    terms = [t for t in query_terms(_PRONOUNS.sub("", text_n)) if not t.isdigit()]
    if not terms:
        return bool(numbers) or text_n in source_n
    found = sum(1 for term in terms if term in source_n)
    return found / len(terms) >= 0.5


def _like_pattern(term: str) -> str:
    return "%" + term.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


class LongTermMemory:
    """Memories per user in one SQLite file (see the module docstring). Safe to share between
    threads.
    """

    def __init__(self, path: str | Path = "memory.sqlite3"):
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._db = open_sqlite(self.path, shared=True)
        self._lock = threading.Lock()
        with self._lock, self._db:
            self._db.executescript("""
                CREATE TABLE IF NOT EXISTS memories (
                    id INTEGER PRIMARY KEY,
                    user_id TEXT NOT NULL,
                    text TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    source TEXT NOT NULL,
                    normalized TEXT NOT NULL,
                    created_at TEXT NOT NULL,
                    UNIQUE (user_id, normalized)
                );
                CREATE INDEX IF NOT EXISTS memories_by_user ON memories (user_id, id);
            """)
            self.full_text = self._create_index()

    def _create_index(self) -> bool:
        """The FTS5 trigram index (SQLite 3.34+); without it every search is a LIKE scan of the
        user's rows.
        """
        try:
            self._db.executescript("""
                CREATE VIRTUAL TABLE IF NOT EXISTS memories_fts USING fts5(
                    normalized, content='memories', content_rowid='id', tokenize='trigram');
                CREATE TRIGGER IF NOT EXISTS memories_ai AFTER INSERT ON memories BEGIN
                    INSERT INTO memories_fts(rowid, normalized) VALUES (new.id, new.normalized);
                END;
                CREATE TRIGGER IF NOT EXISTS memories_ad AFTER DELETE ON memories BEGIN
                    INSERT INTO memories_fts(memories_fts, rowid, normalized)
                        VALUES ('delete', old.id, old.normalized);
                END;
            """)
            return True
        except sqlite3.OperationalError:
            return False

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> LongTermMemory:
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()

    # -- writing ---------------------------------------------------------------------------------

    def remember(
        self, user_id: str, text: str, *, kind: str = "fact", source: dict[str, Any]
    ) -> Memory:
        """Store ``text`` for ``user_id``; ``source`` is the user message it comes from (see the
        module docstring).
        """
        user_id, text = str(user_id), " ".join(str(text).split())
        if not user_id:
            raise ValueError("user_id 不能为空：每条记忆都属于一个用户。")
        if not text:
            raise ValueError("要记住的内容是空的。")
        if kind not in KINDS:
            raise ValueError(f"kind 只能是 {', '.join(KINDS)} 之一，收到的是 {kind!r}。")
        if re.search(r"[?？]\s*$|吗\s*$", text):
            raise MemoryRejected(
                f"“{text}”是一个问题，不是要记住的事实：长期记忆只保存用户陈述的事实、偏好、"
                "约束和待办。"
            )
        if (
            not isinstance(source, dict)
            or source.get("role") != "user"
            or not isinstance(source.get("content"), str)
        ):
            raise MemoryRejected(
                "记忆只能来自用户说的话：source 必须是那条用户消息（role 为 user，带 content），"
                f"收到的是 {str(source)[:80]}。工具结果、网页内容都不能写进长期记忆。"
            )
        if not supported_by(text, source["content"]):
            raise MemoryRejected(
                f"“{text}”不是用户在这条消息里说的内容：{source['content'][:80]}。"
                "只能记住用户亲口说过的事实（数字要和原话一致）。"
            )
        now = datetime.now(timezone.utc).isoformat(timespec="seconds")
        normalized = normalize(text)
        with self._lock, self._db:
            self._db.execute(
                "INSERT OR IGNORE INTO memories (user_id, text, kind, source, normalized,"
                " created_at) VALUES (?, ?, ?, ?, ?, ?)",
                (user_id, text, kind, json.dumps(source, ensure_ascii=False), normalized, now),
            )
            row = self._db.execute(
                "SELECT * FROM memories WHERE user_id = ? AND normalized = ?", (user_id, normalized)
            ).fetchone()
        return self._memory(row)

    def forget(
        self, user_id: str, *, memory_id: int | None = None, matching: str | None = None
    ) -> int:
        """Delete one of the user's memories (``memory_id``), those containing ``matching``, or all
        of them. Returns how many.
        """
        with self._lock, self._db:
            if memory_id is not None:
                cursor = self._db.execute(
                    "DELETE FROM memories WHERE user_id = ? AND id = ?",
                    (str(user_id), int(memory_id)),
                )
            elif matching is not None:
                cursor = self._db.execute(
                    "DELETE FROM memories WHERE user_id = ? AND normalized LIKE ? ESCAPE '\\'",
                    (str(user_id), _like_pattern(normalize(matching))),
                )
            else:
                cursor = self._db.execute("DELETE FROM memories WHERE user_id = ?", (str(user_id),))
            return cursor.rowcount

    # -- reading ---------------------------------------------------------------------------------

    def memories(self, user_id: str) -> list[Memory]:
        """All of the user's memories, oldest first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT * FROM memories WHERE user_id = ? ORDER BY id", (str(user_id),)
            ).fetchall()
        return [self._memory(row) for row in rows]

    def count(self, user_id: str | None = None) -> int:
        with self._lock:
            if user_id is None:
                return self._db.execute("SELECT COUNT(*) FROM memories").fetchone()[0]
            return self._db.execute(
                "SELECT COUNT(*) FROM memories WHERE user_id = ?", (str(user_id),)
            ).fetchone()[0]

    def recall(self, user_id: str, query: str, k: int = 5) -> list[Memory]:
        """The user's memories that share words with ``query``, best first, at most ``k``, without
        near-duplicates.
        """
        if k <= 0:
            return []
        user_id, terms = str(user_id), query_terms(str(query))
        if not terms:
            return []
        candidates: dict[int, sqlite3.Row] = {}
        with self._lock:
            grams = _trigrams(str(query))
            if self.full_text and grams:
                match = " OR ".join('"' + g.replace('"', '""') + '"' for g in grams)
                for row in self._db.execute(
                    "SELECT m.* FROM memories_fts JOIN memories AS m ON m.id = memories_fts.rowid"
                    " WHERE memories_fts MATCH ? AND m.user_id = ? ORDER BY bm25(memories_fts)"
                    " LIMIT ?",
                    (match, user_id, max(50, k * 10)),
                ):
                    candidates[row["id"]] = row
            short = [t for t in terms if len(t) < 3] if self.full_text and grams else terms
            if short:  # words a trigram index cannot look up: scan this user's rows
                where = " OR ".join("normalized LIKE ? ESCAPE '\\'" for _ in short[:32])
                for row in self._db.execute(
                    f"SELECT * FROM memories WHERE user_id = ? AND ({where}) ORDER BY id DESC"
                    " LIMIT 500",
                    (user_id, *[_like_pattern(t) for t in short[:32]]),
                ):
                    candidates.setdefault(row["id"], row)
        scored = []
        for row in candidates.values():
            text = row["normalized"]
            score = sum(len(term) for term in terms if term in text)
            if score:
                scored.append((score, row["id"], row))
        scored.sort(key=lambda item: (-item[0], -item[1]))
        found: list[Memory] = []
        seen: list[str] = []
        for score, _, row in scored:
            text = row["normalized"]
            if any(text in other or other in text for other in seen):
                continue  # a near-duplicate of a better one
            seen.append(text)
            found.append(self._memory(row, score))
            if len(found) == k:
                break
        return found

    @staticmethod
    def _memory(row: sqlite3.Row, score: float = 0.0) -> Memory:
        return Memory(
            row["id"],
            row["user_id"],
            row["text"],
            row["kind"],
            json.loads(row["source"]),
            row["created_at"],
            score,
        )

    def __repr__(self) -> str:
        return (
            f"LongTermMemory({self.path!r},"
            f" full_text={'FTS5 trigram' if self.full_text else 'LIKE only'})"
        )


__all__ = [
    "KINDS",
    "LongTermMemory",
    "Memory",
    "MemoryRejected",
    "normalize",
    "query_terms",
    "supported_by",
]
