"""Also requires no letter right before or after a number (?<![\dA-Za-z]): a phone number written right after 'Tel' or before 'ext' stays visible."""

import json
import re
from handwritten_agent.course.exercises.check.day5 import OFFICE_CLEARANCE_POLICY
from handwritten_agent.messages import ToolCall
from handwritten_agent.permissions import Level, User, approve, reject

def mask_personal(text: str) -> str:
    '''把 text 里的每个手机号和 18 位身份证号脱敏（保留前 3 位和后 4 位）。'''
    text = re.sub(r"(?<!\d)(\d{17}[\dXx])(?![\dXx])", lambda m: m.group(1)[:3] + "*" * 11 + m.group(1)[-4:], text)
    return re.sub(r"(?<![\dA-Za-z])(1[3-9]\d{9})(?![\dA-Za-z])", lambda m: m.group(1)[:3] + "****" + m.group(1)[-4:], text)


ARGS = (mask_personal,)
