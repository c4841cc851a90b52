"""Wrong: asks for everything but the user's preferences, so "靠窗的座位" and "讨厌早上的航班" are lost."""


def summary_prompt():
    return "压缩下面的对话。保留事实和数字、人名、约束和限制条件、已经做出的决定、未完成的任务，每条一行。"


ARGS = (summary_prompt,)
