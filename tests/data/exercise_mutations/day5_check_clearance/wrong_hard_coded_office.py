"""Reads the office roles and tools from its own dict instead of the policy passed in (only the bulk limits come from it)."""

import json

LEVEL_RANK = {"L0": 0, "L1": 1, "L2": 2, "L3": 3}

OFFICE_CLEARANCE = {"实习生": "L1", "普通员工": "L2", "行政主管": "L3"}
OFFICE_LEVELS = {"query_room_availability": "L1", "read_email": "L1", "query_customer_info": "L1", "book_meeting_room": "L2",
                 "submit_purchase_request": "L2", "send_sms_to_customers": "L2", "send_notification_email": "L3", "export_customer_list": "L0"}


def check_clearance(call, user, policy):
    try:
        clearance = OFFICE_CLEARANCE.get(user.role) if user is not None else None
        if clearance not in LEVEL_RANK:
            return "deny", None, "没有许可级别"
        level = OFFICE_LEVELS.get(call.name)
        if level not in LEVEL_RANK or level == "L0":
            return "deny", None, "不能使用"
        if LEVEL_RANK[level] > LEVEL_RANK[clearance]:
            return "deny", None, "超出许可级别"
        arguments = json.loads(call.arguments)
        if not isinstance(arguments, dict):
            return "deny", None, "参数不是 JSON 对象"
        targets = max([len(v) for v in arguments.values() if isinstance(v, list)], default=1)
        limit = policy["bulk_limits"].get(call.name)
        if limit is not None and targets > limit:
            return "ask", "L3", "超过批量上限"
        if level == "L3":
            return "ask", "L3", "需要审批人批准"
        if level == "L2":
            return "ask", "L2", "需要发起人确认"
        return "allow", "L1", "只读"
    except Exception:
        return "deny", None, "检查出错"


FAILS_AT = "没见过的角色"
ARGS = (check_clearance,)
