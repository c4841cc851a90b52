"""The pictures: drawn by scripts/diagrams.py, committed as they are drawn, well-formed, and shown
by the notebooks.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
IMAGES = ROOT / "notebooks" / "images"
IMAGE_LINK = re.compile(r"!\[[^\]]*\]\((images/[^)\s]+)\)")


def test_committed_pictures_are_what_the_script_draws():
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "diagrams.py"), "--check"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_pictures_are_well_formed_svg_with_a_title():
    pictures = sorted(IMAGES.glob("*.svg"))
    assert len(pictures) >= 3
    for path in pictures:
        root = ET.parse(path).getroot()
        assert root.tag == "{http://www.w3.org/2000/svg}svg", path.name
        title = root.find("{http://www.w3.org/2000/svg}title")
        assert title is not None and title.text and re.search(r"[\u4e00-\u9fff]", title.text), (
            path.name
        )


def test_every_picture_is_shown_and_every_link_resolves():
    linked = set()
    for notebook in (ROOT / "notebooks").glob("*.ipynb"):
        for cell in json.loads(notebook.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] == "markdown":
                for link in IMAGE_LINK.findall("".join(cell["source"])):
                    assert (ROOT / "notebooks" / link).is_file(), (
                        f"{notebook.name} links to missing {link}"
                    )
                    linked.add(link)
    assert {f"images/{path.name}" for path in IMAGES.glob("*.svg")} <= linked
