"""Lists the tool names and the reply format, nothing about what each tool does."""


def render_tool_prompt(tools):
    return "可用工具：" + "、".join(spec["name"] for spec in tools) + '。调用时输出 {"name": …, "arguments": …}，不需要工具就直接回答。'


ARGS = (render_tool_prompt,)
FAILS_AT = "描述"
