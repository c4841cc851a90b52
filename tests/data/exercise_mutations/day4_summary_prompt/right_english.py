"""Correct, in English: it names every kind of information to keep."""


def summary_prompt():
    return ("Compress the earlier conversation into bullet points. Keep every fact and number, people's names, "
            "the user's preferences, constraints and limits, decisions, and open tasks. Do not invent anything.")


ARGS = (summary_prompt,)
