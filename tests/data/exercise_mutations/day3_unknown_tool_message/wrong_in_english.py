"""Lists the valid names, but in English."""


def unknown_tool_message(name, valid_names):
    return f"Unknown tool {name}. Valid tools: {', '.join(valid_names)}"


ARGS = (unknown_tool_message,)
FAILS_AT = "拼错的工具名"
