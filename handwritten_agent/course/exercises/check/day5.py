"""Checkers for the Day 5 exercises (权限)."""

from __future__ import annotations

import copy
import json
import random
import re
from datetime import date, datetime, timedelta
from typing import Any, Callable

from .framework import ExerciseFailed, _brief, _callable, _Check, _short, attribute, offline_client, typed  # noqa: F401

__all__ = ["day5_intern_policy", "day5_mask_personal", "day5_rate_limiter", "day5_decide_all"]

_NOW = datetime(2026, 3, 12, 14, 30)
_INTERN_SEES = {"query_room_availability": "L1", "read_email": "L1", "book_meeting_room": "L3"}


# ---------------------------------------------------------------------------------------------
# 5.1 a policy table for a new role
# ---------------------------------------------------------------------------------------------

def day5_intern_policy(build_intern_rules: Callable[[], Any]) -> None:
    """Exercise 5.1: ``build_intern_rules() -> {"tools": [...], "levels": {...}}`` (or a ``RoleRules``) for the role 实习生."""
    __tracebackhide__ = True
    from ....agent import Agent
    from ....permissions import Level, Policy, PolicyGate, RoleRules, User
    from ....scenarios.office import APPROVER_ROLE, ROLE_TABLE, OfficeScenario

    check = _Check("day5_intern_policy")
    _callable(check.exercise, build_intern_rules)
    before = copy.deepcopy(ROLE_TABLE)
    case = "返回实习生的规则"
    rules = check.call(case, build_intern_rules, hint="build_intern_rules() 返回一个字典：{\"tools\": [...], \"levels\": {...}}。")
    if ROLE_TABLE != before:
        ROLE_TABLE.clear()
        ROLE_TABLE.update(before)
        raise check.fail("不改动共享的 ROLE_TABLE", expected="ROLE_TABLE 保持原样", got="你的函数改了 ROLE_TABLE（已经替你还原）",
                         hint="新建一个字典并 return 它；不要往课程的 ROLE_TABLE 里写东西——它被所有角色共用。")
    if isinstance(rules, dict):
        unknown = sorted(set(rules) - {"tools", "levels"})
        if unknown:
            raise check.fail(case, expected="只有 tools 和 levels 两个键", got=f"多出了 {unknown}", hint="键名写成 tools 和 levels。")
        if isinstance(rules.get("tools"), str):
            raise check.fail(case, expected="tools 是工具名的列表", got=repr(rules["tools"]),
                             hint="一个工具也要写成列表：[\"query_room_availability\"]，而不是一个字符串。")
        try:
            role_rules = RoleRules(**rules)
        except (TypeError, ValueError) as exc:
            raise check.fail(case, expected="能用来构造 RoleRules 的 tools / levels", got=f"{type(exc).__name__}: {exc}",
                             hint="levels 的值用 \"L0\"…\"L3\" 或 Level.L0…Level.L3。") from None
    elif isinstance(rules, RoleRules):
        role_rules = rules
    else:
        raise check.fail(case, expected="一个字典 {\"tools\": [...], \"levels\": {...}}（或 RoleRules）", got=f"{type(rules).__name__}: {_short(rules)}",
                         hint="return {\"tools\": [...], \"levels\": {...}}")
    check.ok(case, _brief(rules, 60))

    office = OfficeScenario.create(now=_NOW)
    intern = User("E009", "实习生", "小刘")
    policy = Policy({**{role: RoleRules(**r) for role, r in ROLE_TABLE.items()}, "实习生": role_rules}, approver_role=APPROVER_ROLE)
    registry = office.registry(intern)
    for tool in registry:
        level = policy.level_for(intern, tool)
        wanted = _INTERN_SEES.get(tool.name)
        case = f"{tool.name}：{'能看到，' + wanted if wanted else '看不到'}"
        got = "看不到" if level is None else f"能看到，{level.value}"
        if (wanted is None) != (level is None) or (wanted is not None and level != Level.of(wanted)):
            if wanted is None and tool.level == Level.L0:
                hint = f"{tool.name} 是 L0 内部接口：不要把它放进白名单，更不要在 levels 里把它改成别的级别。"
            elif wanted is None:
                hint = f"白名单（tools）里只放实习生能用的三个工具；{tool.name} 不在其中。tools 写成 None 表示“全部工具”，不是“没有工具”。"
            elif level is None:
                hint = f"把 {tool.name} 加进 tools 白名单（名字要和工具名一字不差）。"
            else:
                hint = (f"{tool.name} 的默认级别是 {tool.level}；实习生要 {wanted}，在 levels 里覆盖它："
                        f"\"levels\": {{\"{tool.name}\": \"{wanted}\"}}。")
            raise check.fail(case, expected=("能看到，" + wanted) if wanted else "看不到", got=got, hint=hint)
        check.ok(case)

    client = offline_client()
    agent = Agent(client, registry, hooks=[PolicyGate(policy, intern)])
    case = "实习生订会议室：暂停，等行政主管审批"
    paused = agent.run("帮我预订 2026-03-13 15:00 到 16:00 的会议室 room_301，6 个人")
    pending = [(r.tool, r.level, r.approver_role) for r in paused.pending]
    if paused.stop_reason != "needs_confirmation" or pending != [("book_meeting_room", "L3", APPROVER_ROLE)]:
        raise check.fail(case, expected="stop_reason=needs_confirmation，等待 (book_meeting_room, L3, 行政主管)",
                         got=f"stop_reason={paused.stop_reason}，等待 {pending}", hint="book_meeting_room 对实习生应该是 L3。")
    check.ok(case)
    case = "实习生查空闲会议室：直接执行"
    looked = agent.run("查一下 2026-03-13 15:00 到 16:00 有哪些会议室空闲")
    ran = [(r.call.name, r.executed) for r in looked.tool_calls]
    if looked.stop_reason != "final" or ("query_room_availability", True) not in ran:
        raise check.fail(case, expected="final，query_room_availability 被执行", got=f"{looked.stop_reason}，{ran}",
                         hint="query_room_availability 要在白名单里，级别是 L1。")
    check.ok(case)
    case = "实习生要给客户发短信：模型根本看不到这个工具"
    sms = agent.run("给客户发短信：会议改到周五")
    if any(r.call.name == "send_sms_to_customers" for r in sms.tool_calls) or office.count("sms_outbox"):
        raise check.fail(case, expected="没有任何短信调用", got=[r.call.name for r in sms.tool_calls], hint="send_sms_to_customers 不能在白名单里。")
    check.ok(case)
    check.done()


# ---------------------------------------------------------------------------------------------
# 5.2 masking phones and ID numbers
# ---------------------------------------------------------------------------------------------

_ID_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)


def _phone(rng: random.Random) -> str:
    return "1" + rng.choice("3456789") + "".join(rng.choice("0123456789") for _ in range(9))


def _id_number(rng: random.Random, x: str | None = None) -> str:
    region = rng.choice("123456789") + "".join(rng.choice("0123456789") for _ in range(5))
    born = date(1950, 1, 1) + timedelta(days=rng.randrange(0, 365 * 70))
    first17 = region + born.strftime("%Y%m%d") + "".join(rng.choice("0123456789") for _ in range(3))
    check = "10X98765432"[sum(int(d) * w for d, w in zip(first17, _ID_WEIGHTS)) % 11]
    if x is not None:
        check = x
    return first17 + check


def _masked(value: str) -> str:
    if len(value) == 11:
        return value[:3] + "****" + value[-4:]
    return value[:3] + "*" * 11 + value[-4:]


_DIGIT_RUN = re.compile(r"\d[\dXx]*")


def _mask_hint(text: str, expected: str, got: str, position: int, fallback: str, probe: Callable[[str], Any]) -> str:
    """What went wrong at ``position``: which number of the input it is, what it is, and what happened to it.

    ``probe(text)`` runs the learner's function on another text, to tell apart mistakes that look the same here."""
    if len(got) != len(expected):
        return "打码不改变长度（每个被遮住的数字换成一个 *）：你的结果长度变了。" + fallback
    run = next((m for m in _DIGIT_RUN.finditer(text) if m.start() <= position < m.end()), None)
    if run is None:
        return "号码以外的文字要原样保留。" + fallback
    value = run.group()
    kind = "手机号" if len(value) == 11 else "身份证号"
    mine, wanted = got[run.start(): run.end()], expected[run.start(): run.end()]
    if wanted != value and "*" not in mine:
        if probe(f" {value} ") != f" {_masked(value)} ":
            return f"{value} 是{kind}，却没有打码。" + fallback
        if probe(f"号码{value}号") != f"号码{_masked(value)}号":
            return (f"{value} 是{kind}，单独写时你能打码，紧挨着汉字时却不行。\\b 在数字和汉字（或字母）之间不算边界——"
                    "它们都是“单词字符”。用 (?<!\\d) 和 (?!\\d) 只排除前后的数字。")
        return (f"{value} 是{kind}，却没有打码：前面的号码打了码，这一个没有。用 re.sub 替换全部匹配（不要 count=1），也不要只 search 一次；"
                "如果你的模式把号码前后的字符也吃进了匹配（(?:^|\\D)…(?:\\D|$)），两个号码只隔一个字时第二个就匹配不上——"
                "用 (?<!\\d) 和 (?!\\d)，它们不占字符。")
    if wanted == value and "*" in mine:
        if len(value) > 11:
            return (f"{value} 有 {len(value)} 位，不是手机号也不是身份证号，却被遮住了一部分：号码后面（或前面）还紧挨着数字。"
                    "用 (?<!\\d) 和 (?!\\d)（身份证号用 (?![\\dXx])）确认号码在这里开始、在这里结束。")
        return f"{value} 不是手机号（第 2 位要是 3–9），也不是身份证号，要原样保留。" + fallback
    if len(value) >= 17 and "****" in mine and "*" * 11 not in mine:
        return (f"身份证号 {value} 中间的 11 位数字被当成了手机号：先打码身份证号，再打码手机号；"
                "或者让手机号的模式前后都不能紧挨着数字，它就不会从身份证号里截出 11 位。")
    return "打码的位置不对：手机号保留前 3 位和后 4 位（中间 4 个 *），身份证号保留前 3 位和后 4 位（中间 11 个 *）。"


_WORDS = ["客户", "电话", "联系", "身份证", "号码", "是", "请拨打", "备注", "，", "。", "：", "（", "）", " ", "\n", "张明", "的"]


def day5_mask_personal(mask_personal: Callable[[str], str]) -> None:
    """Exercise 5.2: ``mask_personal(text) -> str`` masks mobile numbers (138****5678) and 18-character ID numbers (110***********123X)."""
    __tracebackhide__ = True
    check = _Check("day5_mask_personal")
    _callable(check.exercise, mask_personal)

    def probe(text: str) -> Any:
        try:
            return mask_personal(text)
        except Exception:  # noqa: BLE001 - only a hint depends on it
            return None

    def run(case: str, text: str, expected: str, hint: str, *, report: bool = True) -> None:
        got = check.call(case, mask_personal, text, hint="先在上面单独调用 mask_personal(...) 看看是哪一行出错。")
        if not isinstance(got, str):
            raise check.fail(case, given=text, expected="一个字符串（打码后的文本）", got=f"{type(got).__name__}: {_short(got)}",
                             hint="return 打码后的文本，不要 print 它。")
        if got != expected:
            position = next((i for i, (a, b) in enumerate(zip(got, expected)) if a != b), min(len(got), len(expected)))
            raise check.fail(case, given=text, expected=expected, got=got,
                             hint=f"从第 {position + 1} 个字符开始不一样（期望 {expected[position:position + 20]!r}，实际 {got[position:position + 20]!r}）。"
                                  + _mask_hint(text, expected, got, position, hint, probe))
        if report:
            check.ok(case, _brief(got, 40))

    run("手机号", "客户电话 13812345678，请回电", "客户电话 138****5678，请回电", "手机号保留前 3 位和后 4 位，中间 4 位换成 ****。")
    run("身份证号，末位是数字", "身份证 110105199003071234。", "身份证 110***********1234。", "身份证号保留前 3 位和后 4 位，中间 11 位换成 *。")
    run("身份证号，末位是 X", "号码：11010519491231002X", "号码：110***********002X", "身份证号最后一位可能是 X（或小写 x），也要认出来。")
    run("号码紧挨着汉字", "电话13812345678请回电，身份证110105199003071234号", "电话138****5678请回电，身份证110***********1234号",
        "号码前后可能直接就是汉字，没有空格或标点。")
    run("开头和结尾、挨在一起的两个号码", "13912345678和15000001111", "139****5678和150****1111", "每一个号码都要打码，不只是第一个。")
    run("不是个人信息的数字保持不变", "订单 OD20240615 金额 12000 元，日期 2026-03-12，工号 10012345678，流水 613812345678901",
        "订单 OD20240615 金额 12000 元，日期 2026-03-12，工号 10012345678，流水 613812345678901",
        "只打码“完整”的号码：前后紧挨着数字的不算（用 (?<!\\d) 和 (?!\\d)）；手机号第二位是 3–9，10/11/12 开头的 11 位数不是手机号。")
    run("比 11 位更长、以 13 开头的数字不是手机号", "流水号 13812345678901，凭证 1391234567812", "流水号 13812345678901，凭证 1391234567812",
        "手机号正好 11 位：后面还紧挨着数字，就不是手机号。")
    run("比 18 位更长的数字不是身份证号", "编号 1101051990030712345", "编号 1101051990030712345", "身份证号正好 18 位，前后都不能紧挨着数字。")

    rng = random.Random(20260312)
    for index in range(300):
        pieces, expected_pieces = [], []
        for _ in range(rng.randint(1, 3)):
            words = "".join(rng.choice(_WORDS) for _ in range(rng.randint(1, 3)))
            kind = rng.random()
            value = _phone(rng) if kind < 0.5 else _id_number(rng, rng.choice([None, None, "X", "x"]))
            pieces += [words, value]
            expected_pieces += [words, _masked(value)]
        tail = "".join(rng.choice(_WORDS) for _ in range(rng.randint(0, 2)))
        run(f"随机生成的号码 #{index + 1}", "".join(pieces) + tail, "".join(expected_pieces) + tail,
            "随机生成的文本里出错了：看看是哪种号码、出现在什么位置。", report=False)
    check.ok("300 段随机生成的文本", "手机号和身份证号全部打码，其余不变")
    check.done()


# ---------------------------------------------------------------------------------------------
# 5.3 a rate limiter
# ---------------------------------------------------------------------------------------------

class _Clock:
    def __init__(self, start: float) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now


def _limiter_hint(limiter_class: Callable[..., Any], hint: str) -> str:
    """The hint for a wrong ``allow``: first rule out the mistakes that make every case look wrong, by trying the
    learner's class again — state shared by all instances, the real clock, records that never expire."""
    from .framework import forbidden_uses

    def fresh_allows(advance: float) -> bool | None:
        try:
            clock = _Clock(7_777_777.0)
            limiter = limiter_class(1, 10, clock)
            first = limiter.allow("probe-user", f"probe-tool-{advance}")
            clock.now += advance
            return first is True and (advance == 0 or limiter.allow("probe-user", f"probe-tool-{advance}") is True)
        except Exception:  # noqa: BLE001 - only a hint depends on it
            return None

    if fresh_allows(0) is False or fresh_allows(0) is False:  # the second new limiter sees the first one's call only if they share state
        return ("一个新建的限流器、一个从没见过的用户，第一次调用就被拒绝了：计数被所有实例共用了。"
                "计数要放在 self 上（在 __init__ 里创建 self.calls = {}），不能写成类属性。")
    if fresh_allows(1000) is False:
        if forbidden_uses(limiter_class, (), modules=("time", "datetime")):
            return "时钟往前走了 1000 秒，上一次调用还没过期：你的时间没有从 self.clock() 取（用了 time 模块）。检查会传一个假时钟进来。"
        return "时钟往前走了 1000 秒，上一次调用还在计数：超出窗口的记录要丢掉（只数时间 > now - per_seconds 的调用）。"
    return hint

def day5_rate_limiter(rate_limiter_class: Callable[..., Any]) -> None:
    """Exercise 5.3: ``RateLimiter(max_calls, per_seconds, clock)``, ``allow(user_id, tool) -> bool``, a sliding window."""
    __tracebackhide__ = True
    check = _Check("day5_rate_limiter")
    _callable(check.exercise, rate_limiter_class, "类")

    def make(case: str, max_calls: int, per_seconds: float, clock: _Clock) -> Any:
        limiter = check.call(case, rate_limiter_class, max_calls, per_seconds, clock, hint="RateLimiter(max_calls, per_seconds, clock)")
        if not callable(attribute(limiter, "allow")):
            raise check.fail(case, expected="一个有 allow(user_id, tool) 方法的对象", got=type(limiter).__name__, hint="在类里定义 def allow(self, user_id, tool)。")
        return limiter

    def allow(case: str, limiter: Any, user: str, tool: str, expected: bool, hint: str, history: list[str]) -> None:
        got = check.call(case, limiter.allow, user, tool)
        if not isinstance(got, bool):
            raise check.fail(case, expected="True 或 False", got=f"{type(got).__name__}: {_short(got)}", hint="allow 返回一个布尔值。")
        history.append(f"allow({user!r}, {tool!r}) → {got}")
        if got != expected:
            raise check.fail(case, given="；".join(history), expected=f"这一次 allow({user!r}, {tool!r}) 返回 {expected}",
                             got=f"返回了 {got}", hint=_limiter_hint(rate_limiter_class, hint))

    clock = _Clock(1_000_000.0)  # far from time.time(): a limiter that reads the real clock gives itself away
    case = "同一用户同一工具：上限 3 次"
    limiter, history = make(case, 3, 3600, clock), []
    for n in range(3):
        allow(case, limiter, "u1", "send_email", True, "前 3 次都应该放行。", history)
        clock.now += 10
    allow(case, limiter, "u1", "send_email", False, "第 4 次超过上限，返回 False。", history)
    check.ok(case)

    case = "滑动窗口的边界：差 1 秒不行，正好到期可以"
    edge = _Clock(2_000_000.0)
    limiter, history = make(case, 1, 60, edge), []
    allow(case, limiter, "u1", "book_room", True, "", history)
    edge.now += 59
    allow(case, limiter, "u1", "book_room", False,
          "上一次调用在 59 秒前，还在 60 秒的窗口里。窗口是“最近 per_seconds 秒”，不要按整点切成一格一格的。", history)
    edge = _Clock(2_500_000.0)
    limiter, history = make(case, 1, 60, edge), []  # a new limiter, so no refused call is in the way
    allow(case, limiter, "u1", "book_room", True, "", history)
    edge.now += 60
    allow(case, limiter, "u1", "book_room", True,
          "上一次调用正好在 60 秒前，已经不在窗口里：只数时间 > now - per_seconds 的调用（用 >，不是 >=）。"
          "时间要从 self.clock() 取，过期的记录要丢掉。", history)
    check.ok(case)

    case = "滑动窗口不是固定窗口：0、9、10、10.5 秒，每 10 秒最多 2 次"
    slide = _Clock(6_000_000.0)  # a multiple of 10: a window cut at round numbers starts here too
    limiter, history = make(case, 2, 10, slide), []
    for offset, expected, hint in ((0, True, ""), (9, True, ""),
                                   (10, True, "第 10 秒时，第 0 秒那次已经过期（只数时间 > now - 10 的），最近 10 秒里只有第 9 秒那一次。"),
                                   (10.5, False, "第 10.5 秒时，最近 10 秒里（第 0.5 秒之后）已经有第 9 秒和第 10 秒两次：不能放行。"
                                                 "按整 10 秒分格、或者从某一次调用起重新计数，都是固定窗口——窗口要跟着现在的时间滑动：每次都数 (now - per_seconds, now] 里的调用。")):
        slide.now = 6_000_000.0 + offset
        allow(case, limiter, "u1", "send_sms", expected, hint, history)
    check.ok(case)

    case = "被拒绝的调用不计数"
    start = _Clock(3_000_000.0)
    limiter, history = make(case, 2, 100, start), []
    allow(case, limiter, "u1", "send_email", True, "", history)
    allow(case, limiter, "u1", "send_email", True, "", history)
    start.now += 50
    for _ in range(3):
        allow(case, limiter, "u1", "send_email", False, "已经用完 2 次，还在窗口内。", history)
    start.now += 50  # the two allowed calls are exactly 100 s old now; the refused ones only 50 s
    allow(case, limiter, "u1", "send_email", True, "放行的两次已经过期；被拒绝的三次不能算进去（只记录返回 True 的调用）。", history)
    allow(case, limiter, "u1", "send_email", True, "还剩一个名额：被拒绝的调用不计数。", history)
    check.ok(case)

    case = "不同用户、不同工具分开计数"
    limiter, history = make(case, 1, 60, _Clock(4_000_000.0)), []
    allow(case, limiter, "u1", "book_room", True, "", history)
    allow(case, limiter, "u1", "book_room", False, "上限是 1。", history)
    allow(case, limiter, "u2", "book_room", True, "另一个用户有自己的计数：按 (user_id, tool) 分开记。", history)
    allow(case, limiter, "u1", "send_sms", True, "另一个工具有自己的计数：按 (user_id, tool) 分开记。", history)
    check.ok(case)
    case = "两个限流器互不影响（没有共享状态）"
    first, second, history = make(case, 1, 60, _Clock(5_000_000.0)), make(case, 1, 60, _Clock(5_000_000.0)), []
    allow(case, first, "u9", "t", True, "", history)
    allow(case, second, "u9", "t", True, "第二个限流器是新的，它的计数应该从 0 开始：计数要放在 self 上（在 __init__ 里创建），不能放在类属性里。", history)
    check.ok(case)
    case = "只用传进来的时钟"
    frozen = _Clock(9_000_000.0)
    limiter, history = make(case, 2, 1, frozen), []
    allow(case, limiter, "u", "t", True, "", history)
    allow(case, limiter, "u", "t", True, "", history)
    allow(case, limiter, "u", "t", False, "时钟没有走：窗口 1 秒也还没过去。要用 self.clock() 取时间，不要用 time.time()。", history)
    check.ok(case)
    check.done()


# ---------------------------------------------------------------------------------------------
# 5.4 deciding every pending call and driving the run to its end
# ---------------------------------------------------------------------------------------------

class _Stuck(RuntimeError):
    """Raised by the checker's gate when the learner's loop keeps resuming a run that can never go on."""


def day5_decide_all(drive: Callable[..., Any]) -> None:
    """Exercise 5.4: ``drive(agent, result, approve_tools, approver) -> RunResult``: decide every pending call, resume, repeat (bounded)."""
    __tracebackhide__ = True
    from ....agent import Agent
    from ....permissions import Level, Policy, PolicyGate, RoleRules, User
    from ....run import RunResult
    from ....scripted import ScriptedClient, call, calls, reply
    from ....tools import ToolRegistry, tool

    check = _Check("day5_decide_all")
    _callable(check.exercise, drive)
    done: list[str] = []

    @tool(level=Level.L2)
    def book(room: str) -> str:
        """预订会议室。

        Args:
            room: 会议室编号，例如：room_301
        """
        done.append(f"book {room}")
        return f"已预订 {room}"

    @tool(level=Level.L3)
    def send_sms(content: str) -> str:
        """群发短信。

        Args:
            content: 短信内容，例如：你好
        """
        done.append(f"sms {content}")
        return "已发送"

    @tool(level=Level.L2)
    def buy(item: str) -> str:
        """提交采购申请。

        Args:
            item: 物品，例如：显示器
        """
        done.append(f"buy {item}")
        return "已提交"

    user, boss = User("u1", "助理"), User("m1", "主管")

    def agent_for(*replies: Any, gate: Any = None) -> Agent:
        policy = Policy({"助理": RoleRules()}, approver_role="主管")
        if gate is not None:
            return Agent(ScriptedClient(replies), ToolRegistry([book, send_sms, buy]), hooks=[gate(policy, user)])
        return Agent(ScriptedClient(replies), ToolRegistry([book, send_sms, buy]), hooks=[PolicyGate(policy, user)])

    def run_drive(case: str, agent: Agent, approve_tools: set[str], hint: str = "") -> Any:
        paused = agent.run("办几件事")
        if paused.stop_reason != "needs_confirmation":  # the checker's own script: must pause first
            raise AssertionError(f"checker setup: expected a pause, got {paused.stop_reason}")
        given = set(approve_tools)

        def explain(exc: Exception) -> str:
            text = str(exc)
            if "只能继续一个等待确认的运行" in text:
                reason = re.search(r"stop_reason 是 '?([a-z_]+)", text)
                return (f"你在一个已经不再等待确认的运行上调用了 resume（它的 stop_reason 已经是 {reason.group(1) if reason else '别的'}）："
                        "每一轮先看 result.stop_reason == \"needs_confirmation\"，不是就停下，把结果返回。")
            if "每个待确认的调用都要有一个决定" in text:
                return "每个 pending 的请求都要有决定：遍历 result.pending（不止第一个），request.id 作键，在 approve_tools 里的批准，其余的拒绝。"
            return hint or f"你的函数抛出了 {type(exc).__name__}：在上面的单元格里单独调用 drive，看是哪一行出的错。"

        try:
            got = check.call(case, drive, agent, paused, given, boss, hint=explain)
        except ExerciseFailed as failure:
            if isinstance(failure.__cause__, _Stuck):
                raise check.fail(case, expected="有限次数之后停下，返回仍在等待的结果", got="一直在 resume，停不下来",
                                 hint="循环要有上限：for _ in range(max_rounds)，用完了就返回当前的结果。") from None
            raise
        if given != approve_tools:
            raise check.fail(case, expected=f"approve_tools 保持 {sorted(approve_tools)}", got=sorted(given),
                             hint="不要修改传进来的 approve_tools（它属于调用方）。")
        if not isinstance(got, RunResult):
            raise check.fail(case, expected="最后一次 resume 返回的 RunResult", got=typed(got),
                             hint="return 最后的 result（agent.resume 的返回值）。")
        return got

    case = "一步里两个调用：一个批准、一个拒绝"
    done.clear()
    agent = agent_for(calls(call("book", {"room": "room_301"}, id="a"), call("buy", {"item": "显示器"}, id="b")), reply("订好了，采购没提交。"))
    result = run_drive(case, agent, {"book"}, hint="每个 pending 的请求都要有决定：在 approve_tools 里的批准，其余的拒绝。")
    if result.stop_reason != "final" or done != ["book room_301"]:
        raise check.fail(case, expected="final，只执行了 book room_301", got=f"{result.stop_reason}，执行了 {done}",
                         hint="遍历 result.pending（不止第一个）：request.tool 在 approve_tools 里就 approve，否则 reject(原因)。")
    rejection = next((str(json.loads(m["content"]).get("error")) for m in result.messages if m.get("tool_call_id") == "b"), "")
    if "buy" not in rejection:
        raise check.fail(case, expected="拒绝原因里写出被拒绝的工具名 buy", got=rejection, hint="例如 reject(f\"{request.tool} 不在允许的范围内\")。")
    check.ok(case, _brief(rejection, 50))

    case = "暂停两次：继续后又暂停，要再决定一轮"
    done.clear()
    agent = agent_for(calls(call("book", {"room": "room_501"}, id="c")), calls(call("buy", {"item": "椅子"}, id="d")), reply("都办好了。"))
    result = run_drive(case, agent, {"book", "buy"})
    if result.stop_reason != "final" or done != ["book room_501", "buy 椅子"]:
        raise check.fail(case, expected="final，先后执行 book room_501、buy 椅子", got=f"{result.stop_reason}，执行了 {done}",
                         hint="resume 之后的结果可能又是 needs_confirmation：用一个有上限的循环，直到 stop_reason 不再是它。")
    check.ok(case)

    case = "L3 调用由审批人批准"
    done.clear()
    agent = agent_for(calls(call("send_sms", {"content": "会议改期"}, id="e")), reply("已发送。"))
    result = run_drive(case, agent, {"send_sms"})
    if result.stop_reason != "final" or done != ["sms 会议改期"]:
        raise check.fail(case, expected="final，短信发出", got=f"{result.stop_reason}，执行了 {done}",
                         hint="L3 要由审批人决定：approve(by=approver)。不写 by 就是发起人自己，L3 不算数。")
    check.ok(case)

    case = "都不在允许范围：全部拒绝，什么也不执行"
    done.clear()
    agent = agent_for(calls(call("send_sms", {"content": "促销"}, id="f"), call("buy", {"item": "咖啡机"}, id="g")), reply("都没办。"))
    result = run_drive(case, agent, set())
    if result.stop_reason != "final" or done:
        raise check.fail(case, expected="final，没有执行任何工具", got=f"{result.stop_reason}，执行了 {done}", hint="不在 approve_tools 里的一律拒绝。")
    check.ok(case)

    class StuckGate(PolicyGate):
        """Keeps every call waiting forever, and stops a loop that never gives up."""

        resumed = 0

        def check_call(self, call: Any, context: Any) -> Any:
            if context.request is not None:
                StuckGate.resumed += 1
                if StuckGate.resumed > 50:
                    raise _Stuck("the run was resumed more than 50 times")
                from ....run import NeedsConfirmation
                raise NeedsConfirmation(context.request)
            return super().check_call(call, context)

    case = "一个永远在等待的运行：有限次之后停下"
    done.clear()
    agent = agent_for(calls(call("book", {"room": "room_302"}, id="h")), gate=StuckGate)
    result = run_drive(case, agent, {"book"})
    if result.stop_reason != "needs_confirmation" or not 1 <= StuckGate.resumed <= 20:
        raise check.fail(case, expected="最多 resume 20 次，返回仍是 needs_confirmation 的结果",
                         got=f"{result.stop_reason}，resume 了 {StuckGate.resumed} 次",
                         hint="循环上限写小一点（例如 5 轮）；用完了就把当前结果返回，让调用方去处理。")
    check.ok(case, f"resume {StuckGate.resumed} 次后停下")
    check.done()
