"""Checkers for the Day 7 exercises (办公助手上线): a run's SSE event stream, an idempotency store,
a percentile.

The event stream is checked as a client reads it: a fake run whose events appear tick by tick as the
learner's generator calls ``run.wait()``, the text parsed by the rules of the SSE format (blocks end
at a blank line, comments start with a colon), every event's id, type and JSON data compared, the
``end`` event's status, the keep-alive comments counted against the idle waits, and the run that
writes its last events between the generator's two reads. The idempotency store is checked with a
fake clock and twenty threads; the percentile against a reference on generated samples, with the
inputs compared before and after.

The evaluation exercise (an evaluation case that tells a right agent from wrong ones) is Day 6's:
see ``day6.day6_eval_case``.
"""

from __future__ import annotations

import copy
import json
import random
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from .framework import (
    ExerciseFailed,
    _brief,
    _callable,
    _Check,
    _short,
    attribute,
    exercise,
    full_width,
    refill,
    typed,
)

__all__ = ["day7_event_stream", "day7_idempotency_store", "day7_percentile"]


# ---------------------------------------------------------------------------------------------
# 7.1 the SSE event stream of a run: events as they come, an end event, keep-alives, an idle bound
# ---------------------------------------------------------------------------------------------

ENDED = ("completed", "failed", "cancelled", "requires_action")
"""The statuses after which a run's stream ends: finished, or waiting for a person."""

_MAX_CHUNKS = 400  # a stream that yields more than this for the checker's small runs does not end
_MAX_READS = 60  # status()/events_after() calls in a row without a wait(): the generator spins
_MAX_WAITS = 40  # wait() calls in one stream: more than any case needs, so the stream never ends


class _Signal(BaseException):
    """Raised by the fake run inside the learner's generator; a BaseException so ``except
    Exception`` cannot swallow it.
    """


class _Late(_Signal):
    """wait() was called while events the generator could have sent were still unsent."""

    def __init__(self, unsent: list[int]):
        super().__init__(unsent)
        self.unsent = unsent


class _Spinning(_Signal):
    """The generator keeps reading without ever waiting."""


class _NeverEnds(_Signal):
    """The generator keeps waiting long past anything that could happen."""


class _Run:
    """A run as the stream sees it: ``status()``, ``events_after(n)``, ``wait()``; its events appear
    tick by tick.

    ``ticks`` is what happens at each ``wait()``: ``None`` (nothing: wait returns False) or ``(new
    events, new status or None)`` (wait returns True). ``on_first_status`` is applied at the first
    ``status()`` call: the run writes its last events and ends between the stream's two reads.
    """

    def __init__(
        self,
        status: str,
        events: list[dict[str, Any]],
        ticks: list[Any] = (),
        *,
        on_first_status: Any = None,
    ):
        self._status, self._events = status, [dict(event) for event in events]
        self._ticks = list(ticks)
        self._on_first_status = on_first_status
        self.reads = self.waits = self.status_calls = 0
        self.received: Callable[[], list[int]] = lambda: []
        self.after = 0

    def _read(self) -> None:
        self.reads += 1
        if self.reads > _MAX_READS:
            raise _Spinning()

    def status(self) -> str:
        self._read()
        self.status_calls += 1
        if self._on_first_status is not None:
            events, status = self._on_first_status
            self._on_first_status = None
            self._events += [dict(event) for event in events]
            self._status = status
        return self._status

    def events_after(self, after: int = 0) -> list[dict[str, Any]]:
        self._read()
        if isinstance(after, bool) or not isinstance(after, int):
            raise TypeError(
                f"events_after 的参数应该是整数（事件 id），收到的是 {type(after).__name__}:"
                f" {after!r}"
            )
        return [
            json.loads(json.dumps(event, ensure_ascii=False))
            for event in self._events
            if event["id"] > after
        ]

    def wait(self) -> bool:
        self.reads = 0
        self.waits += 1
        if self.waits > _MAX_WAITS:
            raise _NeverEnds()
        received = set(self.received())
        unsent = [
            event["id"]
            for event in self._events
            if event["id"] > self.after and event["id"] not in received
        ]
        if unsent:
            raise _Late(unsent)
        if not self._ticks:
            return False
        tick = self._ticks.pop(0)
        if tick is None:
            return False
        events, status = tick
        self._events += [dict(event) for event in events]
        if status is not None:
            self._status = status
        return True


def _event(number: int, kind: str, **data: Any) -> dict[str, Any]:
    return {"id": number, "event": kind, "data": {"step": 1, **data}}


_START = _event(1, "run_start")
_CALL = _event(
    2,
    "tool_call",
    name="query_room_availability",
    arguments='{"start_time": "2026-03-13 15:00", "min_capacity": 6}',
)
_RESULT = _event(
    3,
    "tool_result",
    name="query_room_availability",
    success=True,
    data=[{"room_id": "room_301", "capacity": 8}],
)
_FINAL = _event(4, "final", answer="明天 15:00 到 16:00，room_301（8 人）是空的。")
_STOP = _event(5, "stop", stop_reason="final", error=None)


def _parse(text: str) -> dict[str, Any]:
    """SSE text as a client reads it: blocks end at a blank line; ``field: value`` lines (one
    leading space dropped); lines starting with ``:`` are comments; several ``data`` lines join with
    a newline. ``rest`` is an unfinished block.
    """
    items: list[dict[str, Any]] = []
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    block: list[str] = []
    for line in lines[:-1]:  # the last piece has no newline after it yet
        if line == "":
            if block:
                items.append(_block(block))
            block = []
        else:
            block.append(line)
    rest = "\n".join(block + [lines[-1]]).strip("\n")
    return {"items": items, "rest": rest}


def _block(lines: list[str]) -> dict[str, Any]:
    fields: dict[str, Any] = {
        "kind": "event",
        "id": None,
        "event": None,
        "data": None,
        "raw": "\n".join(lines),
        "fields": [],
    }
    data: list[str] = []
    for line in lines:
        if line.startswith(":"):
            continue
        name, colon, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        fields["fields"].append(name)
        if name == "data":
            data.append(value)
        elif name in ("id", "event"):
            fields[name] = value
    if not fields["fields"]:
        return {"kind": "comment", "raw": "\n".join(lines)}
    if set(fields["fields"]) == {"retry"}:
        return {"kind": "retry", "raw": "\n".join(lines)}
    fields["data"] = "\n".join(data) if data else None
    return fields


def _events_in(parsed: dict[str, Any]) -> list[dict[str, Any]]:
    return [item for item in parsed["items"] if item["kind"] == "event" and item["event"] != "end"]


def _ids(parsed: dict[str, Any]) -> list[int]:
    ids = []
    for item in _events_in(parsed):
        try:
            ids.append(int(item["id"]))
        except (TypeError, ValueError):
            continue
    return ids


def _stream(
    check: _Check, case: str, event_stream: Callable[..., Any], run: _Run, **options: Any
) -> dict[str, Any]:
    """Read the learner's stream to its end, as a client would; every way it can go wrong becomes a
    readable failure.
    """
    __tracebackhide__ = True
    received: list[str] = []
    run.after = options.get("after", 0)
    run.received = lambda: _ids(_parse("".join(received)))
    shown = (
        "event_stream(run" + "".join(f", {key}={value!r}" for key, value in options.items()) + ")"
    )
    try:
        iterator = iter(
            check.call(
                case,
                event_stream,
                run,
                **options,
                given=shown,
                hint="event_stream 是一个生成器函数：用 yield 逐段交出要写给客户端的文本。",
            )
        )
    except ExerciseFailed:
        raise
    except Exception:  # noqa: BLE001 - whatever the learner returned cannot be iterated
        raise check.fail(
            case,
            given=shown,
            expected="一个生成器（函数体里用 yield）",
            got="返回了不能迭代的值",
            hint="在函数体里 yield 每一段文本，不要 return 一个值。",
        ) from None
    except _Signal as signal:
        raise _signal_failure(check, case, shown, signal, received, run) from None
    for _ in range(_MAX_CHUNKS):
        try:
            chunk = next(iterator)
        except StopIteration:
            break
        except NotImplementedError:
            raise check.not_done() from None
        except _Signal as signal:
            raise _signal_failure(check, case, shown, signal, received, run) from None
        except ExerciseFailed:
            raise
        except Exception as exc:  # noqa: BLE001 - a learner's bug becomes a readable failure
            raise check.fail(
                case,
                given=shown,
                expected="生成器正常地交出文本，直到流结束",
                got=f"抛出了异常 {type(exc).__name__}: {_brief(str(exc), 160)}",
                hint=(
                    "run.events_after(n) 返回字典的列表（键 id、event、data），run.status()"
                    " 返回字符串，run.wait() 返回 True/False。"
                ),
            ) from exc
        if not isinstance(chunk, str):
            raise check.fail(
                case,
                given=shown,
                expected="每次 yield 一段 str（文本）",
                got=typed(chunk, 80),
                hint='SSE 是文本：yield 像 f"id: {…}\\nevent: {…}\\ndata: {…}\\n\\n" 这样的字符串'
                + (
                    "（不要先 encode 成 bytes，StreamingResponse 会替你编码）。"
                    if isinstance(chunk, (bytes, bytearray))
                    else "。"
                ),
            )
        received.append(chunk)
    else:
        parsed = _parse("".join(received))
        raise check.fail(
            case,
            given=shown,
            expected="流在发出 end 事件（或空等 max_idle 次）之后结束",
            got=f"交出了 {_MAX_CHUNKS} 段还没有结束，最后一段是 {_brief(received[-1], 60)!r}",
            hint=(
                "发完 end 之后要 return；每发出一次保活注释就把空等的次数加一，到 max_idle 就"
                " return。"
                if any(item.get("event") == "end" for item in parsed["items"])
                else "运行结束（或等待确认）且事件都发完时发 end 并 return。"
            ),
        )
    parsed = _parse("".join(received))
    merged = next(
        (
            item
            for item in parsed["items"]
            if item["kind"] == "event"
            and (item["fields"].count("id") > 1 or item["fields"].count("event") > 1)
        ),
        None,
    )
    if merged is not None:
        raise check.fail(
            case,
            given=shown,
            expected="每个事件以一个空行结束（\\n\\n），一段里只有一个 id、一个 event",
            got=f"几个事件连成了一段：{_brief(merged['raw'], 120)!r}",
            hint=(
                "客户端读到空行才算一个事件结束：每个事件的最后一行 data 后面要有两个换行 \\n\\n。"
            ),
        )
    if parsed["rest"]:
        raise check.fail(
            case,
            given=shown,
            expected="每段（事件或注释）都以一个空行结束",
            got=f"最后还有没结束的一段：{_brief(parsed['rest'], 80)!r}",
            hint="客户端读到空行才把一个事件交给程序：每个事件、每行注释后面都要有 \\n\\n。",
        )
    return parsed


def _signal_failure(
    check: _Check, case: str, shown: str, signal: BaseException, received: list[str], run: _Run
) -> ExerciseFailed:
    sent = _ids(_parse("".join(received)))
    if isinstance(signal, _Late):
        return check.fail(
            case,
            given=shown,
            expected=f"调用 run.wait() 之前，已经有的事件 {signal.unsent} 都已经 yield 出去",
            got=f"调用 run.wait() 时只发出了事件 {sent or '（一个都没有）'}",
            hint=(
                "先把 run.events_after(after) 拿到的事件一个个 yield 出去，没有新东西时才 wait()；"
                "不要先等、也不要把事件攒到最后一起交出去：前端要一到就看到。"
            ),
        )
    if isinstance(signal, _Spinning):
        return check.fail(
            case,
            given=shown,
            expected="没有新事件、运行也没结束时调用 run.wait()",
            got=f"连续读了 {_MAX_READS} 次 status()/events_after()，一次 wait() 都没有调用",
            hint=(
                "没有新东西时要调用 run.wait()（真实的服务里它会睡一小会儿或等一个通知），"
                "否则这个循环会占满一个 CPU。"
            ),
        )
    return check.fail(
        case,
        given=shown,
        expected="流在 end 事件或连续 max_idle 次空等之后结束",
        got=f"调用了 {run.waits} 次 run.wait() 还没有结束（已发出事件 {sent or '（一个都没有）'}）",
        hint=(
            "wait() 返回 False 就是空等了一次：数一数连续空等的次数，到 max_idle 就 return。"
            if run.status_calls
            else "循环里要读 run.status()：运行结束或等待确认时发 end 并 return。"
        ),
    )


def _expect_events(
    check: _Check,
    case: str,
    parsed: dict[str, Any],
    wanted: list[dict[str, Any]],
    shown: str,
    after: int = 0,
) -> None:
    """The events of the stream are exactly ``wanted`` (each once, in order), each as id/event/data
    with JSON data.
    """
    __tracebackhide__ = True
    events = _events_in(parsed)
    ids = [item["id"] for item in events]
    want = [str(event["id"]) for event in wanted]
    if ids != want:
        numbers = [int(i) for i in ids if isinstance(i, str) and i.strip().isdigit()]
        early = _end_status(parsed)
        if early is not None and early not in ENDED:
            hint = (
                f"状态是 {early!r} 的运行还没有结束，不能发 end：只有 {'、'.join(ENDED)}"
                " 才结束这个流，其余的状态要等（run.wait()）。"
            )
        elif any(i is None for i in ids):
            hint = "每个事件都要有 id 行（id: 事件的 id）：断线重连时客户端靠它告诉服务从哪里继续。"
        elif len(set(numbers)) < len(numbers):
            hint = (
                "同一个事件发了不止一次：每发出一个事件，就把 after 更新成它的 id，"
                "下次只读 id 更大的。"
            )
        elif any(number <= after for number in numbers):
            hint = (
                f"只发 id 大于 after（这里是 {after}）的事件：after"
                " 就是客户端收到的最后一个事件（Last-Event-ID），它已经有了。"
            )
        elif set(want) - set(ids):
            hint = (
                "有事件没有发出去："
                + "、".join(sorted(set(want) - set(ids), key=int))
                + "。运行结束前写下的事件都要发完再发 end。"
            )
        else:
            hint = "按 id 从小到大、每个事件发一次。"
        raise check.fail(
            case, given=shown, expected=f"事件 id 依次是 {want}", got=f"依次是 {ids}", hint=hint
        )
    for item, event in zip(events, wanted):
        if item["event"] != event["event"]:
            raise check.fail(
                case,
                given=shown,
                expected=f"事件 {event['id']} 的 event 行是 {event['event']!r}",
                got=repr(item["event"]),
                hint=(
                    "event 行写事件的类型（events_after 返回的字典里的 event）："
                    "前端按它决定怎么显示。"
                ),
            )
        try:
            data = json.loads(item["data"]) if item["data"] is not None else None
        except (TypeError, ValueError):
            data = None
        if data is None or data != event["data"]:
            strays = [
                name for name in item["fields"] if name not in ("id", "event", "data", "retry")
            ]
            if item["data"] is None:
                hint = "每个事件要有一行 data: 后面跟事件数据的 JSON。"
            elif strays:
                hint = (
                    "data 里有真的换行，客户端把下一行当成了另一个字段：用 json.dumps(data,"
                    " ensure_ascii=False) 写成一行（它会把换行写成 \\n）。"
                )
            elif data is None:
                hint = (
                    "data 行要是合法的 JSON：用 json.dumps(data, ensure_ascii=False)，不要用"
                    " str(data)（那是 Python 的写法：单引号、None）。"
                )
            else:
                hint = (
                    "data 行写这个事件自己的 data 字典（events_after 返回的字典里的 data），"
                    "原样变成 JSON。"
                )
            raise check.fail(
                case,
                given=shown,
                expected=(
                    f"事件 {event['id']} 的 data 是这个字典的"
                    f" JSON：{json.dumps(event['data'], ensure_ascii=False)}"
                ),
                got=_short(item["raw"], 200),
                hint=hint,
            )
        written = json.dumps(event["data"], ensure_ascii=False)
        if "\\u" in item["data"] and "\\u" not in written:
            raise check.fail(
                case,
                given=shown,
                why="中文被写成了 \\uXXXX",
                expected=f"事件 {event['id']} 的 data 里中文原样写出：{written}",
                got=_short(item["raw"], 200),
                hint=(
                    "json.dumps 默认把中文转成 \\uXXXX（ensure_ascii=True）：练习要求 "
                    "json.dumps(data, ensure_ascii=False)，中文原样写出，前端、日志里的人才读得懂。"
                ),
            )


def _end_status(parsed: dict[str, Any]) -> Any:
    """The status the stream's end event reports (None without an end event or a readable
    status).
    """
    for item in parsed["items"]:
        if item["kind"] == "event" and item["event"] == "end":
            try:
                data = json.loads(item["data"] or "")
            except (TypeError, ValueError):
                return None
            return data.get("status") if isinstance(data, dict) else None
    return None


def _expect_end(check: _Check, case: str, parsed: dict[str, Any], status: str, shown: str) -> None:
    __tracebackhide__ = True
    items = parsed["items"]
    ends = [
        index
        for index, item in enumerate(items)
        if item["kind"] == "event" and item["event"] == "end"
    ]
    if not ends:
        comments = sum(item["kind"] == "comment" for item in items)
        raise check.fail(
            case,
            given=shown,
            expected=f"最后是一个 end 事件，data 里 status 是 {status!r}",
            got=(
                "什么都没有发"
                if not items
                else (
                    f"没有 end 事件：发完事件后又发了 {comments} 行保活注释，就结束了"
                    if comments
                    else "没有 end 事件：发完事件流就结束了"
                )
            ),
            hint=(
                '运行结束（或等待确认）、事件也都发完时，发 event: end 和 data: {"status":'
                " 状态}：客户端看到它就知道该停了，而不是以为断线了去重连。"
            ),
        )
    last = ends[0]
    if last != len(items) - 1 and any(item["kind"] == "event" for item in items[last + 1 :]):
        after = [item.get("event") or item["raw"] for item in items[last + 1 :]]
        raise check.fail(
            case,
            given=shown,
            expected="end 是最后一个事件，之后流就结束",
            got=f"end 之后还发了 {after}",
            hint="发完 end 就 return。end 之前要先把事件都发完。",
        )
    end = items[last]
    try:
        data = json.loads(end["data"]) if end["data"] is not None else None
    except (TypeError, ValueError):
        data = None
    if not isinstance(data, dict) or data.get("status") != status:
        raise check.fail(
            case,
            given=shown,
            expected=f"end 的 data 是 JSON，其中 status 是 {status!r}",
            got=_short(end["raw"], 120),
            hint=(
                'data: 后面写 json.dumps({"status": run.status()})：前端据此知道运行是完成了、'
                "失败了，还是在等人决定。"
                if data is None or not isinstance(data, dict)
                else f"status 要写运行当时的状态（这一次是 {status!r}），不要写死。"
            ),
        )


@exercise
def day7_event_stream(check: _Check, event_stream: Callable[..., Any]) -> None:
    """Exercise 7.1: ``event_stream(run, after=0, max_idle=3)`` yields a run's events as SSE text,
    then ``end``; keep-alives; an idle bound.
    """
    __tracebackhide__ = True
    _callable(check.exercise, event_stream)
    story = [_START, _CALL, _RESULT, _FINAL, _STOP]

    case = "结束了的运行：每个事件一段，最后是 end"
    shown = "event_stream(run)，run 已完成，有 5 个事件"
    parsed = _stream(check, case, event_stream, _Run("completed", story), after=0)
    _expect_events(check, case, parsed, story, shown)
    _expect_end(check, case, parsed, "completed", shown)
    check.ok(case)

    case = "end 事件不带 id"
    end = next(item for item in parsed["items"] if item.get("event") == "end")
    if end["id"] is not None:
        raise check.fail(
            case,
            given=shown,
            expected="end 事件只有 event 和 data 两行，没有 id 行",
            got=_short(end["raw"], 120),
            hint=(
                "客户端会把收到的最后一个 id 当作 Last-Event-ID。end 不是运行的事件："
                "如果它带了 id，"
                "等待确认的运行继续之后，新事件的 id 可能正好是这个数，客户端重连时就会把它跳过。"
            ),
        )
    check.ok(case)

    case = "data 是一行 JSON：换行、引号、中文"
    tricky = [
        _event(1, "final", answer='第一行：A301\n第二行："8 人"，含 \\ 反斜杠'),
        _event(2, "stop", stop_reason="final", error=None),
    ]
    parsed = _stream(check, case, event_stream, _Run("completed", tricky))
    _expect_events(check, case, parsed, tricky, "event_stream(run)，回答里有换行、引号和反斜杠")
    check.ok(case)

    for after, wanted, case in (
        (2, story[2:], "从 after 之后继续：after=2（断线重连）"),
        (5, [], "after 已经是最后一个事件：只有 end"),
    ):
        shown = f"event_stream(run, after={after})，run 已完成，有 5 个事件"
        parsed = _stream(check, case, event_stream, _Run("completed", story), after=after)
        _expect_events(check, case, parsed, wanted, shown, after)
        _expect_end(check, case, parsed, "completed", shown)
        check.ok(case)

    case = "不传 after：从第一个事件开始发"
    parsed = _stream(check, case, event_stream, _Run("completed", story[:2]))
    _expect_events(check, case, parsed, story[:2], "event_stream(run)")
    check.ok(case)

    case = "运行中的事件一到就发出去"
    live = _Run(
        "running", [_START], [([_CALL], None), ([_RESULT, _FINAL], None), ([_STOP], "completed")]
    )
    shown = "event_stream(run)：运行中，事件分三次写进来，最后完成"
    parsed = _stream(check, case, event_stream, live)
    _expect_events(check, case, parsed, story, shown)
    _expect_end(check, case, parsed, "completed", shown)
    if [item["kind"] for item in parsed["items"]].count("comment"):
        raise check.fail(
            case,
            given=shown,
            expected="没有空等过，就没有保活注释",
            got=f"发了 {[i['raw'] for i in parsed['items'] if i['kind'] == 'comment']}",
            hint=(
                "只有 run.wait() 返回 False（白等了一个间隔）时才发保活注释；返回 True 说明有新东"
                "西，去读它。"
            ),
        )
    check.ok(case)

    case = "空等一次就发一行保活注释"
    idle = _Run(
        "running", [_START], [None, ([_CALL, _RESULT], None), None, ([_FINAL, _STOP], "completed")]
    )
    shown = "event_stream(run)：运行中，wait() 依次返回 False、True、False、True"
    parsed = _stream(check, case, event_stream, idle)
    _expect_events(check, case, parsed, story, shown)
    _expect_end(check, case, parsed, "completed", shown)
    kinds = [
        (
            "注释"
            if item["kind"] == "comment"
            else "end"
            if item["event"] == "end"
            else str(item["id"])
        )
        for item in parsed["items"]
        if item["kind"] != "retry"
    ]
    want = ["1", "注释", "2", "3", "注释", "4", "5", "end"]
    if kinds != want:
        raise check.fail(
            case,
            given=shown,
            expected=f"顺序是 {want}",
            got=f"顺序是 {kinds}",
            hint=(
                '每次 run.wait() 返回 False 就 yield 一行以冒号开头的注释（例如 ":'
                ' keep-alive\\n\\n"），'
                "让代理和浏览器知道连接还活着；返回 True 时不发。"
                if kinds.count("注释") != want.count("注释")
                else "注释要在空等之后立刻发，事件一拿到就发。"
            ),
        )
    check.ok(case)

    for status, case in (
        ("requires_action", "等待确认的运行也结束流：end 的状态是 requires_action"),
        ("failed", "失败的运行结束流"),
        ("cancelled", "取消的运行结束流"),
    ):
        events = [
            _START,
            _CALL,
            _event(
                3,
                "stop",
                stop_reason={"requires_action": "needs_confirmation"}.get(status, status),
                error=None,
            ),
        ]
        shown = f"event_stream(run)，run 的状态是 {status}，有 3 个事件"
        parsed = _stream(check, case, event_stream, _Run(status, events))
        _expect_events(check, case, parsed, events, shown)
        _expect_end(check, case, parsed, status, shown)
        check.ok(case)

    case = "排队中的运行不结束流"
    queued = _Run(
        "queued", [], [(([_START]), "running"), ([_CALL, _RESULT, _FINAL, _STOP], "completed")]
    )
    shown = "event_stream(run)：先是 queued（还没有事件），然后 running，然后 completed"
    parsed = _stream(check, case, event_stream, queued)
    _expect_events(check, case, parsed, story, shown)
    _expect_end(check, case, parsed, "completed", shown)
    check.ok(case)

    case = "结束前写下的事件一个都不漏"
    racing = _Run(
        "running", [_START, _CALL], on_first_status=([_RESULT, _FINAL, _STOP], "completed")
    )
    shown = "event_stream(run)：运行在你读事件和读状态之间写下最后 3 个事件并完成"
    parsed = _stream(check, case, event_stream, racing)
    ids = _ids(parsed)
    if ids != [1, 2, 3, 4, 5]:
        raise check.fail(
            case,
            given=shown,
            expected="事件 [1, 2, 3, 4, 5]，然后 end",
            got=f"事件 {ids}，然后 end",
            hint=(
                "读到“已结束”之后，可能还有你上次读完之后写下的事件：先读状态、再读事件"
                "（事件总是在状态改变之前写下的），或者看到结束后再读一次事件，发完再发 end。"
            ),
        )
    _expect_end(check, case, parsed, "completed", shown)
    check.ok(case)

    for max_idle in (2, 5):
        case = f"连续空等 max_idle={max_idle} 次就结束，不发 end"
        stuck = _Run("running", [_START])
        shown = f"event_stream(run, max_idle={max_idle})：运行一直是 running，再也没有新事件"
        parsed = _stream(check, case, event_stream, stuck, max_idle=max_idle)
        comments = [item for item in parsed["items"] if item["kind"] == "comment"]
        ends = [item for item in parsed["items"] if item.get("event") == "end"]
        if ends:
            raise check.fail(
                case,
                given=shown,
                expected="空等到上限时直接结束，不发 end",
                got="发了 end",
                hint=(
                    "end 的意思是“运行结束了（或在等人），别再连了”；空等到上限只是这个连接先关掉，"
                    "客户端会带着 Last-Event-ID 重连。"
                ),
            )
        if stuck.waits != max_idle or len(comments) != max_idle:
            raise check.fail(
                case,
                given=shown,
                expected=f"调用 wait() {max_idle} 次，发 {max_idle} 行保活注释，然后结束",
                got=f"调用 wait() {stuck.waits} 次，发了 {len(comments)} 行保活注释",
                hint=(
                    "连续空等的次数从 0 数起，每次 wait() 返回 False 加一并发一行注释，到 max_idle"
                    " 就 return；用参数 max_idle，不要写死。"
                ),
            )
        check.ok(case)

    case = "不传 max_idle：连续空等 3 次就结束"
    stuck = _Run("running", [_START])
    _stream(check, case, event_stream, stuck)
    if stuck.waits != 3:
        raise check.fail(
            case,
            given="event_stream(run)：运行一直是 running，再也没有新事件",
            expected="调用 wait() 3 次后结束",
            got=f"调用了 {stuck.waits} 次",
            hint="max_idle 的默认值是 3：def event_stream(run, after=0, max_idle=3)。",
        )
    check.ok(case)

    case = "有新事件就重新数空等的次数"
    resets = _Run("running", [_START], [None, ([_CALL], None), None, ([_RESULT], None), None])
    shown = "event_stream(run, max_idle=2)：wait() 依次返回 False、True、False、True、False、False"
    parsed = _stream(check, case, event_stream, resets, max_idle=2)
    if _ids(parsed) != [1, 2, 3] or resets.waits != 6:
        raise check.fail(
            case,
            given=shown,
            expected="发出事件 [1, 2, 3]，调用 wait() 6 次（最后连续 2 次空等）后结束",
            got=f"发出事件 {_ids(parsed)}，调用 wait() {resets.waits} 次",
            hint=(
                "“连续”空等：wait() 返回 True（有新东西）时把计数清零，否则一个活跃但偶尔停顿的运行"
                "会被提前断开。"
            ),
        )
    check.ok(case)
    check.done()


# ---------------------------------------------------------------------------------------------
# 7.2 an idempotency store
# ---------------------------------------------------------------------------------------------


class _Clock:
    def __init__(self, now: float = 1000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now


def _made(check: _Check, case: str, got: Any) -> tuple[Any, bool]:
    """The learner's ``(result, created)``, with the result a string (the checker's ``create`` makes
    strings).
    """
    if not (
        isinstance(got, tuple)
        and len(got) == 2
        and isinstance(got[1], bool)
        and isinstance(got[0], (str, type(None)))
    ):
        raise check.fail(
            case,
            expected="一个二元组 (结果, 这次是否新建)，例如 ('run_1', True)",
            got=typed(got, 100),
            hint=(
                "return result, True（第一次）或 return 记下的结果, False（重放）；结果就是"
                " create() 返回的那个值。"
            ),
        )
    return got


def _instance(check: _Check, case: str, store_class: Any, *args: Any) -> Any:
    store = check.call(
        case, store_class, *args, hint="__init__(self, ttl, clock) 只需要记下参数、建好空的存储。"
    )
    if not callable(attribute(store, "run_once")):
        raise check.fail(
            case,
            expected="一个有 run_once 方法的对象",
            got=typed(store, 100),
            hint=(
                "传进来的应该是类本身（class IdempotencyStore: …），它的实例有 run_once(user_id,"
                " key, body, create) 方法。"
            ),
        )
    return store


def _fresh_stores(check: _Check, store_class: Any) -> None:
    """Chinese users and keys, keys differing in case or width, a user and key that glue into
    another pair, on new stores, the same sequence twice (silent when right): ``(user_id, key)``
    exactly as given."""
    from ....service.store import IdempotencyConflict

    body = {"内容": "订会议室", "人数": 3}
    calls = [
        ("张三", "订单-1", body),
        ("张三丰", "订单-1", body),
        ("张三", "丰订单-1", body),
        ("张三", "订单-1", {"人数": 3, "内容": "订会议室"}),
        ("张三", full_width("order"), body),
        ("张三", "order", body),
        ("张三", "ORDER", body),
        ("张三", "order", {"内容": "订会议室 ", "人数": 3}),
        ("张三", "ORDER", {"内容": "订会议室", "人数": 3}),
    ]
    wanted = [
        ["r1", True],
        ["r2", True],
        ["r3", True],
        ["r1", False],
        ["r5", True],
        ["r6", True],
        ["r7", True],
        "冲突",
        ["r7", False],
    ]
    other = [("李四", "订单-1", body), ("李四", "订单-1", body)]

    def run(sequence: list[tuple[str, str, Any]]) -> Callable[[], list[Any]]:
        def outcomes() -> list[Any]:
            store, found = store_class(60, _Clock()), []
            for number, (user, key, sent) in enumerate(sequence, 1):
                try:
                    got = store.run_once(
                        user, key, copy.deepcopy(sent), lambda number=number: f"r{number}"
                    )
                except IdempotencyConflict:
                    got = "冲突"
                found.append(list(got) if isinstance(got, tuple) else got)
            return found

        return outcomes

    shown = (
        "run_once "
        + "、".join(
            f"({user!r}, {key!r}, {json.dumps(sent, ensure_ascii=False)})"
            for user, key, sent in calls
        )
        + "；第 n 次的 create() 返回 'rn'"
    )
    check.independent(
        "新的存储：中文、大小写和全角不同的用户和键",
        [
            ("一个新的存储，依次 9 次 run_once", run(calls), wanted, shown),
            ("再一个新的存储，同样的 9 次", run(calls), wanted, shown),
            ("又一个新的存储，另外 2 次", run(other), [["r1", True], ["r1", False]]),
        ],
        hint=(
            "键是 (user_id, key) 这个元组，原样比较：不要 lower()、不要转换全角，"
            "也不要把两个字符串拼起来"
            '（"张三" + "丰订单-1" 和 "张三丰" + "订单-1" 拼出来一样）；请求体的指纹也原样比较。'
        ),
    )


def _body_fingerprints(check: _Check, store_class: Any) -> None:
    """Nested objects with their fields in another order are the same body; a false, empty or
    missing field makes another body (silent when right): the fingerprint is the whole canonical
    JSON, sorted at every level, nothing left out."""
    from ....service.store import IdempotencyConflict

    first = {
        "message": "订会议室",
        "options": {"room": "Ｂ５０２", "notify": True, "attendees": ["张三", "李四"]},
        "urgent": False,
        "tags": [],
    }
    calls = [
        ("第一次", first),
        (
            "内层对象的字段换了顺序",
            {
                "tags": [],
                "urgent": False,
                "options": {"attendees": ["张三", "李四"], "notify": True, "room": "Ｂ５０２"},
                "message": "订会议室",
            },
        ),
        ("少了值为 false 的字段 urgent", {k: v for k, v in first.items() if k != "urgent"}),
        ("少了值为空列表的字段 tags", {k: v for k, v in first.items() if k != "tags"}),
        # equal in Python (False == 0, True == 1), different as JSON: another body
        ("值为 false 的字段 urgent 写成了 0", {**first, "urgent": 0}),
        (
            "内层的 true 写成了 1",
            {**first, "options": {**first["options"], "notify": 1}},
        ),
    ]
    wanted = [["r1", True], ["r1", False], "冲突", "冲突", "冲突", "冲突"]

    def outcomes() -> list[Any]:
        store, found = store_class(60, _Clock()), []
        for number, (_, sent) in enumerate(calls, 1):
            try:
                got = store.run_once(
                    "张三", "订会议室-1", copy.deepcopy(sent), lambda number=number: f"r{number}"
                )
            except IdempotencyConflict:
                got = "冲突"
            found.append(list(got) if isinstance(got, tuple) else got)
        return found

    shown = "；".join(f"{label}：{json.dumps(sent, ensure_ascii=False)}" for label, sent in calls)
    check.independent(
        "请求体的指纹：内层字段的顺序不算，false 和空值也算",
        [("一个新的存储，同一个键依次 6 次 run_once", outcomes, wanted, shown)],
        hint=(
            "指纹是整个请求体的规范 JSON：json.dumps(body, sort_keys=True, ensure_ascii=False)"
            "——sort_keys 会把每一层的字段都排好序（只排最外层不够）；不要丢掉值为 false、0、"
            "空字符串或空列表的字段，它们也是请求的一部分；也不要用 == 比较两个 dict："
            "Python 里 False == 0、True == 1，JSON 里它们是不同的值。"
        ),
    )


@exercise
def day7_idempotency_store(check: _Check, store_class: Any) -> None:
    """Exercise 7.2: ``IdempotencyStore(ttl, clock)`` with ``run_once(user_id, key, body, create) ->
    (result, created)``.
    """
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
        """The hint for an exception from run_once where none was due; ``why_not`` says why this
        call is no conflict.
        """

        def hint(exc: Exception) -> str:
            if type(exc).__name__ == "IdempotencyConflict":
                own = (
                    ""
                    if isinstance(exc, IdempotencyConflict)
                    else (
                        "（另外：你抛出的是自己定义的 IdempotencyConflict，要用课程包里的：from"
                        " handwritten_agent.service.store import IdempotencyConflict。）"
                    )
                )
                return f"这一次不是冲突，不该抛 IdempotencyConflict：{why_not}{own}"
            return (
                "run_once 抛出了"
                f" {type(exc).__name__}：{why_not}在上面的单元格里用同样的参数单独调用一次，"
                "看是哪一行出的错。"
            )

        return hint

    def run_once(
        case: str, user: str, key: str, body: Any, create: Callable[[], str], why_not: str
    ) -> tuple[Any, bool]:
        return _made(
            check,
            case,
            check.call(case, store.run_once, user, key, body, create, hint=explain(why_not)),
        )

    case = "第一次：调用 create()，返回 (结果, True)"
    got = run_once(
        case,
        "u1",
        "k1",
        {"session_id": "s", "message": "订会议室"},
        creator("run_1"),
        "这个键第一次出现。",
    )
    if got != ("run_1", True) or made != ["run_1"]:
        raise check.fail(
            case,
            expected="('run_1', True)，create 被调用 1 次",
            got=f"{got}，create 被调用 {len(made)} 次",
            hint="没见过的 (user_id, key)：调用 create()，记下它的结果，返回 (结果, True)。",
        )
    check.ok(case)
    case = "同一个键、同一个请求体：返回记下的结果，不再调用 create()"
    got = run_once(
        case,
        "u1",
        "k1",
        {"session_id": "s", "message": "订会议室"},
        creator("run_2"),
        "请求体和第一次完全相同，这是一次重放。",
    )
    if got != ("run_1", False) or made != ["run_1"]:
        raise check.fail(
            case,
            expected="('run_1', False)，create 仍然只被调用过 1 次",
            got=f"{got}，create 被调用 {len(made)} 次",
            hint="见过的键、同样的请求体：直接返回记下的结果和 False，不要再调用 create()。",
        )
    check.ok(case)
    case = "字段顺序不同的同一个请求体也算同一个"
    got = run_once(
        case,
        "u1",
        "k1",
        {"message": "订会议室", "session_id": "s"},
        creator("run_3"),
        "只是字段顺序不同，是同一个请求体：比较规范化的 JSON（json.dumps(body, sort_keys=True,"
        " ensure_ascii=False)，或它的哈希）。",
    )
    if got != ("run_1", False):
        raise check.fail(
            case,
            expected="('run_1', False)",
            got=repr(got),
            hint=(
                "比较请求体的规范形式：json.dumps(body, sort_keys=True,"
                " ensure_ascii=False)（再取哈希）。字段顺序不影响含义。"
            ),
        )
    check.ok(case)
    case = "同一个键、不同的请求体：抛出 IdempotencyConflict"
    check.raises(
        case,
        store.run_once,
        "u1",
        "k1",
        {"session_id": "s", "message": "发邮件"},
        creator("run_4"),
        expected=IdempotencyConflict,
        want="IdempotencyConflict",
        hint_returned=(
            "同一个键配上不同的请求体，多半是客户端的 bug：不要悄悄返回旧结果，也不要新建，raise"
            " IdempotencyConflict(key)。"
        ),
        hint_other=lambda exc: (
            "你抛出的是自己定义的 IdempotencyConflict：服务只认得课程包里的那个，from"
            " handwritten_agent.service.store import IdempotencyConflict，再 raise"
            " IdempotencyConflict(key)。"
            if type(exc).__name__ == "IdempotencyConflict"
            else (
                "要抛的是 IdempotencyConflict(key)（从 handwritten_agent.service.store 导入），"
                f"不是 {type(exc).__name__}；服务会把它变成 422。"
            )
        ),
    )
    if made != ["run_1"]:
        raise check.fail(
            case,
            expected="create 没有被调用",
            got=f"create 被调用了：{made}",
            hint="发现冲突时不要调用 create()。",
        )
    check.ok(case)
    case = "不同用户的同一个键互不相干"
    got = run_once(
        case,
        "u2",
        "k1",
        {"session_id": "s", "message": "订会议室"},
        creator("run_5"),
        "这是另一个用户，他的 k1 和 u1 的 k1 互不相干：用 (user_id, key) 作为键。",
    )
    if got != ("run_5", True):
        raise check.fail(
            case,
            expected="('run_5', True)",
            got=repr(got),
            hint="键按用户分开存：用 (user_id, key) 作为字典的键。",
        )
    check.ok(case)

    case = "create() 抛出异常：什么都不记，下次重试会重新创建"

    def broken() -> str:
        raise RuntimeError("数据库暂时不可用")

    check.raises(
        case,
        store.run_once,
        "u1",
        "k2",
        {"message": "a"},
        broken,
        expected=RuntimeError,
        want="create() 的 RuntimeError 原样抛出",
        hint_returned="create() 失败时让异常传出去：调用方要知道这次没有成功。",
        hint_other="不要吞掉或换掉 create() 的异常。",
    )
    got = run_once(
        case,
        "u1",
        "k2",
        {"message": "a"},
        creator("run_6"),
        "上次 create() 失败了，这个键不该被记下。",
    )
    if got != ("run_6", True):
        raise check.fail(
            case,
            expected="('run_6', True)：上次没成功，这次重新创建",
            got=repr(got),
            hint=(
                "先调用 create()，成功之后再记下键；create() 抛异常时这个键不能留下，否则客户端永远"
                "重试不成功。"
            ),
        )
    check.ok(case)

    case = "记下的是请求体当时的样子，调用之后改动那个 dict 不影响"
    body = {"message": "订 room_301", "tags": ["早会"]}
    run_once(case, "u3", "k3", body, creator("run_7"), "这个键第一次出现。")
    body["message"], body["tags"][0] = "订 room_502", "晚会"
    got = run_once(
        case,
        "u3",
        "k3",
        {"message": "订 room_301", "tags": ["早会"]},
        creator("run_8"),
        "这次的请求体和第一次调用时的一样；是调用方事后改了它传进来的那个 dict——你存的不能是那个"
        " dict 本身，要存它当时的规范 JSON 或哈希。",
    )
    if got != ("run_7", False):
        raise check.fail(
            case,
            expected="('run_7', False)",
            got=repr(got),
            hint="不要把调用方的 dict 本身存起来（它之后可能被改）：存它的规范 JSON 或哈希。",
        )
    check.ok(case)

    case = "键在 ttl 秒内有效：第 59.5 秒还在，第 60 秒过期，过期后重建的键重新计时"
    clock.now = (
        1000.0 + 59.5
    )  # the key was first used at 1000.0 (exact binary fractions: no rounding at the boundary)
    got = run_once(
        case,
        "u1",
        "k1",
        {"session_id": "s", "message": "订会议室"},
        creator("run_9"),
        "请求体和第一次完全相同，键也还有效。",
    )
    if got != ("run_1", False):
        raise check.fail(
            case,
            expected="第 59.5 秒：('run_1', False)",
            got=repr(got),
            hint="时间只从 clock() 取；键在 clock() < 第一次的时间 + ttl 时有效。",
        )
    clock.now = 1000.0 + 60
    got = run_once(
        case,
        "u1",
        "k1",
        {"session_id": "s", "message": "发邮件"},
        creator("run_10"),
        "第 60 秒时键已经过期（clock() >= 第一次的时间 + ttl），过期的键当作没见过，"
        "请求体不同也不算冲突。",
    )
    if got != ("run_10", True):
        raise check.fail(
            case,
            expected="第 60 秒：过期了，当作新键 → ('run_10', True)",
            got=repr(got),
            hint=(
                "到了第一次使用的时间 + ttl 就过期（clock() >= 开始 + ttl）；过期的键当作没见过，"
                "连请求体不同也不算冲突。"
            ),
        )
    clock.now = 1000.0 + 60 + 30
    got = run_once(
        case,
        "u1",
        "k1",
        {"session_id": "s", "message": "发邮件"},
        creator("run_11"),
        "过期后重新建的那一次（第 60 秒）开始了新的 ttl：第 90 秒的重试还在有效期内。",
    )
    if got != ("run_10", False):
        raise check.fail(
            case,
            expected="第 90 秒：第 60 秒重新建的记录还有效 → ('run_10', False)，不再调用 create()",
            got=repr(got),
            hint=(
                "过期之后重新创建时，要用这一次的结果、请求体和时间替换旧的记录"
                "（self.seen[键] = ...，不要 setdefault，也不要留着第一次的时间）："
                "新的有效期从这一次算起。"
            ),
        )
    check.ok(case)

    case = "两个实例互不影响"
    fresh = _instance(check, case, store_class, 60, _Clock())
    got = _made(
        check,
        case,
        check.call(
            case,
            fresh.run_once,
            "u1",
            "k1",
            {"session_id": "s", "message": "订会议室"},
            creator("run_11"),
            hint=explain(
                "这是一个新的实例，它还没见过任何键：存储要放在实例上（self.… 在 __init__ 里建），"
                "不要用类属性或全局变量。"
            ),
        ),
    )
    if got != ("run_11", True):
        raise check.fail(
            case,
            expected="新实例里没有这个键：('run_11', True)",
            got=repr(got),
            hint="存储放在实例属性里（self.… 在 __init__ 里建），不要用类属性或全局变量。",
        )
    check.ok(case)

    _fresh_stores(check, store_class)
    _body_fingerprints(check, store_class)

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
        raise check.fail(
            case,
            expected="20 个调用都正常返回",
            got=f"{type(errors[0]).__name__}: {errors[0]}",
            hint="并发调用时不要抛出异常。",
        )
    shaped = [
        r
        for r in results
        if isinstance(r, tuple) and len(r) == 2 and isinstance(r[0], str) and isinstance(r[1], bool)
    ]
    created = [r for r in shaped if r[1]]
    if (
        len(shaped) != len(results)
        or len(calls) != 1
        or len(created) != 1
        or any(r[0] != "run_once" for r in shaped)
    ):
        raise check.fail(
            case,
            expected="create 调用 1 次；1 个 (run_once, True)，19 个 (run_once, False)",
            got=f"create 调用 {len(calls)} 次，{len(created)} 个新建",
            hint=(
                "“查有没有这个键 → 没有就 create() 并记下”必须作为一个整体：用 threading.Lock"
                " 把它们包在一起"
                "（with self.lock: …）。只锁住查和存、不锁 create()，两个线程都会查到“没有”。"
            ),
        )
    check.ok(case, "create 只调用了 1 次")
    check.done()


# ---------------------------------------------------------------------------------------------
# 7.3 nearest-rank percentiles
# ---------------------------------------------------------------------------------------------


def _nearest_rank(values: list[float], p: float) -> float:
    ordered = sorted(values)
    rank = max(
        1, -(-int(round(p * 1000)) * len(ordered) // 100_000)
    )  # ceil(p * n / 100) in integers
    return ordered[rank - 1]


@exercise
def day7_percentile(check: _Check, percentile: Callable[[list[float], float], float]) -> None:
    """Exercise 7.3: ``percentile(values, p)`` by the nearest-rank method; ValueError for no values
    or p outside (0, 100].
    """
    __tracebackhide__ = True
    _callable(check.exercise, percentile)

    def run(case: str, values: list[float], p: float, hint: str) -> Any:
        given = list(values)
        got = check.call(
            case, percentile, values, p, hint=hint, given=f"values={_brief(given, 60)}，p={p}"
        )
        check.unchanged(
            case,
            given,
            values,
            "传入的列表",
            "不要用 values.sort()（它改动了调用方的列表）：用 sorted(values) 得到一个新列表。",
        )
        return got

    fixed = [
        (
            "一个值：任何百分位都是它",
            [2.5],
            50,
            2.5,
            "排好序后，秩 = ceil(p × n / 100)，取第“秩”个（下标是秩 − 1）。",
        ),
        (
            "p50，偶数个值：取第 2 个，不求平均",
            [4.0, 1.0, 3.0, 2.0],
            50,
            2.0,
            "最近秩法不插值：ceil(50 × 4 / 100) = 2，取第 2 小的值 2.0，不是 2.5。",
        ),
        ("p50，奇数个值", [5.0, 1.0, 3.0], 50, 3.0, "ceil(50 × 3 / 100) = 2：第 2 小的值。"),
        ("p100 是最大值", [3.0, 9.0, 1.0], 100, 9.0, "ceil(100 × n / 100) = n：最后一个。"),
        (
            "很小的 p 是最小值",
            [3.0, 9.0, 1.0],
            1,
            1.0,
            "ceil(1 × 3 / 100) = 1：第 1 个，也就是最小值。秩至少是 1。",
        ),
        (
            "p95，20 个值：第 19 个",
            list(range(20, 0, -1)),
            95,
            19,
            "ceil(95 × 20 / 100) = 19。输入没有排好序，先排序。",
        ),
        (
            "p95，100 个值：第 95 个",
            [float(v) for v in range(100, 0, -1)],
            95,
            95.0,
            "ceil(95 × 100 / 100) = 95。",
        ),
        (
            "p7，100 个值：第 7 个（小心浮点数）",
            [float(v) for v in range(1, 101)],
            7,
            7.0,
            (
                "7 / 100 × 100 在浮点数里是 7.000000000000001，ceil 之后变成 8。"
                "先乘后除：math.ceil(p * n / 100)。"
            ),
        ),
        (
            "p90，10 个值：第 9 个",
            [10.0 * v for v in range(10, 0, -1)],
            90,
            90.0,
            "ceil(90 × 10 / 100) = 9。",
        ),
        (
            "延迟有好几位有效数字：原样返回那个值",
            [12.3456, 0.1234, 9.87654, 1.23456],
            75,
            9.87654,
            "返回排好序的列表里的那个值本身，不要 round，也不要只留两位有效数字。",
        ),
        (
            "秩只比整数大一点：p=0.1，1001 个值取第 2 个",
            [float(v) for v in range(1, 1002)],
            0.1,
            2.0,
            (
                "0.1 × 1001 / 100 = 1.001，向上取整是 2。先 round(…, 2) 再向上取整会把它变成 1："
                "直接 math.ceil(p * n / 100)，不要先四舍五入。"
            ),
        ),
        (
            "p 有三位小数：p=50.001，100 个值取第 51 个",
            [float(v) for v in range(100, 0, -1)],
            50.001,
            51.0,
            "50.001 × 100 / 100 = 50.001，向上取整是 51：p 原样参与计算，不要先把 p 四舍五入。",
        ),
    ]
    for case, values, p, expected, hint in fixed:
        got = run(case, values, p, hint)
        if not isinstance(got, (int, float)) or isinstance(got, bool) or got != expected:
            raise check.fail(
                case,
                given=f"values={_brief(values, 60)}，p={p}",
                expected=expected,
                got=typed(got, 80),
                hint=hint,
            )
        check.ok(case)
    same_list = [float(v) for v in range(1, 11)]
    check.independent(
        "换一组值再算",
        [
            ("10 个值的 p50", lambda: percentile([float(v) for v in range(10, 0, -1)], 50), 5.0),
            (
                "另一组 6 个值的 p50",
                lambda: percentile([60.0, 10.0, 50.0, 20.0, 40.0, 30.0], 50),
                30.0,
            ),
            ("又一组 10 个值的 p50", lambda: percentile([v + 0.5 for v in range(10)], 50), 4.5),
            ("同一个列表对象，p90", lambda: percentile(same_list, 90), 9.0),
            (
                "同一个列表对象换了内容（id 不变），p90",
                lambda: percentile(refill(same_list, [100.0 * v for v in range(1, 11)]), 90),
                900.0,
            ),
        ],
        same=lambda want, got: type(got) in (int, float) and got == want,
    )
    case = "延迟样本：300 组随机数据和参考实现逐个比较"
    rng = random.Random(20260312)
    for _ in range(300):
        values = [round(rng.uniform(0.05, 9.0), 3) for _ in range(rng.randint(1, 120))]
        p = rng.choice([1, 5, 7, 10, 25, 50, 75, 90, 95, 99, 99.9, 100])
        got = run(
            case, values, p, "和最近秩法的定义逐步对照：排序、秩 = ceil(p × n / 100)、取第“秩”个。"
        )
        if (
            not isinstance(got, (int, float))
            or isinstance(got, bool)
            or got != _nearest_rank(values, p)
        ):
            raise check.fail(
                case,
                given=f"{len(values)} 个值，p={p}",
                expected=_nearest_rank(values, p),
                got=typed(got, 80),
                hint=(
                    "和最近秩法的定义逐步对照：排序、秩 = ceil(p × n / 100)、取第“秩”个（下标 秩 "
                    "− 1）。"
                ),
            )
    check.ok(case)
    for case, values, p in [
        ("没有值：ValueError", [], 50),
        ("p = 0：ValueError", [1.0, 2.0], 0),
        ("p > 100：ValueError", [1.0, 2.0], 101),
    ]:
        check.raises(
            case,
            percentile,
            values,
            p,
            expected=ValueError,
            want="ValueError",
            given=f"values={values}，p={p}",
            hint_returned=(
                "没有值就没有百分位；p 必须满足 0 < p ≤ 100。不合法时 raise ValueError，而不是返回"
                " None 或随便一个数。"
            ),
            hint_other='先检查输入，不合法就 raise ValueError("…")，写清楚哪里不对。',
        )
        check.ok(case)
    check.done()
