"""The course against an OpenAI-compatible server it did not write: llama-cpp-python's own
``python -m llama_cpp.server`` serving the course's GGUF, started here (slow: ``pytest -m slow``).

Two ways that server is commonly started, two different failures of its chat template, both handled
by the course's client and said in Chinese:

- ``--chat_format chatml-function-calling`` accepts ``tools`` and leaves them out of the prompt:
  the client's template check finds it (the same request's ``prompt_tokens`` do not grow with a
  tool) and goes on with the tools in the prompt (Day 2's mode);
- no ``--chat_format`` (the GGUF's own template): the model sees the tools and writes its calls in
  ``<tool_call>`` tags, which the server hands back as text: the client reads them with Day 2's
  parser.

Either way the same ``Agent`` with the same calculator answers the same question, configured only
through the settings a learner writes into ``.env`` (``LLM_BASE_URL``, ``LLM_MODEL``).
"""

from __future__ import annotations

import importlib.util
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from handwritten_agent.agent import Agent
from handwritten_agent.config import resolve
from handwritten_agent.course.offline import model_fetch
from handwritten_agent.llm import connect
from handwritten_agent.scenarios import basic_registry

STARTUP_SECONDS = 300  # loading a 1 GB model on a busy two-core machine


def _missing() -> str | None:
    if importlib.util.find_spec("llama_cpp") is None:
        return "没有安装 llama-cpp-python：先运行 make local"
    for module in ("sse_starlette", "starlette_context", "pydantic_settings"):
        if importlib.util.find_spec(module) is None:
            return (
                f"没有安装 llama_cpp.server 需要的 {module}："
                "先运行 make local（它装 [server] 附加依赖）"
            )
    if not model_fetch.is_available():
        return (
            f"本地模型不在 {model_fetch.model_path()}："
            "先运行 python -m handwritten_agent model fetch"
        )
    return None


pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(_missing() is not None, reason=_missing() or ""),
]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _start(log: Path, *options: str) -> Iterator[str]:
    """``python -m llama_cpp.server`` with ``options`` on a free port, its (long) log in ``log``;
    its ``/v1`` URL once it answers. Stopped afterwards."""
    port = _free_port()
    said = log.open("w")
    threads = os.environ.get("HANDWRITTEN_AGENT_THREADS", "2")
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "llama_cpp.server",
            "--model",
            str(model_fetch.model_path()),
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--n_ctx",
            "4096",
            "--n_threads",
            threads,
            *options,
        ],
        stdout=said,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline:  # bounded: until the server answers or the deadline
            if process.poll() is not None:
                tail = log.read_text(errors="replace")[-800:]
                pytest.fail(f"llama_cpp.server 没有启动（退出码 {process.returncode}）：{tail}")
            try:
                if httpx.get(f"{url}/models", timeout=5).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.5)
        else:
            pytest.fail(f"llama_cpp.server 在 {STARTUP_SECONDS} 秒内没有应答")
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        said.close()


@pytest.fixture(scope="module")
def generic_template(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    log = tmp_path_factory.mktemp("llama_cpp_server") / "generic.log"
    yield from _start(log, "--chat_format", "chatml-function-calling")


@pytest.fixture(scope="module")
def own_template(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    yield from _start(tmp_path_factory.mktemp("llama_cpp_server") / "own.log")


SYSTEM = (
    "你是一个乐于助人的助手。需要计算时调用 calculator 工具；"
    "拿到工具结果后，直接用中文回答用户的问题。"
)


def _run(url: str) -> tuple[Any, Any, list[str]]:
    """The calculator agent on ``url``, configured the way ``.env`` would: the run, the client,
    and what the client said about the server (its ``prompt_tools`` notes)."""
    settings = resolve({"LLM_BASE_URL": url, "LLM_MODEL": "qwen", "LLM_TIMEOUT": "600"})
    client = connect(settings=settings, quiet=True)
    events: list[Any] = []
    agent = Agent(
        client,
        basic_registry(),
        system_prompt=SYSTEM,
        on_event=events.append,
        model_options={"temperature": 0},
    )
    run = agent.run("17 乘以 9 等于多少？")
    notes = [event.data["note"] for event in events if event.kind == "prompt_tools"]
    return run, client, notes


def test_a_template_that_drops_the_tools_is_found_and_the_agent_goes_on(generic_template) -> None:
    run, client, notes = _run(generic_template)
    assert client.template is not None and client.template.reaches is False, client.template
    assert client.template.plain == client.template.with_tool
    assert (
        client.tools_in_prompt and len(notes) == 1 and "聊天模板没有把工具定义交给模型" in notes[0]
    )
    assert [record.call.name for record in run.tool_calls][:1] == ["calculator"], run.error
    assert run.tool_calls[0].result.success and "153" in str(run.tool_calls[0].result.data)
    assert run.stop_reason == "final" and "153" in (run.answer or ""), (run.stop_reason, run.answer)


def test_calls_the_gguf_template_leaves_as_text_are_read_and_run(own_template) -> None:
    run, client, notes = _run(own_template)
    assert client.template is not None and client.template.reaches is True, client.template
    assert not client.tools_in_prompt
    assert [record.call.name for record in run.tool_calls][:1] == ["calculator"], (
        run.error,
        run.answer,
    )
    assert any("当成文字" in note for note in notes), notes
    assert run.stop_reason == "final" and "153" in (run.answer or ""), (run.stop_reason, run.answer)
