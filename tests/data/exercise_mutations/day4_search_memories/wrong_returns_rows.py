"""Wrong: returns the rows fetchall() gives (tuples), not the texts."""

FAILS_AT = '三个字以上的词：杭州西湖'


def search_memories(db, user_id, query, k=5):
    pattern = "%" + query.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
    return db.execute("SELECT text FROM memories WHERE user_id = ? AND text LIKE ? ESCAPE '\\' LIMIT ?", (user_id, pattern, k)).fetchall()


ARGS = (search_memories,)
