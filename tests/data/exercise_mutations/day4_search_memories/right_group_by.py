"""Correct, another way: duplicates removed by GROUP BY in the same statement as LIMIT, and the
trigram query built with str.join."""


def search_memories(db, user_id, query, k=5):
    if len(query) < 3:
        escaped = "".join("\\" + ch if ch in "\\%_" else ch for ch in query)
        sql = (
            "SELECT text FROM memories WHERE user_id = ? AND text LIKE ? ESCAPE '\\'"
            " GROUP BY text LIMIT ?"
        )
        params = (user_id, f"%{escaped}%", k)
    else:
        sql = (
            "SELECT m.text FROM memories AS m JOIN memories_fts AS f ON f.rowid = m.id"
            " WHERE m.user_id = ? AND memories_fts MATCH ? GROUP BY m.text LIMIT ?"
        )
        params = (user_id, '"' + '""'.join(query.split('"')) + '"', k)
    return [text for (text,) in db.execute(sql, params)]


ARGS = (search_memories,)
