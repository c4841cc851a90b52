"""With no valid names, tells the model to pick another tool — there is none to pick."""


def unknown_tool_message(name, valid_names):
    if not valid_names:
        return f"{name} 这个工具名不对，请换一个工具再试。"
    return f"{name} 这个工具名不对，请从这些里选：{', '.join(valid_names)}。"


ARGS = (unknown_tool_message,)
FAILS_AT = "一个工具也没有"
