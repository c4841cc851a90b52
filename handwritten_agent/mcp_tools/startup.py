"""A fast start for a process that only serves MCP: skip optional imports that cost seconds.

Importing the SDK imports ``jsonschema``, which imports ``rfc3987_syntax`` when it is installed
(Jupyter's dependencies install it): that module builds a grammar at import, about 3.5 s of CPU —
most of a server child's start. It only adds the ``iri`` and ``iri-reference`` formats to
``jsonschema``'s ``FormatChecker``, which neither the course's validation nor the served tools use.
``skip_slow_optional_imports()`` marks it absent (``sys.modules[name] = None``, so importing it
raises ``ImportError``, which ``jsonschema`` expects for an optional module). Call it first thing in
a server's entry point, before anything imports ``jsonschema``; it does nothing afterwards.

Left out: doing this in a notebook kernel or any library import — only a process started to serve
MCP opts in.
"""

from __future__ import annotations

import sys

SLOW_OPTIONAL_MODULES = ("rfc3987_syntax",)


def skip_slow_optional_imports() -> list[str]:
    """Mark ``SLOW_OPTIONAL_MODULES`` absent unless ``jsonschema`` or they are already imported;
    return the names marked."""
    if "jsonschema" in sys.modules:
        return []
    marked = [name for name in SLOW_OPTIONAL_MODULES if name not in sys.modules]
    for name in marked:
        sys.modules[name] = None  # type: ignore[assignment]  # import raises ImportError
    return marked


__all__ = ["SLOW_OPTIONAL_MODULES", "skip_slow_optional_imports"]
