"""Correct, another way: instr() finds a substring with no wildcards at all, so nothing needs escaping (and no FTS)."""


def search_memories(db, user_id, query, k=5):
    rows = db.execute("SELECT DISTINCT text FROM memories WHERE user_id = ? AND instr(text, ?) > 0 ORDER BY id DESC LIMIT ?",
                      (user_id, query, k)).fetchall()
    return [text for (text,) in rows]


ARGS = (search_memories,)
