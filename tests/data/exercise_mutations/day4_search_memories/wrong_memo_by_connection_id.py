"""Wrong: memoises on (id(db), user_id, query, k): the same connection gains a memory, the answer stays old."""

_memo = {}


def search_memories(db, user_id, query, k=5):
    key = (id(db), user_id, query, k)
    if key not in _memo:
        rows = db.execute("SELECT DISTINCT text FROM memories WHERE user_id = ? AND instr(text, ?) > 0 "
                          "ORDER BY id DESC LIMIT ?", (user_id, query, k)).fetchall()
        _memo[key] = [text for (text,) in rows]
    return list(_memo[key])


ARGS = (search_memories,)
FAILS_AT = "换一个数据库"
