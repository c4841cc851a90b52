"""The Day 5 confirmation cards in a real browser, as a learner clicks them: JupyterLab + headless
Chromium.

The test starts JupyterLab on a free port with a copy of the Day 5 notebook *as committed* (its
outputs and saved widget state) and opens it in Debian's Chromium driven by Playwright (the system
browser, never a downloaded one). Then, like a learner:

1. JupyterLab greets them in Simplified Chinese, with no news pop-up.
2. Opened as committed, the cards are not shown until the notebook is trusted (JupyterLab does not
   render interactive outputs it did not produce) — the notebook's first cell says so and what to
   do; after「信任笔记本」 the saved cards show, decided as they were saved, without running
   anything.
3. The first card: run the cells up to it, click 批准, then press Shift+Enter on the card's own
   cell. The cell shows the *same*, decided card (not a new card for a request already answered),
   its status line says the run has ended, the cell that clicks for Run All says the card was
   decided already, the next cell checks the booking without an error, and the database has exactly
   one booking. Then, to see a rejection as well, the cell that pauses and the card's cell run again
   and the new card is rejected: the check looks only at what this decision added, so the booking
   the approval made raises no AssertionError.
4. The rejection card: type a reason of one's own and click 拒绝; the reason reaches the model and
   the audit log, no booking is made, the following cells pass. Then the same section again,
   clicking 批准 instead of拒绝: the cells after it still pass and say what happened.
5. The L3 card for someone without the approver role: 批准 is disabled and the card says who may
   approve; clicking 交给 李丽（行政主管）审批 shows 李丽's card, which offers no 交给 to
   herself; her 批准 runs the email once, named in the output. Then the same section again, 张明
   withdrawing the new request with 拒绝: the check looks only at this run's outbox rows, not at
   the email 李丽 approved.

No cell may end in a traceback anywhere on these paths. Screenshots go to ``tests/artifacts/``.

Skipped, with the reason, when Chromium or Playwright is not installed (``.ci/browser-setup``
installs Chromium; Playwright comes with the ``dev`` extra).
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
CHROMIUM = next(
    (
        path
        for path in (
            os.environ.get("CHROMIUM_PATH"),
            "/usr/bin/chromium",
            shutil.which("chromium"),
            shutil.which("chromium-browser"),
        )
        if path and Path(path).exists()
    ),
    None,
)
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

try:
    from playwright.sync_api import expect, sync_playwright

    # a kernel on a busy two-core machine (CI runs two test suites side by side) can take far longer
    # than Playwright's 5 s default to answer a click: every expect waits for the state, up to 2 min
    expect.set_options(timeout=120_000)
except ImportError:  # pragma: no cover - depends on the machine
    sync_playwright = None

pytestmark = [
    pytest.mark.skipif(
        CHROMIUM is None,
        reason=(
            "no Chromium found: the Day 5 browser test needs Debian's chromium package "
            "(run `bash .ci/browser-setup`, or set CHROMIUM_PATH)"
        ),
    ),
    pytest.mark.skipif(
        sync_playwright is None,
        reason="Playwright for Python is not installed: pip install -e '.[dev]'",
    ),
]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _tagged(notebook: nbformat.NotebookNode, tag: str) -> int:
    return next(i for i, cell in enumerate(notebook.cells) if tag in cell.metadata.get("tags", []))


@pytest.fixture
def lab(tmp_path):
    """JupyterLab on a free port, serving a copy of the committed Day 5 notebook; stopped
    afterwards.
    """
    root, sandbox = tmp_path / "lab", tmp_path / "sandbox"
    root.mkdir()
    sandbox.mkdir()
    shutil.copy(NOTEBOOK, root / NOTEBOOK.name)
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    cells = {
        tag: _tagged(notebook, tag)
        for tag in (
            "first-card",
            "click-approve",
            "after-first-card",
            "reject-card",
            "click-reject",
            "after-reject",
            "l3-card",
            "l3-click",
            "after-l3",
        )
    }
    cells["code"] = [i for i, cell in enumerate(notebook.cells) if cell.cell_type == "code"]

    (
        tmp_path / "config"
        # the learner's own Jupyter settings stay out of it: only the course's environment counts
    ).mkdir()
    port, token = _free_port(), uuid.uuid4().hex
    env = {
        **os.environ,
        "LLM_PROVIDER": "offline",
        "TMPDIR": str(sandbox),
        "JUPYTER_RUNTIME_DIR": str(tmp_path / "runtime"),
        "JUPYTERLAB_WORKSPACES_DIR": str(tmp_path / "workspaces"),
        "JUPYTER_CONFIG_DIR": str(tmp_path / "config"),
        "JUPYTER_DATA_DIR": str(tmp_path / "data"),
    }  # a notebook trust database of its own: this notebook starts untrusted
    command = [
        sys.executable,
        "-m",
        "jupyter",
        "lab",
        "--no-browser",
        f"--port={port}",
        "--ServerApp.ip=127.0.0.1",
        f"--ServerApp.root_dir={root}",
        f"--IdentityProvider.token={token}",
        "--LabApp.expose_app_in_browser=True",
    ]
    if hasattr(os, "getuid") and os.getuid() == 0:
        command.append("--allow-root")
    log = open(tmp_path / "jupyter.log", "w")
    server = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT, cwd=root)
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                if (
                    httpx.get(
                        f"http://127.0.0.1:{port}/api/status", params={"token": token}, timeout=2
                    ).status_code
                    == 200
                ):
                    break
            except httpx.HTTPError:
                pass
            if server.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(
                    f"JupyterLab did not start:\n{(tmp_path / 'jupyter.log').read_text()[-3000:]}"
                )
            time.sleep(0.5)
        yield {
            "url": f"http://127.0.0.1:{port}/lab/tree/{NOTEBOOK.name}?token={token}&reset",
            "sandbox": sandbox,
            "cells": cells,
            "log": tmp_path / "jupyter.log",
        }
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
    const session = panel && panel.sessionContext && panel.sessionContext.session;
    const kernel = session && session.kernel;
    const cells = panel && panel.content && panel.content.widgets.length;
    return Boolean(kernel && kernel.status === 'idle' && cells > 0);
}"""

RUN_CELLS = """async (indices) => {
    const app = window.jupyterapp;
    const notebook = app.shell.currentWidget.content;
    for (const index of indices) {
        notebook.activeCellIndex = index;
        notebook.deselectAll();
        await app.commands.execute('notebook:run-cell');
    }
}"""

CELL_TEXT = (
    """(index) => window.jupyterapp.shell.currentWidget.content.widgets[index].node.innerText"""
)
EXECUTION_COUNT = (
    "(index) => window.jupyterapp.shell.currentWidget.content.widgets[index].model.executionCount"
)


def _cell(page, index: int):
    return page.locator(".jp-Notebook .jp-Cell").nth(index)


def _run(page, indices: list[int]) -> None:
    page.evaluate(RUN_CELLS, indices)
    page.wait_for_function(KERNEL_IDLE)


def _no_traceback(page, indices: list[int]) -> None:
    for index in indices:
        text = page.evaluate(CELL_TEXT, index)
        assert (
            "Traceback" not in text
            and "AssertionError" not in text
            and "Error" not in text.split("\n")[-1]
        ), f"cell {index} ended in an error:\n{text[-1500:]}"


def _office(sandbox: Path) -> Path:
    databases = sorted(
        sandbox.glob("office_*/office.sqlite"), key=lambda path: path.stat().st_mtime
    )
    assert databases, "the notebook created no office database"
    return databases[0]  # the notebook's first office is the one its cards act on


def _rows(database: Path, sql: str) -> list[tuple]:
    with sqlite3.connect(database) as db:
        return db.execute(sql).fetchall()


def test_day5_cards_as_a_learner_clicks_them(lab):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    cells = lab["cells"]
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_FLAGS
        )
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.set_default_timeout(120_000)
        try:
            page.goto(lab["url"])
            page.wait_for_function(KERNEL_IDLE, timeout=120_000)

            # 1. JupyterLab greets the learner in Chinese (the course environment's overrides.json)
            #    and asks about no news
            expect(page.locator(".lm-MenuBar-itemLabel", has_text="文件")).to_be_visible()
            expect(page.locator(".lm-MenuBar-itemLabel", has_text="运行")).to_be_visible()
            assert page.locator(".lm-MenuBar-itemLabel", has_text="File").count() == 0
            assert (
                page.locator(".jp-toast-message, .Toastify__toast").filter(has_text="news").count()
                == 0
            )
            assert (
                page.locator(".jp-toast-message, .Toastify__toast").filter(has_text="新闻").count()
                == 0
            )

            # 2. opened as committed: no card yet, the first cell says why and what to do; trusted,
            #    the saved cards show
            assert page.locator(".ha-confirmation-card").count() == 0
            expect(_cell(page, 0)).to_contain_text("信任笔记本")
            expect(_cell(page, 0)).to_contain_text("运行所有单元格")
            page.evaluate("() => { window.jupyterapp.commands.execute('notebook:trust'); }")
            page.locator(".jp-Dialog .jp-mod-accept").click()
            saved = page.locator(".ha-confirmation-card").first
            expect(saved).to_be_visible()
            expect(saved).to_contain_text("book_meeting_room")
            expect(saved).to_contain_text("已批准")  # decided as it was saved
            # the other saved cards render one after another (JupyterLab draws cells as it lays them
            # out): wait for them
            page.wait_for_function(
                "() => document.querySelectorAll('.ha-confirmation-card').length >= 4",
                timeout=60_000,
            )

            # 3. the first card: run up to it, click 批准, then Shift+Enter on the card's own cell
            first = cells["first-card"]
            _run(page, [i for i in cells["code"] if i <= first])
            card = _cell(page, first).locator(".ha-confirmation-card")
            expect(card).to_have_count(1)
            expect(card).to_contain_text("将预订会议室 room_301")
            expect(card).to_contain_text("谁来确认：发起人 张明（行政助理）")
            expect(_cell(page, first)).to_contain_text("运行暂停")
            card.scroll_into_view_if_needed()
            card.screenshot(path=str(ARTIFACTS / "day5_card.png"))
            database = _office(lab["sandbox"])
            assert _rows(database, "SELECT id FROM bookings WHERE room_id = 'room_301'") == []
            card.get_by_role("button", name="批准").click()
            output = _cell(page, first).locator(".ha-confirmation-output")
            expect(output).to_contain_text("发起人已确认，决定人 张明（行政助理）")
            expect(output).to_contain_text("结束：模型给出了最终回答")
            expect(_cell(page, first)).to_contain_text("运行已结束")
            assert "stop_reason" not in page.evaluate(
                CELL_TEXT, first
            ) and "E001" not in page.evaluate(CELL_TEXT, first)

            count = page.evaluate(EXECUTION_COUNT, first)
            _cell(page, first).locator(
                ".jp-InputArea-prompt"
            ).click()  # the learner selects the card's cell …
            page.keyboard.press("Shift+Enter")  # … and runs it again
            page.wait_for_function(f"() => ({EXECUTION_COUNT})({first}) !== {count}")
            page.wait_for_function(KERNEL_IDLE)
            card = _cell(page, first).locator(".ha-confirmation-card")
            expect(card).to_have_count(
                1
            )  # the same, decided card: no new card for an answered request
            expect(card).to_contain_text("张明（行政助理） 已批准")
            expect(card.get_by_role("button", name="批准")).to_be_disabled()
            expect(_cell(page, first)).to_contain_text("运行已结束")
            assert "运行暂停" not in page.evaluate(CELL_TEXT, first)
            _run(page, [cells["click-approve"], cells["after-first-card"]])
            expect(_cell(page, cells["click-approve"])).to_contain_text("这一格没有再点")
            expect(_cell(page, cells["after-first-card"])).to_contain_text(
                "张明（行政助理）批准了 book_meeting_room"
            )
            _no_traceback(page, [first, cells["click-approve"], cells["after-first-card"]])
            assert (
                len(_rows(database, "SELECT id FROM bookings WHERE room_id = 'room_301'")) == 1
            )  # booked once

            # … then, to see a rejection too: run the cell that pauses and the card's cell again and
            # reject the new card. The check must look only at what this decision added: the booking
            # the approval made is still there and must not read as "the gate let it through"
            pause = max(i for i in cells["code"] if i < first)
            _run(page, [pause, first])
            card = _cell(page, first).locator(".ha-confirmation-card")
            expect(card).to_have_count(1)  # a new run, a new request: a new card
            expect(card.get_by_role("button", name="拒绝")).to_be_enabled()
            card.locator("input").fill("先不订了")
            expect(card.locator("input")).to_have_value("先不订了")
            card.get_by_role("button", name="拒绝").click()
            expect(card).to_contain_text("已拒绝：先不订了")
            expect(_cell(page, first).locator(".ha-confirmation-output")).to_contain_text(
                "结束：模型给出了最终回答"
            )
            _run(page, [cells["click-approve"], cells["after-first-card"]])
            _no_traceback(page, [pause, first, cells["click-approve"], cells["after-first-card"]])
            expect(_cell(page, cells["after-first-card"])).to_contain_text(
                "张明（行政助理）拒绝了 book_meeting_room"
            )
            expect(_cell(page, cells["after-first-card"])).to_contain_text(
                "用户拒绝了此操作：先不订了"
            )
            assert (
                len(_rows(database, "SELECT id FROM bookings WHERE room_id = 'room_301'")) == 1
            )  # still the one booking the approval made

            # 4. the rejection card, with a reason of the learner's own …
            _run(
                page,
                [i for i in cells["code"] if cells["after-first-card"] < i <= cells["reject-card"]],
            )
            card = _cell(page, cells["reject-card"]).locator(".ha-confirmation-card")
            own = "浏览器里拒绝：这周不开会"
            card.locator("input").fill(own)
            expect(card.locator("input")).to_have_value(own)
            card.get_by_role("button", name="拒绝").click()
            expect(card).to_contain_text(f"已拒绝：{own}")
            expect(
                _cell(page, cells["reject-card"]).locator(".ha-confirmation-output")
            ).to_contain_text("结束：模型给出了最终回答")
            _run(page, [cells["click-reject"], cells["after-reject"]])
            expect(_cell(page, cells["click-reject"])).to_contain_text("这一格没有再点")
            expect(_cell(page, cells["after-reject"])).to_contain_text(f"用户拒绝了此操作：{own}")
            _no_traceback(
                page, [cells["reject-card"], cells["click-reject"], cells["after-reject"]]
            )
            assert _rows(database, "SELECT id FROM bookings WHERE room_id = 'room_502'") == []
            audit = _rows(
                database.parent / "audit.sqlite",
                "SELECT decision, reason, decided_name FROM audit WHERE tool = 'book_meeting_room' "
                "AND decision = 'rejected'",
            )
            assert audit[-1] == ("rejected", own, "张明")

            # … and the same section again, approving instead of rejecting: the cells after it still
            # pass
            _run(page, [cells["reject-card"]])
            card = _cell(page, cells["reject-card"]).locator(".ha-confirmation-card")
            expect(card).to_have_count(1)
            expect(
                card.get_by_role("button", name="批准")
            ).to_be_enabled()  # a new run, a new request: a new card
            card.get_by_role("button", name="批准").click()
            expect(
                _cell(page, cells["reject-card"]).locator(".ha-confirmation-output")
            ).to_contain_text("发起人已确认")
            _run(page, [cells["click-reject"], cells["after-reject"]])
            expect(_cell(page, cells["after-reject"])).to_contain_text("你这次点了批准")
            _no_traceback(
                page, [cells["reject-card"], cells["click-reject"], cells["after-reject"]]
            )
            assert len(_rows(database, "SELECT id FROM bookings WHERE room_id = 'room_502'")) == 1

            # … and once more, rejecting after that approval (the notebook's own advice): the check
            # looks only at what this decision added, not at the booking the approval made
            _run(page, [cells["reject-card"]])
            card = _cell(page, cells["reject-card"]).locator(".ha-confirmation-card")
            expect(card).to_have_count(1)  # the approved card is gone: only this run's new card
            expect(card.get_by_role("button", name="拒绝")).to_be_enabled()
            card.locator("input").fill("改主意了")
            expect(card.locator("input")).to_have_value("改主意了")
            card.get_by_role("button", name="拒绝").click()
            expect(card).to_contain_text("已拒绝：改主意了")
            expect(
                _cell(page, cells["reject-card"]).locator(".ha-confirmation-output")
            ).to_contain_text("结束：模型给出了最终回答")  # the resumed run has ended in the kernel
            _run(page, [cells["click-reject"], cells["after-reject"]])
            expect(_cell(page, cells["after-reject"])).to_contain_text("用户拒绝了此操作：改主意了")
            _no_traceback(
                page, [cells["reject-card"], cells["click-reject"], cells["after-reject"]]
            )
            assert len(_rows(database, "SELECT id FROM bookings WHERE room_id = 'room_502'")) == 1

            # 5. an L3 card for someone without the approver role: 批准 disabled, who may approve,
            #    hand it to the approver
            _run(page, [i for i in cells["code"] if cells["after-reject"] < i <= cells["l3-card"]])
            panel = _cell(page, cells["l3-card"])
            card = panel.locator(".ha-confirmation-card").first
            expect(card).to_contain_text("谁能批准：有「行政主管」角色的人")
            expect(card).to_contain_text("现在操作这张卡片的是 张明（行政助理）")
            expect(card.get_by_role("button", name="批准")).to_be_disabled()
            expect(card.get_by_role("button", name="拒绝")).to_be_enabled()
            card.scroll_into_view_if_needed()
            card.screenshot(path=str(ARTIFACTS / "day5_l3_card.png"))
            assert _rows(database, "SELECT COUNT(*) FROM email_outbox") == [(0,)]
            card.get_by_role("button", name="交给 李丽（行政主管）审批").click()
            expect(card).to_contain_text("已交给 李丽（行政主管）审批")
            expect(panel.locator(".ha-confirmation-card")).to_have_count(2)
            boss = panel.locator(".ha-confirmation-card").nth(1)
            expect(boss).to_contain_text("现在操作这张卡片的是 李丽（行政主管）")
            # 张明's card offered 交给; 李丽's own card does not offer it to herself (a click there
            # would only add another card for her)
            expect(card.locator("button", has_text="交给")).to_have_count(1)
            expect(boss.get_by_role("button", name="批准")).to_be_enabled()
            expect(boss.locator("button", has_text="交给")).to_have_count(0)
            boss.get_by_role("button", name="批准").click()
            expect(panel.locator(".ha-confirmation-output")).to_contain_text(
                "审批通过，决定人 李丽（行政主管）"
            )
            expect(panel).to_contain_text("运行已结束")
            _run(page, [cells["l3-click"], cells["after-l3"]])
            expect(_cell(page, cells["l3-click"])).to_contain_text("这一格没有再点")
            expect(_cell(page, cells["after-l3"])).to_contain_text(
                "李丽（行政主管）批准了 send_notification_email"
            )
            _no_traceback(page, [cells["l3-card"], cells["l3-click"], cells["after-l3"]])
            assert _rows(database, "SELECT to_address, sent_by FROM email_outbox") == [
                ("zhangming@example.com", "E001")
            ]

            # … and the section again, 张明 withdrawing the new request with 拒绝: the check looks
            # only at this run's outbox rows, not at the email 李丽 approved above
            pause = max(i for i in cells["code"] if i < cells["l3-card"])
            _run(page, [pause, cells["l3-card"]])
            card = panel.locator(".ha-confirmation-card")
            expect(card).to_have_count(1)  # a new run: only 张明's new card
            expect(card.get_by_role("button", name="批准")).to_be_disabled()
            card.locator("input").fill("周会改期了，先不发")
            expect(card.locator("input")).to_have_value("周会改期了，先不发")
            card.get_by_role("button", name="拒绝").click()
            expect(card).to_contain_text("已拒绝：周会改期了，先不发")
            expect(panel).to_contain_text("运行已结束")
            _run(page, [cells["l3-click"], cells["after-l3"]])
            _no_traceback(page, [pause, cells["l3-card"], cells["l3-click"], cells["after-l3"]])
            expect(_cell(page, cells["after-l3"])).to_contain_text(
                "张明（行政助理）拒绝了 send_notification_email"
            )
            assert _rows(database, "SELECT to_address, sent_by FROM email_outbox") == [
                ("zhangming@example.com", "E001")
            ]  # still only the email 李丽 approved
            page.screenshot(path=str(ARTIFACTS / "day5_final.png"))
        except Exception:
            page.screenshot(path=str(ARTIFACTS / "day5_failure.png"), full_page=True)
            print(
                json.dumps({"jupyter_log_tail": lab["log"].read_text()[-2000:]}, ensure_ascii=False)
            )
            raise
        finally:
            browser.close()
