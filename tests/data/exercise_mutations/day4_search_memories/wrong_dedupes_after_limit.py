"""Removes duplicates in Python after LIMIT k: copies of one memory use up the k places, so fewer
than k come back although other matching memories exist."""


def search_memories(db, user_id, query, k=5):
    if len(query) >= 3:
        phrase = '"' + query.replace('"', '""') + '"'
        rows = db.execute(
            "SELECT m.text FROM memories_fts JOIN memories AS m ON m.id = memories_fts.rowid"
            " WHERE memories_fts MATCH ? AND m.user_id = ? LIMIT ?",
            (phrase, user_id, k),
        ).fetchall()
    else:
        pattern = "%" + query.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        rows = db.execute(
            "SELECT text FROM memories WHERE user_id = ? AND text LIKE ? ESCAPE '\\'"
            " ORDER BY id DESC LIMIT ?",
            (user_id, pattern, k),
        ).fetchall()
    return list(dict.fromkeys(row[0] for row in rows))


FAILS_AT = "先去重再取 2 条"
ARGS = (search_memories,)
