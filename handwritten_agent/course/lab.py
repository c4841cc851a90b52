"""JupyterLab for the course: Simplified Chinese, and no "Jupyter news" pop-up, in the course's own
environment only.

``python -m handwritten_agent.course.lab`` (run by ``make install``) writes JupyterLab's
``overrides.json`` into this environment (``<venv>/share/jupyter/lab/settings/``): the defaults
every user of *this* environment starts from. The learner's own settings (``~/.jupyter``) are not
touched, other environments are not affected, and anything the learner changes in JupyterLab's
settings still wins.

- ``@jupyterlab/translation-extension:plugin`` → ``locale: zh_CN`` (the official language pack
  ``jupyterlab-language-pack-zh-CN`` is a dependency);
- ``@jupyterlab/apputils-extension:notification`` → no news feed, no update check (the pop-up that
  greets a new user in English).

Left out: Jupyter Notebook 7 and VS Code, which keep their own settings.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

OVERRIDES = {
    "@jupyterlab/translation-extension:plugin": {"locale": "zh_CN"},
    "@jupyterlab/apputils-extension:notification": {"fetchNews": "false", "checkForUpdates": False},
}


def overrides_path(prefix: str | Path = sys.prefix) -> Path:
    return Path(prefix) / "share" / "jupyter" / "lab" / "settings" / "overrides.json"


def install_overrides(prefix: str | Path = sys.prefix) -> Path:
    """Merge the course's defaults into the environment's ``overrides.json`` (other keys in it are
    kept).
    """
    path = overrides_path(prefix)
    current = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    for plugin, settings in OVERRIDES.items():
        current[plugin] = {**current.get(plugin, {}), **settings}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(current, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    return path


if __name__ == "__main__":
    print(f"JupyterLab 的课程设置（简体中文、不弹新闻）已写入：{install_overrides()}")
