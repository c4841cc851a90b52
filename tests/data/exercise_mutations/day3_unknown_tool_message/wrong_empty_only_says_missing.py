"""With no valid names, says only that the tool does not exist: the model is left to guess another name."""


def unknown_tool_message(name, valid_names):
    if not valid_names:
        return f"工具 {name} 不存在，无法调用。"
    return f"工具 {name} 不存在。可用的工具有：{', '.join(valid_names)}。"


ARGS = (unknown_tool_message,)
FAILS_AT = "一个工具也没有"
