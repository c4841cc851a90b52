"""Wrong: a tight length limit ("不超过 60 字") forces the summary to drop most of what it should keep."""


def summary_prompt():
    return "总结下面的对话，保留事实和数字、人名、偏好、约束、决定和未完成的任务，不超过 60 字。"


ARGS = (summary_prompt,)
