"""Says only that the tool is unknown: the model is not told which names exist."""


def unknown_tool_message(name, valid_names):
    return f"未知工具：{name}，请检查工具名。"


ARGS = (unknown_tool_message,)
FAILS_AT = "拼错的工具名"
