"""``python -m handwritten_agent.mcp_tools``: the same server as ``python -m handwritten_agent
mcp-serve`` (``cli``), with a fast start.
"""

import sys

from .cli import main
from .startup import skip_slow_optional_imports

if __name__ == "__main__":
    skip_slow_optional_imports()  # before the SDK (and jsonschema) are imported
    sys.exit(main())
