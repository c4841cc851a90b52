"""Returns the course package's own get_exchange_rate instead of writing a tool."""

from handwritten_agent.scenarios import get_exchange_rate


def build_exchange_tool():
    return get_exchange_rate


ARGS = (build_exchange_tool,)
FAILS_AT = "用 @tool 定义工具"
