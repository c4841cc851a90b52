"""Escapes % and _ for LIKE but not the escape character itself: a backslash in the query escapes whatever follows it."""


def search_memories(db, user_id, query, k=5):
    if len(query) >= 3:
        phrase = '"' + query.replace('"', '""') + '"'
        rows = db.execute("SELECT m.text FROM memories_fts JOIN memories AS m ON m.id = memories_fts.rowid "
                          "WHERE memories_fts MATCH ? AND m.user_id = ? LIMIT ?", (phrase, user_id, k)).fetchall()
    else:
        pattern = "%" + query.replace("%", "\\%").replace("_", "\\_") + "%"
        rows = db.execute("SELECT text FROM memories WHERE user_id = ? AND text LIKE ? ESCAPE '\\' LIMIT ?",
                          (user_id, pattern, k)).fetchall()
    return list(dict.fromkeys(row[0] for row in rows))


ARGS = (search_memories,)
FAILS_AT = "反斜杠"
