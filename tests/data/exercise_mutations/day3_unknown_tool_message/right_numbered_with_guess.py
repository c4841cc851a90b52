"""Correct, numbered: a guess from difflib first, then every valid name on its own line; an empty list is "工具列表为空"."""

import difflib


def unknown_tool_message(name, valid_names):
    if not valid_names:
        return f"调用失败：{name} 并不是一个工具。本次对话的工具列表为空，请根据已有信息作答。"
    guess = difflib.get_close_matches(name, valid_names, n=1, cutoff=0.5)
    lines = [f"调用失败：{name} 并不是一个工具。" + (f"最接近的是 {guess[0]}。" if guess else "")]
    lines += [f"{number}. {valid}" for number, valid in enumerate(valid_names, 1)]
    return "\n".join(lines)


ARGS = (unknown_tool_message,)
