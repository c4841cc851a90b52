"""Lower-cases and width-folds the tool name before the lookup: READ_EMAIL or ｒｅａｄ_email is let
through as read_email, though only the exact name is a known tool."""

import json

from handwritten_agent.permissions import Level


def check_clearance(call, user, policy):
    def deny(reason):
        return ("deny", None, reason)

    try:
        role = getattr(user, "role", None)
        clearance = policy["clearance"].get(role)
        import unicodedata
        level = policy["levels"].get(unicodedata.normalize("NFKC", call.name).lower())
        known = {"L0", "L1", "L2", "L3"}
        rules = [
            (clearance not in known, "这个角色没有许可级别"),
            (level not in known, "没有这个工具，或它的级别写错了"),
            (level == "L0", "L0：模型不能用"),
        ]
        for broken, reason in rules:
            if broken:
                return deny(reason)
        if Level.of(level) > Level.of(clearance):
            return deny(f"{level} 超出许可级别 {clearance}")
        arguments = json.loads(call.arguments)
        if type(arguments) is not dict:
            return deny("参数要是 JSON 对象")
        sizes = (len(value) for value in arguments.values() if isinstance(value, list))
        targets = max(sizes, default=1)
        limit = policy["bulk_limits"].get(call.name)
        if limit is not None and targets > limit:
            return ("ask", "L3", "批量超过上限，交给审批人")
        if level != "L1":
            return ("ask", level, "有副作用，需要有人点头")
        return ("allow", "L1", "只读")
    except Exception:
        return deny("检查不了，就不执行")


ARGS = (check_clearance,)
FAILS_AT = '名字相近'
