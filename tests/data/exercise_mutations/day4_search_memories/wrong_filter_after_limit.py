"""Wrong: searches all users with LIMIT k, then keeps the caller's rows in Python — other users' rows use up the k slots."""

FAILS_AT = 'k=1：排在前面的别人的记忆不能占名额'


def search_memories(db, user_id, query, k=5):
    pattern = "%" + query.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
    rows = db.execute("SELECT user_id, text FROM memories WHERE text LIKE ? ESCAPE '\\' LIMIT ?", (pattern, k)).fetchall()
    return [text for owner, text in rows if owner == user_id]


ARGS = (search_memories,)
