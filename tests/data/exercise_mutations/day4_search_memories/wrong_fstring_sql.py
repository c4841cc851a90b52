"""Wrong: builds the SQL with an f-string; a quote in the query breaks it (and opens the door to SQL injection)."""

FAILS_AT = '查询里有单引号'


def search_memories(db, user_id, query, k=5):
    rows = db.execute(f"SELECT text FROM memories WHERE user_id = '{user_id}' AND text LIKE '%{query}%' LIMIT {k}").fetchall()
    return [row[0] for row in rows]


ARGS = (search_memories,)
