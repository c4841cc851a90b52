"""Wrong: caches the message by the unknown name alone — the same wrong name with another tool list gets
the first list back."""

_messages = {}


def unknown_tool_message(name, valid_names):
    if name not in _messages:
        if valid_names:
            _messages[name] = f"工具 {name} 不存在。可用的工具有：{', '.join(valid_names)}。请从中选择一个再调用。"
        else:
            _messages[name] = f"工具 {name} 不存在，当前没有任何可用的工具，请直接回答用户。"
    return _messages[name]


ARGS = (unknown_tool_message,)
FAILS_AT = "换一组可用工具"
