"""The LIKE path is right, but for queries of 3+ characters it takes the first k MATCH hits of all users and only then
keeps the caller's: other users' memories use up the k slots (LIMIT before the per-user filter)."""


def search_memories(db, user_id, query, k=5):
    if len(query) >= 3:
        phrase = '"' + query.replace('"', '""') + '"'
        ids = [rowid for (rowid,) in db.execute("SELECT rowid FROM memories_fts WHERE memories_fts MATCH ? LIMIT ?", (phrase, k))]
        texts = []
        for rowid in ids:
            texts += [text for (text,) in db.execute("SELECT text FROM memories WHERE id = ? AND user_id = ?", (rowid, user_id))]
        return list(dict.fromkeys(texts))
    pattern = "%" + query.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
    rows = db.execute("SELECT text FROM memories WHERE user_id = ? AND text LIKE ? ESCAPE '\\' LIMIT ?", (user_id, pattern, k)).fetchall()
    return list(dict.fromkeys(row[0] for row in rows))


ARGS = (search_memories,)
FAILS_AT = "三个字以上的词"
