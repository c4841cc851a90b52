"""Wrong: caches results under (user_id, query, k) in a module global — the key leaves out the database,
so the same question on another database (or after a new memory was saved) gets the old answer."""

_cache = {}


def search_memories(db, user_id, query, k=5):
    key = (user_id, query, k)
    if key not in _cache:
        rows = db.execute("SELECT DISTINCT text FROM memories WHERE user_id = ? AND instr(text, ?) > 0 "
                          "ORDER BY id DESC LIMIT ?", (user_id, query, k)).fetchall()
        _cache[key] = [text for (text,) in rows]
    return list(_cache[key])


ARGS = (search_memories,)
FAILS_AT = "换一个数据库"
