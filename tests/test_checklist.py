"""The release checklist: every item passes on the course's assistant and code, and each fails when
its condition is broken.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from handwritten_agent.course.checklist import SPECS, find_root, format_items, run_checklist
from handwritten_agent.course.checklist.code import find_eval, find_secrets, python_files
from handwritten_agent.course.checklist.runs import NOW, course_assistant, example_arguments
from handwritten_agent.hooks import MessagesHook
from handwritten_agent.messages import ChatResult
from handwritten_agent.permissions import PolicyGate
from handwritten_agent.service.agents import OfficeAssistant, system_prompt
from handwritten_agent.service.models import Models
from handwritten_agent.service.settings import ServiceSettings
from handwritten_agent.tracing import Tracer


def test_every_item_passes_on_the_course_agent_and_code():
    items = run_checklist()
    assert [item.key for item in items] == [spec.key for spec in SPECS]
    failed = [item.line() for item in items if not item.passed]
    assert not failed, "\n".join(failed)
    text = format_items(items)
    assert (
        text.count("✅") == len(SPECS)
        and "❌" not in text
        and f"通过 {len(SPECS)}/{len(SPECS)} 项" in text
    )


def test_the_command_prints_the_items_and_exits_0(tmp_path):
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "handwritten_agent",
            "checklist",
            "--only",
            "eval",
            "--only",
            "config",
            "--json",
            str(tmp_path / "c.json"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        env={"LLM_PROVIDER": "offline", "PATH": "/usr/bin:/bin"},
    )
    assert out.returncode == 0, out.stderr
    assert (
        "✅ 工具安全" in out.stdout
        and "✅ 配置外置" in out.stdout
        and (tmp_path / "c.json").is_file()
    )


# --------------------------------------------------------------------------- the code scans


def _package(tmp_path: Path, source: str) -> Path:
    package = tmp_path / "pkg"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text('"""A package."""\n')
    (package / "tool.py").write_text(source)
    return package


@pytest.mark.parametrize(
    "source, found",
    [
        ("def calc(expression):\n    return eval(expression)\n", "eval"),
        ("import builtins\n\ndef run(code):\n    builtins.exec(code)\n", "exec"),
        (
            "from builtins import eval as evaluate\n\ndef calc(text):\n    return evaluate(text)\n",
            "evaluate",
        ),
    ],
)
def test_an_eval_in_the_package_fails_the_first_item(tmp_path, source, found):
    package = _package(tmp_path, source)
    items = run_checklist(package_dir=package, root=None, only=["eval"])
    assert not items[0].passed and "tool.py" in items[0].detail and found in items[0].detail
    assert "怎么修" in items[0].line()


def test_strings_and_other_evals_are_not_reported(tmp_path):
    package = _package(
        tmp_path,
        'import ast\nNOTE = "never eval(model_output)"\nvalue = ast.literal_eval("[1]")\n\n'
        "class Model:\n    def eval(self):\n        return self\n\nModel().eval()\n",
    )
    assert find_eval(python_files(package)) == []


def test_a_key_in_code_fails_the_config_item(tmp_path):
    package = _package(
        tmp_path,
        'from openai import OpenAI\n\nclient = OpenAI(api_key="sk-' + "a1B2c3D4" * 4 + '")\n',
    )
    items = run_checklist(package_dir=package, root=None, only=["config"])
    assert not items[0].passed and "tool.py:3" in items[0].detail
    made_up = _package(
        tmp_path / "other",
        'API_KEY = "sk-demo-0123456789abcdef0123"  # a made-up key, said so\n'
        'PLANTED = {"text": "my key is sk-'
        + "Zz9Yy8Xx"
        * 3
        + '"}  # data for a redactor, not configuration\n'
        'import os\nclient_key = os.environ["LLM_API_KEY"]\n',
    )
    assert find_secrets(python_files(made_up)) == []


def test_a_key_in_a_notebook_cell_or_env_example_is_found(tmp_path):
    notebook = tmp_path / "n.ipynb"
    cells = [
        {"cell_type": "markdown", "source": ["api_key = 'sk-abcdefghijklmnopqrstuv'"]},
        {
            "cell_type": "code",
            "source": [
                "%pip install openai\n",
                "import os\n",
                "os.environ['OPENAI_API_KEY'] = 'sk-" + "q7W8e9R0" * 3 + "'\n",
            ],
        },
    ]
    notebook.write_text(
        json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})
    )
    env = tmp_path / ".env.example"
    env.write_text(
        "LLM_API_KEY=sk-...\nLLM_API_KEY=\n# LLM_API_KEY=sk-"
        + "q7W8e9R0" * 3
        + "\nLLM_API_KEY=sk-"
        + "q7W8e9R0" * 3
        + "\n"
    )
    found = [str(f) for f in find_secrets([notebook, env])]
    assert (
        len(found) == 2
        and "n.ipynb:2" in found[0]
        and "OPENAI_API_KEY" in found[0]
        and ".env.example:4" in found[1]
    )


def test_a_repository_that_does_not_ignore_env_fails_the_config_item(tmp_path):
    package = _package(tmp_path, "X = 1\n")
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    (tmp_path / ".gitignore").write_text("__pycache__/\n")
    assert find_root(package) == tmp_path
    items = run_checklist(package_dir=package, only=["config"])
    assert not items[0].passed and ".gitignore" in items[0].detail


# --------------------------------------------------------------------------- broken assistants


class Broken(OfficeAssistant):
    """The service's assistant with one thing taken away (``what``)."""

    what = ""

    def __call__(self, user, session_id, on_event, run_id):
        agent = super().__call__(user, session_id, on_event, run_id)
        hooks = agent.hooks.hooks
        gate = next(hook for hook in hooks if isinstance(hook, PolicyGate))
        assert gate.user == user
        if self.what == "gate":
            hooks.remove(gate)
        if self.what == "steps":
            agent.max_steps, agent.max_seconds = 10_000, 0.3
        if self.what == "memory":
            hooks[:] = [hook for hook in hooks if not isinstance(hook, MessagesHook)]
        if self.what == "trace":
            hooks[:] = [hook for hook in hooks if not isinstance(hook, Tracer)]
        if self.what == "echo":
            agent.client = Rebuilds(agent.client)
        if self.what == "swallow":
            agent.client = Swallows(agent.client)
        return agent


class Rebuilds:
    """The seed's bug: the assistant message is rebuilt from its text, dropping the tool calls it
    made.
    """

    def __init__(self, inner):
        self.inner, self.model = inner, getattr(inner, "model", "")

    def complete(self, messages, tools=None, **options):
        sent = [
            (
                {"role": "assistant", "content": m.get("content") or ""}
                if m["role"] == "assistant"
                else m
            )
            for m in messages
        ]
        return self.inner.complete(sent, tools=tools, **options)


class Swallows:
    """Errors hidden as an empty reply: the user sees nothing that says what went wrong."""

    def __init__(self, inner):
        self.inner, self.model = inner, getattr(inner, "model", "")

    def complete(self, messages, tools=None, **options):
        try:
            return self.inner.complete(messages, tools=tools, **options)
        except Exception:  # noqa: BLE001 - the bug under test
            return ChatResult(content="")


def broken(what):
    def make(folder, client):
        assistant = Broken(
            ServiceSettings(db_path=str(folder / "service.sqlite3"), clock=lambda: NOW),
            models=Models(client),
        )
        assistant.what = what
        return assistant

    return make


@pytest.mark.parametrize(
    "what, item",
    [
        ("gate", "gated"),
        ("steps", "max_steps"),
        ("echo", "echo"),
        ("trace", "logs"),
        ("swallow", "failures"),
        ("memory", "budget"),
    ],
)
def test_each_item_fails_when_its_condition_is_broken(what, item):
    items = run_checklist(make_assistant=broken(what), only=[item])
    assert len(items) == 1 and not items[0].passed, items[0].detail
    assert items[0].line().startswith("❌") and "怎么修：" in items[0].line()
    again = run_checklist(make_assistant=course_assistant, only=[item])
    assert again[0].passed, again[0].detail


def test_without_the_gate_the_scripted_calls_really_run():
    items = run_checklist(make_assistant=broken("gate"), only=["gated"])
    assert "没等确认就执行了" in items[0].detail and "send_sms_to_customers" in items[0].detail


def test_example_arguments_follow_the_schema_types():
    schema = {
        "type": "function",
        "function": {
            "name": "f",
            "parameters": {
                "type": "object",
                "required": ["a", "n", "tags"],
                "properties": {
                    "a": {"type": "string", "description": "会议室编号，例如：room_301"},
                    "n": {"type": "integer", "description": "人数，例如：6"},
                    "tags": {
                        "type": "array",
                        "items": {"type": "string"},
                        "description": '编号列表，例如：["C001", "C002"]；不填则全部',
                    },
                    "price": {"type": "number", "description": "单价（元），例如：1500"},
                    "note": {"type": "string", "description": "备注"},
                    "flag": {"type": "boolean", "description": "是否加急"},
                },
            },
        },
    }
    assert example_arguments(schema) == {
        "a": "room_301",
        "n": 6,
        "tags": ["C001", "C002"],
        "price": 1500,
    }
    schema["function"]["parameters"]["required"].append("flag")
    assert example_arguments(schema)["flag"] is False


def test_the_course_prompt_states_the_date():
    from handwritten_agent.permissions import User

    text = system_prompt(User("u1", role="行政助理", name="张明"), NOW)
    assert "今天是 2026-03-12（星期四），现在是 14:30" in text and "张明" in text
