"""Checkers for the Day 7 exercises (办公助手上线): an endpoint, an idempotency store, an evaluation case, a percentile.

The endpoint is checked over real HTTP (the course's service with a scripted model, uvicorn on a free
port); the idempotency store with a fake clock and twenty threads; the evaluation case by running it
against scripted agents that do the right thing and against ones that do something subtly wrong —
a good case passes the first and fails every one of the others; the percentile against a reference on
generated samples, with the inputs compared before and after.
"""

from __future__ import annotations

import json
import random
import sqlite3
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Callable

from .framework import _brief, _callable, _Check, _short, attribute, exercise, typed

__all__ = ["day7_forget_endpoint", "day7_idempotency_store", "day7_eval_case", "day7_percentile"]


# ---------------------------------------------------------------------------------------------
# 7.1 an endpoint: DELETE /v1/sessions/{session_id}
# ---------------------------------------------------------------------------------------------

def _counting_model(messages: list[dict[str, Any]], tools: Any) -> str:
    """Answers with how many questions this conversation has had, so a test can see what the session remembers."""
    asked = [m for m in messages if m.get("role") == "user"]
    return f"这是第 {len(asked)} 个问题"


def _service(folder: Path) -> Any:
    from ....agent import Agent
    from ....scripted import FunctionClient
    from ....service import ServiceSettings, Store, create_app
    from ....service.runner import RunManager
    from ....tools import ToolRegistry

    store = Store(folder / "service.sqlite3")

    def make_agent(user: Any, session_id: str, on_event: Any, run_id: str) -> Agent:
        return Agent(FunctionClient(_counting_model), ToolRegistry([]), on_event=on_event)

    manager = RunManager(store, make_agent, lambda row, decider: row, workers=2)
    return create_app(ServiceSettings(db_path=str(store.path), sse_poll_seconds=0.02), store=store, manager=manager)


def _ask(client: Any, session_id: str, message: str) -> dict[str, Any]:
    run = client.post("/v1/runs", json={"session_id": session_id, "message": message}).json()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:  # bounded wait for the scripted run
        current = client.get(f"/v1/runs/{run['id']}").json()
        if current["status"] not in ("queued", "running"):
            return current
        time.sleep(0.02)
    raise RuntimeError(f"运行 {run['id']} 10 秒内没有结束")


@exercise
def day7_forget_endpoint(check: _Check, add_forget_endpoint: Callable[[Any], Any]) -> None:
    """Exercise 7.1: ``add_forget_endpoint(app)`` adds ``DELETE /v1/sessions/{session_id}``: the user's session memory is forgotten."""
    __tracebackhide__ = True
    import httpx

    from ...background import BackgroundServer

    _callable(check.exercise, add_forget_endpoint)
    folder = Path(tempfile.mkdtemp(prefix="day7_forget_"))
    app = _service(folder)
    store = app.state.store
    _, alice_token = store.add_user("张明", "行政助理")
    _, bob_token = store.add_user("王强", "行政助理")
    check.call("add_forget_endpoint(app)", add_forget_endpoint, app, hint="在函数里用 @app.delete(\"/v1/sessions/{session_id}\") 注册一个处理函数。")
    case = "DELETE /v1/sessions/{session_id} 已注册"
    routes = {(getattr(route, "path", ""), method) for route in app.routes for method in (getattr(route, "methods", None) or ())}
    if ("/v1/sessions/{session_id}", "DELETE") not in routes:
        mine = sorted(f"{method} {path}" for path, method in routes if "session" in path)
        raise check.fail(case, expected="DELETE /v1/sessions/{session_id}", got="、".join(mine) or "没有找到和 session 有关的路由",
                         hint="用 @app.delete(\"/v1/sessions/{session_id}\") 装饰处理函数：方法是 DELETE，路径一字不差，会话 id 是路径参数。")
    check.ok(case)
    with BackgroundServer(app) as server, \
            httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {alice_token}"}, timeout=10) as alice, \
            httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {bob_token}"}, timeout=10) as bob:
        try:
            _forget_cases(check, server.url, alice, bob, store)
        finally:
            app.state.manager.shutdown(wait=True)
    check.done()


def _deleted(check: _Check, case: str, response: Any, hint: str = "") -> None:
    if response.status_code == 204 and not response.content:
        return
    if response.status_code == 500:
        raise check.fail(case, expected="HTTP 204", got=f"HTTP 500：{_short(response.text, 160)}",
                         hint="处理函数里出了异常：在上面的单元格里单独读一读你的代码（store 在 app.state.store，当前用户用 current_user(request)）。")
    if response.status_code in (404, 405):
        raise check.fail(case, expected="HTTP 204", got=f"HTTP {response.status_code}：{_short(response.text, 120)}",
                         hint=hint or "路径和方法要完全一致：@app.delete(\"/v1/sessions/{session_id}\")。")
    raise check.fail(case, expected="HTTP 204，没有响应体", got=f"HTTP {response.status_code}：{_short(response.text, 120)}",
                     hint=hint or "删除成功、没有内容可返回时，HTTP 的约定是 204 No Content：return Response(status_code=204)。")


def _forget_cases(check: _Check, url: str, alice: Any, bob: Any, store: Any) -> None:
    import httpx

    case = "没有令牌：401"
    response = httpx.delete(f"{url}/v1/sessions/s1")
    if response.status_code != 401:
        raise check.fail(case, expected="HTTP 401（JSON 错误）", got=f"HTTP {response.status_code}：{_short(response.text, 120)}",
                         hint="第一行先确认是谁：user = current_user(request)。没有令牌或令牌不对，它会抛出 401。")
    check.ok(case)
    case = "令牌不对：401"
    response = httpx.delete(f"{url}/v1/sessions/s1", headers={"Authorization": "Bearer hat_not_a_real_token"})
    if response.status_code != 401:
        raise check.fail(case, expected="HTTP 401", got=f"HTTP {response.status_code}", hint="用 current_user(request) 校验令牌，不要只看有没有 Authorization 头。")
    check.ok(case)

    first = _ask(alice, "s1", "你好")
    _ask(alice, "s1", "再问一次")
    _ask(alice, "周报 3", "本周的周报")
    _ask(bob, "s1", "王强的问题")
    _ask(bob, "s1", "王强的第二个问题")
    case = "删除自己的会话 s1：204，之后的新问题是第 1 个"
    _deleted(check, case, alice.delete("/v1/sessions/s1"))
    again = "再删一次（已经没有记忆了）：仍然是 204（幂等）"
    _deleted(check, again, alice.delete("/v1/sessions/s1"), hint="DELETE 是幂等的：删一个已经没有的东西，结果一样是“没有了”，还是回答 204，不是 404。")
    after = _ask(alice, "s1", "我们刚才说到哪了？")
    if after["answer"] != "这是第 1 个问题":
        raise check.fail(case, expected="这是第 1 个问题（会话的记忆被清空了）", got=after["answer"],
                         hint="会话的记忆在 store 里：store.save_history(user, session_id, []) 把它清空（只清这个用户的）。")
    check.ok(case)
    check.ok(again)
    case = "别人的同名会话不受影响"
    bobs = _ask(bob, "s1", "王强的第三个问题")
    if bobs["answer"] != "这是第 3 个问题":
        raise check.fail(case, expected="王强的 s1 还记得前两个问题：这是第 3 个问题", got=bobs["answer"],
                         hint="会话按（用户, session_id）区分：只删当前用户的。不同用户可以有同名的会话。")
    check.ok(case)
    case = "自己的其他会话不受影响"
    other = _ask(alice, "周报 3", "继续")
    if other["answer"] != "这是第 2 个问题":
        raise check.fail(case, expected="会话“周报 3”还记得：这是第 2 个问题", got=other["answer"], hint="只删路径里那一个 session_id 的记忆。")
    check.ok(case)
    case = "运行记录保留（只忘记忆，不删运行）"
    kept = alice.get(f"/v1/runs/{first['id']}")
    if kept.status_code != 200:
        raise check.fail(case, expected="GET 原来的运行仍然是 200", got=f"HTTP {kept.status_code}",
                         hint="忘掉的是模型下次会看到的对话记忆；运行本身是审计记录，要留着。")
    check.ok(case)
    case = "从没用过的会话：204"
    _deleted(check, case, alice.delete("/v1/sessions/never-used"), hint="不存在的会话也回答 204：对客户端来说，结果就是“这个会话没有记忆”。")
    check.ok(case)
    case = "带空格和中文的会话 id"
    _deleted(check, case, alice.delete("/v1/sessions/周报 3"))
    again = _ask(alice, "周报 3", "新的开始")
    if again["answer"] != "这是第 1 个问题":
        raise check.fail(case, expected="“周报 3”被清空：这是第 1 个问题", got=again["answer"],
                         hint="用 FastAPI 解析好的路径参数 session_id，不要自己从 URL 里切字符串（URL 里是编码过的 %E5%91%A8…）。")
    check.ok(case)


# ---------------------------------------------------------------------------------------------
# 7.2 an idempotency store
# ---------------------------------------------------------------------------------------------

class _Clock:
    def __init__(self, now: float = 1000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now


def _made(check: _Check, case: str, got: Any) -> tuple[Any, bool]:
    """The learner's ``(result, created)``, with the result a string (the checker's ``create`` makes strings)."""
    if not (isinstance(got, tuple) and len(got) == 2 and isinstance(got[1], bool) and isinstance(got[0], (str, type(None)))):
        raise check.fail(case, expected="一个二元组 (结果, 这次是否新建)，例如 ('run_1', True)", got=typed(got, 100),
                         hint="return result, True（第一次）或 return 记下的结果, False（重放）；结果就是 create() 返回的那个值。")
    return got


def _instance(check: _Check, case: str, store_class: Any, *args: Any) -> Any:
    store = check.call(case, store_class, *args, hint="__init__(self, ttl, clock) 只需要记下参数、建好空的存储。")
    if not callable(attribute(store, "run_once")):
        raise check.fail(case, expected="一个有 run_once 方法的对象", got=typed(store, 100),
                         hint="传进来的应该是类本身（class IdempotencyStore: …），它的实例有 run_once(user_id, key, body, create) 方法。")
    return store


@exercise
def day7_idempotency_store(check: _Check, store_class: Any) -> None:
    """Exercise 7.2: ``IdempotencyStore(ttl, clock)`` with ``run_once(user_id, key, body, create) -> (result, created)``."""
    __tracebackhide__ = True
    from ....service.store import IdempotencyConflict

    _callable(check.exercise, store_class, "类")
    clock = _Clock()
    made: list[str] = []

    def creator(name: str) -> Callable[[], str]:
        def create() -> str:
            made.append(name)
            return name
        return create

    store = _instance(check, "IdempotencyStore(ttl=60, clock=clock)", store_class, 60, clock)

    def explain(why_not: str) -> Callable[[Exception], str]:
        """The hint for an exception from run_once where none was due; ``why_not`` says why this call is no conflict."""
        def hint(exc: Exception) -> str:
            if type(exc).__name__ == "IdempotencyConflict":
                own = "" if isinstance(exc, IdempotencyConflict) else \
                    "（另外：你抛出的是自己定义的 IdempotencyConflict，要用课程包里的：from handwritten_agent.service.store import IdempotencyConflict。）"
                return f"这一次不是冲突，不该抛 IdempotencyConflict：{why_not}{own}"
            return f"run_once 抛出了 {type(exc).__name__}：{why_not}在上面的单元格里用同样的参数单独调用一次，看是哪一行出的错。"
        return hint

    def run_once(case: str, user: str, key: str, body: Any, create: Callable[[], str], why_not: str) -> tuple[Any, bool]:
        return _made(check, case, check.call(case, store.run_once, user, key, body, create, hint=explain(why_not)))

    case = "第一次：调用 create()，返回 (结果, True)"
    got = run_once(case, "u1", "k1", {"session_id": "s", "message": "订会议室"}, creator("run_1"), "这个键第一次出现。")
    if got != ("run_1", True) or made != ["run_1"]:
        raise check.fail(case, expected="('run_1', True)，create 被调用 1 次", got=f"{got}，create 被调用 {len(made)} 次",
                         hint="没见过的 (user_id, key)：调用 create()，记下它的结果，返回 (结果, True)。")
    check.ok(case)
    case = "同一个键、同一个请求体：返回记下的结果，不再调用 create()"
    got = run_once(case, "u1", "k1", {"session_id": "s", "message": "订会议室"}, creator("run_2"), "请求体和第一次完全相同，这是一次重放。")
    if got != ("run_1", False) or made != ["run_1"]:
        raise check.fail(case, expected="('run_1', False)，create 仍然只被调用过 1 次", got=f"{got}，create 被调用 {len(made)} 次",
                         hint="见过的键、同样的请求体：直接返回记下的结果和 False，不要再调用 create()。")
    check.ok(case)
    case = "字段顺序不同的同一个请求体也算同一个"
    got = run_once(case, "u1", "k1", {"message": "订会议室", "session_id": "s"}, creator("run_3"),
                   "只是字段顺序不同，是同一个请求体：比较规范化的 JSON（json.dumps(body, sort_keys=True, ensure_ascii=False)，或它的哈希）。")
    if got != ("run_1", False):
        raise check.fail(case, expected="('run_1', False)", got=repr(got),
                         hint="比较请求体的规范形式：json.dumps(body, sort_keys=True, ensure_ascii=False)（再取哈希）。字段顺序不影响含义。")
    check.ok(case)
    case = "同一个键、不同的请求体：抛出 IdempotencyConflict"
    check.raises(case, store.run_once, "u1", "k1", {"session_id": "s", "message": "发邮件"}, creator("run_4"),
                 expected=IdempotencyConflict, want="IdempotencyConflict",
                 hint_returned="同一个键配上不同的请求体，多半是客户端的 bug：不要悄悄返回旧结果，也不要新建，raise IdempotencyConflict(key)。",
                 hint_other=lambda exc: ("你抛出的是自己定义的 IdempotencyConflict：服务只认得课程包里的那个，"
                                         "from handwritten_agent.service.store import IdempotencyConflict，再 raise IdempotencyConflict(key)。"
                                         if type(exc).__name__ == "IdempotencyConflict" else
                                         f"要抛的是 IdempotencyConflict(key)（从 handwritten_agent.service.store 导入），不是 {type(exc).__name__}；服务会把它变成 422。"))
    if made != ["run_1"]:
        raise check.fail(case, expected="create 没有被调用", got=f"create 被调用了：{made}", hint="发现冲突时不要调用 create()。")
    check.ok(case)
    case = "不同用户的同一个键互不相干"
    got = run_once(case, "u2", "k1", {"session_id": "s", "message": "订会议室"}, creator("run_5"),
                   "这是另一个用户，他的 k1 和 u1 的 k1 互不相干：用 (user_id, key) 作为键。")
    if got != ("run_5", True):
        raise check.fail(case, expected="('run_5', True)", got=repr(got), hint="键按用户分开存：用 (user_id, key) 作为字典的键。")
    check.ok(case)

    case = "create() 抛出异常：什么都不记，下次重试会重新创建"
    def broken() -> str:
        raise RuntimeError("数据库暂时不可用")
    check.raises(case, store.run_once, "u1", "k2", {"message": "a"}, broken, expected=RuntimeError, want="create() 的 RuntimeError 原样抛出",
                 hint_returned="create() 失败时让异常传出去：调用方要知道这次没有成功。", hint_other="不要吞掉或换掉 create() 的异常。")
    got = run_once(case, "u1", "k2", {"message": "a"}, creator("run_6"), "上次 create() 失败了，这个键不该被记下。")
    if got != ("run_6", True):
        raise check.fail(case, expected="('run_6', True)：上次没成功，这次重新创建", got=repr(got),
                         hint="先调用 create()，成功之后再记下键；create() 抛异常时这个键不能留下，否则客户端永远重试不成功。")
    check.ok(case)

    case = "记下的是请求体当时的样子，调用之后改动那个 dict 不影响"
    body = {"message": "订 room_301", "tags": ["早会"]}
    run_once(case, "u3", "k3", body, creator("run_7"), "这个键第一次出现。")
    body["message"], body["tags"][0] = "订 room_502", "晚会"
    got = run_once(case, "u3", "k3", {"message": "订 room_301", "tags": ["早会"]}, creator("run_8"),
                   "这次的请求体和第一次调用时的一样；是调用方事后改了它传进来的那个 dict——你存的不能是那个 dict 本身，要存它当时的规范 JSON 或哈希。")
    if got != ("run_7", False):
        raise check.fail(case, expected="('run_7', False)", got=repr(got),
                         hint="不要把调用方的 dict 本身存起来（它之后可能被改）：存它的规范 JSON 或哈希。")
    check.ok(case)

    case = "键在 ttl 秒内有效：第 59.5 秒还在，第 60 秒过期"
    clock.now = 1000.0 + 59.5  # the key was first used at 1000.0 (exact binary fractions: no rounding at the boundary)
    got = run_once(case, "u1", "k1", {"session_id": "s", "message": "订会议室"}, creator("run_9"), "请求体和第一次完全相同，键也还有效。")
    if got != ("run_1", False):
        raise check.fail(case, expected="第 59.5 秒：('run_1', False)", got=repr(got), hint="时间只从 clock() 取；键在 clock() < 第一次的时间 + ttl 时有效。")
    clock.now = 1000.0 + 60
    got = run_once(case, "u1", "k1", {"session_id": "s", "message": "发邮件"}, creator("run_10"),
                   "第 60 秒时键已经过期（clock() >= 第一次的时间 + ttl），过期的键当作没见过，请求体不同也不算冲突。")
    if got != ("run_10", True):
        raise check.fail(case, expected="第 60 秒：过期了，当作新键 → ('run_10', True)", got=repr(got),
                         hint="到了第一次使用的时间 + ttl 就过期（clock() >= 开始 + ttl）；过期的键当作没见过，连请求体不同也不算冲突。")
    check.ok(case)

    case = "两个实例互不影响"
    fresh = _instance(check, case, store_class, 60, _Clock())
    got = _made(check, case, check.call(case, fresh.run_once, "u1", "k1", {"session_id": "s", "message": "订会议室"}, creator("run_11"),
                                        hint=explain("这是一个新的实例，它还没见过任何键：存储要放在实例上（self.… 在 __init__ 里建），不要用类属性或全局变量。")))
    if got != ("run_11", True):
        raise check.fail(case, expected="新实例里没有这个键：('run_11', True)", got=repr(got),
                         hint="存储放在实例属性里（self.… 在 __init__ 里建），不要用类属性或全局变量。")
    check.ok(case)

    case = "20 个相同的请求同时到达：create() 只调用 1 次"
    shared = _instance(check, case, store_class, 60, _Clock())
    calls: list[int] = []
    lock = threading.Lock()

    def slow_create() -> str:
        with lock:
            calls.append(1)
        time.sleep(0.05)  # creating a run takes a moment: long enough for the others to arrive
        return "run_once"

    def attempt(_: int) -> Any:
        try:
            return shared.run_once("u1", "same-key", {"message": "发邮件给李丽"}, slow_create)
        except NotImplementedError:
            return "not done"
        except Exception as exc:  # noqa: BLE001 - reported below
            return exc

    with ThreadPoolExecutor(20) as pool:
        results = list(pool.map(attempt, range(20)))
    errors = [r for r in results if isinstance(r, Exception)]
    if errors:
        raise check.fail(case, expected="20 个调用都正常返回", got=f"{type(errors[0]).__name__}: {errors[0]}", hint="并发调用时不要抛出异常。")
    shaped = [r for r in results if isinstance(r, tuple) and len(r) == 2 and isinstance(r[0], str) and isinstance(r[1], bool)]
    created = [r for r in shaped if r[1]]
    if len(shaped) != len(results) or len(calls) != 1 or len(created) != 1 or any(r[0] != "run_once" for r in shaped):
        raise check.fail(case, expected="create 调用 1 次；1 个 (run_once, True)，19 个 (run_once, False)",
                         got=f"create 调用 {len(calls)} 次，{len(created)} 个新建",
                         hint="“查有没有这个键 → 没有就 create() 并记下”必须作为一个整体：用 threading.Lock 把它们包在一起"
                              "（with self.lock: …）。只锁住查和存、不锁 create()，两个线程都会查到“没有”。")
    check.ok(case, "create 只调用了 1 次")
    check.done()


# ---------------------------------------------------------------------------------------------
# 7.3 an evaluation case that tells right from wrong
# ---------------------------------------------------------------------------------------------

EVAL_REQUEST = "帮我订 2026-03-16 上午 9 点到 10 点的 room_302 会议室，3 个人开周会"
_RIGHT = {"room_id": "room_302", "start_time": "2026-03-16 09:00", "end_time": "2026-03-16 10:00", "attendee_count": 3}


def _booking_model(bookings: list[dict[str, Any]], answer: str | None = None) -> Any:
    """A scripted agent: books each of ``bookings`` in turn, then says ``answer`` (default: what every booking result says)."""
    from ....scripted import FunctionClient, call, calls

    def fn(messages: list[dict[str, Any]], tools: Any) -> Any:
        done = [m for m in messages if m.get("role") == "tool"]
        if len(done) < len(bookings):
            return calls(call("book_meeting_room", bookings[len(done)], id=f"call_book_{len(done)}"))
        if answer is not None:
            return answer
        said = []
        for message in done:
            result = json.loads(message["content"])
            data = result.get("data") or {}
            if not result.get("success"):
                said.append(f"没有订成：{result.get('error')}")
            else:
                said.append(f"已为你预订 {data.get('room_id')}（{data.get('location')}），{data.get('start_time')} 到 {data.get('end_time')}，"
                            f"{data.get('attendees')} 人，预订编号 {data.get('booking_id')}。")
        return "".join(said) or "好的。"

    return FunctionClient(fn, max_calls=20)


_WRONG_AGENTS: list[tuple[str, list[dict[str, Any]], str | None, str]] = [
    ("订错了会议室（room_301）", [{**_RIGHT, "room_id": "room_301"}], None, "期望的调用要检查 room_id，数据库检查要看订的是哪一间。"),
    ("订错了时间（10:00 到 11:00）", [{**_RIGHT, "start_time": "2026-03-16 10:00", "end_time": "2026-03-16 11:00"}], None,
     "start_time 和 end_time 都要检查（在期望的参数里，或者在数据库检查的 SQL 里）。"),
    ("人数填错了（4 人）", [{**_RIGHT, "attendee_count": 4}], None, "attendee_count 也是这次预订的一部分：检查它。"),
    ("什么都没订，却说订好了", [], "已为你预订 room_302（A 座 3 楼），2026-03-16 09:00 到 2026-03-16 10:00，3 人，预订编号 BK0002。",
     "回答可以撒谎，数据库不会：要有一条数据库检查，确认 bookings 表里真的有这条预订。"),
    ("订了两间（room_302 和 room_301）", [_RIGHT, {**_RIGHT, "room_id": "room_301"}], None,
     "数据库检查要查出张明（E001）的**全部**预订，期望恰好一行；只查 room_302 发现不了多订的那间。"),
    ("订对了，回答却什么都没说", [_RIGHT], "好的。", "回答里要有用户关心的事实，比如预订编号 BK0002：把它放进 answer_facts。"),
]


@exercise
def day7_eval_case(check: _Check, make_case: Callable[[], Any]) -> None:
    """Exercise 7.3: ``make_case() -> EvalCase`` for ``EVAL_REQUEST`` that passes the right agent and fails every wrong one."""
    __tracebackhide__ = True
    from ...evaluation import EvalCase, evaluate, office_world_factory

    _callable(check.exercise, make_case)
    case = "make_case() 返回一个 EvalCase"
    made = check.call(case, make_case, hint="return EvalCase(id=..., request=EVAL_REQUEST, kind=\"预订\", ...)")
    if not isinstance(made, EvalCase):
        raise check.fail(case, expected="EvalCase(...)", got=typed(made, 120),
                         hint="从 handwritten_agent.course.evaluation 导入 EvalCase、ExpectedCall、StateCheck、OneOf。")
    if made.request != EVAL_REQUEST:
        raise check.fail(case, expected=EVAL_REQUEST, got=made.request, hint="request 用题目给的 EVAL_REQUEST，一字不改。")
    check.ok(case, _brief(made.id))

    def score(model: Any) -> Any:
        root = tempfile.mkdtemp(prefix="day7_eval_")
        try:
            report = evaluate([made], office_world_factory(model, root=root))
        except sqlite3.Error as exc:
            raise check.fail("数据库检查的 SQL 能运行", expected="合法的 SQL", got=f"{type(exc).__name__}: {exc}",
                             hint="在办公室数据库上试一试你的 SQL：表名 bookings，列 id, room_id, start_time, end_time, attendees, booked_by。") from None
        except (TypeError, AttributeError, ValueError, KeyError) as exc:
            raise check.fail("用例能被评测运行", expected="各个字段的类型正确", got=f"{type(exc).__name__}: {exc}",
                             hint="expected_calls 是 ExpectedCall 的列表，state 是 StateCheck 的列表，rows 是列表的列表。") from None
        return report.attempts[0]

    case = "对的 Agent：四项全部通过"
    right = score(_booking_model([_RIGHT]))
    if not right.passed:
        hint = "对的 Agent 也没通过，说明用例要求的东西不对。"
        if made.decide != "approve":
            hint = "订会议室对行政助理是 L2，要有人确认才会执行：decide=\"approve\"。"
        elif not right.scores["database"]:
            hint = ("看看数据库检查：SQL 查出来的行要和 rows 完全一样（列的顺序、类型：attendees 是整数 3，不是 \"3\"）。"
                    "数据库里原来就有一条别人的预订（BK0001），按 booked_by = 'E001' 过滤。")
        elif not right.scores["answer"]:
            hint = "answer_facts 里的每一项都要出现在对的回答里；对的回答是：" + str(right.answer)
        raise check.fail(case, expected="tools、arguments、database、answer 全部通过", got=f"{right.scores}；{'；'.join(right.problems)}", hint=hint)
    check.ok(case)
    for name, bookings, answer, hint in _WRONG_AGENTS:
        case = f"错的 Agent：{name}"
        wrong = score(_booking_model(bookings, answer))
        if wrong.passed:
            raise check.fail(case, expected="这个用例判它不通过", got=f"判为通过：{wrong.scores}，回答“{_brief(wrong.answer, 50)}”", hint=hint)
        check.ok(case, "、".join(name for name, ok in wrong.scores.items() if not ok) + " 没通过")
    check.done()


# ---------------------------------------------------------------------------------------------
# 7.4 nearest-rank percentiles
# ---------------------------------------------------------------------------------------------

def _nearest_rank(values: list[float], p: float) -> float:
    ordered = sorted(values)
    rank = max(1, -(-int(round(p * 1000)) * len(ordered) // 100_000))  # ceil(p * n / 100) in integers
    return ordered[rank - 1]


@exercise
def day7_percentile(check: _Check, percentile: Callable[[list[float], float], float]) -> None:
    """Exercise 7.4: ``percentile(values, p)`` by the nearest-rank method; ValueError for no values or p outside (0, 100]."""
    __tracebackhide__ = True
    _callable(check.exercise, percentile)

    def run(case: str, values: list[float], p: float, hint: str) -> Any:
        given = list(values)
        got = check.call(case, percentile, values, p, hint=hint, given=f"values={_brief(given, 60)}，p={p}")
        check.unchanged(case, given, values, "传入的列表",
                        "不要用 values.sort()（它改动了调用方的列表）：用 sorted(values) 得到一个新列表。")
        return got

    fixed = [
        ("一个值：任何百分位都是它", [2.5], 50, 2.5, "排好序后，秩 = ceil(p/100 × n)，取第“秩”个（下标是秩 − 1）。"),
        ("p50，偶数个值：取第 2 个，不求平均", [4.0, 1.0, 3.0, 2.0], 50, 2.0, "最近秩法不插值：ceil(50/100 × 4) = 2，取第 2 小的值 2.0，不是 2.5。"),
        ("p50，奇数个值", [5.0, 1.0, 3.0], 50, 3.0, "ceil(0.5 × 3) = 2：第 2 小的值。"),
        ("p100 是最大值", [3.0, 9.0, 1.0], 100, 9.0, "ceil(100/100 × n) = n：最后一个。"),
        ("很小的 p 是最小值", [3.0, 9.0, 1.0], 1, 1.0, "ceil(1/100 × 3) = 1：第 1 个，也就是最小值。秩至少是 1。"),
        ("p95，20 个值：第 19 个", list(range(20, 0, -1)), 95, 19, "ceil(0.95 × 20) = 19。输入没有排好序，先排序。"),
        ("p95，100 个值：第 95 个", [float(v) for v in range(100, 0, -1)], 95, 95.0, "ceil(0.95 × 100) = 95。"),
        ("p7，100 个值：第 7 个（小心浮点数）", [float(v) for v in range(1, 101)], 7, 7.0,
         "7 / 100 × 100 在浮点数里是 7.000000000000001，ceil 之后变成 8。先乘后除：math.ceil(p * n / 100)。"),
        ("p90，10 个值：第 9 个", [10.0 * v for v in range(10, 0, -1)], 90, 90.0, "ceil(0.9 × 10) = 9。"),
    ]
    for case, values, p, expected, hint in fixed:
        got = run(case, values, p, hint)
        if not isinstance(got, (int, float)) or isinstance(got, bool) or got != expected:
            raise check.fail(case, given=f"values={_brief(values, 60)}，p={p}", expected=expected, got=typed(got, 80), hint=hint)
        check.ok(case)
    case = "延迟样本：300 组随机数据和参考实现逐个比较"
    rng = random.Random(20260312)
    for _ in range(300):
        values = [round(rng.uniform(0.05, 9.0), 3) for _ in range(rng.randint(1, 120))]
        p = rng.choice([1, 5, 7, 10, 25, 50, 75, 90, 95, 99, 99.9, 100])
        got = run(case, values, p, "和最近秩法的定义逐步对照：排序、秩 = ceil(p × n / 100)、取第“秩”个。")
        if not isinstance(got, (int, float)) or isinstance(got, bool) or got != _nearest_rank(values, p):
            raise check.fail(case, given=f"{len(values)} 个值，p={p}", expected=_nearest_rank(values, p), got=typed(got, 80),
                             hint="和最近秩法的定义逐步对照：排序、秩 = ceil(p × n / 100)、取第“秩”个（下标 秩 − 1）。")
    check.ok(case)
    for case, values, p in [("没有值：ValueError", [], 50), ("p = 0：ValueError", [1.0, 2.0], 0), ("p > 100：ValueError", [1.0, 2.0], 101)]:
        check.raises(case, percentile, values, p, expected=ValueError, want="ValueError", given=f"values={values}，p={p}",
                     hint_returned="没有值就没有百分位；p 必须满足 0 < p ≤ 100。不合法时 raise ValueError，而不是返回 None 或随便一个数。",
                     hint_other="先检查输入，不合法就 raise ValueError(\"…\")，写清楚哪里不对。")
        check.ok(case)
    check.done()

