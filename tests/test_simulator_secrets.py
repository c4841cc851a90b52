"""An answer confirms what was done without repeating a secret the user typed: the value of a
parameter whose name or description says it holds a password, a PIN, a passcode, a token or a key
is left out of the answer (the call itself still gets it).

Left out: filling such a value when it is not a plain number ("重置为 Qx7-plum-42", "to
sk-live-…"): the simulator asks for it instead — honest, not yet handled.
"""

from __future__ import annotations

from datetime import datetime

import pytest

from handwritten_agent.course.offline.simulator import CourseSimulator
from handwritten_agent.course.offline.simulator.phrasing import without_secrets
from tests.simkit import fn, run_request

SIMULATOR = CourseSimulator(now=datetime(2026, 3, 12, 14, 30))

CASES = [
    (
        fn(
            "change_pin",
            "修改银行卡的支付密码",
            card_id=("string", "卡号，例如 C1001"),
            new_pin=("string", "新的六位支付密码"),
        ),
        "把卡 C1001 的支付密码改成 852963",
        "852963",
        "C1001",
    ),
    (
        fn(
            "update_door_code",
            "更新门禁的开门密码",
            door_id=("string", "门编号，例如 D12"),
            code=("string", "新的四位开门密码"),
        ),
        "把门 D12 的开门密码改成 4821",
        "4821",
        "D12",
    ),
    (
        fn(
            "set_locker_code",
            "设置储物柜的开柜密码",
            locker=("string", "柜号，例如 L208"),
            code=("string", "六位数字开柜密码"),
        ),
        "把 L208 号柜的开柜密码改成 730519",
        "730519",
        "L208",
    ),
]


@pytest.mark.parametrize("spec, request_text, secret, named", CASES)
def test_the_answer_names_what_was_changed_but_not_the_secret(spec, request_text, secret, named):
    calls, answer = run_request(SIMULATOR, [spec], request_text)
    assert len(calls) == 1 and secret in calls[0][1].values(), calls  # the call has the secret
    assert answer and secret not in answer, answer
    assert named in answer, answer  # what was changed is still said


@pytest.mark.parametrize(
    "name, description",
    [
        ("new_password", "新密码"),
        ("pin", "PIN"),
        ("api_key", "the key"),
        ("auth_token", "访问令牌 token"),
        ("secret", "shared secret"),
        ("code", "短信验证码"),
        ("value", "the new passcode"),
    ],
)
def test_a_secret_is_known_by_its_name_or_its_description(name, description):
    spec = fn("t", "t", properties={name: {"type": "string", "description": description}})
    assert without_secrets(spec["function"], {name: "x1", "other": "y"}) == {"other": "y"}


@pytest.mark.parametrize(
    "name, description",
    [
        ("pinyin", "拼音"),
        ("spinner", "a spinner id"),
        ("tokens_used", "how many tokens"),
        ("room", "会议室"),
    ],
)
def test_names_that_only_look_like_secrets_are_kept(name, description):
    spec = fn("t", "t", properties={name: {"type": "string", "description": description}})
    assert without_secrets(spec["function"], {name: "x1"}) == {name: "x1"}
