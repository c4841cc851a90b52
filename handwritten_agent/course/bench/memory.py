"""Day 4's memory: the window on a 200-round history, and long-term recall over 10,000 memories.

- ``trim_messages``: a 200-round conversation (each round a question, a tool call, a ~300-character
  tool result and an answer) trimmed to a 4,000-token budget. The floor is counting the whole
  history's tokens once — the least any token-budget window has to do. The token cache is cleared
  before every sample, so each trim counts from scratch, as for a history it has not seen.
- ``recall``: ``LongTermMemory.recall`` with the FTS5 trigram index, over 10,000 memories — all of
  them one user's (the worst case for a per-user search), and spread over 100 users. The floor is
  one plain SQL ``LIKE`` query over the same rows for one word of the question, returning every
  match, with no ranking.

Left out: ``compress`` (its cost is the model's summary call, measured by ``roundtrip``/``local``).
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable

from .registry import Context, Figure, Stats, benchmark

QUESTIONS = [
    "北京明天天气怎么样？",
    "我的预算上限是多少？",
    "帮我算一下 17 乘以 9",
    "酒店每晚不超过多少钱？",
    "我对什么过敏？",
]
FACT_TEMPLATES = [
    "第 {n} 次出差的预算上限是 {m} 元",
    "我住在{city}，第 {n} 次住了 {m} 晚",
    "我喜欢{thing}，第 {n} 次提到",
    "我对{thing}过敏（第 {n} 条）",
    "第 {n} 次会议定在 {m} 号",
    "客户{name}的电话是 138{n:08d}",
    "第 {n} 份报告不超过 {m} 页",
    "记得提醒我提交第 {n} 号报销单",
]
CITIES = ["杭州", "上海", "北京", "成都", "广州", "深圳", "南京", "武汉"]
THINGS = ["靠窗的座位", "绿茶", "花生", "海鲜", "早上的航班", "安静的房间", "芒果", "高铁"]
NAMES = ["张伟", "李娜", "王芳", "刘洋", "陈静", "杨帆"]


def _timed(
    fn: Callable[[], object], repeat: int, before: Callable[[], None] | None = None
) -> Stats:
    samples = []
    for _ in range(repeat):
        if before is not None:
            before()
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) * 1000)
    return Stats.of(samples)


def long_history(rounds: int = 200) -> list[dict]:
    messages = [{"role": "system", "content": "你是一个可以调用工具的助手。"}]
    for index in range(rounds):
        call_id = f"call_{index}"
        messages += [
            {"role": "user", "content": f"第 {index} 个问题：{QUESTIONS[index % len(QUESTIONS)]}"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": call_id,
                        "type": "function",
                        "function": {
                            "name": "get_weather",
                            "arguments": json.dumps(
                                {"city": CITIES[index % len(CITIES)], "date": "tomorrow"},
                                ensure_ascii=False,
                            ),
                        },
                    }
                ],
            },
            {
                "role": "tool",
                "tool_call_id": call_id,
                "content": json.dumps(
                    {
                        "success": True,
                        "data": {
                            "city": CITIES[index % len(CITIES)],
                            "weather": "多云",
                            "temp_low": 4,
                            "temp_high": 15,
                            "detail": "示例数据。" * 25,
                        },
                        "error": None,
                    },
                    ensure_ascii=False,
                ),
            },
            {"role": "assistant", "content": f"第 {index} 个回答：明天多云，4 到 15 摄氏度。"},
        ]
    return messages


@benchmark(
    "memory_trim", title="trim_messages on a 200-round history (4,000-token budget)", order=20
)
def bench_trim(ctx: Context) -> list[Figure]:
    from ... import tokens
    from ...memory import count_tokens, trim_messages

    history = long_history(200)
    repeat = max(5, min(ctx.n, 50))
    clear = tokens._estimate.cache_clear
    trimmed = trim_messages(history, 4000)
    ours = _timed(lambda: trim_messages(history, 4000), repeat, before=clear)
    floor = _timed(lambda: count_tokens(history), repeat, before=clear)
    return [
        Figure(
            "memory_trim",
            f"trim_messages, {len(history)} messages → {len(trimmed)} kept",
            "ms",
            ours,
            floor,
            "counting the whole history's tokens once",
            note=f"{count_tokens(history)} tokens before, {count_tokens(trimmed)} after",
        )
    ]


def _fill(store: object, users: list[str], total: int, rng: random.Random) -> None:
    from ...memory.longterm import normalize

    rows = []
    for index in range(total):
        text = rng.choice(FACT_TEMPLATES).format(
            n=index,
            m=rng.randint(2, 9000),
            city=rng.choice(CITIES),
            thing=rng.choice(THINGS),
            name=rng.choice(NAMES),
        )  # {n}: every text differs
        source = json.dumps({"role": "user", "content": text}, ensure_ascii=False)
        rows.append(
            (
                users[index % len(users)],
                text,
                "fact",
                source,
                normalize(text),
                "2026-03-12T14:30:00+00:00",
            )
        )
    db = store._db  # bulk insert: 10,000 remember() calls would measure the insert, not the search
    with db:
        db.executemany(
            "INSERT OR IGNORE INTO memories (user_id, text, kind, source, normalized, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            rows,
        )


@benchmark(
    "memory_recall", title="LongTermMemory.recall over 10,000 memories (FTS5 trigram)", order=21
)
def bench_recall(ctx: Context) -> list[Figure]:
    from ...memory import LongTermMemory

    rng = random.Random(4)
    figures = []
    repeat = max(5, min(ctx.n, 100))
    for label, users in (
        ("one user holds all 10,000", ["u0"]),
        ("10,000 over 100 users", [f"u{i}" for i in range(100)]),
    ):
        store = LongTermMemory(":memory:")
        _fill(store, users, 10_000, rng)
        queries = [
            "我的预算上限是多少？",
            "我住在哪个城市？",
            "我对什么过敏？",
            "张伟的电话是多少",
            "花生",
            "报销单",
        ]
        found = [len(store.recall(users[0], q)) for q in queries]
        position = iter(range(10**9))

        # the closures run within this iteration (timed below), so they bind this store's values
        def ours(store=store, user=users[0], queries=queries, position=position) -> None:
            store.recall(user, queries[next(position) % len(queries)])

        def floor(store=store, user=users[0], queries=queries, position=position) -> None:
            word = ["预算", "住在", "过敏", "电话", "花生", "报销"][next(position) % len(queries)]
            store._db.execute(
                "SELECT * FROM memories WHERE user_id = ? AND normalized LIKE ?",
                (user, f"%{word}%"),
            ).fetchall()

        figures.append(
            Figure(
                "memory_recall",
                f"recall(k=5), {label}",
                "ms",
                _timed(ours, repeat),
                _timed(floor, repeat),
                "one SQL LIKE query for one word, every match, no ranking",
                note=f"{store.count(users[0])} memories searched; results per query {found}",
            )
        )
        store.close()
    return figures
