"""What every checker shares: ``ExerciseFailed``, the ``exercise`` decorator and the per-run
``_Check`` that prints ✅ lines and builds failure messages (用例 / 输入 / 期望 / 实际 / 提示), type
guards, diffs that show only the part that differs, a scan for what a task forbids
(``eval``/``exec``), and a client for the offline simulator.

Unlike the ``dayN`` modules (one checker per exercise), nothing here knows any exercise.
Every call through ``_Check.call``/``_Check.raises`` runs under ``CALL_TIME_LIMIT`` and a whole
check under ``CHECK_TIME_LIMIT`` (``limits.py``): a loop that never ends becomes a Chinese message
naming the case. ``SystemExit`` (or any other ``BaseException`` the learner's code raises, such as
its own error class derived from it) becomes a message too; ``KeyboardInterrupt`` is explained,
then re-raised. Texts a checker marks with ``_Check.keep_secret`` (a key, a phone number) must not
appear in what the learner's code prints during a call, and a list, dict or set passed to the
learner's code must be as it was when the call returns (every task forbids changing the caller's
input). A failure shows only its Chinese message in IPython (``_render_traceback_``).
``_Check.independent`` calls the learner's code several times on independent inputs (``refill``
gives a list new contents under the same ``id``) to catch state kept between calls; ``full_width``,
``CHINESE_WORDS`` and ``near_names`` build the Chinese, full-width, mixed and near-miss inputs that
catch ASCII-only rules and prefix or substring matching. Left out: running the learner's code in a
sandbox (it runs in the notebook's own process).
"""

from __future__ import annotations

import contextlib
import copy
import dis
import functools
import json
import re
import socket
import sys
import types
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from ....jsontext import json_type_name
from ....messages import ToolCall
from ....text import shorten
from .limits import CallTimedOut, time_limit

NOT_DONE = (
    "还没有完成：请在 `# YOUR CODE HERE` 处写下你的实现（并删掉 `raise NotImplementedError()`"
    " 这一行），然后重新运行这个单元格。"
)
INTERNAL = "检查程序自身出错"
"""Marks a failure that comes from a bug in a checker, not from the learner's answer (the mutation
test rejects it).
"""
_CHINESE = re.compile(r"[\u4e00-\u9fff]")


CALL_TIME_LIMIT = 20.0
"""Seconds one call of the learner's code may take (far above what a correct answer needs)."""
CHECK_TIME_LIMIT = 180.0
"""Seconds a whole check may take, including learner calls made outside ``_Check.call``."""
HANG_HINT = (
    "常见原因：没有次数上限的循环——失败了就再试、永远不停的重试；条件永远不变的 while"
    "（循环变量或下标没有前进、break 永远走不到）；或者在等一个永远不会来的锁、事件或队列元素。"
    "给每个循环加上明确的次数上限，并确认每一轮都向结束前进了一步。"
)

STATE_HINT = (
    "每次调用只能依据这一次的输入（和这一次给的资源）算出结果：不要把结果存在全局变量或类属性里；"
    "计数器要在每次调用（或每个新对象）开始时清零；要缓存的话，键必须包含决定结果的全部输入，"
    "而不是其中一部分或对象的 id()（同一个列表改了内容、或新对象用了旧对象的 id，都会拿到旧结果）。"
)


def refill(target: Any, content: Any) -> Any:
    """Give the list or dict ``target`` the items of ``content`` in place and return it: the same
    object (same ``id``) with other contents, which an answer that remembers objects by identity
    gets wrong."""
    if isinstance(target, list):
        target[:] = list(content)
    elif isinstance(target, dict):
        target.clear()
        target.update(content)
    else:
        raise TypeError(f"refill needs a list or dict, not {type(target).__name__}")
    return target


_FULL_WIDTH_OFFSET = 0xFF01 - 0x21


def full_width(text: str) -> str:
    """``text`` with its printable ASCII in full-width forms (``A1`` → ``Ａ１``, space → ideographic
    space): what a Chinese input method types, which a task's rule may or may not treat as ASCII."""
    return "".join(
        (
            "\u3000"
            if char == " "
            else chr(ord(char) + _FULL_WIDTH_OFFSET)
            if "!" <= char <= "~"
            else char
        )
        for char in text
    )


CHINESE_WORDS = ("天气", "北京", "查询", "订单", "会议室", "张三", "汇率", "数据库")
"""Chinese words for checkers to build Chinese and mixed names, keys and texts from."""


def mixed_name(base: str, index: int = 0) -> str:
    """A name that mixes ``base`` (ASCII) with a Chinese word, e.g. ``查询_weather``."""
    return f"{CHINESE_WORDS[index % len(CHINESE_WORDS)]}_{base}"


def near_names(name: str) -> list[str]:
    """Names an exact comparison must tell apart from ``name``: a part of it (its last word, its
    first word, all but its first character), it with more around it, another case, full width and
    a Chinese mix. An answer that matches by prefix, substring, case or width takes one of them for
    ``name``."""
    words = re.split(r"[_\-.]", name)
    candidates = (
        words[-1] if len(words) > 1 else name[1:],
        words[0] if len(words) > 1 else name[:-1],
        name[1:],
        f"re{name}",
        f"{name}_all",
        name.upper() if name != name.upper() else name.lower(),
        full_width(name),
        mixed_name(name),
    )
    return list(dict.fromkeys(c for c in candidates if c and c != name))


class ExerciseFailed(AssertionError):
    """An exercise's check did not pass. The message (Chinese) says which case, what was expected
    and a hint.
    """

    def _render_traceback_(self) -> list[str]:
        # IPython shows these lines instead of a traceback through the checker's own code.
        return [
            f"\x1b[0;31m{line}\x1b[0m" if index == 0 else line
            for index, line in enumerate(str(self).splitlines())
        ]


# ---------------------------------------------------------------------------------------------
# Showing a learner's value
# ---------------------------------------------------------------------------------------------


def _short(value: Any, limit: int = 300) -> str:
    """A learner's value for a failure message: cut to ``limit`` characters, saying how long it was.

    Never raises, whatever the value (a broken ``__repr__`` is reported as such).
    """
    try:
        return shorten(value, limit, one_line=False, show_length=True)
    except Exception:  # noqa: BLE001 - a learner's object may fail to print
        return f"<一个 {type(value).__name__} 对象，无法显示>"


def _brief(value: Any, limit: int = 40) -> str:
    """One short line for a ✅ message."""
    try:
        return shorten(value, limit)
    except Exception:  # noqa: BLE001
        return f"<{type(value).__name__}>"


def type_name(value: Any) -> str:
    """``value``'s type for a hint: the Python name, and the JSON name when they differ (``dict
    （JSON object）``).
    """
    python = type(value).__name__
    json_name = json_type_name(value)
    return python if json_name == python else f"{python}（JSON {json_name}）"


def typed(value: Any, limit: int = 200) -> str:
    """``value`` with its type, e.g. ``str: '北京'`` or ``NoneType: None`` (for an 实际 line)."""
    try:
        shown = (
            repr(value) if isinstance(value, (str, bool)) or value is None else _short(value, limit)
        )
    except Exception:  # noqa: BLE001
        shown = _short(value, limit)
    return f"{type(value).__name__}: {shorten(shown, limit, one_line=False)}"


def text_difference(expected: str, got: str, context: int = 24) -> str:
    """Where two texts first differ, shown as the differing part with a little context on each
    side.
    """
    if expected == got:
        return "两段文字相同"
    start = 0
    while start < min(len(expected), len(got)) and expected[start] == got[start]:
        start += 1
    end = 0
    while end < min(len(expected), len(got)) - start and expected[-1 - end] == got[-1 - end]:
        end += 1

    def window(text: str) -> str:
        middle = text[start : len(text) - end]
        before = text[max(0, start - context) : start]
        after = text[len(text) - end : len(text) - end + context]
        return (
            ("…" if start > context else "")
            + before
            + "【"
            + middle
            + "】"
            + after
            + ("…" if len(text) - end + context < len(text) else "")
        )

    return f"从第 {start + 1} 个字符起不同：期望 {window(expected)!r}，实际 {window(got)!r}"


def _path(parts: Sequence[Any]) -> str:
    return (
        "".join(f"[{part!r}]" if isinstance(part, str) else f"[{part}]" for part in parts)
        or "（整个值）"
    )


def value_difference(expected: Any, got: Any, path: tuple[Any, ...] = ()) -> str | None:
    """The first place where ``got`` differs from ``expected`` (nested dicts and lists), in words;
    None when equal.

    Reads the learner's value only through ``isinstance`` checks, so any value is safe to pass.
    """
    where = _path(path)
    if isinstance(expected, dict):
        if not isinstance(got, dict):
            return f"{where} 应该是 dict，实际是 {typed(got, 80)}"
        missing = [key for key in expected if key not in got]
        extra = [key for key in got if key not in expected]
        if missing:
            return f"{where} 缺少键 {', '.join(map(repr, missing))}" + (
                f"（多出了 {', '.join(map(repr, extra[:5]))}）" if extra else ""
            )
        if extra:
            return f"{where} 多出了键 {', '.join(map(repr, extra[:5]))}"
        for key in expected:
            found = value_difference(expected[key], got[key], (*path, key))
            if found:
                return found
        return None
    if isinstance(expected, list):
        if not isinstance(got, (list, tuple)):
            return f"{where} 应该是 list，实际是 {typed(got, 80)}"
        if len(got) != len(expected):
            return f"{where} 应该有 {len(expected)} 项，实际有 {len(got)} 项"
        for index, (want, have) in enumerate(zip(expected, got)):
            found = value_difference(want, have, (*path, index))
            if found:
                return found
        return None
    same_type = type(expected) is type(got) or (isinstance(expected, float) and type(got) is int)
    if not same_type:
        return f"{where} 应该是 {type_name(expected)} {expected!r}，实际是 {typed(got, 80)}"
    if expected != got:
        if isinstance(expected, str) and (len(expected) > 40 or len(got) > 40):
            return f"{where}：{text_difference(expected, got)}"
        return f"{where} 应该是 {expected!r}，实际是 {got!r}"
    return None


def mentions(text: str, word: str) -> bool:
    """``word`` appears in ``text`` as a whole name: not as part of a longer identifier (``calc`` in
    ``calculator``).
    """
    return re.search(rf"(?<![A-Za-z0-9_]){re.escape(word)}(?![A-Za-z0-9_])", text) is not None


# ---------------------------------------------------------------------------------------------
# What a task forbids
# ---------------------------------------------------------------------------------------------

FORBIDDEN_BUILTINS = ("eval", "exec", "compile", "__import__")


def forbidden_uses(
    answer: Any, names: Iterable[str] = FORBIDDEN_BUILTINS, *, modules: Iterable[str] = ()
) -> list[str]:
    """Where the learner's code names a forbidden builtin (``eval`` …) or module (``openai`` …),
    e.g. ``["repair_json 用了 eval"]``.

    Reads the bytecode of ``answer`` (a function, or a class and its methods) and of every function
    or class of the same module it refers to by name — the helpers written in the same notebook — so
    it works with or without source code. Attribute names (``model.eval()``) are not builtins and do
    not count.
    """
    names, modules = set(names), set(modules)
    module = getattr(answer, "__module__", None)
    found: list[str] = []
    seen: set[int] = set()

    def own(value: Any) -> bool:
        return (
            isinstance(value, (types.FunctionType, type))
            and getattr(value, "__module__", None) == module
        )

    def scan_object(value: Any, depth: int) -> None:
        if isinstance(value, type):
            for member in vars(value).values():
                member = getattr(member, "__func__", member)  # staticmethod / classmethod
                if isinstance(member, types.FunctionType):
                    scan_code(
                        member.__code__,
                        f"{value.__name__}.{member.__name__}",
                        member.__globals__,
                        depth,
                    )
        elif isinstance(value, types.FunctionType):
            scan_code(value.__code__, value.__qualname__, value.__globals__, depth)

    def scan_code(code: types.CodeType, where: str, namespace: dict[str, Any], depth: int) -> None:
        if id(code) in seen or depth > 6:
            return
        seen.add(id(code))
        previous = None
        for instruction in dis.get_instructions(code):
            name = instruction.argval
            if instruction.opname in ("LOAD_GLOBAL", "LOAD_NAME") and isinstance(name, str):
                if name in names and name not in namespace:
                    found.append(f"{where} 用了 {name}")
                elif name in modules or (
                    namespace.get(name) is not None
                    and getattr(namespace.get(name), "__name__", "") in modules
                ):
                    found.append(f"{where} 用了 {name}")
                elif own(namespace.get(name)):
                    scan_object(namespace[name], depth + 1)
            elif (
                instruction.opname in ("LOAD_ATTR", "LOAD_METHOD")
                and name in names
                and previous is not None
                and previous.argval == "builtins"
            ):
                found.append(f"{where} 用了 builtins.{name}")
            elif (
                instruction.opname in ("IMPORT_NAME",)
                and isinstance(name, str)
                and name.split(".")[0] in modules
            ):
                found.append(f"{where} 导入了 {name}")
            previous = instruction
        for constant in code.co_consts:
            if isinstance(constant, types.CodeType):
                scan_code(constant, where, namespace, depth)

    try:
        scan_object(getattr(answer, "__func__", answer), 0)
    except Exception:  # noqa: BLE001 - an object we cannot read is simply not scanned
        return found
    return list(dict.fromkeys(found))


# ---------------------------------------------------------------------------------------------
# One run of one checker
# ---------------------------------------------------------------------------------------------


class _Check:
    """One run of one checker: counts passed cases, prints them, and builds failure messages."""

    def __init__(self, exercise: str):
        self.exercise = exercise
        self.passed = 0
        self.current = ""  # the case whose learner call is running (for a timeout outside ``call``)
        self._pending: list[str] = []
        self.secrets: list[str] = []  # texts the learner's code must never print (``keep_secret``)

    def keep_secret(self, *values: str) -> None:
        """Mark ``values`` (an API key, a password, a phone number) as texts the learner's code must
        not print: every later call through ``call``/``raises``/``run`` fails when its output shows
        one."""
        self.secrets.extend(value for value in values if isinstance(value, str) and value)

    def _leaked(self, output: str) -> str | None:
        return next((secret for secret in self.secrets if secret in output), None)

    def ok(self, case: str, detail: str = "") -> None:
        self.passed += 1
        self._pending.append(f"✅ {case}" + (f"：{detail}" if detail else ""))

    def _flush(self) -> None:
        # One print for all lines: a notebook then stores one output, the same on every run,
        # instead of pieces split wherever the kernel happened to flush while a case was running.
        if self._pending:
            print("\n".join(self._pending))
            self._pending.clear()

    def not_done(self) -> ExerciseFailed:
        # cases that passed before the placeholder was reached say nothing about an answer not yet
        # written
        self._pending.clear()
        return ExerciseFailed(f"{self.exercise}：{NOT_DONE}")

    def fail(
        self, case: str, *, expected: Any, got: Any, hint: str, given: Any = None, why: str = ""
    ) -> ExerciseFailed:
        """The failure of ``case``; ``why`` (e.g. "20 秒内没有结束") is added to its first line."""
        self._flush()
        lines = [f"{self.exercise}：用例「{case}」没有通过" + (f"：{why}。" if why else "。")]
        if given is not None:
            lines.append(f"  输入：{_short(given)}")
        lines.append(f"  期望：{_short(expected)}")
        lines.append(f"  实际：{_short(got)}")
        lines.append(f"  提示：{hint}")
        if self.passed:
            lines.append(f"（前面 {self.passed} 个用例已通过。）")
        return ExerciseFailed("\n".join(lines))

    def timed_out(self, case: str, seconds: float, given: Any = None) -> ExerciseFailed:
        """The failure for learner code that did not finish within ``seconds``."""
        return self.fail(
            case,
            given=given,
            expected=f"在 {seconds:g} 秒内结束",
            got=f"{seconds:g} 秒后还在运行，检查程序把它中断了",
            hint=HANG_HINT,
            why=f"{seconds:g} 秒内没有结束",
        )

    def escaped(self, case: str, exc: BaseException, given: Any = None) -> ExerciseFailed:
        """The failure for ``SystemExit`` (or another ``BaseException``) raised by the learner's
        code.
        """
        if isinstance(exc, SystemExit):
            return self.fail(
                case,
                given=given,
                expected="函数返回一个值或抛出普通异常",
                got=f"调用了 sys.exit()/exit()/quit()（SystemExit: {_brief(str(exc), 80)}）",
                why="调用了 sys.exit()",
                hint=(
                    "sys.exit() 会结束整个程序（在 Jupyter 里是结束单元格），函数里不要用它："
                    "要结束函数用 return，要报告错误就 raise 一个普通异常（如 ValueError）。"
                ),
            )
        return self.fail(
            case,
            given=given,
            expected="函数返回一个值或抛出普通异常（Exception 的子类）",
            got=f"抛出了 {type(exc).__name__}（不是 Exception 的子类）: {_brief(str(exc), 120)}",
            why=f"抛出了 {type(exc).__name__}",
            hint="自己定义的异常请继承 Exception，而不是 BaseException。",
        )

    def interrupted(self, case: str) -> None:
        """Say what a ``KeyboardInterrupt`` during a case means (the caller re-raises it)."""
        self._flush()
        print(
            f"⏹ {self.exercise}：用例「{case}」运行时被中断了（KeyboardInterrupt），检查没有完成。"
            f"\n"
            f"  如果是因为它一直不结束：{HANG_HINT}"
        )

    def _no_secret_printed(self, case: str, printed: list[str], given: Any) -> None:
        """Fail when the learner's code printed a text marked with ``keep_secret``."""
        leaked = self._leaked("".join(printed))
        if leaked:
            raise self.fail(
                case,
                given=given,
                expected="输出里不出现密钥或个人信息",
                got=f"你的代码把 {_mask(leaked)} 打印出来了（print 或日志写到了输出里）",
                why="输出里出现了不该显示的秘密",
                hint=(
                    "笔记本的输出会被保存、分享和提交：不要 print 密钥、请求头或还没脱敏的原文。"
                    "调试用的 print 要删掉，或者只打印已经处理过的结果。"
                ),
            )

    def _guarded(
        self,
        case: str,
        fn: Callable[..., Any],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        given: Any,
    ) -> Any:
        """Call the learner's ``fn`` under the time limit; turn a hang, an exit and an interrupt
        into words.
        """
        __tracebackhide__ = True
        self.current = case
        printed: list[str] = []
        before = _containers(args, kwargs)
        try:
            with time_limit(CALL_TIME_LIMIT), _watched_output(printed, bool(self.secrets)):
                result = fn(*args, **kwargs)
        except CallTimedOut:
            raise self.timed_out(case, CALL_TIME_LIMIT, given) from None
        except KeyboardInterrupt:
            self.interrupted(case)
            raise
        except Exception:
            self._no_secret_printed(case, printed, given)
            raise
        except BaseException as exc:  # SystemExit, GeneratorExit, a learner's own BaseException
            raise self.escaped(case, exc, given) from None
        self._no_secret_printed(case, printed, given)
        changed = _changed_container(before, args, kwargs)
        if changed:
            raise self.fail(
                case,
                given=given,
                expected="传进来的参数保持原样",
                got=f"调用之后，{changed}",
                why="修改了调用者传进来的参数",
                hint=(
                    "调用者手里的 list、dict、set 在你的函数返回后还要用：不要在原对象上 append、"
                    "pop、sort、赋值或删除。要改就先复制一份（list(x)、dict(x)、copy.deepcopy(x)），"
                    "在副本上改。"
                ),
            )
        return result

    def run(
        self, case: str, fn: Callable[..., Any], *args: Any, given: Any = None, **kwargs: Any
    ) -> Any:
        """Run the learner's code under ``CALL_TIME_LIMIT`` and let its ordinary exceptions through,
        for a checker that judges them itself (a hang, an exit and an interrupt still become words).
        """
        __tracebackhide__ = True
        try:
            return self._guarded(case, fn, args, kwargs, given)
        except ExerciseFailed:
            self._flush()
            raise

    def probe(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """The learner's code run once more on other inputs, only to choose a hint: its result, or
        None when it raises or does not finish within ``CALL_TIME_LIMIT``.
        """
        try:
            with time_limit(CALL_TIME_LIMIT):
                return fn(*args, **kwargs)
        except KeyboardInterrupt:
            raise
        except BaseException:  # noqa: BLE001 - a hang, an exit or a learner's own BaseException
            return None

    def call(
        self,
        case: str,
        fn: Callable[..., Any],
        *args: Any,
        hint: str | Callable[[Exception], str] = "",
        expected: Any = "正常返回",
        given: Any = None,
        **kwargs: Any,
    ) -> Any:
        """Run the learner's code; the placeholder and unexpected exceptions become
        ``ExerciseFailed``.

        ``hint`` may be a function of the exception the learner's code raised, to say what that one
        means. The call runs under ``CALL_TIME_LIMIT``; ``SystemExit`` and a hang become failures
        naming ``case``.
        """
        # pytest and IPython leave the checker's own frames out of the traceback
        __tracebackhide__ = True
        try:
            return self._guarded(case, fn, args, kwargs, given)
        except NotImplementedError:
            raise self.not_done() from None
        except ExerciseFailed:
            self._flush()
            raise
        except Exception as exc:  # noqa: BLE001 - any learner bug becomes a readable failure
            text = hint(exc) if callable(hint) else hint
            raise self.fail(
                case,
                expected=expected,
                got=f"抛出了异常 {type(exc).__name__}: {_brief(str(exc), 200)}",
                given=given,
                hint=text or "先在上面的单元格里单独调用你的函数，看看是哪一行出的错。",
            ) from exc

    def raises(
        self,
        case: str,
        fn: Callable[..., Any],
        *args: Any,
        expected: type[BaseException] | tuple[type[BaseException], ...],
        want: str,
        hint_returned: str,
        hint_other: Callable[[Exception], str] | str,
        given: Any = None,
        **kwargs: Any,
    ) -> Exception:
        """Run the learner's code where it must raise ``expected``; return the exception, or fail
        saying what happened.
        """
        __tracebackhide__ = True
        try:
            got = self._guarded(case, fn, args, kwargs, given)
        except NotImplementedError:
            raise self.not_done() from None
        except ExerciseFailed:
            self._flush()
            raise
        except expected as exc:  # type: ignore[misc]
            return exc
        except Exception as exc:  # noqa: BLE001
            hint = hint_other(exc) if callable(hint_other) else hint_other
            wanted = expected if isinstance(expected, tuple) else (expected,)
            twin = next((cls for cls in wanted if cls.__name__ == type(exc).__name__), None)
            shown = (
                f"{type(exc).__module__}.{type(exc).__name__}（一个同名的类，不是"
                f" {twin.__module__}.{twin.__name__}）"
                if twin is not None
                else type(exc).__name__
            )  # two classes with one name must not print alike
            raise self.fail(
                case,
                given=given,
                expected=want if twin is None else f"{want}（{twin.__module__}.{twin.__name__}）",
                got=f"抛出了 {shown}: {_brief(str(exc), 160)}",
                hint=hint,
            ) from exc
        raise self.fail(
            case,
            given=given,
            expected=want,
            got=f"没有抛出异常，返回了 {typed(got)}",
            hint=hint_returned,
        )

    def forbid(
        self,
        case: str,
        answer: Any,
        *,
        names: Iterable[str] = FORBIDDEN_BUILTINS,
        modules: Iterable[str] = (),
        why: str,
    ) -> None:
        """Fail when the learner's code (and its helpers in the same notebook) uses what the task
        forbids.
        """
        uses = forbidden_uses(answer, names, modules=modules)
        if uses:
            raise self.fail(
                case,
                expected="不使用 " + "、".join([*names, *modules]),
                got="；".join(uses),
                hint=why,
            )
        self.ok(case)

    def unchanged(self, case: str, before: Any, after: Any, what: str, hint: str) -> None:
        """Fail when the learner changed a value the checker passed in (``before`` is a deep copy
        taken earlier).
        """
        difference = value_difference(before, after)
        if difference:
            raise self.fail(
                case, expected=f"{what}保持原样", got=f"被修改了：{difference}", hint=hint
            )

    def independent(
        self,
        case: str,
        runs: Sequence[tuple[Any, ...]],
        *,
        same: Callable[[Any, Any], bool] | None = None,
        hint: str = "",
    ) -> list[Any]:
        """Run the learner's code once per ``(label, run, expected)`` or ``(label, run, expected,
        given)``, in order, in one process, each compared with the result expected for *its own*
        input; return the results.

        The runs are meant to be independent (other inputs, a fresh resource, the same list changed
        in place): an answer that keeps state between calls — a module global, a cache under the
        wrong key or under ``id(...)``, a counter never reset — is right on the first and wrong on a
        later one, and the message names the run and that kind. Prints nothing when all pass, so
        adding it to a checker leaves a passing check's output as it was.
        """
        __tracebackhide__ = True
        same = same or (lambda want, got: value_difference(want, got) is None)
        results: list[Any] = []
        for index, (label, run, want, *shown) in enumerate(runs):
            name = f"{case}：第 {index + 1} 次调用（{label}）"
            given = shown[0] if shown else label
            got = self.call(name, run, given=given, hint=hint)
            if same(want, got):
                results.append(got)
                continue
            earlier = next(
                (
                    number
                    for number, (_, _, before, *_) in enumerate(runs[:index])
                    if same(before, got) and not same(before, want)
                ),
                None,
            )
            again = next(
                (
                    number
                    for number, (_, _, before, *_) in enumerate(runs[:index])
                    if same(before, want)
                ),
                None,
            )
            if earlier is not None:
                why = (
                    f"第 {index + 1} 次调用（换了输入）还返回了第 {earlier + 1} 次的结果："
                    "答案可能把结果存在了全局变量或按错误的键缓存"
                )
            elif again is not None:
                why = (
                    f"第 {index + 1} 次调用（新的对象或资源、同样的问题）和第 {again + 1} 次的结果"
                    "不同：答案在调用之间保留了状态（全局变量、类属性或没有清零的计数器）"
                )
            elif index:
                why = (
                    f"第 {index + 1} 次调用（换了输入）的结果不对，而前面的调用都对："
                    "看看这次输入有什么不同；如果单独调用它是对的，答案就是在调用之间保留了状态"
                )
            else:
                why = "结果不对"
            difference = value_difference(want, got) or "值不同"
            advice = " ".join(part for part in (hint, STATE_HINT if index else "") if part)
            raise self.fail(
                name,
                given=given,
                expected=want,
                why=why,
                got=f"{typed(got, 160)}（{difference}）",
                hint=advice or "和练习说明里的规则逐条对照。",
            )
        for index, (got, (label, _, want, *shown)) in enumerate(zip(results, runs)):
            if not same(want, got):  # an earlier result changed while a later call ran
                name = f"{case}：第 {index + 1} 次调用（{label}）"
                raise self.fail(
                    name,
                    given=shown[0] if shown else label,
                    expected=want,
                    why="它返回的结果在后面的调用里被改掉了",
                    got=(
                        f"后面的调用之后变成了 {typed(got, 160)}"
                        f"（{value_difference(want, got) or '值不同'}）"
                    ),
                    hint=(
                        "每次调用都要返回一个新的对象：答案把结果放在全局变量、类属性或默认参数里"
                        "（例如开头 clear() 一下再填），下一次调用就改掉了调用者手里的上一份结果。"
                        "在函数里新建 dict/list 再返回。"
                    ),
                )
        return results

    def done(self) -> None:
        self._pending.append(f"🎉 {self.exercise}：全部 {self.passed} 个用例通过！")
        self._flush()


class _Tee:
    """A stream that keeps what is written to it and passes it on to the real one."""

    def __init__(self, target: Any, seen: list[str]):
        self._target, self._seen = target, seen

    def write(self, text: Any) -> Any:
        self._seen.append(str(text))
        return self._target.write(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._target, name)


@contextlib.contextmanager
def _watched_output(seen: list[str], active: bool) -> Iterator[None]:
    """Keep what the block prints (stdout and stderr) in ``seen``, still showing it; nothing when
    not ``active``."""
    if not active:
        yield
        return
    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = _Tee(out, seen), _Tee(err, seen)
    try:
        yield
    finally:
        sys.stdout, sys.stderr = out, err


def _containers(args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[Any, tuple[Any, Any]]:
    """Deep copies of the plain lists, dicts and sets among a call's arguments, to find out
    afterwards whether the learner's code changed one (``_changed_container``)."""
    kept: dict[Any, tuple[Any, Any]] = {}
    for where, value in [*enumerate(args), *kwargs.items()]:
        if type(value) in (list, dict, set):
            try:
                kept[where] = (value, copy.deepcopy(value))
            except Exception:  # noqa: BLE001 - an argument that cannot be copied is not watched
                continue
    return kept


def _changed_container(
    kept: dict[Any, tuple[Any, Any]], args: tuple[Any, ...], kwargs: dict[str, Any]
) -> str | None:
    """How the learner's code changed a list, dict or set argument, in words; None when none."""
    for where, (value, copied) in kept.items():
        name = f"第 {where + 1} 个参数" if isinstance(where, int) else f"参数 {where}"
        try:
            if isinstance(copied, set):
                if value != copied:
                    added, removed = (
                        sorted(map(repr, value - copied)),
                        sorted(map(repr, copied - value)),
                    )
                    return f"{name}（一个 set）被修改了：" + "，".join(
                        part
                        for part in (
                            f"多了 {'、'.join(added[:5])}" if added else "",
                            f"少了 {'、'.join(removed[:5])}" if removed else "",
                        )
                        if part
                    )
                continue
            difference = value_difference(copied, value)
        except Exception:  # noqa: BLE001 - a value that cannot be compared is not judged
            continue
        if difference:
            return f"{name}被修改了：{difference}"
    return None


def _mask(secret: str) -> str:
    """A secret for a message: its first and last characters only."""
    keep = max(1, min(3, len(secret) // 4))
    return f"{secret[:keep]}…{secret[-keep:]}（{len(secret)} 个字符）"


def exercise(fn: Callable[..., None]) -> Callable[..., None]:
    """Make ``fn(check, answer, …)`` the checker ``name(answer, …)``: it gets a fresh ``_Check``,
    and any exception other than ``ExerciseFailed`` — a bug in the checker itself — still reaches
    the learner as an ``ExerciseFailed`` that says so, instead of a traceback from inside the
    checker."""
    name = fn.__name__

    @functools.wraps(fn)
    def run(*args: Any, **kwargs: Any) -> None:
        __tracebackhide__ = True
        check = _Check(name)
        try:
            with time_limit(CHECK_TIME_LIMIT):
                fn(check, *args, **kwargs)
        except ExerciseFailed:
            check._flush()
            raise
        except NotImplementedError:
            raise check.not_done() from None
        except CallTimedOut:
            where = check.current or "第一个"
            raise check.timed_out(f"{where}（或它之后的用例）", CHECK_TIME_LIMIT) from None
        except KeyboardInterrupt:
            check.interrupted(check.current or "第一个")
            raise
        except (SystemExit, GeneratorExit) as exc:
            raise check.escaped(check.current or "第一个", exc) from None
        except Exception as exc:  # noqa: BLE001 - the last guard: never a raw traceback from inside the checker
            check._flush()
            raise ExerciseFailed(
                f"{name}：用例没有跑完，{INTERNAL}（{type(exc).__name__}:"
                f" {_brief(str(exc), 200)}）。\n"
                "  提示：这多半是检查程序没有料到你返回的值；先按练习说明核对返回值的类型和结构。"
            ) from exc
        except BaseException as exc:  # a learner's own BaseException subclass, raised outside call
            raise check.escaped(check.current or "第一个", exc) from None

    del run.__wrapped__  # the signature a learner sees is (answer), not (check, answer)
    return run


def attribute(value: Any, name: str) -> Any:
    """``getattr(value, name, None)`` that also survives a learner's object whose ``__getattr__``
    raises.
    """
    try:
        return getattr(value, name, None)
    except Exception:  # noqa: BLE001
        return None


def _callable(exercise: str, fn: Any, what: str = "函数") -> None:
    if not callable(fn):
        raise ExerciseFailed(
            f"{exercise}：需要传入你写的{what}本身（例如 check.{exercise}(my_function)，不带括"
            f"号），收到的是 {type(fn).__name__}: {_short(fn, 100)}\n  提示：去掉函数名后面的括号，"
            "把函数本身传进来。"
        )


def _same_call(got: Any, wanted: ToolCall) -> bool:
    """The learner's value is a call to the same tool with equal arguments (key order and spacing do
    not matter).
    """
    return isinstance(got, ToolCall) and got.same_call(wanted)


def shared_container(result: Any, source: Any) -> str | None:
    """Where ``result`` holds a dict or list that is also inside ``source`` (the same object, not an
    equal copy), as a path like ``['request']['headers']``; None when it shares none. A result that
    shares them changes the caller's value when it is changed, and the other way round."""
    inside: set[int] = set()

    def collect(value: Any, depth: int) -> None:
        if isinstance(value, (dict, list)) and depth < 50 and id(value) not in inside:
            inside.add(id(value))
            for item in value.values() if isinstance(value, dict) else value:
                collect(item, depth + 1)

    collect(source, 0)

    def find(value: Any, path: tuple[Any, ...], depth: int) -> str | None:
        if not isinstance(value, (dict, list)) or depth >= 50:
            return None
        if id(value) in inside:
            return _path(path)
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for key, item in items:
            found = find(item, (*path, key), depth + 1)
            if found:
                return found
        return None

    return find(result, (), 0)


def snapshot(value: Any) -> Any:
    """A deep copy to compare with later (to detect a learner changing what was passed in)."""
    return copy.deepcopy(value)


# ---------------------------------------------------------------------------------------------
# The offline simulator and small servers
# ---------------------------------------------------------------------------------------------


def offline_base_url() -> str:
    """The API root of the in-process offline server that ``connect("offline")`` shares (started on
    first use).
    """
    from ....llm import connect

    return connect("offline", quiet=True).base_url


def offline_client(
    model: str = "course-sim", *, max_retries: int = 0, timeout: float = 30.0
) -> Any:
    """A ``ChatClient`` on the offline simulator, independent of ``.env`` (checks must not depend on
    it).
    """
    from ....llm import OFFLINE_API_KEY, ChatClient

    return ChatClient(
        offline_base_url(),
        OFFLINE_API_KEY,
        model,
        timeout=timeout,
        max_retries=max_retries,
        label="离线课程模拟器",
        backoff=0.0,
        max_wait=0.0,
    )


def _closed_port() -> int:
    """A local port with nothing listening on it (bound, then released)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


_CALCULATOR_SCHEMA = {
    "type": "function",
    "function": {
        "name": "calculate",
        "description": "计算一个数学表达式，例如 (12 + 34) * 2。",
        "parameters": {
            "type": "object",
            "properties": {
                "expression": {"type": "string", "description": "要计算的表达式，例如 17 * 9"}
            },
            "required": ["expression"],
        },
    },
}


class TooManyModelCalls(RuntimeError):
    """Raised by a checker's model when the learner's loop keeps calling it far beyond any sensible
    bound.
    """


class _Recorder:
    """Wraps a ChatModel and keeps each request's messages (for checking what the learner sent)."""

    def __init__(self, client: Any, limit: int = 20):
        self.client = client
        self.limit = limit
        self.requests: list[list[dict[str, Any]]] = []
        self.tools: list[Any] = []

    def complete(
        self, messages: Sequence[dict[str, Any]], tools: Any = None, **options: Any
    ) -> Any:
        try:
            sent = json.loads(json.dumps(list(messages), ensure_ascii=False, default=str))
        except (TypeError, ValueError):
            sent = [{"role": "?", "content": _short(messages)}]
        self.requests.append(sent)
        self.tools.append(tools)
        if len(self.requests) > self.limit:
            raise TooManyModelCalls(
                f"调用模型超过了 {self.limit} 次：循环没有上限吗？每个循环都要有明确的次数上限。"
            )
        return self.client.complete(messages, tools, **options)
