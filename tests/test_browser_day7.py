"""The Day 7 web page in a real browser: Debian's Chromium driven by Playwright, against the office
service on the simulator.

Two people, two browser contexts (two separate sessions): 张明 (行政助理) asks for an email to be
sent — an L3 call — and sees the card with 批准 disabled; 李丽 (行政主管) sees it in her queue and
approves it; 张明's page then shows the answer, and the email is in the outbox. Then 张明 asks for a
booking (L2, his own card), types a reason and rejects it: the answer relays the reason and nothing
is booked. A wrong token is refused with a message. A screenshot of the page is saved to
``tests/artifacts/day7_page.png``.

Skipped, with the reason, when Chromium or Playwright is not installed (``.ci/browser-setup``
installs Chromium; Playwright comes with the ``dev`` extra).
"""

from __future__ import annotations

import sqlite3
from datetime import datetime
from pathlib import Path

import pytest
from test_browser_day5 import ARTIFACTS, CHROMIUM, CHROMIUM_FLAGS, sync_playwright

from handwritten_agent.config import load_settings
from handwritten_agent.course.background import BackgroundServer
from handwritten_agent.service import ServiceSettings, create_app


def data_of(folder: Path, db: str = "service.sqlite3") -> Path:
    """Where a service on the database ``folder / db`` keeps the office data and the traces."""
    return ServiceSettings(db_path=str(folder / db)).data_path


if sync_playwright is not None:
    from playwright.sync_api import expect

pytestmark = [
    pytest.mark.skipif(
        CHROMIUM is None,
        reason=(
            "no Chromium found: the Day 7 browser test needs Debian's chromium package "
            "(run `bash .ci/browser-setup`, or set CHROMIUM_PATH)"
        ),
    ),
    pytest.mark.skipif(
        sync_playwright is None,
        reason="Playwright for Python is not installed: pip install -e '.[dev]'",
    ),
]

NOW = datetime(2026, 3, 12, 14, 30)
EMAIL = (
    "给 lili@example.com 发一封邮件，主题是“会议改期”，内容是“周五的项目周会改到下周一上午 10 点”"
)
BOOK = "帮我订 2026-03-16 14:00 到 15:00 的 room_502，10 个人"


@pytest.fixture
def office_service(tmp_path):
    settings = ServiceSettings(
        db_path=str(tmp_path / "service.sqlite3"),
        llm=load_settings({"LLM_PROVIDER": "offline"}, dotenv=False),
        clock=lambda: NOW,
        sse_poll_seconds=0.02,
    )
    app = create_app(settings)
    store = app.state.store
    tokens = {
        name: store.add_user(name, role)[1]
        for name, role in (("张明", "行政助理"), ("李丽", "行政主管"))
    }
    with BackgroundServer(app) as server:
        yield server.url, tokens, tmp_path
    app.state.manager.shutdown(wait=True)


def rows(folder: Path, sql: str) -> list[tuple]:
    with sqlite3.connect(data_of(folder) / "office" / "office.sqlite") as db:
        return db.execute(sql).fetchall()


def login(page, url: str, token: str) -> None:
    page.goto(url + "/")
    page.locator("#token").fill(token)
    page.get_by_role("button", name="登录").click()


def test_ask_approve_in_a_second_browser_reject_and_a_wrong_token(office_service):
    url, tokens, folder = office_service
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_FLAGS
        )
        zhang_context, li_context, stranger_context = (
            browser.new_context(viewport={"width": 1300, "height": 900}) for _ in range(3)
        )
        zhang, li, stranger = (
            zhang_context.new_page(),
            li_context.new_page(),
            stranger_context.new_page(),
        )
        try:
            for page in (zhang, li, stranger):
                page.set_default_timeout(20_000)
            login(stranger, url, "hat_not_a_real_token")
            expect(stranger.locator("#who")).to_contain_text("登录失败：令牌无效")
            expect(stranger.locator("#send")).to_be_disabled()

            login(zhang, url, tokens["张明"])
            expect(zhang.locator("#who")).to_have_text("当前用户：张明（行政助理）")
            zhang.locator("#message").fill(EMAIL)
            zhang.get_by_role("button", name="发送").click()
            card = zhang.locator("#log .card").first
            expect(card).to_contain_text("send_notification_email")
            expect(card).to_contain_text("需要「行政主管」审批")
            expect(card).to_contain_text("将向 lili@example.com 发送邮件《会议改期》")
            expect(
                card.get_by_role("button", name="批准")
            ).to_be_disabled()  # his own L3 request: he may withdraw it, not approve it
            expect(card.get_by_role("button", name="拒绝")).to_be_enabled()
            assert rows(folder, "SELECT COUNT(*) FROM email_outbox") == [(0,)]

            login(li, url, tokens["李丽"])
            queued = li.locator("#queue .card").first
            expect(queued).to_contain_text("send_notification_email")
            expect(queued).to_contain_text("发起人 张明")
            queued.get_by_role("button", name="批准").click()
            expect(queued).to_contain_text("已批准")

            answer = zhang.locator("#log .answer").first
            expect(answer).to_contain_text("助手：")
            expect(zhang.locator("#log")).to_contain_text(
                "权限：send_notification_email L3 → 审批通过"
            )
            assert rows(folder, "SELECT to_address, subject FROM email_outbox") == [
                ("lili@example.com", "会议改期")
            ]
            zhang.screenshot(path=str(ARTIFACTS / "day7_page.png"), full_page=True)

            zhang.locator("#message").fill(BOOK)
            zhang.get_by_role("button", name="发送").click()
            own = zhang.locator("#log .card").nth(1)
            expect(own).to_contain_text("book_meeting_room")
            expect(own).to_contain_text("由发起人确认")
            own.locator("input").fill("时间还没定")
            own.get_by_role("button", name="拒绝").click()
            expect(own).to_contain_text("已拒绝：时间还没定")
            expect(zhang.locator("#log .answer").nth(1)).to_contain_text("时间还没定")
            assert rows(folder, "SELECT COUNT(*) FROM bookings WHERE room_id = 'room_502'") == [
                (0,)
            ]
        except Exception:
            for name, page in (("zhang", zhang), ("li", li), ("stranger", stranger)):
                page.screenshot(path=str(ARTIFACTS / f"day7_failure_{name}.png"), full_page=True)
            raise
        finally:
            browser.close()


def test_docs_render_with_no_network_and_the_page_loads_nothing_missing_or_refused(office_service):
    url, _, _ = office_service
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_FLAGS
        )
        context = browser.new_context()
        outside: list[str] = []

        def only_this_service(route) -> None:  # no network: anything not on the service is refused
            if route.request.url.startswith(url):
                route.continue_()
            else:
                outside.append(route.request.url)
                route.abort()

        context.route("**/*", only_this_service)
        page = context.new_page()
        refused: list[str] = []
        failed: list[str] = []
        page.on(
            "console",
            lambda message: (
                refused.append(message.text) if "Content Security Policy" in message.text else None
            ),
        )
        page.on(
            "response",
            lambda response: failed.append(response.url) if response.status >= 400 else None,
        )
        try:
            page.set_default_timeout(20_000)
            page.goto(url + "/docs")
            expect(page.locator(".opblock").first).to_be_visible()
            expect(
                page.locator(".opblock-summary-path", has_text="/v1/runs/{run_id}/events")
            ).to_be_visible()
            expect(page.get_by_role("button", name="Authorize")).to_be_visible()
            page.goto(url + "/")
            expect(page.get_by_role("button", name="登录")).to_be_visible()
            page.wait_for_load_state("networkidle")
            assert outside == [] and failed == [] and refused == [], (outside, failed, refused)
        finally:
            browser.close()


def test_a_reload_and_a_service_restart_while_a_card_waits_still_show_the_answer(tmp_path):
    settings = ServiceSettings(
        db_path=str(tmp_path / "service.sqlite3"),
        llm=load_settings({"LLM_PROVIDER": "offline"}, dotenv=False),
        clock=lambda: NOW,
        sse_poll_seconds=0.02,
    )
    app = create_app(settings)
    tokens = {
        name: app.state.store.add_user(name, role)[1]
        for name, role in (("张明", "行政助理"), ("李丽", "行政主管"))
    }
    server = BackgroundServer(app)
    url, port = server.url, server.port
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_FLAGS
        )
        zhang, li = browser.new_context().new_page(), browser.new_context().new_page()
        try:
            for page in (zhang, li):
                page.set_default_timeout(20_000)
            login(zhang, url, tokens["张明"])
            zhang.locator("#message").fill(EMAIL)
            zhang.locator("#message").press("Enter")
            zhang.locator("#message").fill(EMAIL)
            zhang.locator("#message").press(
                "Enter"
            )  # a second Enter while the first run goes: no second run
            expect(zhang.locator("#log .card").first).to_contain_text("send_notification_email")
            expect(zhang.locator("#log")).to_contain_text("运行中")
            assert len(app.state.store.runs_with_status("requires_action")) == 1

            zhang.reload()  # the tab remembers the run it follows
            expect(zhang.locator("#log .card").first).to_contain_text("send_notification_email")
            expect(zhang.locator("#log")).to_contain_text("运行中")

            server.stop()  # the service restarts while the card waits
            app.state.manager.shutdown(wait=True)
            expect(zhang.locator("#log")).to_contain_text("连不上服务")
            app = create_app(settings)
            server = BackgroundServer(app, port=port)

            login(li, url, tokens["李丽"])
            queued = li.locator("#queue .card").first
            queued.get_by_role("button", name="批准").click()
            expect(queued).to_contain_text("已批准")
            expect(zhang.locator("#log .answer").first).to_contain_text("助手：")
            expect(zhang.locator("#log")).not_to_contain_text("运行中")
            assert "Failed to fetch" not in zhang.locator("body").inner_text()
            assert rows(tmp_path, "SELECT to_address FROM email_outbox") == [("lili@example.com",)]
        except Exception:
            for name, page in (("zhang", zhang), ("li", li)):
                page.screenshot(
                    path=str(ARTIFACTS / f"day7_restart_failure_{name}.png"), full_page=True
                )
            raise
        finally:
            browser.close()
            server.stop()
            app.state.manager.shutdown(wait=True)


def test_a_card_decided_by_another_approver_leaves_the_queue_and_a_stale_click_says_who(tmp_path):
    """Two 行政主管 see the same L3 card. 王强 approves it: 李丽's queue drops the card at its next
    refresh. A third approver whose queue cannot refresh (the request is blocked) still shows the
    card; clicking 批准 there answers 409, and the card says in Chinese who already decided."""
    settings = ServiceSettings(
        db_path=str(tmp_path / "service.sqlite3"),
        llm=load_settings({"LLM_PROVIDER": "offline"}, dotenv=False),
        clock=lambda: NOW,
        sse_poll_seconds=0.02,
    )
    app = create_app(settings)
    tokens = {
        name: app.state.store.add_user(name, role)[1]
        for name, role in (
            ("张明", "行政助理"),
            ("李丽", "行政主管"),
            ("王强", "行政主管"),
            ("赵敏", "行政主管"),
        )
    }
    with BackgroundServer(app) as server, sync_playwright() as playwright:
        url = server.url
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_FLAGS
        )
        zhang, li, wang, zhao = (browser.new_context().new_page() for _ in range(4))
        try:
            for page in (zhang, li, wang, zhao):
                page.set_default_timeout(20_000)
            login(zhang, url, tokens["张明"])
            zhang.locator("#message").fill(EMAIL)
            zhang.locator("#message").press("Enter")
            expect(zhang.locator("#log .card").first).to_contain_text("send_notification_email")

            for page, name in ((li, "李丽"), (wang, "王强"), (zhao, "赵敏")):
                login(page, url, tokens[name])
                expect(page.locator("#queue .card")).to_have_count(1)
            # 赵敏's queue stops refreshing from here on: her card goes stale
            zhao.route("**/v1/confirmations", lambda route: route.abort())

            wang.locator("#queue .card").first.get_by_role("button", name="批准").click()
            expect(wang.locator("#queue .card").first).to_contain_text("已批准")
            expect(li.locator("#queue .card")).to_have_count(0)  # decided elsewhere: gone
            expect(zhang.locator("#log .answer").first).to_contain_text("助手：")

            stale = zhao.locator("#queue .card").first
            stale.get_by_role("button", name="批准").click()
            expect(stale).to_contain_text("没有成功")
            expect(stale).to_contain_text("王强")
            assert rows(tmp_path, "SELECT COUNT(*) FROM email_outbox") == [(1,)]
        except Exception:
            for name, page in (("zhang", zhang), ("li", li), ("wang", wang), ("zhao", zhao)):
                page.screenshot(
                    path=str(ARTIFACTS / f"day7_elsewhere_failure_{name}.png"), full_page=True
                )
            raise
        finally:
            browser.close()
    app.state.manager.shutdown(wait=True)
