"""Wrong: puts the query into LIKE unescaped, so "%" matches every memory."""

FAILS_AT = '查询里有 % ：只匹配真的含 % 的'


def search_memories(db, user_id, query, k=5):
    rows = db.execute("SELECT text FROM memories WHERE user_id = ? AND text LIKE ? LIMIT ?", (user_id, f"%{query}%", k)).fetchall()
    return [row[0] for row in rows]


ARGS = (search_memories,)
