"""``python -m handwritten_agent …``: the course's command line (``course.cli``)."""

import sys

from .course.cli import main

if __name__ == "__main__":
    sys.exit(main())
