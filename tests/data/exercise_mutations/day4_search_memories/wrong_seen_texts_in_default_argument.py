"""Removes duplicates with a set kept in a default argument (``seen=set()``): made once, so a memory
returned by one search is never returned again, for any user or query (a shared mutable default)."""


def search_memories(db, user_id, query, k=5, seen=set()):
    if len(query) >= 3:
        phrase = '"' + query.replace('"', '""') + '"'
        rows = db.execute("SELECT m.text FROM memories_fts JOIN memories AS m ON m.id = memories_fts.rowid "
                          "WHERE memories_fts MATCH ? AND m.user_id = ?", (phrase, user_id)).fetchall()
    else:
        pattern = "%" + query.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        rows = db.execute("SELECT text FROM memories WHERE user_id = ? AND text LIKE ? ESCAPE '\\'",
                          (user_id, pattern)).fetchall()
    found = []
    for (text,) in rows:
        if text not in seen and len(found) < k:
            seen.add(text)
            found.append(text)
    return found


ARGS = (search_memories,)
