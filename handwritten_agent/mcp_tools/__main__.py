"""``python -m handwritten_agent.mcp_tools``: the same as ``python -m handwritten_agent
mcp-serve``.
"""

import sys

from ..course.cli.mcp import main
from .startup import skip_slow_optional_imports

if __name__ == "__main__":
    skip_slow_optional_imports()  # before the SDK (and jsonschema) are imported
    sys.exit(main())
