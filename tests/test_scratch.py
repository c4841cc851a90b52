"""A notebook's scratch folder is new each run and gone once its kernel (here: a Python process)
exits normally."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from handwritten_agent.course.scratch import scratch_folder


def test_a_scratch_folder_is_new_and_deleted_with_its_contents_when_the_process_exits() -> None:
    code = (
        "from handwritten_agent.course.scratch import scratch_folder\n"
        "folder = scratch_folder('test_scratch_')\n"
        "(folder / 'inner').mkdir()\n"
        "(folder / 'inner' / 'trace.jsonl').write_text('{}')\n"
        "print(folder)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    folder = Path(done.stdout.strip())
    assert folder.name.startswith("test_scratch_")
    assert not folder.exists()


def test_two_scratch_folders_are_different_and_empty() -> None:
    one, two = scratch_folder("test_scratch_"), scratch_folder("test_scratch_")
    assert one != two
    assert list(one.iterdir()) == [] and list(two.iterdir()) == []
