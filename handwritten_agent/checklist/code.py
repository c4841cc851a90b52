"""The checklist's looks at the code itself: ``eval``/``exec`` anywhere in the package, keys written into files.

Both read files and never import or run them. ``find_eval`` parses every ``.py`` file with ``ast`` and
reports each call of the built-in ``eval``/``exec`` (also as ``builtins.eval``), so a string that merely
mentions them does not count and a renamed import (``from builtins import eval as e``) still does.
``find_secrets`` looks for text shaped like a provider key (``sk-…`` with 20+ characters, an AWS access
key id, ``api_key = "<long literal>"``) in Python files, notebooks and ``.env.example``; a key that
says it is made up (``sk-demo-…``, ``sk-test-…``) is not reported.

Left out: following data flow (any ``eval`` is reported, whether or not model output reaches it), and
secrets in other shapes (a real scanner such as gitleaks knows hundreds of formats).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

DANGEROUS = frozenset({"eval", "exec"})
SECRET_PATTERNS = [
    ("API key (sk-…)", re.compile(r"\bsk-(?:proj-|ant-)?[A-Za-z0-9_-]{20,}")),
    ("AWS access key id", re.compile(r"\bAKIA[0-9A-Z]{16}\b")),
    ("api_key literal", re.compile(r"""(?i)\bapi[_-]?key\b["']?\s*[:=]\s*["'](?!\.\.\.|<|your|any\b|no-key|test\b)[A-Za-z0-9_\-]{16,}["']""")),
]

PLACEHOLDER = re.compile(r"(?i)demo|fake|test|wrong|example|dummy|placeholder|xxxx|0123456789")
"""Made-up keys in lessons and tests say so (``sk-demo-…``, ``sk-test-…``); those are not reported."""


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
    """Every call of the built-in ``eval``/``exec`` in ``files`` (a file that does not parse is reported too)."""
    findings: list[Finding] = []
    for path in files:
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        except (SyntaxError, UnicodeDecodeError) as exc:
            findings.append(Finding(path, getattr(exc, "lineno", 0) or 0, f"无法解析：{type(exc).__name__}"))
            continue
        aliases = set(DANGEROUS)  # names bound to eval/exec in this file, e.g. `from builtins import eval as run`
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module == "builtins":
                aliases |= {alias.asname or alias.name for alias in node.names if alias.name in DANGEROUS}
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            if isinstance(func, ast.Name) and func.id in aliases:
                findings.append(Finding(path, node.lineno, f"调用了 {func.id}()"))
            elif isinstance(func, ast.Attribute) and func.attr in DANGEROUS and isinstance(func.value, ast.Name) \
                    and func.value.id in ("builtins", "__builtins__"):
                findings.append(Finding(path, node.lineno, f"调用了 {func.value.id}.{func.attr}()"))
    return findings


def text_files(package_dir: Path, root: Path | None) -> list[Path]:
    """The package's Python files, and with the repository root its notebooks and ``.env.example``."""
    files = python_files(package_dir)
    if root is not None:
        for folder in ("notebooks", "solutions", "exercises"):
            if (root / folder).is_dir():
                files += sorted(p for p in (root / folder).rglob("*") if p.suffix in (".py", ".ipynb") and ".ipynb_checkpoints" not in p.parts)
        if (root / ".env.example").is_file():
            files.append(root / ".env.example")
    return files


def find_secrets(files: Iterable[Path]) -> list[Finding]:
    """Lines that look like a real key (see ``SECRET_PATTERNS``)."""
    findings: list[Finding] = []
    for path in files:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        for number, line in enumerate(text.splitlines(), 1):
            for what, pattern in SECRET_PATTERNS:
                match = pattern.search(line)
                if match and not PLACEHOLDER.search(match.group(0)):
                    findings.append(Finding(path, number, f"像是写死的密钥（{what}）"))
    return findings


def gitignores_env(root: Path | None) -> bool | None:
    """Whether the repository's ``.gitignore`` keeps ``.env`` out of git (None when there is no repository root)."""
    if root is None or not (root / ".gitignore").is_file():
        return None
    patterns = {line.strip() for line in (root / ".gitignore").read_text(encoding="utf-8").splitlines()}
    return bool(patterns & {".env", "/.env", ".env*", "*.env"})


__all__ = ["DANGEROUS", "Finding", "find_eval", "find_secrets", "gitignores_env", "python_files", "text_files"]
