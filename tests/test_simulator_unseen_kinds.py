"""The simulator on tool sets it never met, by kind of value, not by example.

Four small tool sets written for this file (a dental clinic, a warehouse, a hotel front desk, a
gym described in English), each with parameters whose schemas show no example: the value is in the
request, named by the parameter's own words ("过敏药物改为青霉素"), shaped like an id ("HT7731"),
written in Latin letters ("Olivia") or right after the tool's verb ("添加周明，是正畸"). Also what
is no request (a statement of what was done) and what no offered tool does (a refund to a lookup).
"""

from __future__ import annotations

from typing import Any

from tests.simkit import fn
from tests.test_simulator_fuzz import run_invented

DENTAL = [
    fn(
        "update_allergy",
        "更新病人的过敏记录",
        patient_name=("string", "病人姓名"),
        allergy=("string", "过敏药物"),
    ),
    fn(
        "add_dentist",
        "添加一位牙医",
        dentist_name=("string", "医生名称"),
        specialty=("string", "专长科目"),
    ),
    fn("payment_records", "病人缴费记录查询", patient_id=("string", "病人编号")),
]
WAREHOUSE = [
    fn(
        "move_shelf",
        "调整货架所属的区域",
        shelf_name=("string", "货架名称"),
        zone=("string", "所属区域"),
    ),
    fn("track_parcel", "查询包裹的物流状态", tracking_no=("string", "运单号")),
]
HOTEL = [
    fn("checkout", "为客人办理退房", stay_id=("string", "入住单编号")),
    fn("cancel_reservation", "取消客房预订", reservation_no=("string", "预订号，例如 RS1203")),
    fn("send_sms", "给客人发短信", guest_name=("string", "客人姓名"), text=("string", "短信内容")),
]
GYM = [
    fn(
        "book_class",
        "Book a fitness class for a member.",
        member_name=("string", "The member's name"),
        class_code=("string", "The class code"),
    ),
    fn(
        "freeze_membership",
        "Freeze a membership.",
        member_id=("string", "The member id, e.g. AB1234"),
    ),
    fn("refund_fee", "Refund a member's fee.", member_id=("string", "The member id, e.g. GM1002")),
]


def effects(tools: list[dict[str, Any]], request: str) -> tuple[list[Any], str]:
    outcome = run_invented(tools, request)
    return outcome.calls, outcome.answer


def test_a_value_named_by_its_parameters_words_is_taken():
    calls, _ = effects(DENTAL, "把王芳的过敏药物改为青霉素")
    assert calls == [("update_allergy", {"patient_name": "王芳", "allergy": "青霉素"})]
    # "X 的 Y 改为 Z": X is the name of what is changed, Z stops before the next clause
    calls, _ = effects(WAREHOUSE, "请把东三货架的所属区域改为冷藏区。")
    assert calls == [("move_shelf", {"shelf_name": "东三货架", "zone": "冷藏区"})]


def test_an_id_without_an_example_is_read_by_its_shape():
    assert effects(HOTEL, "给 HT7731 办理退房")[0] == [("checkout", {"stay_id": "HT7731"})]
    calls, _ = effects(WAREHOUSE, "查一下运单号 88420917 到哪了")
    assert calls == [("track_parcel", {"tracking_no": "88420917"})]
    # two codes for one id: asked, never picked
    calls, answer = effects(HOTEL, "给 HT7731 或者 HT7732 办理退房")
    assert calls == [] and "？" in answer
    # a bare "编号" says not whose id it is: asked, the code is not taken for it
    vague = [fn("checkout", "为客人办理退房", item=("string", "编号"))]
    calls, answer = effects(vague, "给 HT7731 办理退房")
    assert calls == [] and "编号" in answer and "？" in answer, (calls, answer)


def test_an_examples_placeholder_letters_stand_for_any_letters():
    calls, _ = effects(GYM, "Freeze membership KQ5531 please")
    assert calls == [("freeze_membership", {"member_id": "KQ5531"})]
    # a real prefix ("GM") says which kind of id: another prefix is asked about, never taken
    calls, answer = effects(GYM, "refund member KQ5531")
    assert calls == [], (calls, answer)


def test_a_person_named_in_latin_letters_or_addressed_first():
    calls, _ = effects(GYM, "帮 Olivia 约一下 YG201 这节课")
    assert calls == [("book_class", {"member_name": "Olivia", "class_code": "YG201"})]
    calls, _ = effects(GYM, "小雨，我要约 YG305 这节课程")
    assert calls == [("book_class", {"member_name": "小雨", "class_code": "YG305"})]
    # a name addressed before a request for someone else is not taken for the member
    calls, answer = effects(GYM, "小雨，帮我约 YG305 这节课程")
    assert calls == [] and "？" in answer, (calls, answer)


def test_the_name_after_the_tools_verb_and_what_it_is():
    calls, _ = effects(DENTAL, "添加周明，是正畸")
    assert calls == [("add_dentist", {"dentist_name": "周明", "specialty": "正畸"})]


def test_a_statement_of_what_was_done_is_no_request_but_a_message_saying_it_is_sent():
    for told in (
        "我们把 RS1208 取消了，因为客人改期",
        "我帮RS1208取消了，客人不来了",
        "我和他已经把 RS1208 取消了",
    ):
        calls, answer = effects(HOTEL, told)
        assert calls == [] and "已取消" not in answer, (told, calls, answer)
        assert "不是要我去做" in answer and "没有执行" in answer, answer
    calls, _ = effects(HOTEL, "给孙丽发短信，告诉她预订已经取消了")
    assert calls == [("send_sms", {"guest_name": "孙丽", "text": "预订已经取消了"})]


def test_an_action_no_tool_does_is_named_and_a_lookup_is_never_taken_for_it():
    calls, answer = effects(DENTAL, "给病人 P2044 退费")
    assert calls == [] and "没有能退费的" in answer and "已" not in answer, (calls, answer)
    # a tool whose name says the action: never "no tool can do this"
    calls, answer = effects(GYM, "给会员 GM1002 退费")
    assert calls == [("refund_fee", {"member_id": "GM1002"})], answer
    # a wording not read, to a tool that books ("Book a fitness class"): not understood, never
    # "no tool can book"
    calls, answer = effects(GYM, "小雨，我要约 YG305 这节课")
    assert calls == [] and "没有能" not in answer, answer


WAKE_UP = [
    fn(
        "wake_up_call",
        "预订或取消叫醒服务",
        room=("string", "房间号，例如 1208"),
        operation=("string", "操作（预订、取消）"),
    )
]


def test_values_listed_in_a_description_and_a_tool_of_two_actions():
    calls, answer = effects(WAKE_UP, "帮我取消 1506 的叫醒服务")
    assert calls == [("wake_up_call", {"room": "1506", "operation": "取消"})], answer
    # the tool books or cancels: the answer does not say it booked
    assert "已预订" not in answer and "已创建" not in answer, answer
