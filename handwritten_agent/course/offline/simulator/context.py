"""The earlier conversation, applied to this turn's plan: the one place the planner's result is
revised.

``plan_turn`` reads only the latest user request and the results since. A conversation says more:
an earlier result the request points at, an earlier call it continues, memories and a summary put
into the prompt, facts the user stated rounds ago. ``revise`` applies, in order,

1. ``references.with_result_number`` — "刚才那个结果乘以 2" planned as "153 乘以 2";
2. ``references.carry_over`` — "那上海呢？" as the latest ``get_weather`` call with the new city;
3. ``known.answer_from_known`` — a missing argument filled from what is known, a question answered
   from it, a statement acknowledged.

Each step leaves the plan alone when its rule does not apply, so a single-turn request is planned
exactly as before. Left out: everything the planner does itself.
"""

from __future__ import annotations

from typing import Any

from .known import answer_from_known
from .planner import Plan, PlannedCall, plan_turn
from .references import carry_over, with_result_number


def revise(
    plan: Plan,
    user_text: str,
    specs: list[dict[str, Any]],
    results: list[tuple[PlannedCall, str]],
    messages: list[dict[str, Any]],
    options: dict[str, Any],
) -> Plan:
    """This turn's plan with the earlier conversation taken into account (see the module
    docstring).
    """
    if len(messages) < 2 or options.get("tool_choice") not in (None, "auto", "none"):
        return plan  # a single message has no earlier rounds; a forced call is the planner's alone
    rewritten = with_result_number(user_text, messages)
    if rewritten is not None:
        again = plan_turn(rewritten, specs, results, **options)
        if again.kind in ("call", "final"):
            return again
    if specs and options.get("tool_choice") != "none":
        plan = carry_over(
            plan,
            user_text,
            specs,
            results,
            messages,
            parallel=options.get("parallel", True),
            now=options["now"],
        )
    return answer_from_known(
        plan, user_text, messages, lambda text: plan_turn(text, specs, results, **options)
    )


__all__ = ["revise"]
