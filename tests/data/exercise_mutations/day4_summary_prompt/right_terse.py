"""Correct, short and with other words: 喜好 / 限制条件 / 待办 name the same kinds of information."""


def summary_prompt():
    return "摘要时保留：数字、人名、用户喜好、限制条件、决定、待办。"


ARGS = (summary_prompt,)
