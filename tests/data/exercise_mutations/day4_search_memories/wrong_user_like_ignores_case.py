"""Wrong: compares user_id with LIKE, which ignores ASCII case — Alice reads alice's memories."""


def search_memories(db, user_id, query, k=5):
    rows = db.execute("SELECT DISTINCT text FROM memories WHERE user_id LIKE ? AND instr(text, ?) > 0 "
                      "ORDER BY id DESC LIMIT ?", (user_id, query, k)).fetchall()
    return [text for (text,) in rows]


ARGS = (search_memories,)
FAILS_AT = "换一个数据库、换一个用户"
