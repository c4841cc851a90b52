"""Correct: the valid names on one line; with none, "现在一个工具也没有" and an instruction to answer directly."""


def unknown_tool_message(name, valid_names):
    if not valid_names:
        return f"没有叫 {name} 的工具。现在一个工具也没有，你不能再调用任何工具，请直接回答用户。"
    return f"没有叫 {name} 的工具。你能用的只有这些：{'、'.join(valid_names)}（名字要完全一样）。"


ARGS = (unknown_tool_message,)
