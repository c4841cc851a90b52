"""Does not treat an empty list specially: the message ends in "可用的工具有：。"."""


def unknown_tool_message(name, valid_names):
    return f"工具 {name} 不存在。可用的工具有：{'、'.join(valid_names)}。"


ARGS = (unknown_tool_message,)
FAILS_AT = "一个工具也没有"
