"""Returns the list of valid names itself instead of a message."""


def unknown_tool_message(name, valid_names):
    return list(valid_names)


ARGS = (unknown_tool_message,)
FAILS_AT = "拼错的工具名"
