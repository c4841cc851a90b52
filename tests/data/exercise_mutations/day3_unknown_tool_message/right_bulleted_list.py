"""Correct, in another style: the valid names as a bulleted list, and a separate sentence when there are none."""


def unknown_tool_message(name, valid_names):
    if len(valid_names) == 0:
        return f"找不到名为 “{name}” 的工具——目前一个工具都没有注册，请不要再调用工具，直接用文字回答。"
    bullets = "\n".join(f"- {valid}" for valid in sorted(valid_names))
    return f"找不到名为 “{name}” 的工具。请从下面的工具里选一个，名字要一字不差：\n{bullets}"


ARGS = (unknown_tool_message,)
