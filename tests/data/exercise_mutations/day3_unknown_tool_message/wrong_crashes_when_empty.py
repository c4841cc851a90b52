"""Always suggests valid_names[0]: with no tools at all it raises IndexError."""


def unknown_tool_message(name, valid_names):
    return f"工具 {name} 不存在，你是不是想用 {valid_names[0]}？可用的工具：{', '.join(valid_names)}。"


ARGS = (unknown_tool_message,)
FAILS_AT = "一个工具也没有"
