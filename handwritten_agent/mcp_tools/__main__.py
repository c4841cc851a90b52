"""``python -m handwritten_agent.mcp_tools``: the same as ``python -m handwritten_agent
mcp-serve``.
"""

import sys

from ..course.cli.mcp import main

if __name__ == "__main__":
    sys.exit(main())
