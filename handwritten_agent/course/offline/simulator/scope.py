"""How far an action may reach: never further than the user said, and never over personal data in
bulk.

Two rules a careful assistant keeps whatever the tools allow:

- **No silent "everyone".** A tool may say that leaving a parameter out widens the call to
  everything ("customer_ids 为空时发给全部客户"). For a tool that changes something
  (``actions.is_read_only`` is false), such a parameter left empty is allowed only when the user's
  own words — not a quoted message body — say全部/所有/every/all. Otherwise the parameter counts as
  missing, and the user is asked whom they mean.
- **No personal data in bulk.** A request for sensitive personal data (身份证号, 银行卡号, 密码, 手
  机号 …) of everyone, every customer, a whole list, is declined in words before any tool is chosen
  — not answered with a question, not handed to an export or a message tool. A request that asks
  for people's sensitive data as a collection (汇总成表格, 导给我, 做成 Excel) and names no one of
  them by id is such a request, even without 所有 or 导出.

Left out: judging who may see what (the permission gate does that, in code); single records ("C023
的手机号" is a lookup the gate masks).
"""

from __future__ import annotations

import re

from .arguments import Param, params_of
from .arguments.params import widens_when_empty
from .text import normalize

ALL_WORDS = re.compile(
    r"全部|所有|全体|每个|每位|每一位|每一个|群发|\b(?:all|every|everyone|everybody)\b", re.I
)

_SENSITIVE = re.compile(
    r"身份证|证件号|银行卡|卡号|银行账号|账户号码|密码|口令|手机号|电话号码|联系电话|家庭住址|住址|"
    r"病历|工资|薪资|"
    r"\b(?:id numbers?|identity numbers?|bank cards?|card numbers?|passwords?|phone numbers?|home"
    r" address(?:es)?|"
    r"ssns?|social security)\b",
    re.I,
)
_BULK = re.compile(
    r"所有|全部|全体|每个|每一个|每位|每一位|整个|批量|名单|清单|一览|列表|导出|都列|全都|\b"
    r"(?:all|every|each|whole|entire|bulk|list"
    r" of|export)\b",
    re.I,
)
# A collection handed over ("汇总成一份表格", "导给我", "做成 Excel"): many people's data at once
# when the request speaks of people (客户, 员工 …) and names no one of them by id.
_COLLECTION = re.compile(
    r"汇总|汇成|整理成|整理一份|做成|表格|一张表|一份表|[一张份个]?(?:excel|csv)|成文件|[个份]文件|导给"
    r"|导到|导一份|导成|拉一份|名录|通讯录|花名册|(?:客户|员工|用户|会员|学员|患者)们|各(?:个|位)"
    r"|\b(?:spreadsheet|table|csv|excel|file)\b",
    re.I,
)
_ONE_ID = re.compile(r"(?<![A-Za-z])[A-Za-z]{1,4}-?\d{2,}")
_PEOPLE = re.compile(
    r"客户|员工|用户|会员|同事|学员|患者|\b"
    r"(?:customers?|employees?|users?|members?|clients?|staff)\b",
    re.I,
)


def all_widening(spec: dict) -> list[Param]:
    """The parameters of ``spec`` whose absence makes the call reach everything."""
    return [param for param in params_of(spec) if widens_when_empty(param)]


def unscoped(spec: dict, arguments: dict, own_words: str) -> list[Param]:
    """The parameters left empty that would make this call reach everything the user did not name
    (see the module docstring); ``own_words`` is the request without its quoted content."""
    if ALL_WORDS.search(normalize(own_words)):
        return []
    return [
        param for param in all_widening(spec) if arguments.get(param.name) in (None, "", [], {})
    ]


def personal_data_in_bulk(text: str) -> str | None:
    """The sensitive data a request asks for about many people at once ("所有客户的银行卡号"), or
    None.
    """
    text = normalize(text)
    found = _SENSITIVE.findall(text)
    collected = (
        _COLLECTION.search(text) and _PEOPLE.search(text) and not _ONE_ID.search(text)
    )  # "把客户手机号汇总成一份表格发给我": every customer's, though no 所有 says so
    if not found or not (_BULK.search(text) or collected):
        return None
    return "、".join(dict.fromkeys(found))


def decline_personal_data(text: str, what: str, lang: str) -> str:
    """The refusal, in words: what cannot be done and why, and what can be asked instead."""
    people = _PEOPLE.search(normalize(text))
    if lang == "zh":
        who = people.group(0) if people and re.search(r"[\u4e00-\u9fff]", people.group(0)) else "人"
        return (
            f"抱歉，这个我不能办：{what}属于个人敏感信息，不能批量查询、导出或发送给任何人。"
            f"如果需要某一位{who}的资料，请告诉我编号，我按权限查询，敏感字段会打码。"
        )
    return (
        f"Sorry, I cannot do that: {what} is sensitive personal data and is never listed, exported"
        " or sent in bulk. For one person's record, give me their id and I will look it up within"
        " your permissions (sensitive fields stay masked)."
    )


__all__ = [
    "ALL_WORDS",
    "all_widening",
    "decline_personal_data",
    "personal_data_in_bulk",
    "unscoped",
]
