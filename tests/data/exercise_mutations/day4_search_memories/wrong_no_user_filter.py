"""Wrong: searches every user's memories (no user_id in the WHERE clause)."""

FAILS_AT = '两个字的词也要找到：花生'  # bob's 花生 row comes back to alice: the hint names the missing user filter


def search_memories(db, user_id, query, k=5):
    pattern = "%" + query.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
    rows = db.execute("SELECT text FROM memories WHERE text LIKE ? ESCAPE '\\' LIMIT ?", (pattern, k)).fetchall()
    return [row[0] for row in rows]


ARGS = (search_memories,)
