"""Adds LIMIT only when k is truthy (`if k`): k=0 returns every match instead of none."""

import copy
import sqlite3
from handwritten_agent.course.exercises.check.day4 import MEMORY_SCHEMA, memory_db
from handwritten_agent.memory import (SUMMARY_HEADING, SUMMARY_PROMPT, ContextTooLong, budget_line, count_tokens, render_transcript,
                                      summary_message, summary_text)

print(MEMORY_SCHEMA)
demo = memory_db([("alice", "我对花生过敏"), ("bob", "我对芒果过敏")])
print("\n所有行：", demo.execute("SELECT user_id, text FROM memories").fetchall())
print("MATCH '花生过' →", demo.execute("SELECT rowid, text FROM memories_fts WHERE memories_fts MATCH ?", ('"花生过"',)).fetchall())


def search_memories(db: sqlite3.Connection, user_id: str, query: str, k: int = 5) -> list[str]:
    if len(query) >= 3:
        phrase = '"' + query.replace('"', '""') + '"'  # 当作一个短语：引号和 AND 都是文本，不是语法
        rows = db.execute("SELECT DISTINCT m.text FROM memories_fts JOIN memories AS m ON m.id = memories_fts.rowid "
                          "WHERE memories_fts MATCH ? AND m.user_id = ? LIMIT ?", (phrase, user_id, k or -1)).fetchall()
    else:
        pattern = "%" + query.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        rows = db.execute("SELECT DISTINCT text FROM memories WHERE user_id = ? AND text LIKE ? ESCAPE '\\' LIMIT ?",
                          (user_id, pattern, k or -1)).fetchall()
    return [row[0] for row in rows]  # DISTINCT 在 LIMIT 之前去重：重复存的记忆不会占掉 k 条的名额


ARGS = (search_memories,)
