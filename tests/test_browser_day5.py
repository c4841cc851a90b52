"""The Day 5 confirmation card in a real browser: JupyterLab + headless Chromium, a person's click resumes the run.

The test starts JupyterLab on a free port with a copy of the Day 5 notebook (outputs cleared), opens it
in Debian's Chromium driven by Playwright (the system browser, never a downloaded one), runs the cells
up to the first card, clicks 批准 in the page and checks that the run resumed (its rest is printed
under the card) and that the booking row is in the SQLite database the notebook created. Then it
runs the card's cell again, types a reason, clicks 拒绝, and checks the rejection reached the model and
no booking was added. A screenshot of the card is saved to ``tests/artifacts/day5_card.png``.

JupyterLab itself must greet the learner in Simplified Chinese, with no news pop-up.

Skipped, with the reason, when Chromium or Playwright is not installed (``.ci/browser-setup`` installs
Chromium; Playwright comes with the ``dev`` extra).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import time
import uuid
from pathlib import Path

import httpx
import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = ROOT / "notebooks" / "day5_permissions.ipynb"
ARTIFACTS = ROOT / "tests" / "artifacts"
CHROMIUM = next((path for path in (os.environ.get("CHROMIUM_PATH"), "/usr/bin/chromium", shutil.which("chromium"),
                                   shutil.which("chromium-browser")) if path and Path(path).exists()), None)
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync"]

try:
    from playwright.sync_api import expect, sync_playwright
except ImportError:  # pragma: no cover - depends on the machine
    sync_playwright = None

pytestmark = [
    pytest.mark.skipif(CHROMIUM is None, reason="no Chromium found: the Day 5 browser test needs Debian's chromium package "
                                                "(run `bash .ci/browser-setup`, or set CHROMIUM_PATH)"),
    pytest.mark.skipif(sync_playwright is None, reason="Playwright for Python is not installed: pip install -e '.[dev]'"),
]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def lab(tmp_path):
    """JupyterLab on a free port, serving a copy of the Day 5 notebook with its outputs cleared; stopped afterwards."""
    root, sandbox = tmp_path / "lab", tmp_path / "sandbox"
    root.mkdir()
    sandbox.mkdir()
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    for cell in notebook.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    notebook.metadata.pop("widgets", None)
    nbformat.write(notebook, root / NOTEBOOK.name)
    first_card = next(i for i, cell in enumerate(notebook.cells) if "first-card" in cell.metadata.get("tags", []))
    paused_run = max(i for i, cell in enumerate(notebook.cells[:first_card]) if cell.cell_type == "code")  # the agent.run(...) cell

    (tmp_path / "config").mkdir()  # the learner's own Jupyter settings stay out of it: only the course's environment counts
    port, token = _free_port(), uuid.uuid4().hex
    env = {**os.environ, "LLM_PROVIDER": "offline", "TMPDIR": str(sandbox), "JUPYTER_RUNTIME_DIR": str(tmp_path / "runtime"),
           "JUPYTERLAB_WORKSPACES_DIR": str(tmp_path / "workspaces"), "JUPYTER_CONFIG_DIR": str(tmp_path / "config")}
    command = [sys.executable, "-m", "jupyter", "lab", "--no-browser", f"--port={port}", "--ServerApp.ip=127.0.0.1",
               f"--ServerApp.root_dir={root}", f"--IdentityProvider.token={token}", "--LabApp.expose_app_in_browser=True"]
    if hasattr(os, "getuid") and os.getuid() == 0:
        command.append("--allow-root")
    log = open(tmp_path / "jupyter.log", "w")
    server = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT, cwd=root)
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/api/status", params={"token": token}, timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if server.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"JupyterLab did not start:\n{(tmp_path / 'jupyter.log').read_text()[-3000:]}")
            time.sleep(0.5)
        yield {"url": f"http://127.0.0.1:{port}/lab/tree/{NOTEBOOK.name}?token={token}&reset", "sandbox": sandbox,
               "first_card": first_card, "paused_run": paused_run, "log": tmp_path / "jupyter.log"}
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()


KERNEL_IDLE = """() => {
    const app = window.jupyterapp;
    const panel = app && app.shell.currentWidget;
    const kernel = panel && panel.sessionContext && panel.sessionContext.session && panel.sessionContext.session.kernel;
    return Boolean(kernel && kernel.status === 'idle' && panel.content && panel.content.widgets.length > 0);
}"""

RUN_UP_TO = """async (index) => {
    const app = window.jupyterapp;
    const panel = app.shell.currentWidget;
    panel.content.activeCellIndex = index;
    if (index > 0) { await app.commands.execute('notebook:run-all-above'); }
    panel.content.activeCellIndex = index;
    await app.commands.execute('notebook:run-cell');
}"""


RUN_CELL = """async (index) => {
    const app = window.jupyterapp;
    app.shell.currentWidget.content.activeCellIndex = index;
    await app.commands.execute('notebook:run-cell');
}"""


def _bookings(sandbox: Path) -> tuple[Path, list[tuple]]:
    databases = sorted(sandbox.glob("office_*/office.sqlite"))
    assert len(databases) == 1, f"expected the one office database the notebook created before the card, found {databases}"
    with sqlite3.connect(databases[0]) as db:
        return databases[0], db.execute("SELECT room_id, start_time, booked_by FROM bookings WHERE room_id = 'room_301'").fetchall()


def test_card_in_jupyterlab_approve_then_reject(lab):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_FLAGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.set_default_timeout(120_000)
            page.goto(lab["url"])
            page.wait_for_function(KERNEL_IDLE, timeout=120_000)

            # JupyterLab greets the learner in Chinese (the course environment's overrides.json) and asks about no news
            expect(page.locator(".lm-MenuBar-itemLabel", has_text="文件")).to_be_visible()
            expect(page.locator(".lm-MenuBar-itemLabel", has_text="运行")).to_be_visible()
            assert page.locator(".lm-MenuBar-itemLabel", has_text="File").count() == 0
            assert page.locator(".jp-toast-message, .Toastify__toast").filter(has_text="news").count() == 0
            assert page.locator(".jp-toast-message, .Toastify__toast").filter(has_text="新闻").count() == 0

            # run the cells up to the first card, as a learner would
            page.evaluate(RUN_UP_TO, lab["first_card"])
            card = page.locator(".ha-confirmation-card").first
            expect(card).to_be_visible()
            expect(card).to_contain_text("book_meeting_room")
            expect(card).to_contain_text("将预订会议室 room_301")
            card.scroll_into_view_if_needed()
            card.screenshot(path=str(ARTIFACTS / "day5_card.png"))
            database, before = _bookings(lab["sandbox"])
            assert before == []

            # click 批准 in the page: the kernel resumes the run and prints the rest under the card
            card.get_by_role("button", name="批准").click()
            output = page.locator(".ha-confirmation-output").first
            expect(output).to_contain_text("全部决定，继续运行")
            expect(output).to_contain_text("用户已确认")
            expect(output).to_contain_text("结束：stop_reason=final")
            expect(card).to_contain_text("已批准")
            assert _bookings(lab["sandbox"])[1] == [("room_301", "2026-03-13 15:00", "E001")]

            # the same request again (its cell, then the card's cell): a new paused run, a new card; type a reason, click 拒绝.
            # (Re-running only the card's cell would show the request already approved: the gate answers "已经执行过一次".)
            page.wait_for_function(KERNEL_IDLE)
            page.evaluate(RUN_CELL, lab["paused_run"])
            page.evaluate(RUN_CELL, lab["first_card"])
            card = page.locator(".ha-confirmation-card").first
            expect(card.get_by_role("button", name="拒绝")).to_be_enabled()
            card.locator("input").fill("浏览器里拒绝：这间已经订过了")
            card.get_by_role("button", name="拒绝").click()
            output = page.locator(".ha-confirmation-output").first
            expect(output).to_contain_text("已拒绝")
            expect(output).to_contain_text("结束：stop_reason=final")
            expect(card).to_contain_text("已拒绝：浏览器里拒绝：这间已经订过了")
            assert _bookings(lab["sandbox"])[1] == [("room_301", "2026-03-13 15:00", "E001")]  # nothing added
            with sqlite3.connect(database.parent / "audit.sqlite") as db:
                decisions = db.execute("SELECT decision, reason FROM audit WHERE tool = 'book_meeting_room' ORDER BY id").fetchall()
            assert [d for d, _ in decisions] == ["asked", "confirmed", "asked", "rejected"]
            assert decisions[-1][1] == "浏览器里拒绝：这间已经订过了"
        except Exception:
            page.screenshot(path=str(ARTIFACTS / "day5_failure.png"), full_page=True)
            print(json.dumps({"jupyter_log_tail": lab["log"].read_text()[-2000:]}, ensure_ascii=False))
            raise
        finally:
            browser.close()
