"""手写 Agent — the companion package of a seven-day course on building an LLM tool-calling agent by hand.

Modules grow day by day (see the README's course map):

- ``config``     settings from ``.env`` / the environment, provider presets, the active backend (Day 1)
- ``llm``        ``ChatClient`` over the official ``openai`` SDK, ``connect()`` (Day 1)
- ``offline``    the course simulator and the OpenAI-compatible server that serves it (Day 1)
- ``prompting``, ``parsing``  tools rendered into a prompt; tool calls extracted from text (Day 2)
- ``tools``, ``agent``, ``scenarios``  the registry, the ReAct loop, demo tools (Day 3)

The package never evaluates model output as code, and every loop in it has a bound.
"""

__version__ = "0.1.0"
