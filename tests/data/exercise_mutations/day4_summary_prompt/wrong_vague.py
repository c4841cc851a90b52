"""Wrong: a vague prompt names nothing to keep; the summary is a gist and the details are gone."""


def summary_prompt():
    return "请简单总结一下这段对话，越短越好。"


ARGS = (summary_prompt,)
