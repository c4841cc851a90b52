"""Lower-cases the names before writing them (the called one and the list): a tool registered as
"Send_Email" or with full-width letters is offered under a name that does not exist."""


def unknown_tool_message(name, valid_names):
    if not valid_names:
        return f"没有叫 {name.lower()} 的工具，现在也没有任何可用的工具：请直接用文字回答。"
    return f"没有叫 {name.lower()} 的工具。可用的工具：{', '.join(n.lower() for n in valid_names)}"


FAILS_AT = "名字原样写"
ARGS = (unknown_tool_message,)
