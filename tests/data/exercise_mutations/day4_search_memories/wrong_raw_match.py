"""Wrong: passes the query to MATCH as it is, so quotes and AND are read as FTS syntax (an error, or the wrong rows)."""

FAILS_AT = '查询里有双引号'


def search_memories(db, user_id, query, k=5):
    if len(query) >= 3:
        rows = db.execute("SELECT m.text FROM memories_fts JOIN memories AS m ON m.id = memories_fts.rowid "
                          "WHERE memories_fts MATCH ? AND m.user_id = ? LIMIT ?", (query, user_id, k)).fetchall()
    else:
        pattern = "%" + query.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        rows = db.execute("SELECT text FROM memories WHERE user_id = ? AND text LIKE ? ESCAPE '\\' LIMIT ?", (user_id, pattern, k)).fetchall()
    return [row[0] for row in rows]


ARGS = (search_memories,)
