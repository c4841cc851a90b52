"""手写 Agent — the companion package of a seven-day course on building an LLM tool-calling agent by
hand.

The modules a learner reads, day by day (see the README's course map):

- Day 1  ``config``    settings from ``.env`` / the environment, provider presets, the active
                       backend
         ``llm``       ``ChatClient`` over the official ``openai`` SDK (errors, stream, retry,
                       client), ``connect()``
         ``messages``  the shapes every backend is reduced to (``ChatResult``, ``ToolCall``) and a
                       call's identity
- Day 2  ``prompting`` tools rendered into a system prompt; ``parsing`` tool calls read out of a
         model's text (blocks, repair, calls, react); ``jsontext`` bounded JSON loading and its
         errors in Chinese; ``tokens`` the token estimate
- Day 3  ``tools``     ``@tool``, the registry, validated dispatch, the ``{success, data, error}``
                       result
         ``agent``     the ReAct loop; ``run`` what a run is made of; ``hooks`` how later days
                       attach;
         ``display`` showing a run; ``scripted`` fake models; ``scenarios`` demo tools on real data
- Day 4  ``memory``    rounds, a window that never splits a tool call, summaries, long-term memory
                       per user
- Day 5  ``permissions`` levels L0–L3, a policy per role, the gate, the audit log; ``confirmation``
         what a paused call shows; ``masking`` personal data; ``widgets`` the confirmation card;
         ``storage`` SQLite
- Day 6  ``tracing``   a JSONL trace of every event, redaction, cost and budget, diagnosis, replay
- Day 7  ``service``   the office assistant as a FastAPI service
- Appendix ``fallback`` a second model (``appendix_after_launch.ipynb``, 上线之后, with the
         release checklist, the load run and scaling out); its section 6, moved there from Day 6:
         ``tool_cache`` caching read-only tools, ``tracing.otel`` and ``tracing.html`` a trace as
         OpenTelemetry spans and as an offline page

``text`` (short text, aligned tables) serves all of them. ``course/`` is the course's machinery —
the offline simulator and server, the local model, the exercise checkers, the evaluation, the
release checklist, the benchmarks and the command line (``python -m handwritten_agent …``): you do
not need to read it to follow the course.

The package never evaluates model output as code, and every loop in it has a bound.
"""

__version__ = "0.1.0"
