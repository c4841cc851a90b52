"""Writes the notebook's four tools into the message instead of using valid_names."""


def unknown_tool_message(name, valid_names):
    return f"工具 {name} 不存在。可用的工具有：calculator, get_current_time, get_weather, get_exchange_rate。"


ARGS = (unknown_tool_message,)
FAILS_AT = "拼错的工具名"
