"""Wrong: the tutorial's prompt asks only for key facts and open tasks, so preferences, names and constraints are lost."""


def summary_prompt():
    return "把下面的对话压缩成要点，保留关键事实和未完成的任务。"


ARGS = (summary_prompt,)
