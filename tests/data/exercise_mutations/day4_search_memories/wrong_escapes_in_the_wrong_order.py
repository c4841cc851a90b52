"""Escapes % and _ first and the backslash last: the backslash added before % is doubled again, so
"100%" looks for a literal backslash followed by a wildcard and finds nothing."""


def search_memories(db, user_id, query, k=5):
    if len(query) >= 3 and "%" not in query:
        phrase = '"' + query.replace('"', '""') + '"'
        rows = db.execute("SELECT m.text FROM memories_fts JOIN memories AS m ON m.id = memories_fts.rowid "
                          "WHERE memories_fts MATCH ? AND m.user_id = ? LIMIT ?", (phrase, user_id, k)).fetchall()
    else:
        escaped = query.replace("%", "\\%").replace("_", "\\_").replace("\\", "\\\\")
        rows = db.execute("SELECT DISTINCT text FROM memories WHERE user_id = ? AND text LIKE ? ESCAPE '\\' LIMIT ?",
                          (user_id, "%" + escaped + "%", k)).fetchall()
    return [row[0] for row in rows]


ARGS = (search_memories,)
FAILS_AT = "%"
