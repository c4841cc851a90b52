"""Wrong: an English prompt that also names nothing to keep."""


def summary_prompt():
    return "Summarize the conversation below in a few sentences."


ARGS = (summary_prompt,)
