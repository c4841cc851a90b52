"""Checks the arguments and the answer but not the database: an agent that books nothing and says it did passes."""

from handwritten_agent.evaluation import EvalCase, ExpectedCall
from handwritten_agent.exercises.check.day7 import EVAL_REQUEST


def make_case():
    return EvalCase("book_weekly", EVAL_REQUEST, "预订", decide="approve",
                    expected_calls=[],
                    answer_facts=["room_302", "BK0002"])


ARGS = (make_case,)
