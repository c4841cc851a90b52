"""Checkers for the Day 5 exercises (权限): a hand-written gate on clearance levels, masking, a rate
limiter, deciding a paused run.
"""

from __future__ import annotations

import copy
import json
import random
import re
from collections.abc import Callable
from datetime import date, datetime, timedelta
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
    offline_client,
    typed,
)  # noqa: F401

__all__ = ["day5_check_clearance", "day5_mask_personal", "day5_rate_limiter", "day5_decide_all"]

_NOW = datetime(2026, 3, 12, 14, 30)


# ---------------------------------------------------------------------------------------------
# 5.1 a hand-written gate on clearance levels: deny → ask → allow, failing closed
# ---------------------------------------------------------------------------------------------

_RANK = {"L0": 0, "L1": 1, "L2": 2, "L3": 3}
_EFFECTS = ("deny", "ask", "allow")
_EFFECTS_ZH = {"deny": "拒绝", "ask": "询问", "allow": "放行"}

OFFICE_CLEARANCE_POLICY: dict[str, Any] = {
    "clearance": {"实习生": "L1", "普通员工": "L2", "行政主管": "L3"},
    "levels": {
        "query_room_availability": "L1",
        "read_email": "L1",
        "query_customer_info": "L1",
        "book_meeting_room": "L2",
        "submit_purchase_request": "L2",
        "send_sms_to_customers": "L2",
        "send_notification_email": "L3",
        "export_customer_list": "L0",
    },
    "bulk_limits": {"send_sms_to_customers": 5},
}
"""The exercise's policy for the office tools: article 003's clearance model (普通员工 L2, 行政主管
L3) plus an intern.
"""


def _reference_clearance(call: Any, user: Any, policy: Any) -> tuple[str, str | None, str]:
    """What the exercise asks for, as (effect, level, the rule that decided): the checker's own
    answer to compare with.
    """
    try:
        clearance = policy["clearance"].get(user.role)
        if clearance not in _RANK:
            return "deny", None, "no_clearance"
        level = policy["levels"].get(call.name)
        if level is None:
            return "deny", None, "unknown_tool"
        if level == "L0":
            return "deny", None, "l0"
        if level not in _RANK:
            return "deny", None, "unknown_level"
        if _RANK[level] > _RANK[clearance]:
            return "deny", None, "above"
        try:
            arguments = json.loads(call.arguments)
        except (TypeError, ValueError):
            arguments = None
        if not isinstance(arguments, dict):
            return "deny", None, "arguments" if isinstance(call.arguments, str) else "error"
        targets = max([len(v) for v in arguments.values() if isinstance(v, list)], default=1)
        limit = policy.get("bulk_limits", {}).get(call.name)
        if limit is not None and targets > limit:
            return "ask", "L3", "bulk"
        rule = "bulk_edge" if limit is not None and targets == limit else level.lower()
        return ("ask", level, rule) if level in ("L2", "L3") else ("allow", "L1", rule)
    except Exception:  # noqa: BLE001 - the reference fails closed too
        return "deny", None, "error"


def _clearance_hint(
    rule: str, call: Any, user: Any, policy: Any, got: tuple[str, Any], unseen: bool
) -> str:
    """The mistake a wrong verdict points to, from the rule that should have decided and what came
    back.
    """
    effect, level = got
    tool_level = (
        (policy.get("levels") or {}).get(getattr(call, "name", None))
        if isinstance(policy, dict)
        else None
    )
    clearance = (
        (policy.get("clearance") or {}).get(getattr(user, "role", None))
        if isinstance(policy, dict) and user is not None
        else None
    )
    if unseen and effect == "deny" and rule in ("l1", "l2", "l3", "bulk", "bulk_edge"):
        return "只读传进来的 policy：角色、工具和上限都可能是没见过的，不要写死办公场景的名字。"
    if rule == "above":
        return (
            f"{call.name} 是 {tool_level}，{user.role} 的许可级别只有"
            f" {clearance}：超出许可的一律拒绝，而且要在看级别要不要确认之前拒绝"
            "（先 deny，再 ask，最后 allow）。"
        )
    if rule == "l0":
        return (
            "L0 是“模型永远不能用”，不是“最低的级别”：不管许可级别多高都拒绝，"
            "不要按数字大小和许可级别比较。"
        )
    if rule == "unknown_level":
        return (
            f"{call.name} 的级别写成了 {tool_level!r}，不是 L0–L3 中的任何一个。"
            "失败即关闭：说不清的级别一律拒绝，"
            "不要让它落到最后的 else 里放行。"
        )
    if rule == "arguments":
        return (
            "参数先用 json.loads 解析，结果不是 dict（比如 [1, 2]、"
            "null）也要拒绝；解析失败的异常要在函数里接住并返回拒绝，"
            "而且这一步在“要不要确认”之前。"
        )
    if rule == "error":
        return (
            "检查时出的任何异常都算拒绝：用 try/except Exception 包住整个检查，在 except 里返回"
            ' ("deny", None, 原因)。'
        )
    if rule == "no_clearance":
        return (
            '没有用户、或者角色不在 clearance 里，都要拒绝：用 policy["clearance"].get(...)，'
            "拿不到就返回拒绝，不要让 KeyError 跑出去。"
        )
    if rule == "unknown_tool":
        return (
            f"levels 里没有 {call.name!r}：不认识的工具一律拒绝。工具名和角色名都要整个、原样地"
            "查（policy[...].get(name)）：不要按前缀或包含关系找（send_sms_to_customers_all 不是"
            " send_sms_to_customers），也不要先转小写或把全角转成半角。"
        )
    if rule == "no_clearance" and isinstance(getattr(user, "role", None), str):
        return (
            f"clearance 里没有角色 {user.role!r}：没有许可级别的角色一律拒绝。角色名要整个、原样地"
            "查，不要按包含关系或前缀找（实习生助理 不是 实习生）。"
        )
    if rule == "bulk":
        return (
            '目标数是最长的那个列表参数的长度；超过 bulk_limits 里这个工具的上限，就升为 ("ask",'
            ' "L3")——'
            "哪怕它本来是 L1 或 L2。这一步要在返回 L1 的“放行”之前。"
        )
    if rule == "bulk_edge":
        return "正好等于上限不算超过：只有 目标数 > 上限 才升级（用 >，不是 >=）。"
    if rule == "l3" and effect == "allow":
        return (
            "许可级别够，只说明可以用这个工具；L3 照样要审批人批准、L2"
            " 照样要发起人确认——许可级别不能代替确认。"
        )
    if effect == "deny":
        return (
            f"这是一个正常的调用（{call.name} 是 {tool_level}，许可级别 {clearance}），"
            "不该拒绝：看看是哪一步误判了。"
        )
    return f'{tool_level} 的工具：L1 放行，L2 和 L3 询问（level 写成 "L2" / "L3"）。'


def _call(name: str, arguments: Any, call_id: str = "c1") -> Any:
    from ....messages import ToolCall

    text = (
        arguments
        if isinstance(arguments, str) or arguments is None
        else json.dumps(arguments, ensure_ascii=False)
    )
    return ToolCall(call_id, name, text)  # type: ignore[arg-type]


class _HandGate:
    """A learner's ``check_clearance`` as a hook in front of the office tools: deny → the reason,
    ask → not run (a confirmation would be asked), allow → run."""

    def __init__(self, check_fn: Callable[..., Any], policy: dict[str, Any], user: Any):
        self.check_fn, self.policy, self.user = check_fn, policy, user
        self.seen: list[tuple[str, str]] = []

    def check_call(self, call: Any, context: Any) -> Any:
        from ....tools import ToolResult

        effect, level, reason = self.check_fn(call, self.user, self.policy)
        self.seen.append((call.name, str(effect)))
        if effect == "allow":
            return None
        if effect == "ask":
            return ToolResult.fail(f"这个调用需要确认（{level}）：{reason}。这次没有执行。")
        return ToolResult.fail(f"没有执行：{reason}")


def _independent_policies(check: _Check, check_clearance: Callable[..., Any], staff: Any) -> None:
    """The same calls under other, fresh policies (a tool's level changed, a Chinese tool name):
    each decided from *that* policy (silent when right)."""
    from ....permissions import User

    def under(policy: dict[str, Any], call: Any, user: Any) -> Callable[[], Any]:
        return lambda: check_clearance(call, user, copy.deepcopy(policy))

    def effect_and_level(want: Any, got: Any) -> bool:
        return (
            isinstance(got, (tuple, list))
            and len(got) == 3
            and got[0] == want[0]
            and (want[0] == "deny" or got[1] == want[1])
        )

    stricter = copy.deepcopy(OFFICE_CLEARANCE_POLICY)
    stricter["levels"].update({"read_email": "L2", "book_meeting_room": "L3"})
    stricter["levels"]["查询_订单"] = "L1"
    stricter["clearance"]["普通员工"] = "L1"
    read = _call("read_email", {"email_id": "M001"})
    book = _call(
        "book_meeting_room",
        {"start_time": "2026-03-13 15:00", "end_time": "2026-03-13 16:00", "room_id": "r1"},
    )
    orders = _call("查询_订单", {"订单号": ["Ａ１", "A2"]})
    shipping = {
        "clearance": {"仓库管理员": "L2"},
        "levels": {"ship_order": "L2"},
        "bulk_limits": {"ship_order": 3},
    }
    keeper = User("W2", "仓库管理员")
    noted = _call(
        "ship_order", {"order_ids": ["O1"], "note": "请尽快发货，客户很着急，周五之前一定要送到"}
    )
    two_lists = _call("ship_order", {"order_ids": ["O1", "O2"], "gift_ids": ["G1", "G2"]})
    runs = []
    for label, policy, call, user in (
        ("练习的策略：普通员工读邮件", OFFICE_CLEARANCE_POLICY, read, staff),
        ("另一份策略：读邮件改成 L2、普通员工只有 L1", stricter, read, staff),
        ("练习的策略：普通员工订会议室", OFFICE_CLEARANCE_POLICY, book, staff),
        ("另一份策略：订会议室改成 L3", stricter, book, User("E002", "行政主管")),
        ("另一份策略：中文名的工具 查询_订单", stricter, orders, staff),
        ("练习的策略：没有 查询_订单 这个工具", OFFICE_CLEARANCE_POLICY, orders, staff),
        ("上限 3：一个订单加一段长的文字备注（文字不是对象）", shipping, noted, keeper),
        ("上限 3：两个列表参数各 2 项（取最长的，不相加）", shipping, two_lists, keeper),
    ):
        want = _reference_clearance(call, user, policy)[:2]
        runs.append((label, under(policy, call, user), want, f"{call.name}，{user.role}"))
    check.independent(
        "另一份策略：同样的工具换了级别",
        runs,
        same=effect_and_level,
        hint=(
            "每次都从这一次传进来的 policy 里查级别：不要把上一次查到的级别、许可或结果存在全局"
            "变量里。涉及的对象数是最长的那个 list 参数的长度：字符串不是对象的列表，"
            "几个列表也不相加。期望和实际里写的是 (effect, level)。"
        ),
    )


@exercise
def day5_check_clearance(check: _Check, check_clearance: Callable[..., Any]) -> None:
    """Exercise 5.1: ``check_clearance(call, user, policy) -> (effect, level, reason)`` on article
    003's clearance model.
    """
    __tracebackhide__ = True
    from ....agent import Agent
    from ....permissions import User
    from ....scenarios.office import OfficeScenario

    _callable(check.exercise, check_clearance)
    check.forbid(
        "不用 eval / exec",
        check_clearance,
        why="关卡只读数据，不执行任何文字：参数用 json.loads 解析。",
    )
    office_policy = copy.deepcopy(OFFICE_CLEARANCE_POLICY)
    before = copy.deepcopy(office_policy)
    intern, staff, boss = (
        User("E009", "实习生", "小刘"),
        User("E003", "普通员工", "王强"),
        User("E002", "行政主管", "李丽"),
    )

    def verdict(
        case: str, kind: str, call: Any, user: Any, policy: dict[str, Any]
    ) -> tuple[str, Any, str]:
        shown = (
            f"check_clearance({call.name}"
            f" {call.arguments if call.arguments is not None else 'None'},"
            f" {'None' if user is None else user.role}, policy)"
        )
        got = check.call(
            case,
            check_clearance,
            call,
            user,
            policy,
            given=shown,
            expected="返回 (effect, level, reason)",
            hint=_exception_hint,
        )
        if not isinstance(got, (tuple, list)) or len(got) != 3:
            raise check.fail(
                case,
                given=shown,
                expected='一个三元组 (effect, level, reason)，例如 ("ask", "L2", "需要发起人确认")',
                got=typed(got),
                hint="return effect, level, reason——三个值，不是两个，也不要 print。",
            )
        effect, level, reason = got
        if effect not in _EFFECTS:
            raise check.fail(
                case,
                given=shown,
                expected='effect 是 "deny"、"ask" 或 "allow"',
                got=typed(effect),
                hint="effect 用这三个词之一（代码里的标识；打印给人看时再换成中文）。",
            )
        if not isinstance(reason, str) or not reason.strip():
            raise check.fail(
                case,
                given=shown,
                expected="reason 是一句不为空的说明",
                got=typed(reason),
                hint=(
                    "每个结果都要说明原因：拒绝的原因会作为工具结果告诉模型，"
                    "确认的原因会显示在卡片上。"
                ),
            )
        wanted = _reference_clearance(call, user, policy)
        same = effect == wanted[0] and (effect == "deny" or level == wanted[1])
        if not same:
            got_shown = f"{effect}（{_EFFECTS_ZH[effect]}）" + (
                "" if effect == "deny" else f"，level={level!r}"
            )
            expected_shown = f"{wanted[0]}（{_EFFECTS_ZH[wanted[0]]}）" + (
                "" if wanted[0] == "deny" else f"，level={wanted[1]!r}"
            )
            raise check.fail(
                case,
                given=shown,
                expected=expected_shown,
                got=got_shown,
                hint=_clearance_hint(
                    wanted[2], call, user, policy, (effect, level), kind == "unseen"
                ),
            )
        return effect, level, reason

    def cases(
        case: str,
        kind: str,
        items: list[tuple[Any, Any]],
        policy: dict[str, Any] | None = None,
        *,
        quiet: bool = False,
    ) -> None:
        # ``quiet``: a case that prints nothing when it passes (a correct answer's output stays)
        last = None
        for call, user in items:
            last = verdict(case, kind, call, user, policy if policy is not None else office_policy)
        if not quiet:
            check.ok(case, _brief(last[2] if last else "", 40))

    room = {"start_time": "2026-03-13 15:00", "end_time": "2026-03-13 16:00"}
    cases(
        "L1 工具直接放行",
        "l1",
        [
            (_call("query_room_availability", room), staff),
            (_call("read_email", {"email_id": "M001"}), intern),
        ],
    )
    cases(
        "L2 工具要发起人确认",
        "l2",
        [
            (
                _call("book_meeting_room", {**room, "room_id": "room_301", "attendee_count": 6}),
                staff,
            ),
            (
                _call(
                    "submit_purchase_request",
                    {"item": "显示器", "quantity": 2, "unit_price": 1500, "reason": "入职"},
                ),
                boss,
            ),
        ],
    )
    cases(
        "L3 工具要审批人批准（许可级别够也要问）",
        "l3",
        [
            (
                _call(
                    "send_notification_email",
                    {"to_address": "a@example.com", "subject": "周会", "content": "周五开会"},
                ),
                boss,
            )
        ],
    )
    cases(
        "超出许可级别：拒绝",
        "above",
        [
            (
                _call(
                    "send_notification_email",
                    {"to_address": "a@example.com", "subject": "x", "content": "y"},
                ),
                staff,
            ),
            (
                _call("book_meeting_room", {**room, "room_id": "room_301", "attendee_count": 2}),
                intern,
            ),
        ],
    )
    cases(
        "L0 工具：许可级别再高也拒绝",
        "l0",
        [
            (_call("export_customer_list", {}), boss),
            (_call("export_customer_list", {"include_personal_data": False}), staff),
        ],
    )
    cases(
        "不存在的工具：拒绝",
        "unknown_tool",
        [(_call("delete_everything", {}), boss), (_call("", {}), staff)],
    )
    cases(
        "参数不是 JSON 对象：拒绝",
        "arguments",
        [
            (_call("read_email", "not json"), staff),
            (_call("read_email", "[1, 2]"), staff),
            (_call("book_meeting_room", "null"), boss),
            (_call("read_email", ""), intern),
        ],
    )
    cases(
        "没有许可级别的角色：拒绝",
        "no_clearance",
        [
            (_call("read_email", {"email_id": "M001"}), User("V001", "访客", "访客")),
            (_call("read_email", {"email_id": "M001"}), None),
        ],
    )
    ids = [f"C{n:03d}" for n in range(1, 7)]
    cases(
        "批量上限：超过就升为 L3",
        "bulk",
        [
            (_call("send_sms_to_customers", {"content": "停电", "customer_ids": ids}), staff),
            (_call("send_sms_to_customers", {"content": "停电", "customer_ids": ids * 20}), boss),
        ],
    )
    cases(
        "正好等于批量上限：不升级",
        "bulk_edge",
        [
            (_call("send_sms_to_customers", {"content": "停电", "customer_ids": ids[:5]}), staff),
            (_call("send_sms_to_customers", {"content": "停电", "customer_ids": ["C001"]}), boss),
        ],
    )
    cases(
        "先拒绝，再询问：超出许可、L0 或参数不对的调用，批量再大也是拒绝",
        "above",
        [
            (
                _call(
                    "send_notification_email",
                    {"to_address": ["a@example.com"] * 9, "subject": "x", "content": "y"},
                ),
                staff,
            ),
            (_call("send_sms_to_customers", {"content": "x", "customer_ids": ids}), intern),
        ],
    )
    cases(
        "先拒绝，再询问：参数不对的 L3 调用是拒绝",
        "arguments",
        [(_call("send_notification_email", '["a@example.com"]'), boss)],
    )

    cases(
        "名字相近的工具和角色：只认完全相同的名字",
        "unknown_tool",
        [
            (_call("send_sms_to_customers_all", {"content": "x", "customer_ids": ["C1"]}), boss),
            (_call("read_email_and_forward", {"email_id": "M001"}), boss),
            (_call("read", {"email_id": "M001"}), boss),
            (_call("READ_EMAIL", {"email_id": "M001"}), boss),
            (_call(full_width("read_email"), {"email_id": "M001"}), boss),
        ],
        quiet=True,
    )
    cases(
        "名字相近的角色：没有许可级别，拒绝",
        "no_clearance",
        [
            (_call("read_email", {"email_id": "M001"}), User("E010", "实习生助理", "小周")),
            (_call("read_email", {"email_id": "M001"}), User("E011", "行政", "小吴")),
            (_call("read_email", {"email_id": "M001"}), User("E012", "行政主管 ", "小郑")),
        ],
        quiet=True,
    )

    odd = copy.deepcopy(office_policy)
    odd["levels"].update({"archive_files": "L", "purge_cache": "", "rotate_keys": "l1"})
    cases(
        "不认识的级别：拒绝（失败即关闭）",
        "unknown_level",
        [
            (_call("archive_files", {}), boss),
            (_call("purge_cache", {}), boss),
            (_call("rotate_keys", {}), boss),
        ],
        odd,
    )
    broken = copy.deepcopy(office_policy)
    broken["bulk_limits"]["send_sms_to_customers"] = "五"
    cases(
        "检查出错：拒绝，不抛异常",
        "error",
        [
            (_call("read_email", None), staff),
            (_call("send_sms_to_customers", {"content": "x", "customer_ids": ["C001"]}), staff),
        ],
        broken,
    )

    unseen = {
        "clearance": {"仓库管理员": "L2", "店长": "L3", "临时工": "L1"},
        "levels": {
            "query_stock": "L1",
            "ship_order": "L2",
            "refund_order": "L3",
            "drop_database": "L0",
        },
        "bulk_limits": {"query_stock": 10, "ship_order": 3},
    }
    skus = [f"SKU{n}" for n in range(11)]
    cases(
        "没见过的角色、工具和上限",
        "unseen",
        [
            (_call("query_stock", {"sku_list": skus[:10]}), User("W1", "临时工")),
            (_call("query_stock", {"sku_list": skus}), User("W1", "临时工")),
            (_call("ship_order", {"order_ids": ["O1", "O2", "O3"]}), User("W2", "仓库管理员")),
            (
                _call("ship_order", {"order_ids": ["O1", "O2", "O3", "O4"]}),
                User("W2", "仓库管理员"),
            ),
            (_call("refund_order", {"order_id": "O9"}), User("W2", "仓库管理员")),
            (_call("refund_order", {"order_id": "O9"}), User("S1", "店长")),
            (_call("drop_database", {}), User("S1", "店长")),
        ],
        unseen,
    )
    _independent_policies(check, check_clearance, staff)
    check.unchanged(
        "不改动传进来的 policy",
        before,
        office_policy,
        "policy ",
        "关卡只读策略：不要往 policy 里写东西（setdefault、append、pop 都算），它被所有调用共用。",
    )
    check.ok("不改动传进来的 policy")

    # the same function in front of the real office tools, on the offline simulator
    office = OfficeScenario.create(now=_NOW)
    client = offline_client()

    def run(case: str, user: Any, request: str) -> tuple[Any, _HandGate]:
        gate = _HandGate(check_clearance, office_policy, user)
        agent = Agent(client, office.registry(user), hooks=[gate])
        result = check.call(case, agent.run, request, hint=_exception_hint)
        return result, gate

    case = "实习生要给所有客户发短信：关卡拒绝，一条也没发"
    result, gate = run(case, intern, "给所有客户发短信：会议改到周五")
    if ("send_sms_to_customers", "deny") not in gate.seen:
        if not any(name == "send_sms_to_customers" for name, _ in gate.seen):
            raise AssertionError(
                f"checker setup: the simulator did not try to send the SMS ({gate.seen})"
            )
        raise check.fail(
            case,
            expected="send_sms_to_customers 被拒绝",
            got=f"你的关卡给出的结果：{gate.seen}",
            hint="send_sms_to_customers 是 L2，实习生的许可级别是 L1：超出许可，拒绝。",
        )
    if office.count("sms_outbox"):
        raise check.fail(
            case,
            expected="短信发件箱 0 条",
            got=f"{office.count('sms_outbox')} 条",
            hint="被拒绝的调用不能执行。",
        )
    check.ok(case)
    case = "行政主管订会议室：等确认，没有订"
    result, gate = run(case, boss, "帮我预订 2026-03-13 15:00 到 16:00 的会议室 room_301，6 个人")
    booked = office.query(
        "SELECT id FROM bookings WHERE room_id = 'room_301' AND start_time = '2026-03-13 15:00'"
    )
    if ("book_meeting_room", "ask") not in gate.seen or booked:
        raise check.fail(
            case,
            expected="book_meeting_room 询问（ask），数据库里没有新预订",
            got=f"{gate.seen}，预订 {booked}",
            hint="book_meeting_room 是 L2：要发起人确认，不能直接执行。",
        )
    check.ok(case)
    case = "普通员工查空闲会议室：直接执行"
    result, gate = run(case, staff, "查一下 2026-03-13 15:00 到 16:00 有哪些会议室空闲")
    ran = [(r.call.name, r.executed) for r in result.tool_calls]
    if ("query_room_availability", True) not in ran:
        raise check.fail(
            case,
            expected="query_room_availability 被执行",
            got=f"{ran}（你的关卡：{gate.seen}）",
            hint="query_room_availability 是 L1，普通员工的许可级别是 L2：放行。",
        )
    check.ok(case)
    check.done()


def _exception_hint(exc: Exception) -> str:
    return (
        f"你的函数抛出了 {type(exc).__name__}。关卡要“失败即关闭”：检查时的任何异常都在函数里接住，"
        '返回 ("deny", None, 原因)，'
        "不要让异常跑出去——一个抛异常的关卡，调用方可能当成“没有拒绝”。"
    )


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


def _mask_hint(
    text: str, expected: str, got: str, position: int, fallback: str, probe: Callable[[str], Any]
) -> str:
    """What went wrong at ``position``: which number of the input it is, what it is, and what
    happened to it.

    ``probe(text)`` runs the learner's function on another text, to tell apart mistakes that look
    the same here.
    """
    if len(got) != len(expected):
        return "脱敏不改变长度（每个被遮住的数字换成一个 *）：你的结果长度变了。" + fallback
    run = next((m for m in _DIGIT_RUN.finditer(text) if m.start() <= position < m.end()), None)
    if run is None:
        return "号码以外的文字要原样保留。" + fallback
    value = run.group()
    kind = "手机号" if len(value) == 11 else "身份证号"
    mine, wanted = got[run.start() : run.end()], expected[run.start() : run.end()]
    if wanted != value and "*" not in mine:
        if probe(f" {value} ") != f" {_masked(value)} ":
            return f"{value} 是{kind}，却没有遮住。" + fallback
        if probe(f"号码{value}号") != f"号码{_masked(value)}号":
            return (
                f"{value} 是{kind}，单独写时你能遮住，紧挨着汉字时却不行。\\b"
                " 在数字和汉字（或字母）之间不算边界——"
                "它们都是“单词字符”。用 (?<!\\d) 和 (?!\\d) 只排除前后的数字。"
            )
        return (
            f"{value} 是{kind}，却没有遮住：前面的号码遮住了，这一个没有。用 re.sub"
            " 替换全部匹配（不要 count=1），也不要只 search 一次；"
            "如果你的模式把号码前后的字符也吃进了匹配（(?:^|\\D)…(?:\\D|$)），"
            "两个号码只隔一个字时第二个就匹配不上——"
            "用 (?<!\\d) 和 (?!\\d)，它们不占字符。"
        )
    if wanted == value and "*" in mine:
        if len(value) > 11:
            return (
                f"{value} 有 {len(value)} 位，不是手机号也不是身份证号，"
                "却被遮住了一部分：号码后面（或前面）还紧挨着数字。"
                "用 (?<!\\d) 和 (?!\\d)（身份证号用 (?![\\dXx])）确认号码在这里开始、在这里结束。"
            )
        return f"{value} 不是手机号（第 2 位要是 3–9），也不是身份证号，要原样保留。" + fallback
    if len(value) >= 17 and "****" in mine and "*" * 11 not in mine:
        return (
            f"身份证号 {value} 中间的 11 位数字被当成了手机号：先处理身份证号，再处理手机号；"
            "或者让手机号的模式前后都不能紧挨着数字，它就不会从身份证号里截出 11 位。"
        )
    return (
        "遮住的位置不对：手机号保留前 3 位和后 4 位（中间 4 个 *），身份证号保留前 3 位和后 4"
        " 位（中间 11 个 *）。"
    )


_WORDS = [
    "客户",
    "电话",
    "联系",
    "身份证",
    "号码",
    "是",
    "请拨打",
    "备注",
    "，",
    "。",
    "：",
    "（",
    "）",
    " ",
    "\n",
    "张明",
    "的",
]


@exercise
def day5_mask_personal(check: _Check, mask_personal: Callable[[str], str]) -> None:
    """Exercise 5.2: ``mask_personal(text) -> str`` masks mobile numbers (138****5678) and
    18-character ID numbers (110***********123X).
    """
    __tracebackhide__ = True
    _callable(check.exercise, mask_personal)

    def probe(text: str) -> Any:
        return check.probe(mask_personal, text)  # only a hint depends on it

    def run(case: str, text: str, expected: str, hint: str, *, report: bool = True) -> None:
        # the numbers this case masks must not be printed either (a debugging print of the input)
        check.keep_secret(
            *(n for n in re.findall(r"\d{11}(?:\d{6}[\dXx])?", text) if n not in expected)
        )
        got = check.call(
            case, mask_personal, text, hint="先在上面单独调用 mask_personal(...) 看看是哪一行出错。"
        )
        if not isinstance(got, str):
            raise check.fail(
                case,
                given=text,
                expected="一个字符串（脱敏后的文本）",
                got=f"{type(got).__name__}: {_short(got)}",
                hint="return 脱敏后的文本，不要 print 它。",
            )
        if got != expected:
            position = next(
                (i for i, (a, b) in enumerate(zip(got, expected)) if a != b),
                min(len(got), len(expected)),
            )
            raise check.fail(
                case,
                given=text,
                expected=expected,
                got=got,
                hint=(
                    f"从第 {position + 1} 个字符开始不一样（期望"
                    f" {expected[position : position + 20]!r}，实际"
                    f" {got[position : position + 20]!r}）。"
                )
                + _mask_hint(text, expected, got, position, hint, probe),
            )
        if report:
            check.ok(case, _brief(got, 40))

    run(
        "手机号",
        "客户电话 13812345678，请回电",
        "客户电话 138****5678，请回电",
        "手机号保留前 3 位和后 4 位，中间 4 位换成 ****。",
    )
    run(
        "身份证号，末位是数字",
        "身份证 110105199003071234。",
        "身份证 110***********1234。",
        "身份证号保留前 3 位和后 4 位，中间 11 位换成 *。",
    )
    run(
        "身份证号，末位是 X",
        "号码：11010519491231002X",
        "号码：110***********002X",
        "身份证号最后一位可能是 X（或小写 x），也要认出来。",
    )
    run(
        "号码紧挨着汉字",
        "电话13812345678请回电，身份证110105199003071234号",
        "电话138****5678请回电，身份证110***********1234号",
        "号码前后可能直接就是汉字，没有空格或标点。",
    )
    run(
        "开头和结尾、挨在一起的两个号码",
        "13912345678和15000001111",
        "139****5678和150****1111",
        "每一个号码都要遮住，不只是第一个。",
    )
    run(
        "不是个人信息的数字保持不变",
        "订单 OD20240615 金额 12000 元，日期 2026-03-12，工号 10012345678，流水 613812345678901",
        "订单 OD20240615 金额 12000 元，日期 2026-03-12，工号 10012345678，流水 613812345678901",
        "只遮住“完整”的号码：前后紧挨着数字的不算（用 (?<!\\d) 和 (?!\\d)）；手机号第二位是 3–9，"
        "10/11/12 开头的 11 位数不是手机号。",
    )
    run(
        "比 11 位更长、以 13 开头的数字不是手机号",
        "流水号 13812345678901，凭证 1391234567812",
        "流水号 13812345678901，凭证 1391234567812",
        "手机号正好 11 位：后面还紧挨着数字，就不是手机号。",
    )
    run(
        "比 18 位更长的数字不是身份证号",
        "编号 1101051990030712345",
        "编号 1101051990030712345",
        "身份证号正好 18 位，前后都不能紧挨着数字。",
    )

    texts = [
        ("同一个号码在句子末尾", "请回电 13812345678", "请回电 138****5678"),
        ("同一个号码在句子开头", "13812345678 是我的新号码", "138****5678 是我的新号码"),
        (
            "全角字母和标点中间",
            "ＡＢＣ公司，电话：13812345678！",
            "ＡＢＣ公司，电话：138****5678！",
        ),
        ("一样长的另一个号码", "请回电 15987654321", "请回电 159****4321"),
    ]
    check.independent(
        "同一个号码放进不同的文字",
        [
            (label, (lambda text=text: mask_personal(text)), want, text)
            for label, text, want in texts
        ],
        hint=(
            "每次都从这次传入的整段 text 算出结果：不要按号码、长度这类只占输入一部分的键缓存，"
            "号码一样，前后的文字可能不一样。"
        ),
    )

    edges = [
        (
            "紧挨着英文字母的号码也是完整的号码",
            "Tel13812345678ext，身份证ID110105199003071234号",
            "Tel138****5678ext，身份证ID110***********1234号",
        ),
        ("17 位的数字不是身份证号", "编号 11010519900307123 作废", "编号 11010519900307123 作废"),
    ]
    check.independent(
        "号码的边界",
        [
            (label, (lambda text=text: mask_personal(text)), want, text)
            for label, text, want in edges
        ],
        hint=(
            "“完整”只看前后是不是紧挨着**数字**：字母、汉字、标点挨着都不影响；"
            "身份证号正好 18 位（17 位数字加最后一位数字或 X），最后一位不能省。"
        ),
    )

    rng = random.Random(20260312)
    for index in range(300):
        pieces, expected_pieces = [], []
        for _ in range(rng.randint(1, 3)):
            words = "".join(rng.choice(_WORDS) for _ in range(rng.randint(1, 3)))
            kind = rng.random()
            value = (
                _phone(rng) if kind < 0.5 else _id_number(rng, rng.choice([None, None, "X", "x"]))
            )
            pieces += [words, value]
            expected_pieces += [words, _masked(value)]
        tail = "".join(rng.choice(_WORDS) for _ in range(rng.randint(0, 2)))
        run(
            f"随机生成的号码 #{index + 1}",
            "".join(pieces) + tail,
            "".join(expected_pieces) + tail,
            "随机生成的文本里出错了：看看是哪种号码、出现在什么位置。",
            report=False,
        )
    check.ok("300 段随机生成的文本", "手机号和身份证号全部遮住，其余不变")
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
    """The hint for a wrong ``allow``: first rule out the mistakes that make every case look wrong,
    by trying the learner's class again — state shared by all instances, the real clock, records
    that never expire.
    """
    from .framework import forbidden_uses

    def fresh_allows(advance: float) -> bool | None:
        try:
            clock = _Clock(7_777_777.0)
            limiter = limiter_class(1, 10, clock)
            first = limiter.allow("probe-user", f"probe-tool-{advance}")
            clock.now += advance
            return first is True and (
                advance == 0 or limiter.allow("probe-user", f"probe-tool-{advance}") is True
            )
        except Exception:  # noqa: BLE001 - only a hint depends on it
            return None

    if (
        fresh_allows(0) is False or fresh_allows(0) is False
    ):  # the second new limiter sees the first one's call only if they share state
        return (
            "一个新建的限流器、一个从没见过的用户，第一次调用就被拒绝了：计数被所有实例共用了。"
            "计数要放在 self 上（在 __init__ 里创建 self.calls = {}），不能写成类属性。"
        )
    if fresh_allows(1000) is False:
        if forbidden_uses(limiter_class, (), modules=("time", "datetime")):
            return (
                "时钟往前走了 1000 秒，上一次调用还没过期：你的时间没有从 self.clock() 取（用了"
                " time 模块）。检查会传一个假时钟进来。"
            )
        return (
            "时钟往前走了 1000 秒，上一次调用还在计数：超出窗口的记录要丢掉（只数时间 > now -"
            " per_seconds 的调用）。"
        )
    return hint


@exercise
def day5_rate_limiter(check: _Check, rate_limiter_class: Callable[..., Any]) -> None:
    """Exercise 5.3: ``RateLimiter(max_calls, per_seconds, clock)``, ``allow(user_id, tool) ->
    bool``, a sliding window.
    """
    __tracebackhide__ = True
    _callable(check.exercise, rate_limiter_class, "类")

    def make(case: str, max_calls: int, per_seconds: float, clock: _Clock) -> Any:
        limiter = check.call(
            case,
            rate_limiter_class,
            max_calls,
            per_seconds,
            clock,
            hint="RateLimiter(max_calls, per_seconds, clock)",
        )
        if not callable(attribute(limiter, "allow")):
            raise check.fail(
                case,
                expected="一个有 allow(user_id, tool) 方法的对象",
                got=type(limiter).__name__,
                hint="在类里定义 def allow(self, user_id, tool)。",
            )
        return limiter

    def allow(
        case: str, limiter: Any, user: str, tool: str, expected: bool, hint: str, history: list[str]
    ) -> None:
        got = check.call(case, limiter.allow, user, tool)
        if not isinstance(got, bool):
            raise check.fail(
                case,
                expected="True 或 False",
                got=f"{type(got).__name__}: {_short(got)}",
                hint="allow 返回一个布尔值。",
            )
        history.append(f"allow({user!r}, {tool!r}) → {got}")
        if got != expected:
            raise check.fail(
                case,
                given="；".join(history),
                expected=f"这一次 allow({user!r}, {tool!r}) 返回 {expected}",
                got=f"返回了 {got}",
                hint=_limiter_hint(rate_limiter_class, hint),
            )

    clock = _Clock(
        1_000_000.0
    )  # far from time.time(): a limiter that reads the real clock gives itself away
    case = "同一用户同一工具：上限 3 次"
    limiter, history = make(case, 3, 3600, clock), []
    for _ in range(3):
        allow(case, limiter, "u1", "send_email", True, "前 3 次都应该放行。", history)
        clock.now += 10
    allow(case, limiter, "u1", "send_email", False, "第 4 次超过上限，返回 False。", history)
    check.ok(case)

    case = "滑动窗口的边界：差 1 秒不行，正好到期可以"
    edge = _Clock(2_000_000.0)
    limiter, history = make(case, 1, 60, edge), []
    allow(case, limiter, "u1", "book_room", True, "", history)
    edge.now += 59
    allow(
        case,
        limiter,
        "u1",
        "book_room",
        False,
        "上一次调用在 59 秒前，还在 60 秒的窗口里。窗口是“最近 per_seconds 秒”，"
        "不要按整点切成一格一格的。",
        history,
    )
    edge = _Clock(2_500_000.0)
    limiter, history = (
        make(case, 1, 60, edge),
        [],
    )  # a new limiter, so no refused call is in the way
    allow(case, limiter, "u1", "book_room", True, "", history)
    edge.now += 60
    allow(
        case,
        limiter,
        "u1",
        "book_room",
        True,
        "上一次调用正好在 60 秒前，已经不在窗口里：只数时间 > now - per_seconds 的调用（用 >，不是"
        " >=）。"
        "时间要从 self.clock() 取，过期的记录要丢掉。",
        history,
    )
    check.ok(case)

    case = "滑动窗口不是固定窗口：0、9、10、10.5 秒，每 10 秒最多 2 次"
    slide = _Clock(6_000_000.0)  # a multiple of 10: a window cut at round numbers starts here too
    limiter, history = make(case, 2, 10, slide), []
    for offset, expected, hint in (
        (0, True, ""),
        (9, True, ""),
        (
            10,
            True,
            "第 10 秒时，第 0 秒那次已经过期（只数时间 > now - 10 的），最近 10 秒里只有第 9 "
            "秒那一次。",
        ),
        (
            10.5,
            False,
            (
                "第 10.5 秒时，最近 10 秒里（第 0.5 秒之后）已经有第 9 秒和第 10 秒两次：不能放行。"
                "按整 10 秒分格、或者从某一次调用起重新计数，"
                "都是固定窗口——窗口要跟着现在的时间滑动：每次都数 (now - per_seconds, now]"
                " 里的调用。"
            ),
        ),
    ):
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
    allow(
        case,
        limiter,
        "u1",
        "send_email",
        True,
        "放行的两次已经过期；被拒绝的三次不能算进去（只记录返回 True 的调用）。",
        history,
    )
    allow(case, limiter, "u1", "send_email", True, "还剩一个名额：被拒绝的调用不计数。", history)
    check.ok(case)

    case = "不同用户、不同工具分开计数"
    limiter, history = make(case, 1, 60, _Clock(4_000_000.0)), []
    allow(case, limiter, "u1", "book_room", True, "", history)
    allow(case, limiter, "u1", "book_room", False, "上限是 1。", history)
    allow(
        case,
        limiter,
        "u2",
        "book_room",
        True,
        "另一个用户有自己的计数：按 (user_id, tool) 分开记。",
        history,
    )
    allow(
        case,
        limiter,
        "u1",
        "send_sms",
        True,
        "另一个工具有自己的计数：按 (user_id, tool) 分开记。",
        history,
    )
    check.ok(case)
    case = "两个限流器互不影响（没有共享状态）"
    first, second, history = (
        make(case, 1, 60, _Clock(5_000_000.0)),
        make(case, 1, 60, _Clock(5_000_000.0)),
        [],
    )
    allow(case, first, "u9", "t", True, "", history)
    allow(
        case,
        second,
        "u9",
        "t",
        True,
        "第二个限流器是新的，它的计数应该从 0 开始：计数要放在 self 上（在 __init__ 里创建），"
        "不能放在类属性里。",
        history,
    )
    check.ok(case)
    case = "只用传进来的时钟"
    frozen = _Clock(9_000_000.0)
    limiter, history = make(case, 2, 1, frozen), []
    allow(case, limiter, "u", "t", True, "", history)
    allow(case, limiter, "u", "t", True, "", history)
    allow(
        case,
        limiter,
        "u",
        "t",
        False,
        "时钟没有走：窗口 1 秒也还没过去。要用 self.clock() 取时间，不要用 time.time()。",
        history,
    )
    check.ok(case)
    _fresh_limiters(check, rate_limiter_class)
    check.done()


def _fresh_limiters(check: _Check, rate_limiter_class: Callable[..., Any]) -> None:
    """Chinese, case- and width-different users and tools on new limiters, the same sequence twice
    (silent when right): each (user_id, tool) exactly as given is its own count, and a new limiter
    starts empty."""
    wide = full_width("alice")
    calls = [
        ("张三", "查询天气"),
        ("张三", "查询天气"),
        ("张三丰", "查询天气"),
        ("张三", "查询天气预报"),
        ("张三查", "询天气"),
        ("Alice", "send_sms"),
        ("alice", "send_sms"),
        (wide, "send_sms"),
        ("alice", "SEND_SMS"),
        ("alice", "send_sms"),
    ]
    wanted = [True, False, True, True, True, True, True, True, True, False]
    other = [("李四", "订会议室"), ("李四", "订会议室"), ("王五", "订会议室")]
    shown = "allow " + "、".join(f"({user!r}, {tool!r})" for user, tool in calls)

    def run(sequence: list[tuple[str, str]]) -> Callable[[], list[Any]]:
        def allowed() -> list[Any]:
            limiter = rate_limiter_class(1, 60, _Clock(8_000_000.0))
            return [limiter.allow(user, tool) for user, tool in sequence]

        return allowed

    check.independent(
        "新的限流器：中文、大小写和全角不同的用户和工具",
        [
            ("一个新的限流器，每 60 秒 1 次，依次 10 个调用", run(calls), wanted, shown),
            ("再一个新的限流器，同样的调用", run(calls), wanted, shown),
            ("又一个新的限流器，另外 3 个调用", run(other), [True, False, True]),
        ],
        hint=(
            "按 (user_id, tool) 这个元组原样分开计数：不要 lower()、不要转换全角，"
            "也不要把两个字符串拼在一起当键"
            '（"张三" + "查询天气" 和 "张三查" + "询天气" 拼出来一样）；每个新的限流器从空的记录开'
            "始。"
        ),
    )

    def fractional() -> list[Any]:
        clock = _Clock(8_000_000.0)
        limiter, found = rate_limiter_class(1, 1.5, clock), []
        for step in (0.0, 1.25, 0.25, 0.25):  # at 0, 1.25, 1.5 and 1.75 seconds (exact in binary)
            clock.now += step
            found.append(limiter.allow("张三", "查询天气"))
        return found

    check.independent(
        "窗口不是整数秒",
        [
            (
                "每 1.5 秒 1 次：第 0、1.25、1.5、1.75 秒各调用一次",
                fractional,
                [True, False, True, False],
            )
        ],
        hint=(
            "per_seconds 可能是小数（1.5 秒）：原样用它比较时间，不要 int() 或 round()——"
            "1.5 取整成 1，第 1.25 秒的调用就被当成窗口外了。"
        ),
    )


# ---------------------------------------------------------------------------------------------
# 5.4 deciding every pending call and driving the run to its end
# ---------------------------------------------------------------------------------------------


class _Stuck(RuntimeError):
    """Raised by the checker's gate when the learner's loop keeps resuming a run that can never go
    on.
    """


@exercise
def day5_decide_all(check: _Check, drive: Callable[..., Any]) -> None:
    """Exercise 5.4: ``drive(agent, result, approve_tools, approver) -> RunResult``: decide every
    pending call, resume, repeat (bounded).
    """
    __tracebackhide__ = True
    from ....agent import Agent
    from ....permissions import Level, Policy, PolicyGate, RoleRules, User
    from ....run import RunResult
    from ....scripted import ScriptedClient, call, calls, reply
    from ....tools import ToolRegistry, tool

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
            return Agent(
                ScriptedClient(replies),
                ToolRegistry([book, send_sms, buy]),
                hooks=[gate(policy, user)],
            )
        return Agent(
            ScriptedClient(replies),
            ToolRegistry([book, send_sms, buy]),
            hooks=[PolicyGate(policy, user)],
        )

    def run_drive(
        case: str, agent: Agent, approve_tools: set[str], hint: str = "", decider: Any = None
    ) -> Any:
        # L2 is confirmed by the requester, L3 approved by the approver role (never by the
        # requester)
        decider = decider or user
        paused = agent.run("办几件事")
        if paused.stop_reason != "needs_confirmation":  # the checker's own script: must pause first
            raise AssertionError(f"checker setup: expected a pause, got {paused.stop_reason}")
        given = set(approve_tools)

        def explain(exc: Exception) -> str:
            text = str(exc)
            if "只能继续一个等待确认的运行" in text:
                reason = re.search(r"stop_reason 是 '?([a-z_]+)", text)
                return (
                    "你在一个已经不再等待确认的运行上调用了 resume（它的 stop_reason 已经是"
                    f" {reason.group(1) if reason else '别的'}）：每一轮先看 result.stop_reason =="
                    ' "needs_confirmation"，不是就停下，把结果返回。'
                )
            if "每个待确认的调用都要有一个决定" in text:
                return (
                    "每个 pending 的请求都要有决定：遍历 result.pending（不止第一个），request.id"
                    " 作键，在 approve_tools 里的批准，其余的拒绝。"
                )
            return hint or (
                f"你的函数抛出了 {type(exc).__name__}：在上面的单元格里单独调用 drive，看是哪一"
                f"行出的错。"
            )

        try:
            got = check.call(case, drive, agent, paused, given, decider, hint=explain)
        except ExerciseFailed as failure:
            if isinstance(failure.__cause__, _Stuck):
                raise check.fail(
                    case,
                    expected="有限次数之后停下，返回仍在等待的结果",
                    got="一直在 resume，停不下来",
                    hint="循环要有上限：for _ in range(max_rounds)，用完了就返回当前的结果。",
                ) from None
            raise
        if given != approve_tools:
            raise check.fail(
                case,
                expected=f"approve_tools 保持 {sorted(approve_tools)}",
                got=sorted(given),
                hint="不要修改传进来的 approve_tools（它属于调用方）。",
            )
        if not isinstance(got, RunResult):
            raise check.fail(
                case,
                expected="最后一次 resume 返回的 RunResult",
                got=typed(got),
                hint="return 最后的 result（agent.resume 的返回值）。",
            )
        return got

    case = "一步里两个调用：一个批准、一个拒绝"
    done.clear()
    agent = agent_for(
        calls(call("book", {"room": "room_301"}, id="a"), call("buy", {"item": "显示器"}, id="b")),
        reply("订好了，采购没提交。"),
    )
    result = run_drive(
        case,
        agent,
        {"book"},
        hint="每个 pending 的请求都要有决定：在 approve_tools 里的批准，其余的拒绝。",
    )
    if result.stop_reason != "final" or done != ["book room_301"]:
        raise check.fail(
            case,
            expected="final，只执行了 book room_301",
            got=f"{result.stop_reason}，执行了 {done}",
            hint=(
                "遍历 result.pending（不止第一个）：request.tool 在 approve_tools 里就 approve，"
                "否则 reject(原因)。"
            ),
        )
    rejection = next(
        (
            str(json.loads(m["content"]).get("error"))
            for m in result.messages
            if m.get("tool_call_id") == "b"
        ),
        "",
    )
    if "buy" not in rejection:
        raise check.fail(
            case,
            expected="拒绝原因里写出被拒绝的工具名 buy",
            got=rejection,
            hint='例如 reject(f"{request.tool} 不在允许的范围内")。',
        )
    check.ok(case, _brief(rejection, 50))

    case = "暂停两次：继续后又暂停，要再决定一轮"
    done.clear()
    agent = agent_for(
        calls(call("book", {"room": "room_501"}, id="c")),
        calls(call("buy", {"item": "椅子"}, id="d")),
        reply("都办好了。"),
    )
    result = run_drive(case, agent, {"book", "buy"})
    if result.stop_reason != "final" or done != ["book room_501", "buy 椅子"]:
        raise check.fail(
            case,
            expected="final，先后执行 book room_501、buy 椅子",
            got=f"{result.stop_reason}，执行了 {done}",
            hint=(
                "resume 之后的结果可能又是 needs_confirmation：用一个有上限的循环，直到 stop_reason"
                " 不再是它。"
            ),
        )
    check.ok(case)

    case = "L3 调用由审批人批准"
    done.clear()
    agent = agent_for(calls(call("send_sms", {"content": "会议改期"}, id="e")), reply("已发送。"))
    result = run_drive(case, agent, {"send_sms"}, decider=boss)
    if result.stop_reason != "final" or done != ["sms 会议改期"]:
        raise check.fail(
            case,
            expected="final，短信发出",
            got=f"{result.stop_reason}，执行了 {done}",
            hint="L3 要由审批人决定：approve(by=approver)。不写 by 就是发起人自己，L3 不算数。",
        )
    check.ok(case)

    case = "都不在允许范围：全部拒绝，什么也不执行"
    done.clear()
    agent = agent_for(
        calls(
            call("send_sms", {"content": "促销"}, id="f"), call("buy", {"item": "咖啡机"}, id="g")
        ),
        reply("都没办。"),
    )
    result = run_drive(case, agent, set())
    if result.stop_reason != "final" or done:
        raise check.fail(
            case,
            expected="final，没有执行任何工具",
            got=f"{result.stop_reason}，执行了 {done}",
            hint="不在 approve_tools 里的一律拒绝。",
        )
    check.ok(case)

    # Cases below print nothing when they pass, so a correct answer's output stays as it was.
    case = "名字相近、大小写或全角不同的工具名：只批准完全相同的名字"
    done.clear()
    agent = agent_for(
        calls(
            call("book", {"room": "room_601"}, id="n1"),
            call("buy", {"item": "投影仪"}, id="n2"),
            call("send_sms", {"content": "通知"}, id="n3"),
        ),
        reply("都没办。"),
    )
    near = {"bo", "send", "Buy", full_width("buy"), "book_room", "订_book"}
    result = run_drive(case, agent, near, decider=boss)
    if result.stop_reason != "final" or done:
        raise check.fail(
            case,
            given=f"approve_tools = {sorted(near)}；待确认：book、buy、send_sms",
            expected="final，没有执行任何工具（三个名字都不在 approve_tools 里）",
            got=f"{result.stop_reason}，执行了 {done}",
            hint=(
                "request.tool in approve_tools——整个名字、原样地比较：不要按前缀或包含关系"
                "（startswith、in 一个字符串），也不要先转小写或把全角转成半角。"
            ),
        )

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
        raise check.fail(
            case,
            expected="最多 resume 20 次，返回仍是 needs_confirmation 的结果",
            got=f"{result.stop_reason}，resume 了 {StuckGate.resumed} 次",
            hint="循环上限写小一点（例如 5 轮）；用完了就把当前结果返回，让调用方去处理。",
        )
    check.ok(case, f"resume {StuckGate.resumed} 次后停下")

    def again(tool_name: str, argument: dict[str, str], approve_tools: set[str]) -> Any:
        def run() -> Any:
            done.clear()
            agent = agent_for(calls(call(tool_name, argument, id="same")), reply("好了。"))
            paused = agent.run("办一件事")
            result = drive(agent, paused, set(approve_tools), user)
            return [getattr(result, "stop_reason", None), list(done)]

        return run

    check.independent(
        "又一次：新的运行里调用的 id 和上一次相同",
        [
            (
                "批准 book",
                again("book", {"room": "room_701"}, {"book"}),
                ["final", ["book room_701"]],
            ),
            ("不批准 buy（id 还是 same）", again("buy", {"item": "白板"}, {"book"}), ["final", []]),
            (
                "批准 buy（id 还是 same）",
                again("buy", {"item": "白板"}, {"buy"}),
                ["final", ["buy 白板"]],
            ),
            ("什么也不批准", again("book", {"room": "room_702"}, set()), ["final", []]),
        ],
        hint=(
            "期望和实际写的是 [stop_reason, 执行了的工具]。request.id 只在一次运行里唯一："
            "每次运行都按这一次的 pending 和 approve_tools 重新决定，不要把决定存在全局变量里。"
        ),
    )
    check.done()
