"""``python -m handwritten_agent users add|list|remove`` and
``service --port N [--db PATH|URL] [--model NAME] [--env-file PATH]``.

``users remove NAME`` revokes the user's token at once, cancels their queued and paused runs
(running ones stop at their next step) and keeps everything else: runs, decisions and the audit log
still name them.

Left out: rotating a token in place (remove the user and add them again: a new token).
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import sys
import threading

from ...service.settings import ServiceSettings, default_db_path


def add_arguments(sub: argparse._SubParsersAction) -> None:
    users = sub.add_parser(
        "users",
        help="管理服务的用户（令牌、角色）",
        description="管理办公助手服务的用户：添加、列出。",
    )
    users_sub = users.add_subparsers(
        dest="action", required=True, metavar="操作", help="要做的操作，是下面之一"
    )
    add = users_sub.add_parser(
        "add",
        help="添加一个用户并打印它的令牌（只显示一次）",
        description="添加一个用户并打印它的令牌（只显示这一次，数据库里只保存它的哈希）。",
    )
    add.add_argument("name", help="用户的名字，例如 张三")
    add.add_argument(
        "--role", required=True, help="用户的角色，例如 行政助理 或 管理员（权限策略里的角色）"
    )
    add.add_argument(
        "--db",
        default=None,
        help=f"服务的数据库：SQLite 文件路径或 postgresql:// 地址（默认：{default_db_path()}）",
    )
    add.set_defaults(func=users_add)
    listing = users_sub.add_parser(
        "list",
        help="列出用户（名字和角色；令牌从不保存）",
        description="列出服务的用户：id、名字和角色（令牌从不保存）。",
    )
    listing.add_argument(
        "--db",
        default=None,
        help=f"服务的数据库：SQLite 文件路径或 postgresql:// 地址（默认：{default_db_path()}）",
    )
    listing.set_defaults(func=users_list)
    remove = users_sub.add_parser(
        "remove",
        help="删除一个用户：令牌立即失效，取消他等待中的运行，保留运行记录和审计日志",
        description=(
            "删除一个用户：令牌立即失效，他排队和等待确认的运行被取消；运行记录和审计日志保留。"
        ),
    )
    remove.add_argument("name", help="要删除的用户名字")
    remove.add_argument(
        "--db",
        default=None,
        help=f"服务的数据库：SQLite 文件路径或 postgresql:// 地址（默认：{default_db_path()}）",
    )
    remove.set_defaults(func=users_remove)

    service = sub.add_parser(
        "service",
        help="启动办公助手服务（FastAPI + uvicorn）",
        description="在前台启动第 7 天的办公助手服务，Ctrl+C 停止。",
    )
    service.add_argument(
        "--host", default="127.0.0.1", help="监听的地址（默认 127.0.0.1：只有本机能访问）"
    )
    service.add_argument("--port", type=int, default=8000, help="监听的端口（默认 8000）")
    service.add_argument(
        "--db",
        default=None,
        help=f"服务的数据库：SQLite 文件路径或 postgresql:// 地址（默认：{default_db_path()}）",
    )
    service.add_argument("--workers", type=int, default=4, help="最多同时执行几次运行（默认 4）")
    service.add_argument(
        "--model",
        default=None,
        help="模型名，覆盖 .env 里的 LLM_MODEL（例如 deepseek-chat，或 course-sim:gullible）",
    )
    service.add_argument(
        "--env-file",
        default=None,
        help=(
            "从这个文件读取 LLM_*、LLM_FALLBACK_* 设置（默认：当前目录往上找到的 .env；"
            "环境变量优先）"
        ),
    )
    service.set_defaults(func=run_service)


def _shown(target: str) -> str:
    """A database path or URL as it may be printed: a password in a URL becomes ``***``."""
    return re.sub(r"(://[^:/@]+:)[^@]*@", r"\1***@", str(target))


def _settings(args: argparse.Namespace) -> ServiceSettings:
    settings = ServiceSettings(db_path=args.db) if args.db else ServiceSettings()
    if getattr(args, "workers", None):
        settings.workers = args.workers
    if getattr(args, "model", None):
        settings.model = args.model
    return settings


def users_add(args: argparse.Namespace) -> int:
    from ...service.store import Store

    settings = _settings(args)
    user, token = Store(settings.db_path).add_user(args.name, args.role)
    print(
        f"已添加用户 {user.name}（角色：{user.role}，id：{user.id}），"
        f"数据库：{_shown(settings.db_path)}"
    )
    from ...scenarios.office import ROLE_TABLE

    if user.role not in ROLE_TABLE:
        print(
            f"注意：办公助手的权限策略里没有角色“{user.role}”（有：{'、'.join(ROLE_TABLE)}），"
            "这个用户看不到任何工具。"
        )
    print("下面是这个用户的令牌，只显示这一次（数据库里只保存它的哈希）：")
    print(token)
    return 0


def users_list(args: argparse.Namespace) -> int:
    from ...service.store import Store

    for user in Store(_settings(args).db_path).users():
        print(f"{user.id}\t{user.name}\t{user.role}")
    return 0


def users_remove(args: argparse.Namespace) -> int:
    from ...service.store import Store

    store = Store(_settings(args).db_path)
    try:
        user, cancelled, stopping = store.remove_user(args.name)
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return 1
    print(f"已删除用户 {user.name}（角色：{user.role}，id：{user.id}）：令牌已失效。")
    print(
        f"取消了 {len(cancelled)} 个排队或等待确认的运行"
        + (f"，{len(stopping)} 个正在执行的运行会在下一步停止" if stopping else "")
        + "；运行记录、决定和审计日志都保留。"
    )
    if not any(other.role == user.role for other in store.users()):
        waiting = [
            p
            for run in store.runs_with_status("requires_action")
            for p in run["pending"]
            if p.get("approver_role") == user.role
        ]
        if waiting:
            print(
                f"注意：已经没有角色为“{user.role}”的用户了，{len(waiting)}"
                f" 个等待这个角色审批的请求需要一个新的{user.role}"
                f"（python -m handwritten_agent users add 名字 --role {user.role}）。"
            )
    return 0


def run_service(args: argparse.Namespace) -> int:
    from ...service.app import create_app
    from ..background import BackgroundServer

    if args.env_file:
        from dotenv import load_dotenv

        if not os.path.isfile(args.env_file):
            print(f"找不到 --env-file 指定的文件：{args.env_file}", file=sys.stderr)
            return 1
        load_dotenv(
            args.env_file, override=False
        )  # variables already set in the environment win, as with .env
    settings = _settings(args)
    app = create_app(settings)
    stop = threading.Event()
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, lambda *_: stop.set())
    with BackgroundServer(app, args.host, args.port) as server:
        models = getattr(app.state.manager.make_agent, "models", None)
        model = f"，模型 {models.description}" if models is not None else ""
        print(
            f"办公助手服务已启动：{server.url}（网页 {server.url}/，接口文档 {server.url}/docs），"
            f"数据库 {settings.db_path}{model}。Ctrl+C 停止。",
            flush=True,
        )
        try:
            while not stop.wait(
                0.5
            ):  # deliberately unbounded: the foreground service runs until Ctrl+C or SIGTERM
                pass
        except KeyboardInterrupt:
            pass
    app.state.manager.shutdown(wait=True)
    print("服务已停止。", flush=True)
    return 0
