"""The four permission levels (reference article 003's L0–L3) and the traffic-light tiers (article
001) as one model.

- L0 无权限: 模型看不到，也调用不了 — 内部管理接口、导出全部客户、扣款转账 — 禁止接入
- L1 只读: 只查询，没有副作用 — 查会议室、查客户、读邮件 — 直接执行
- L2 低风险操作: 有副作用，但范围小：一次只涉及少数对象 — 订会议室、提交采购申请、
  给几位客户发短信 — 发起人确认一次
- L3 高风险操作: 影响大：以公司名义的通知、一次影响很多人 — 发通知邮件、群发短信、删除数据
  — 审批人批准

(level, name: what marks it — typical tools — who decides)

L2 and L3 are told apart by reach, not by whether the act can be undone: a text message cannot be
unsent, yet three texts and a hundred and twenty are different risks. So a few texts are L2, and the
policy's bulk limit (``Policy``) raises a send to many recipients — or many small sends that add up
— to L3.

Article 001 sorts tools into yellow (read-only: the model may call them), red (side effects: a
person confirms or approves) and black (money, accounts, privacy: never called by the model, only
through a dedicated gateway). Here yellow is L1, red is L2 and L3, black is L0. The two articles
disagree on money: article 003 lists 扣款 as L3 (approved by a person), article 001 puts funds in
the black tier. The course follows 001: moving money is L0 (no model tool at all); privacy in bulk
(exporting every customer) is L0, while reading one record is L1 because its personal data is masked
before the model sees it.

A level belongs to a tool, and a role may change it (``Policy``): the same email tool is L3 for an
assistant and L1 for an administrator.

``Level`` is a ``str`` enum, so ``Level.L2 == "L2"``: a tool's ``level`` (text, kept by Day 3's
``tools``) compares equal to it.

Left out: levels between these four, and levels that relax with a user's history (article 003's "动
态权限升级" lowers the confirmation for someone who confirmed the same thing often — exactly what an
injected request would ride on). The rules that raise a level with the situation are ``Policy``
rules instead: bulk limits, counted across calls, and untrusted text in the run (``PolicyGate``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from ..tools import level_name


class Level(str, Enum):
    """A tool's permission level. Ordered: ``Level.L1 < Level.L3``."""

    L0 = "L0"
    L1 = "L1"
    L2 = "L2"
    L3 = "L3"

    @property
    def rank(self) -> int:
        return int(self.value[1])

    def __lt__(self, other: object) -> bool:
        return self.rank < Level.of(other).rank

    def __le__(self, other: object) -> bool:
        return self.rank <= Level.of(other).rank

    def __gt__(self, other: object) -> bool:
        return self.rank > Level.of(other).rank

    def __ge__(self, other: object) -> bool:
        return self.rank >= Level.of(other).rank

    def __str__(self) -> str:
        return self.value

    @classmethod
    def of(cls, value: Any) -> Level:
        """``Level.L2``, ``"L2"``, ``"l2"`` or ``2`` → ``Level.L2``; anything else raises
        ``ValueError`` in Chinese (``tools.level_name``: one reading of a level for both).
        """
        return value if isinstance(value, Level) else cls(level_name(value))

    @property
    def info(self) -> LevelInfo:
        return LEVELS[self]

    @property
    def label(self) -> str:
        """Level and Chinese name, e.g. "L2 低风险操作"."""
        return f"{self.value} {self.info.name}"


@dataclass(frozen=True)
class LevelInfo:
    name: str
    trait: str
    examples: str
    approval: str
    tier: str
    color: str
    """A colour for the level badge on a confirmation card."""


LEVELS: dict[Level, LevelInfo] = {
    Level.L0: LevelInfo(
        "无权限",
        "模型看不到，也调用不了",
        "内部管理接口、导出全部客户、扣款转账",
        "禁止接入",
        "黑色",
        "#374151",
    ),
    Level.L1: LevelInfo(
        "只读", "只查询，没有副作用", "查会议室、查客户、读邮件", "直接执行", "黄色", "#ca8a04"
    ),
    Level.L2: LevelInfo(
        "低风险操作",
        "有副作用，但范围小：一次只涉及少数对象",
        "订会议室、提交采购申请、给几位客户发短信",
        "发起人确认一次",
        "红色",
        "#ea580c",
    ),
    Level.L3: LevelInfo(
        "高风险操作",
        "影响大：以公司名义的通知、一次影响很多人",
        "发通知邮件、群发短信、删除数据",
        "审批人批准",
        "红色",
        "#dc2626",
    ),
}


def level_table() -> list[dict[str, str]]:
    """The reference articles' table as rows (级别, 名称, 特征, 典型工具, 审批要求, 分级颜色)."""
    return [
        {
            "级别": level.value,
            "名称": info.name,
            "特征": info.trait,
            "典型工具": info.examples,
            "审批要求": info.approval,
            "分级颜色": info.tier,
        }
        for level, info in LEVELS.items()
    ]


__all__ = ["LEVELS", "Level", "LevelInfo", "level_table"]
