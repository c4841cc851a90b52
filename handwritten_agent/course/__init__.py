"""The course's machinery — what runs the course, not what it teaches.

You do not need to read this package to follow the seven days; the modules a learner reads are the
ones beside it in ``handwritten_agent/``. Here live:

- ``offline``     the OpenAI-compatible server and its backends: the course simulator (a
                  deterministic rule engine, not an LLM) and the local llama.cpp model
- ``background``  ``BackgroundServer``: an ASGI app served by uvicorn in a background thread (the
                  offline server, the service)
- ``exercises``   the exercise builder (solutions → exercises) and the checkers behind every check
                  cell
- ``evaluation``  scoring the office assistant on requests with known outcomes (pass^k)
- ``checklist``   the release checklist as a command (run in the appendix notebook)
- ``bench``       the benchmarks behind the README's figures
- ``cli``         ``python -m handwritten_agent …``
- ``postgres``    a throw-away PostgreSQL server (the service's tests, the appendix notebook
                  ``appendix_after_launch.ipynb``)
- ``doctor``      ``python -m handwritten_agent doctor``: does a server give its model the tools?
"""
