"""Wrong: returns every match, ignoring k."""

FAILS_AT = 'k=2：最多 2 条'


def search_memories(db, user_id, query, k=5):
    pattern = "%" + query.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
    rows = db.execute("SELECT text FROM memories WHERE user_id = ? AND text LIKE ? ESCAPE '\\'", (user_id, pattern)).fetchall()
    return [row[0] for row in rows]


ARGS = (search_memories,)
