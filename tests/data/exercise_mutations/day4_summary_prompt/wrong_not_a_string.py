"""Wrong: returns the list of categories instead of a prompt string."""


def summary_prompt():
    return ["事实和数字", "人名", "偏好", "约束", "决定", "未完成的任务"]


ARGS = (summary_prompt,)
