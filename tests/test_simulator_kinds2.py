"""The simulator over four tool sets it has never met, on requests of five kinds that went wrong
before, each in several wordings.

Tool sets: a vet clinic (English descriptions, one pinyin tool), a driving school (pinyin names,
Chinese descriptions), a hotel front desk (English), and a repair workshop (mixed). Kinds:

1. a person chosen by the name the user gives, where the action takes an id and a lookup lists
   names and ids: look up, then use that person's id; a name that matches none or several is asked;
2. colloquial Chinese verbs (退了, 不要了, 取消掉) reaching a tool described only in English;
3. two actions of one tool in one request: two calls, each with its own values;
4. a condition before a side effect: checked with a read tool first, acted on only when it holds,
   never copied into a free-text field; a condition no tool can check is asked about;
5. terse requests with an implied object (帮我挂个号): missing required fields asked for by name.

Each case lists what is acceptable: the right call(s) with their key values, a question back, or
an honest "did not understand". A side effect not asked for, or with a wrong value, is wrong; a
claim the tool results do not support is a false claim. The scorer is the one of
``tests.test_simulator_generated``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import pytest

from handwritten_agent.course.offline.simulator import CourseSimulator
from tests.simkit import fn, run_request
from tests.test_simulator_generated import NOT_DONE, i, s

NOW = datetime(2026, 3, 12, 14, 30)  # a Thursday afternoon
SIMULATOR = CourseSimulator(now=NOW)

VET = [
    fn(
        "list_vets",
        "List the veterinarians on duty with their ids and names (read only)",
        {},
        [],
    ),
    fn(
        "book_visit",
        "Book an appointment for a pet with a veterinarian",
        {
            "pet_name": s("the pet's name"),
            "vet_id": s("veterinarian id like V01"),
            "date": s("date, YYYY-MM-DD"),
            "time": s("time, HH:MM"),
        },
        ["pet_name", "vet_id", "date", "time"],
    ),
    fn(
        "cancel_visit",
        "Cancel an appointment by its id, e.g. AP2031",
        {"appointment_id": s("appointment id like AP2031")},
        ["appointment_id"],
    ),
    fn(
        "get_appointment",
        "Get an appointment's details: status, time, vet, whether it is paid (read only)",
        {"appointment_id": s("appointment id like AP2031")},
        ["appointment_id"],
    ),
    fn(
        "shoufei_dengji",
        "登记收费：预约号、收费项目、金额",
        {
            "appointment_id": s("预约号，例如 AP2031"),
            "item": s("收费项目，例如 疫苗费"),
            "amount": {"type": "number", "description": "金额（元）"},
        },
        ["appointment_id", "item", "amount"],
    ),
]
VETS = {
    "vets": [
        {"vet_id": "V01", "name": "王建国"},
        {"vet_id": "V02", "name": "李明"},
        {"vet_id": "V03", "name": "李华"},
        {"vet_id": "V04", "name": "陈静"},
    ]
}

DRIVING = [
    fn("chaxun_jiaolian", "列出所有教练的编号和姓名", {}, []),
    fn(
        "yuyue_lianche",
        "为学员预约练车：学员编号、教练编号、日期、开始时间",
        {
            "student_id": s("学员编号，例如 S102"),
            "coach_id": s("教练编号，例如 C01"),
            "date": s("日期 YYYY-MM-DD"),
            "time": s("开始时间 HH:MM"),
        },
        ["student_id", "coach_id", "date", "time"],
    ),
    fn(
        "quxiao_lianche",
        "取消练车预约，需要预约单号，例如 LC3301",
        {"booking_no": s("预约单号，例如 LC3301")},
        ["booking_no"],
    ),
    fn(
        "chaxun_xueyuan",
        "查询学员信息：姓名、剩余课时、科目进度（只读）",
        {"student_id": s("学员编号，例如 S102")},
        ["student_id"],
    ),
    fn(
        "fasong_duanxin",
        "给学员发短信",
        {"student_id": s("学员编号，例如 S102"), "content": s("短信内容")},
        ["student_id", "content"],
    ),
]
COACHES = {
    "coaches": [
        {"coach_id": "C01", "name": "刘强"},
        {"coach_id": "C02", "name": "张伟"},
        {"coach_id": "C03", "name": "周芳"},
    ]
}

HOTEL = [
    fn(
        "list_rooms",
        "List available rooms of a type on a date, with prices (read only)",
        {"room_type": s("room type, e.g. 大床房, 标间"), "date": s("check-in date YYYY-MM-DD")},
        ["room_type", "date"],
    ),
    fn(
        "reserve_room",
        "Reserve a room for a guest",
        {
            "guest_name": s("guest's full name"),
            "room_type": s("room type, e.g. 大床房, 标间"),
            "check_in": s("check-in date YYYY-MM-DD"),
            "nights": i("number of nights"),
        },
        ["guest_name", "room_type", "check_in", "nights"],
    ),
    fn(
        "cancel_reservation",
        "Cancel a reservation by its id, e.g. RS5521",
        {"reservation_id": s("reservation id like RS5521")},
        ["reservation_id"],
    ),
    fn(
        "record_payment",
        "Record a payment for a reservation: reservation id, amount, payment method",
        {
            "reservation_id": s("reservation id like RS5521"),
            "amount": {"type": "number", "description": "amount in yuan"},
            "method": {"type": "string", "enum": ["cash", "card", "wechat", "alipay"]},
        },
        ["reservation_id", "amount", "method"],
    ),
    fn(
        "get_reservation",
        "Get a reservation's details (read only)",
        {"reservation_id": s("reservation id like RS5521")},
        ["reservation_id"],
    ),
]

WORKSHOP = [
    fn(
        "list_technicians",
        "List the technicians with their ids, names and skills (read only)",
        {},
        [],
    ),
    fn(
        "paigong",
        "派工：把工单分配给一位技师",
        {"ticket_id": s("工单号，例如 GD778"), "tech_id": s("技师编号，例如 T05")},
        ["ticket_id", "tech_id"],
    ),
    fn(
        "close_ticket",
        "Close a work ticket by its id, e.g. GD778",
        {"ticket_id": s("work ticket id like GD778")},
        ["ticket_id"],
    ),
    fn(
        "chaxun_gongdan",
        "查询工单状态（只读）",
        {"ticket_id": s("工单号，例如 GD778")},
        ["ticket_id"],
    ),
]
TECHS = {
    "technicians": [
        {"tech_id": "T05", "name": "赵磊", "skill": "空调"},
        {"tech_id": "T06", "name": "孙丽", "skill": "电路"},
        {"tech_id": "T07", "name": "赵敏", "skill": "管道"},
    ]
}

TOOLSETS = {"vet": VET, "driving": DRIVING, "hotel": HOTEL, "workshop": WORKSHOP}
READ_ONLY = {
    "list_vets",
    "get_appointment",
    "chaxun_jiaolian",
    "chaxun_xueyuan",
    "list_rooms",
    "get_reservation",
    "list_technicians",
    "chaxun_gongdan",
}
LOOKUPS = {
    "list_vets": VETS,
    "chaxun_jiaolian": COACHES,
    "list_technicians": TECHS,
}

Results = dict[str, Any] | Callable[[str, dict[str, Any]], Any]


@dataclass
class Case:
    toolset: str
    request: str
    # acceptable side effects: None means none at all (answer, ask or decline)
    act: list[tuple[str, dict[str, Any]]] | None = None
    results: dict[str, Any] = field(default_factory=dict)
    may_ask: bool = True  # a question back instead of the action is acceptable
    never: tuple[str, ...] = ()  # words no argument value may contain
    asks_for: tuple[str, ...] = ()  # when it asks, the question names these
    must_read: str | None = None  # a read tool that must come before any side effect


@dataclass
class Outcome:
    calls: list[tuple[str, dict[str, Any]]]
    answer: str


def run(case: Case) -> Outcome:
    def result_of(name: str, _arguments: dict[str, Any]) -> dict[str, Any]:
        data = case.results.get(name, LOOKUPS.get(name, {"status": "ok"}))
        return {"success": True, "data": data, "error": None}

    calls, answer = run_request(SIMULATOR, TOOLSETS[case.toolset], case.request, result_of, turns=6)
    return Outcome(calls, answer)


def _same(expected: Any, got: Any) -> bool:
    if isinstance(expected, (int, float)) and not isinstance(expected, bool):
        try:
            return float(got) == float(expected)
        except (TypeError, ValueError):
            return False
    # spaces are not a value: "27 寸显示器" and "27寸显示器" are one item (the generated sets keep a
    # request when each value is in it up to spaces)
    return re.sub(r"\s+", "", str(got)) == re.sub(r"\s+", "", str(expected))


ACKNOWLEDGED = re.compile(r"好的，知道了|记下了|noted", re.I)
CLAIMS_DONE = re.compile(r"已(?:经)?(?:为你|帮你)?(?:取消|预约|预订|登记|分配|派|发送|关闭|记录)")


def verdict(case: Case, outcome: Outcome) -> tuple[str, list[str]]:
    """``(handled | asked | declined | wrong, problems)``; problems name wrong actions and false
    claims."""
    effects = [(n, a) for n, a in outcome.calls if n not in READ_ONLY]
    problems: list[str] = []
    for name, arguments in effects:
        for word in case.never:
            if any(word in str(v) for v in arguments.values()):
                problems.append(f"{name} 的参数抄进了「{word}」：{arguments}")
    if case.must_read and effects:
        first_effect = next(n for n, (name, _) in enumerate(outcome.calls) if name not in READ_ONLY)
        if not any(name == case.must_read for name, _ in outcome.calls[:first_effect]):
            problems.append(f"没有先用 {case.must_read} 查条件：{outcome.calls}")
    if ACKNOWLEDGED.search(outcome.answer):
        problems.append(f"把请求当成陈述：{outcome.answer}")
    if not effects:
        if CLAIMS_DONE.search(outcome.answer) and not re.search(r"[?？]", outcome.answer):
            problems.append(f"没有做却说做了：{outcome.answer}")
        asked = bool(re.search(r"[?？]|请(?:告诉|提供|说明|补充)", outcome.answer))
        if case.act and not case.may_ask:
            problems.append(f"应当执行：{outcome.answer}")
        if asked:
            missing = [w for w in case.asks_for if w not in outcome.answer]
            if missing:
                problems.append(f"追问里没有提到 {missing}：{outcome.answer}")
        return ("asked" if asked else "declined"), problems
    if case.act is None:
        return "wrong", [*problems, f"不该有副作用：{effects}"]
    if len(effects) != len(case.act):
        return "wrong", [*problems, f"期望 {len(case.act)} 个调用：{effects}"]
    unmatched = list(effects)
    for want_name, want_args in case.act:
        hit = next(
            (
                c
                for c in unmatched
                if c[0] == want_name and all(_same(v, c[1].get(k)) for k, v in want_args.items())
            ),
            None,
        )
        if hit is None:
            return "wrong", [*problems, f"没有按期望调用 {want_name} {want_args}：{effects}"]
        unmatched.remove(hit)
    if NOT_DONE.search(outcome.answer):
        problems.append(f"做成了却说没做：{outcome.answer}")
    return "handled", problems


# -- kind 1: a person chosen by name -------------------------------------------------------------

BY_NAME = [
    Case(
        "vet",
        "帮我约王建国医生明天上午十点，给狗狗豆豆看看",
        [
            (
                "book_visit",
                {"vet_id": "V01", "pet_name": "豆豆", "date": "2026-03-13", "time": "10:00"},
            )
        ],
    ),
    Case(
        "vet",
        "豆豆后天下午三点挂陈静大夫的号",
        [
            (
                "book_visit",
                {"vet_id": "V04", "pet_name": "豆豆", "date": "2026-03-14", "time": "15:00"},
            )
        ],
    ),
    Case(
        "vet",
        "book Doudou with 陈静 tomorrow 10am",
        [("book_visit", {"vet_id": "V04", "date": "2026-03-13", "time": "10:00"})],
    ),
    Case("vet", "帮我约张三医生明天上午十点，给猫咪咪咪看病", None, asks_for=("张三",)),
    Case("vet", "明天上午十点给豆豆约李医生", None),
    Case(
        "driving",
        "学员 S102 后天下午两点约刘强教练练车",
        [
            (
                "yuyue_lianche",
                {"student_id": "S102", "coach_id": "C01", "date": "2026-03-14", "time": "14:00"},
            )
        ],
    ),
    Case(
        "driving",
        "给 S105 排个周芳的车，明天上午九点",
        [
            (
                "yuyue_lianche",
                {"student_id": "S105", "coach_id": "C03", "date": "2026-03-13", "time": "09:00"},
            )
        ],
    ),
    Case("driving", "S102 明天上午九点约王教练练车", None, asks_for=("王",)),
    Case(
        "workshop",
        "工单 GD778 派给孙丽",
        [("paigong", {"ticket_id": "GD778", "tech_id": "T06"})],
    ),
    Case(
        "workshop",
        "GD778 让赵磊师傅去修",
        [("paigong", {"ticket_id": "GD778", "tech_id": "T05"})],
    ),
    Case("workshop", "GD778 交给赵师傅处理", None),
    Case("workshop", "GD778 派给钱师傅", None, asks_for=("钱",)),
]

# -- kind 2: colloquial verbs reaching English tools ----------------------------------------------

VERBS = [
    Case("vet", "AP2031 退了吧", [("cancel_visit", {"appointment_id": "AP2031"})]),
    Case("vet", "AP2031 不要了", [("cancel_visit", {"appointment_id": "AP2031"})]),
    Case("vet", "把 AP2031 取消掉", [("cancel_visit", {"appointment_id": "AP2031"})]),
    Case("vet", "AP2031 那个号不看了，给撤了", [("cancel_visit", {"appointment_id": "AP2031"})]),
    Case("vet", "AP2031 退掉没？", None),
    Case(
        "hotel", "RS5521 那间房不住了，退掉", [("cancel_reservation", {"reservation_id": "RS5521"})]
    ),
    Case("hotel", "RS5521 给我撤销了", [("cancel_reservation", {"reservation_id": "RS5521"})]),
    Case(
        "hotel", "帮客人把 RS5521 取消一下", [("cancel_reservation", {"reservation_id": "RS5521"})]
    ),
    Case("hotel", "RS5521 退了吗", None),
    Case("workshop", "GD778 修好了，结单吧", [("close_ticket", {"ticket_id": "GD778"})]),
    Case("workshop", "把 GD778 关了", [("close_ticket", {"ticket_id": "GD778"})]),
    Case("hotel", "查下 RS5521 的订单", [], may_ask=True),
    Case(
        "hotel",
        "RS5521 付了 800，微信付的",
        [("record_payment", {"reservation_id": "RS5521", "amount": 800, "method": "wechat"})],
    ),
    Case(
        "hotel",
        "RS5521 刷卡交了一千二",
        [("record_payment", {"reservation_id": "RS5521", "amount": 1200, "method": "card"})],
    ),
    Case(
        "hotel",
        "RS5521 交了 500 押金",
        [("record_payment", {"reservation_id": "RS5521", "amount": 500})],
        asks_for=("method",),
    ),
]

# -- kind 3: two actions of one tool ------------------------------------------------------------

TWO = [
    Case(
        "hotel",
        "RS5521 收了两笔：现金 300，微信 200",
        [
            ("record_payment", {"reservation_id": "RS5521", "amount": 300, "method": "cash"}),
            ("record_payment", {"reservation_id": "RS5521", "amount": 200, "method": "wechat"}),
        ],
    ),
    Case(
        "vet",
        "AP2031 收了检查费 150，药费 80，分开登记",
        [
            ("shoufei_dengji", {"appointment_id": "AP2031", "item": "检查费", "amount": 150}),
            ("shoufei_dengji", {"appointment_id": "AP2031", "item": "药费", "amount": 80}),
        ],
    ),
    Case(
        "vet",
        "登记一下：AP2031 疫苗费 120；AP2045 驱虫费 60",
        [
            ("shoufei_dengji", {"appointment_id": "AP2031", "item": "疫苗费", "amount": 120}),
            ("shoufei_dengji", {"appointment_id": "AP2045", "item": "驱虫费", "amount": 60}),
        ],
    ),
    Case(
        "driving",
        "S102 约 C01 明天上午九点练车；S105 约 C02 后天下午三点",
        [
            (
                "yuyue_lianche",
                {"student_id": "S102", "coach_id": "C01", "date": "2026-03-13", "time": "09:00"},
            ),
            (
                "yuyue_lianche",
                {"student_id": "S105", "coach_id": "C02", "date": "2026-03-14", "time": "15:00"},
            ),
        ],
    ),
    Case(
        "driving",
        "把 LC3301 和 LC3302 都取消了",
        [
            ("quxiao_lianche", {"booking_no": "LC3301"}),
            ("quxiao_lianche", {"booking_no": "LC3302"}),
        ],
    ),
    Case(
        "hotel",
        "RS5521 和 RS5522 都不要了",
        [
            ("cancel_reservation", {"reservation_id": "RS5521"}),
            ("cancel_reservation", {"reservation_id": "RS5522"}),
        ],
    ),
    Case(
        "workshop",
        "GD778 和 GD779 都结单",
        [("close_ticket", {"ticket_id": "GD778"}), ("close_ticket", {"ticket_id": "GD779"})],
    ),
    Case("vet", "AP2031 检查费和药费一共 230", None),
]

# -- kind 4: conditions before a side effect ------------------------------------------------------

UNPAID = {"appointment_id": "AP2031", "status": "booked", "paid": False, "time": "2026-03-13 10:00"}
PAID = {**UNPAID, "paid": True}
LOW = {"student_id": "S102", "name": "林小雨", "remaining_hours": 1, "progress": "科目二"}
ENOUGH = {**LOW, "remaining_hours": 6}


CONDITIONS = [
    Case(
        "vet",
        "如果 AP2031 还没付款，就取消掉",
        [("cancel_visit", {"appointment_id": "AP2031"})],
        {"get_appointment": UNPAID},
        must_read="get_appointment",
    ),
    Case(
        "vet",
        "如果 AP2031 还没付款，就取消掉",
        None,
        {"get_appointment": PAID},
    ),
    Case(
        "driving",
        "要是 S102 剩余课时少于 2 小时，就给他发短信提醒续费",
        [("fasong_duanxin", {"student_id": "S102"})],
        {"chaxun_xueyuan": LOW},
        never=("要是", "少于", "小时"),
        must_read="chaxun_xueyuan",
    ),
    Case(
        "driving",
        "要是 S102 剩余课时少于 2 小时，就给他发短信提醒续费",
        None,
        {"chaxun_xueyuan": ENOUGH},
    ),
    Case(
        "driving",
        "假如 S102 的剩余课时不到 3 小时，就发短信告诉他：请尽快续费；够的话就不用发",
        [("fasong_duanxin", {"student_id": "S102", "content": "请尽快续费"})],
        {"chaxun_xueyuan": LOW},
        never=("假如", "不到"),
        must_read="chaxun_xueyuan",
    ),
    Case(
        "hotel",
        "如果明天还有大床房，就给张伟订一间，住两晚",
        [
            (
                "reserve_room",
                {
                    "guest_name": "张伟",
                    "room_type": "大床房",
                    "check_in": "2026-03-13",
                    "nights": 2,
                },
            )
        ],
        {"list_rooms": {"rooms": [{"room_no": "806", "room_type": "大床房", "price": 399}]}},
        must_read="list_rooms",
    ),
    Case(
        "hotel",
        "如果明天还有大床房，就给张伟订一间，住两晚",
        None,
        {"list_rooms": {"rooms": []}},
    ),
    Case("vet", "要是明天不下雨，就给豆豆约陈静医生上午十点", None),
    Case("hotel", "如果客人今晚能到，就把 RS5521 保留，不然就取消", None),
    Case(
        "workshop",
        "GD778 要是已经修好了就结单",
        [("close_ticket", {"ticket_id": "GD778"})],
        {"chaxun_gongdan": {"ticket_id": "GD778", "status": "已修好"}},
        must_read="chaxun_gongdan",
    ),
    Case(
        "workshop",
        "GD778 要是已经修好了就结单",
        None,
        {"chaxun_gongdan": {"ticket_id": "GD778", "status": "维修中"}},
    ),
]

# -- kind 5: terse requests with an implied object ----------------------------------------------

TERSE = [
    Case("vet", "帮我挂个号", None, asks_for=("日期",)),
    Case("vet", "给豆豆约个号", None, asks_for=("日期",)),
    Case("hotel", "订个房", None, asks_for=("入住",)),
    Case("hotel", "帮我开间房", None),
    Case("driving", "约个练车", None, asks_for=("学员",)),
    Case("driving", "S102 明天想练车", None),
    Case("hotel", "退个房", None, asks_for=("RS",)),
    Case("vet", "取消个预约", None),
    Case("workshop", "派个工", None),
    Case("vet", "帮我登记个费用", None),
]

# -- paraphrases of the kinds above, in other words ----------------------------------------------

PARAPHRASES = [
    Case(
        "driving",
        "帮 S108 约一下张伟教练，大后天上午十点",
        [
            (
                "yuyue_lianche",
                {"student_id": "S108", "coach_id": "C02", "date": "2026-03-15", "time": "10:00"},
            )
        ],
    ),
    Case("driving", "S108 想跟李教练练车，明天下午三点", None, asks_for=("李",)),
    Case(
        "vet",
        "明天下午四点，豆豆，陈医生",
        [
            (
                "book_visit",
                {"vet_id": "V04", "pet_name": "豆豆", "date": "2026-03-13", "time": "16:00"},
            )
        ],
    ),
    Case("workshop", "GD779 给赵敏", [("paigong", {"ticket_id": "GD779", "tech_id": "T07"})]),
    Case("workshop", "GD779 派孙师傅去", [("paigong", {"ticket_id": "GD779", "tech_id": "T06"})]),
    Case("vet", "AP2031 取消", [("cancel_visit", {"appointment_id": "AP2031"})]),
    Case("vet", "那个 AP2031 的号我们不来了", None),
    Case("driving", "LC3301 这节不练了，退了吧", [("quxiao_lianche", {"booking_no": "LC3301"})]),
    Case("driving", "LC3301 退了没", None),
    Case("hotel", "cancel RS5521 please", [("cancel_reservation", {"reservation_id": "RS5521"})]),
    Case(
        "hotel", "RS5521 的房别留了，取消", [("cancel_reservation", {"reservation_id": "RS5521"})]
    ),
    Case(
        "hotel",
        "RS5521 今天收了支付宝 600，还有现金 100",
        [
            ("record_payment", {"reservation_id": "RS5521", "amount": 600, "method": "alipay"}),
            ("record_payment", {"reservation_id": "RS5521", "amount": 100, "method": "cash"}),
        ],
    ),
    Case(
        "vet",
        "AP2031 付了疫苗费 120 元",
        [("shoufei_dengji", {"appointment_id": "AP2031", "item": "疫苗费", "amount": 120})],
    ),
    Case(
        "driving",
        "LC3301、LC3305 这两节都取消",
        [
            ("quxiao_lianche", {"booking_no": "LC3301"}),
            ("quxiao_lianche", {"booking_no": "LC3305"}),
        ],
    ),
    Case(
        "vet",
        "AP2031 要是还没付钱就帮我退了",
        [("cancel_visit", {"appointment_id": "AP2031"})],
        {"get_appointment": UNPAID},
        must_read="get_appointment",
    ),
    Case(
        "vet",
        "AP2031 要是还没付钱就帮我退了",
        None,
        {"get_appointment": PAID},
    ),
    Case(
        "driving",
        "看下 S102 还剩几个课时，不到 2 个就发短信让他续费",
        [("fasong_duanxin", {"student_id": "S102"})],
        {"chaxun_xueyuan": LOW},
        never=("不到",),
        must_read="chaxun_xueyuan",
    ),
    Case("driving", "如果教练有空就给 S102 约明天上午九点", None),
    Case("vet", "挂号", None),
    Case("hotel", "给张伟订个大床房", None, asks_for=("入住",)),
    Case("driving", "帮 S102 约下练车", None, asks_for=("刘强", "日期")),
    Case("workshop", "GD778 派一下", None),
]

CASES = BY_NAME + VERBS + TWO + CONDITIONS + TERSE + PARAPHRASES


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.toolset}:{c.request}")
def test_acts_right_asks_or_declines_never_wrong(case):
    outcome = run(case)
    kind, problems = verdict(case, outcome)
    assert kind != "wrong" and not problems, (kind, problems, outcome.calls, outcome.answer)


def test_the_scorer_catches_planted_violations():
    booking = BY_NAME[0]
    other_vet = Outcome(
        [("list_vets", {}), ("book_visit", {**booking.act[0][1], "vet_id": "V02"})], "已预约"
    )
    assert verdict(booking, other_vet)[0] == "wrong"
    mixed = TWO[0]
    swapped = Outcome(
        [
            ("record_payment", {"reservation_id": "RS5521", "amount": 300, "method": "wechat"}),
            ("record_payment", {"reservation_id": "RS5521", "amount": 200, "method": "cash"}),
        ],
        "已记录",
    )
    assert verdict(mixed, swapped)[0] == "wrong"
    conditional = CONDITIONS[2]
    unchecked = Outcome([("fasong_duanxin", {"student_id": "S102", "content": "续费"})], "已发送")
    assert verdict(conditional, unchecked)[1]
    copied = Outcome(
        [("chaxun_xueyuan", {}), ("fasong_duanxin", {"student_id": "S102", "content": "要是少于"})],
        "",
    )
    assert verdict(conditional, copied)[1]
    terse = TERSE[0]
    assert verdict(terse, Outcome([], "好的，知道了"))[1]
    assert verdict(terse, Outcome([], "请告诉我宠物名字？"))[1]  # the date is not named


if __name__ == "__main__":
    bad = 0
    for case in CASES:
        outcome = run(case)
        kind, problems = verdict(case, outcome)
        if kind == "wrong" or problems or (case.act and kind != "handled"):
            bad += kind == "wrong" or bool(problems)
            print(kind, case.toolset, case.request, problems)
            print("    ", outcome.calls, "|", outcome.answer[:200].replace("\n", " "))
    print(f"{len(CASES)} cases, {bad} bad")


# -- the readers behind the kinds, each with a near variant that must not match -----------------


@pytest.mark.parametrize(
    "text, said",
    [
        ("约王建国医生明天上午", ["王建国"]),
        ("S102 约王教练练车", ["王"]),
        ("GD778 交给赵师傅处理", ["赵"]),
        ("挂陈静大夫的号", ["陈静"]),
        ("明天上午十点给豆豆约个号", []),  # no title: no reference
    ],
)
def test_a_person_is_referred_to_by_a_surname_before_a_title(text, said):
    from handwritten_agent.course.offline.simulator.people import references

    assert references(text) == said


def test_a_reference_resolves_to_one_person_or_to_no_one():
    from handwritten_agent.course.offline.simulator.people import ambiguous, resolve

    looked_up = (({}, {}, json.dumps({"success": True, "data": VETS}, ensure_ascii=False)),)
    assert resolve("约陈医生", looked_up) == ("陈静",)
    assert resolve("约王建国医生", looked_up) == ("王建国",)
    assert resolve("约李医生", looked_up) == ("李",)  # two people: no one's name, so no id
    assert ambiguous("约李医生", looked_up) == [("李", ["李明", "李华"])]
    assert ambiguous("约张三医生", looked_up) == [("张三", [])]
    assert ambiguous("约陈医生", looked_up) == []


@pytest.mark.parametrize(
    "text, options, split",
    [
        ("AP2031 疫苗费 120；AP2045 驱虫费 60", ["AP2031", "AP2045"], True),
        ("现金 300，微信 200", ["现金", "微信"], True),
        ("LC3301 和 LC3302 都取消了", ["LC3301", "LC3302"], False),  # one clause for both
        ("LC3301；LC3302", ["LC3301", "LC3302"], False),  # the clauses say nothing more
    ],
)
def test_each_value_takes_its_own_clause_only_when_it_has_one(text, options, split):
    from handwritten_agent.course.offline.simulator.arguments.filler import own_clauses

    parts = own_clauses(text, text, options)
    assert bool(parts) == split
    if parts:
        for option, (segment, _) in zip(options, parts):
            assert option in segment
            assert not any(other in segment for other in options if other != option)


@pytest.mark.parametrize(
    "text, booking",
    [("给豆豆约个号", True), ("大约 45 分钟", False), ("约束条件", False), ("挂陈静的号", True)],
)
def test_a_one_character_verb_counts_only_outside_longer_words(text, booking):
    from handwritten_agent.course.offline.simulator.vocabulary import expand

    assert ("book" in expand(text).split()) == booking


@pytest.mark.parametrize(
    "text, things",
    [
        ("AP2031 收了检查费 150，药费 80", ["检查费", "药费"]),
        ("单价 25", []),
        ("17 乘以 9，再乘以 2", []),
        ("明天下午 3", []),
    ],
)
def test_things_named_by_their_price(text, things):
    from handwritten_agent.course.offline.simulator.arguments.filler import priced_things

    assert [name for name, _ in priced_things(text)] == things
