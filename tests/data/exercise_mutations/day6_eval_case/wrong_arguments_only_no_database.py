"""Checks only words in the answer (no expected arguments, no database): an agent that books the wrong time but names the room passes."""

from handwritten_agent.course.evaluation import EvalCase
from handwritten_agent.course.exercises.check.day6 import EVAL_REQUEST


def make_case():
    return EvalCase("book_weekly", EVAL_REQUEST, "预订", decide="approve",
                    expected_calls=[],
                    answer_facts=["room_302", "BK0002"])


FAILS_AT = "订错了时间"
ARGS = (make_case,)
