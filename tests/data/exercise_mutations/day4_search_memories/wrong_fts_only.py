"""Wrong: uses only the trigram index, which finds nothing for two-character words like 花生."""

FAILS_AT = '两个字的词也要找到：花生'


def search_memories(db, user_id, query, k=5):
    phrase = '"' + query.replace('"', '""') + '"'
    rows = db.execute("SELECT m.text FROM memories_fts JOIN memories AS m ON m.id = memories_fts.rowid "
                      "WHERE memories_fts MATCH ? AND m.user_id = ? LIMIT ?", (phrase, user_id, k)).fetchall()
    return [row[0] for row in rows]


ARGS = (search_memories,)
