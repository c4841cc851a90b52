"""Wrong: forgets constraints, so the allergy and "不喝咖啡" disappear."""


def summary_prompt():
    return "压缩下面的对话。保留数字、人名、用户的偏好、决定和待办事项，每条一行。"


ARGS = (summary_prompt,)
