"""Wrong: an empty prompt."""


def summary_prompt():
    return ""


ARGS = (summary_prompt,)
