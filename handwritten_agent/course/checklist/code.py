"""The checklist's looks at the code itself: ``eval``/``exec`` anywhere in the package, keys written
into files.

Both read files and never import or run them. ``find_eval`` parses every ``.py`` file with ``ast``
and reports each call of the built-in ``eval``/``exec`` (also as ``builtins.eval``), so a string
that merely mentions them does not count and a renamed import (``from builtins import eval as e``)
still does. ``find_secrets`` parses Python files and notebook cells too, and reports a key-shaped
literal where a credential is configured — ``api_key="sk-…"``, ``API_KEY = "…"``,
``os.environ["LLM_API_KEY"] = "…"``, ``{"api_key": "…"}`` — and a real value in ``.env.example``; a
key that says it is made up (``sk-demo-…``, ``sk-test-…``) is not reported. Strings that merely look
like keys (test data for a redactor) are not configuration and are left alone.

Left out: following data flow (any ``eval`` is reported, whether or not model output reaches it; a
key put in a variable first and passed on is not), and the hundreds of formats a real scanner such
as gitleaks knows.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

DANGEROUS = frozenset({"eval", "exec"})
KEY_NAME = re.compile(r"(?i)(?:^|_)(?:api_?key|secret(?:_key)?|access_?token)$")
"""Names that hold a credential: ``api_key``, ``OPENAI_API_KEY``, ``LLM_API_KEY``, ``SECRET_KEY``,
``access_token``.
"""
KEY_VALUE = re.compile(r"^[A-Za-z0-9_\-.]{16,}$")
PLACEHOLDER = re.compile(
    r"(?i)demo|fake|test|wrong|example|dummy|placeholder|xxxx|0123456789|\.\.\.|no-key|offline"
)
"""Made-up keys in lessons and tests say so (``sk-demo-…``, ``sk-test-…``); those are not
reported.
"""
ENV_LINE = re.compile(
    r"^\s*(?:export\s+)?([A-Z0-9_]*(?:API_KEY|SECRET|TOKEN))\s*=\s*['\"]?([^'\"#\s]+)"
)


@dataclass(frozen=True)
class Finding:
    path: Path
    line: int
    what: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line} {self.what}"


def python_files(package_dir: Path) -> list[Path]:
    return sorted(p for p in package_dir.rglob("*.py") if "__pycache__" not in p.parts)


def find_eval(files: Iterable[Path]) -> list[Finding]:
    """Every call of the built-in ``eval``/``exec`` in ``files`` (a file that does not parse is
    reported too).
    """
    findings: list[Finding] = []
    for path in files:
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        except (SyntaxError, UnicodeDecodeError) as exc:
            findings.append(
                Finding(path, getattr(exc, "lineno", 0) or 0, f"无法解析：{type(exc).__name__}")
            )
            continue
        aliases = set(
            DANGEROUS
        )  # names bound to eval/exec in this file, e.g. `from builtins import eval as run`
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module == "builtins":
                aliases |= {
                    alias.asname or alias.name for alias in node.names if alias.name in DANGEROUS
                }
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            if isinstance(func, ast.Name) and func.id in aliases:
                findings.append(Finding(path, node.lineno, f"调用了 {func.id}()"))
            elif (
                isinstance(func, ast.Attribute)
                and func.attr in DANGEROUS
                and isinstance(func.value, ast.Name)
                and func.value.id in ("builtins", "__builtins__")
            ):
                findings.append(Finding(path, node.lineno, f"调用了 {func.value.id}.{func.attr}()"))
    return findings


def text_files(package_dir: Path, root: Path | None) -> list[Path]:
    """The package's Python files, and with the repository root its notebooks, solutions, exercises
    and ``.env.example``.
    """
    files = python_files(package_dir)
    if root is not None:
        for folder in ("notebooks", "solutions", "exercises"):
            if (root / folder).is_dir():
                files += sorted(
                    p
                    for p in (root / folder).rglob("*")
                    if p.suffix in (".py", ".ipynb") and ".ipynb_checkpoints" not in p.parts
                )
        if (root / ".env.example").is_file():
            files.append(root / ".env.example")
    return files


def _sources(path: Path) -> list[tuple[int, str]]:
    """(first line, Python source) pieces of a file: the file itself, or each code cell of a
    notebook (magics blanked).
    """
    text = path.read_text(encoding="utf-8")
    if path.suffix != ".ipynb":
        return [(1, text)]
    cells = []
    for number, cell in enumerate(json.loads(text).get("cells", []), 1):
        if cell.get("cell_type") == "code":
            source = "".join(cell.get("source", []))
            cells.append(
                (
                    number,
                    "\n".join(
                        "" if line.lstrip().startswith(("%", "!")) else line
                        for line in source.splitlines()
                    ),
                )
            )
    return cells


def _looks_like_key(node: ast.AST | None) -> bool:
    return (
        isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and bool(KEY_VALUE.match(node.value))
        and not PLACEHOLDER.search(node.value)
    )


def _named(node: ast.AST | None) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Subscript):
        return _named(node.slice)
    return None


def find_secrets(files: Iterable[Path]) -> list[Finding]:
    """Credentials written into code: a key-shaped string given to ``api_key=``, assigned to a
    credential's name (``API_KEY = "…"``, ``os.environ["LLM_API_KEY"] = "…"``, ``{"api_key":
    "…"}``), or set in ``.env.example``.

    A made-up key that says so (``sk-demo-…``) is not reported, nor is a key read from the
    environment.
    """
    findings: list[Finding] = []
    for path in files:
        try:
            if path.name.startswith(".env"):
                for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                    match = ENV_LINE.match(line)
                    if (
                        match
                        and not PLACEHOLDER.search(match.group(2))
                        and KEY_VALUE.match(match.group(2))
                    ):
                        findings.append(Finding(path, number, f"{match.group(1)} 写了一个真的值"))
                continue
            pieces = _sources(path)
        except (OSError, UnicodeDecodeError, ValueError):
            continue
        for first, source in pieces:
            try:
                tree = ast.parse(source)
            except SyntaxError:
                continue
            where = (
                (lambda node, first=first: f"（第 {first} 个单元格，第 {node.lineno} 行）")
                if path.suffix == ".ipynb"
                else (lambda node: "")
            )
            line = (
                (lambda node, first=first: first)
                if path.suffix == ".ipynb"
                else (lambda node: node.lineno)
            )
            for node in ast.walk(tree):
                hits: list[tuple[str, ast.AST]] = []
                if isinstance(node, ast.Call):
                    hits += [
                        (k.arg, k.value) for k in node.keywords if k.arg and KEY_NAME.search(k.arg)
                    ]
                elif isinstance(node, (ast.Assign, ast.AnnAssign)):
                    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                    hits += [
                        (name, node.value)
                        for name in map(_named, targets)
                        if name and KEY_NAME.search(name)
                    ]
                elif isinstance(node, ast.Dict):
                    hits += [
                        (name, value)
                        for name, value in zip(map(_named, node.keys), node.values)
                        if name and KEY_NAME.search(name)
                    ]
                for name, value in hits:
                    if _looks_like_key(value):
                        findings.append(
                            Finding(path, line(node), f"{name} 写死了一个密钥{where(node)}")
                        )
    return findings


def gitignores_env(root: Path | None) -> bool | None:
    """Whether the repository's ``.gitignore`` keeps ``.env`` out of git (None when there is no
    repository root).
    """
    if root is None or not (root / ".gitignore").is_file():
        return None
    patterns = {
        line.strip() for line in (root / ".gitignore").read_text(encoding="utf-8").splitlines()
    }
    return bool(patterns & {".env", "/.env", ".env*", "*.env"})


__all__ = [
    "DANGEROUS",
    "Finding",
    "find_eval",
    "find_secrets",
    "gitignores_env",
    "python_files",
    "text_files",
]
