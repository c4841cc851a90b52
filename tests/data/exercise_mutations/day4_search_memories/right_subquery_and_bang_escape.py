"""Correct, another style: the FTS match in a subquery (``id IN (SELECT rowid …)``) and LIKE with
``ESCAPE '!'`` (the ``!`` itself doubled first)."""


def search_memories(db, user_id, query, k=5):
    if len(query) >= 3:
        sql = ("SELECT DISTINCT text FROM memories WHERE user_id = ? AND id IN "
               "(SELECT rowid FROM memories_fts WHERE memories_fts MATCH ?) LIMIT ?")
        parameters = (user_id, '"' + query.replace('"', '""') + '"', k)
    else:
        escaped = query.replace("!", "!!").replace("%", "!%").replace("_", "!_")
        sql = "SELECT DISTINCT text FROM memories WHERE user_id = ? AND text LIKE ? ESCAPE '!' LIMIT ?"
        parameters = (user_id, f"%{escaped}%", k)
    return [text for (text,) in db.execute(sql, parameters)]


ARGS = (search_memories,)
