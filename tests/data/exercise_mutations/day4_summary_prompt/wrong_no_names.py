"""Wrong: names every kind of information except people's names."""


def summary_prompt():
    return "把较早的对话压缩成要点：保留数字和金额、用户的偏好、约束、决定、未完成的任务。"


ARGS = (summary_prompt,)
