"""Resets the idle count after sending a keep-alive (as if the comment were news): the stream never ends on an idle run."""

import hashlib
import json
import math
import threading
from handwritten_agent.service.store import IdempotencyConflict

FAILS_AT = "max_idle"


ENDED = ("completed", "failed", "cancelled", "requires_action")


def event_stream(run, after=0, max_idle=3):
    '''把 id 在 `after` 之后的运行事件作为 SSE 文本逐个 yield，最后是一个 `end` 事件；空闲时发 keep-alive；连续空等 max_idle 次后停止。'''
    idle = 0
    while idle < max_idle:  # 有上限：连续 max_idle 次空等就结束这个流
        status = run.status()             # 先读状态……
        events = run.events_after(after)  # ……再读事件：运行结束之前写下的每个事件都在这里
        for event in events:
            yield f"id: {event['id']}\nevent: {event['event']}\ndata: {json.dumps(event['data'], ensure_ascii=False)}\n\n"
            after = event["id"]
        if status in ENDED:
            yield f"event: end\ndata: {json.dumps({'status': status})}\n\n"
            return
        if events or run.wait():
            idle = 0
        else:
            idle += 1
            yield ": keep-alive\n\n"
            idle = 0  # 发出了东西，重新数


ARGS = (event_stream,)
