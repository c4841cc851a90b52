"""Tools: a function becomes a JSON-Schema tool, a registry holds them, dispatch runs them safely.

The model only ever sees a tool's name, description and parameter schema, so ``@tool`` builds all
three from the function itself — the signature gives names, types and defaults, the docstring gives
the description (its first paragraph) and one line per parameter (its ``Args:`` section). A missing
type hint or parameter description fails at decoration time, with the line to add, because a tool
the model cannot understand is a bug that otherwise only shows up as a wrong call at run time.

``ToolRegistry.dispatch`` is the one door between model output and your code. It parses the
arguments, validates them against the schema with ``jsonschema`` (nothing is coerced: ``"17"`` for
an integer is an error the model can read and fix), runs the tool with a timeout, and always returns
a ``ToolResult`` — the ``{success, data, error}`` envelope — never an exception.

Left out: async tools, permission checks and confirmation (Day 5's ``permissions`` reads the
metadata kept here: ``level``, ``side_effects``, ``needs_confirmation``, ``untrusted``), retries,
and result caching (``tool_cache``).
"""

from __future__ import annotations

import contextvars
import inspect
import json
import re
import threading
import types
import typing
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Literal, Union

from jsonschema import Draft202012Validator

from .jsontext import json_type_name, json_type_zh
from .messages import parse_arguments

PERMISSION_LEVELS = ("L0", "L1", "L2", "L3")
"""L0 hidden/refused, L1 read-only, L2 confirm once, L3 approval (the course's four-level model;
enforced on Day 5).
"""


def level_name(level: Any) -> str:
    """``Level.L2``, ``"L2"``, ``"l2"`` or ``2`` → ``"L2"``; anything else raises ``ValueError``
    naming the valid levels. The one reading of a level: ``permissions.Level.of`` uses it too.
    """
    value = getattr(level, "value", level)
    if isinstance(value, int) and not isinstance(value, bool):
        value = f"L{value}"
    elif isinstance(value, str):
        value = value.strip().upper()
    if value not in PERMISSION_LEVELS:
        raise ValueError(
            f"权限级别 {level!r} 无效：请用 {'、'.join(PERMISSION_LEVELS)} 之一（或 Level.L0 …"
            " Level.L3）。"
        )
    return str(value)


class ToolDefinitionError(TypeError):
    """A function cannot become a tool as written. The message says which line to add or change."""


class ToolError(Exception):
    """Raise inside a tool for an expected failure; its message reaches the model as is, without a
    type name.

    Any other exception also becomes an error result, reported as ``"ExcType: message"``.
    """


# --------------------------------------------------------------------------- the result envelope


@dataclass
class ToolResult:
    """The uniform envelope every tool call produces: ``{"success", "data", "error"}``.

    ``exception`` keeps the original exception for traces and debugging; it is never sent to the
    model.
    """

    success: bool
    data: Any = None
    error: str | None = None
    exception: BaseException | None = field(default=None, repr=False, compare=False)

    @classmethod
    def ok(cls, data: Any) -> ToolResult:
        return cls(success=True, data=data)

    @classmethod
    def fail(cls, error: str, exception: BaseException | None = None) -> ToolResult:
        return cls(success=False, error=error, exception=exception)

    def to_dict(self) -> dict[str, Any]:
        return {"success": self.success, "data": self.data, "error": self.error}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ToolResult:
        """The inverse of ``to_dict`` (the exception, never serialized, is not restored)."""
        return cls(
            success=bool(data.get("success")), data=data.get("data"), error=data.get("error")
        )

    def to_content(self) -> str:
        """The text of the ``role: tool`` message. Values JSON cannot encode (dates, …) are written
        with ``str``.
        """
        return json.dumps(self.to_dict(), ensure_ascii=False, default=str)


# --------------------------------------------------------------------------- the tool


@dataclass
class Tool:
    """A function plus everything the model and the runtime need to know about it."""

    name: str
    description: str
    parameters: dict[str, Any]
    fn: Callable[..., Any]
    level: str = "L1"
    """The permission level as text ("L0"…"L3"), enforced on Day 5 (``permissions.Level`` compares
    equal to it).
    """
    side_effects: bool = False
    timeout: float | None = 10.0
    needs_confirmation: bool | Callable[[dict[str, Any]], bool] | None = None
    """None lets the permission level decide (Day 5); True/False or a predicate on the arguments
    overrides it.
    """
    untrusted: bool = False
    """The result carries text written outside the company's control (an email, a web page, customer
    data). Text can carry instructions: once such a result entered a run, the permission gate wants
    a person's confirmation for any call with side effects in that run, whatever the role's level
    (Day 5)."""
    metadata: dict[str, Any] = field(default_factory=dict)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Call the underlying function directly, exactly as if it had not been decorated."""
        return self.fn(*args, **kwargs)

    def schema(self) -> dict[str, Any]:
        """The entry for the ``tools`` parameter of a chat-completions request."""
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": self.parameters,
            },
        }

    def invoke(self, arguments: dict[str, Any] | str | None) -> ToolResult:
        """Parse, validate and run; every failure becomes an error result. ``ToolRegistry.dispatch``
        calls this.
        """
        try:
            args = parse_arguments(arguments)
        except ValueError as exc:
            return ToolResult.fail(f"工具 {self.name} 的{exc}", exc)
        problems = validation_errors(self.parameters, args)
        if problems:
            return ToolResult.fail(
                f"工具 {self.name} 的参数不符合要求：{'；'.join(problems)}。"
                "请修正参数后再调用一次。"
            )
        return run_with_timeout(self.fn, args, self.timeout, self.name)


def tool(
    fn: Callable[..., Any] | None = None,
    *,
    name: str | None = None,
    level: Any = "L1",
    side_effects: bool = False,
    timeout: float | None = 10.0,
    needs_confirmation: bool | Callable[[dict[str, Any]], bool] | None = None,
    untrusted: bool = False,
    **metadata: Any,
) -> Any:
    """Turn a function into a ``Tool``. Use it bare (``@tool``) or with options
    (``@tool(level=Level.L2)``).

    The function needs a type hint on every parameter and a docstring whose first paragraph says
    what the tool does, followed by an ``Args:`` section with one ``name: description`` line per
    parameter. ``level`` (``Level.L0``…``Level.L3``, or ``"L2"``) is the permission level; an
    unmarked tool is L1. ``untrusted=True`` says the result brings in outside text (email, web
    pages, customer data; see ``Tool.untrusted``). Extra keyword options are kept in
    ``Tool.metadata``.
    """

    def build(func: Callable[..., Any]) -> Tool:
        try:
            chosen = level_name(level)
        except ValueError as exc:
            raise ToolDefinitionError(
                f"{func.__name__} 上的 @tool(level=...) 无效：{exc}"
            ) from None
        description, parameters = build_schema(func)
        return Tool(
            name=name or func.__name__,
            description=description,
            parameters=parameters,
            fn=func,
            level=chosen,
            side_effects=side_effects,
            timeout=timeout,
            needs_confirmation=needs_confirmation,
            untrusted=bool(untrusted),
            metadata=dict(metadata),
        )

    if isinstance(fn, str):
        raise ToolDefinitionError(
            f"@tool({fn!r})：名字要用关键字参数传入，写成 @tool(name={fn!r})。"
        )
    return build(fn) if fn is not None else build


# ---------------------------------------------------------------- schema from signature + docstring

_SECTION = re.compile(
    r"^\s*(Args|Arguments|Parameters|Returns?|Raises|Yields?|Examples?|Notes?)\s*[:：]\s*$"
)
_ARG_LINE = re.compile(r"^(\w+)\s*(?:\([^)]*\))?\s*[:：]\s*(.*)$")


def parse_docstring(doc: str | None) -> tuple[str, dict[str, str]]:
    """Split a docstring into (description, {parameter: description}).

    The description is the first paragraph. Parameter lines come from the ``Args:`` section, one
    ``name: text`` (or ``name (type): text``) per parameter; more-indented lines continue the
    previous one.
    """
    lines = inspect.cleandoc(doc or "").splitlines()
    paragraph: list[str] = []
    for line in lines:
        if not line.strip() or _SECTION.match(line):
            break
        paragraph.append(line.strip())
    description = ""
    for part in paragraph:  # join wrapped lines; Chinese text needs no space between them
        joiner = (
            "" if not description or not description[-1].isascii() or not part[0].isascii() else " "
        )
        description += joiner + part

    params: dict[str, str] = {}
    in_args, base_indent, current = False, 0, None
    for line in lines:
        section = _SECTION.match(line)
        if section:
            in_args = section.group(1) in ("Args", "Arguments", "Parameters")
            base_indent, current = -1, None
            continue
        if not in_args or not line.strip():
            continue
        indent = len(line) - len(line.lstrip())
        if base_indent < 0:
            base_indent = indent
        match = _ARG_LINE.match(line.strip())
        if indent <= base_indent and match:
            current = match.group(1)
            params[current] = match.group(2).strip()
        elif current is not None and indent > base_indent:
            text = params[current]
            joiner = "" if not text or not text[-1].isascii() else " "
            params[current] = text + joiner + line.strip()
        else:
            # text at the section's own level that is not "name: ..." ends the section
            in_args = False
    return description, params


def type_to_schema(annotation: Any, where: str) -> dict[str, Any]:
    """JSON Schema for one Python annotation; ``where`` names the parameter in error messages."""
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    simple = {str: "string", int: "integer", float: "number", bool: "boolean"}
    if annotation in simple:
        return {"type": simple[annotation]}
    if annotation in (list, tuple):
        return {"type": "array"}
    if annotation is dict:
        return {"type": "object"}
    if (
        origin is typing.Annotated
    ):  # Annotated[str, "description"] — the description is handled by the caller
        return type_to_schema(args[0], where)
    if origin is Literal:
        kinds = {type(value) for value in args}
        schema: dict[str, Any] = {"enum": list(args)}
        if len(kinds) == 1 and next(iter(kinds)) in simple:
            schema = {"type": simple[next(iter(kinds))], "enum": list(args)}
        return schema
    if origin in (list, tuple) and args:
        return {"type": "array", "items": type_to_schema(args[0], where)}
    if origin is dict:
        schema = {"type": "object"}
        if len(args) == 2 and args[1] is not Any:
            schema["additionalProperties"] = type_to_schema(args[1], where)
        return schema
    if origin in (Union, types.UnionType):
        non_null = [arg for arg in args if arg is not type(None)]
        if len(non_null) == 1:  # Optional[X]: the model may leave the argument out
            return type_to_schema(non_null[0], where)
        return {"anyOf": [type_to_schema(arg, where) for arg in non_null]}
    raise ToolDefinitionError(
        f"{where}：类型 {annotation!r} 没有对应的 JSON Schema。"
        "请改用 str、int、float、bool、list[X]、dict、Literal[...] 或 Optional[X]。"
    )


def build_schema(fn: Callable[..., Any]) -> tuple[str, dict[str, Any]]:
    """(description, parameters schema) for ``fn``; raises ``ToolDefinitionError`` saying how to fix
    the function.
    """
    fname = getattr(fn, "__name__", repr(fn))
    description, arg_docs = parse_docstring(fn.__doc__)
    if not description:
        raise ToolDefinitionError(
            f"工具 {fname} 没有描述。模型靠描述来选工具："
            '请加一个文档字符串，第一行说明它做什么，例如：\n    """查询指定城市的天气，例如：'
            '北京"""'
        )
    try:
        hints = typing.get_type_hints(fn, include_extras=True)
    except NameError as exc:
        raise ToolDefinitionError(
            f"工具 {fname}：有一个类型注解无法解析（{exc}）。请在工具所在的模块里导入这个类型。"
        ) from exc

    properties: dict[str, Any] = {}
    required: list[str] = []
    for pname, param in inspect.signature(fn).parameters.items():
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            raise ToolDefinitionError(
                f"工具 {fname}：*{pname} / **{pname} 无法描述给模型。请把每个参数都单独写出名字。"
            )
        if pname not in hints:
            raise ToolDefinitionError(
                f"工具 {fname}：参数 {pname!r} 没有类型注解。请加上，例如：\n"
                f"    def {fname}({pname}: str, ...)"
            )
        annotation = hints[pname]
        schema = type_to_schema(annotation, f"工具 {fname} 的参数 {pname!r}")
        annotated_doc = next(
            (m for m in getattr(annotation, "__metadata__", ()) if isinstance(m, str)), None
        )
        doc = arg_docs.get(pname) or annotated_doc
        if not doc:
            raise ToolDefinitionError(
                f"工具 {fname}：参数 {pname!r} 没有描述。请在文档字符串的 Args: 部分加一行，"
                "说明它是什么并举一个例子，例如：\n"
                f"    Args:\n        {pname}: <它是什么>，例如：<一个示例值>"
            )
        schema["description"] = doc
        if param.default is inspect.Parameter.empty and _is_optional(annotation):
            raise ToolDefinitionError(
                f"工具 {fname}：参数 {pname!r} 是 Optional，却没有默认值；模型不传它时调用就会失"
                f"败。请给它一个默认值，例如：\n    {pname}: Optional[...] = None"
            )
        if param.default is inspect.Parameter.empty:
            required.append(pname)
        elif (
            param.default is not inspect.Parameter.empty
            and param.default is not None
            and _json_safe(param.default)
        ):
            schema["default"] = param.default
        properties[pname] = schema

    unknown = sorted(set(arg_docs) - set(properties))
    if unknown:
        raise ToolDefinitionError(
            f"工具 {fname}：文档字符串描述了 {'、'.join(unknown)}，但函数签名里没有这个参数。"
            "请把 Args: 里的这一行改成和参数同名，或者删掉它。"
        )
    parameters = {
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }
    check_schema(parameters)
    return description, parameters


_CHECKED: set[str] = set()  # schemas already found valid, as canonical JSON
_CHECKED_LIMIT = 4096


def check_schema(schema: dict[str, Any]) -> None:
    """``Draft202012Validator.check_schema``, once per distinct schema: checking walks the whole
    metaschema (about 10 ms a tool), and a service builds the same tools for every run.
    """
    key = json.dumps(schema, sort_keys=True, ensure_ascii=False, default=repr)
    if key in _CHECKED:
        return
    Draft202012Validator.check_schema(schema)
    if len(_CHECKED) >= _CHECKED_LIMIT:
        _CHECKED.clear()
    _CHECKED.add(key)


def _is_optional(annotation: Any) -> bool:
    if typing.get_origin(annotation) is typing.Annotated:
        annotation = typing.get_args(annotation)[0]
    return typing.get_origin(annotation) in (Union, types.UnionType) and type(
        None
    ) in typing.get_args(annotation)


def _json_safe(value: Any) -> bool:
    try:
        json.dumps(value)
        return True
    except (TypeError, ValueError):
        return False


# --------------------------------------------------------------------------- dispatch steps


def validation_errors(schema: dict[str, Any], arguments: dict[str, Any]) -> list[str]:
    """Every way ``arguments`` break ``schema``, one readable sentence each (empty list when
    valid).
    """
    validator = Draft202012Validator(schema)
    return [
        _describe(error)
        for error in sorted(validator.iter_errors(arguments), key=lambda e: list(e.absolute_path))
    ]


_BOUNDS_ZH = {
    "minimum": "不能小于 {}",
    "maximum": "不能大于 {}",
    "exclusiveMinimum": "必须大于 {}",
    "exclusiveMaximum": "必须小于 {}",
    "minLength": "至少要有 {} 个字符",
    "maxLength": "最多 {} 个字符",
    "minItems": "至少要有 {} 项",
    "maxItems": "最多 {} 项",
    "pattern": "要符合格式 {}",
    "const": "只能是 {}",
    "multipleOf": "必须是 {} 的倍数",
}


def _describe(error: Any) -> str:
    """One Chinese sentence for one schema violation, naming the argument and what it should be."""
    where = ".".join(str(part) for part in error.absolute_path)
    field_name = f"参数 {where}" if where else "参数"
    got = json.dumps(error.instance, ensure_ascii=False, default=str)[:80]
    if error.validator == "type":
        kinds = (
            [error.validator_value]
            if isinstance(error.validator_value, str)
            else list(error.validator_value)
        )
        expected = " 或 ".join(f"{json_type_zh(kind)}（{kind}）" for kind in kinds)
        return (
            f"{field_name} 应该是{expected}，"
            f"收到的是{json_type_zh(error.instance)}（{json_type_name(error.instance)}）{got}"
        )
    if error.validator == "required":
        missing = re.findall(r"'([^']+)' is a required property", error.message)
        return f"缺少必填参数 {missing[0]}" if missing else f"缺少必填参数：{error.message}"
    if error.validator == "additionalProperties":
        allowed = "、".join(error.schema.get("properties", {})) or "无"
        extra = sorted(set(error.instance) - set(error.schema.get("properties", {})))
        return f"多余的参数 {'、'.join(extra)}；允许的参数只有：{allowed}"
    if error.validator == "enum":
        options = "、".join(json.dumps(v, ensure_ascii=False) for v in error.validator_value)
        return f"{field_name} 必须是 {options} 之一，收到的是 {got}"
    if error.validator in _BOUNDS_ZH:
        bound = json.dumps(error.validator_value, ensure_ascii=False)
        return f"{field_name} {_BOUNDS_ZH[error.validator].format(bound)}，收到的是 {got}"
    return f"{field_name} 不符合要求（{error.validator}）：{error.message}"


def run_with_timeout(
    fn: Callable[..., Any], arguments: dict[str, Any], timeout: float | None, name: str = "tool"
) -> ToolResult:
    """Run ``fn(**arguments)``; exceptions and timeouts become error results.

    With a timeout the call runs in a daemon worker thread and we stop *waiting* after ``timeout``
    seconds. Python cannot kill a thread, so a tool that never returns keeps running in the
    background until it finishes (or the process exits); its late result is discarded. Tools with
    side effects should therefore enforce their own time limits (e.g. an HTTP client timeout).
    """

    def call() -> ToolResult:
        try:
            value = fn(**arguments)
        except ToolError as exc:
            return ToolResult.fail(str(exc), exc)
        # a tool bug must never crash the run; the model sees the error, the trace keeps the
        # exception
        except Exception as exc:
            return ToolResult.fail(f"工具 {name} 执行时出错（{type(exc).__name__}：{exc}）。", exc)
        return value if isinstance(value, ToolResult) else ToolResult.ok(value)

    if not timeout or timeout <= 0:
        return call()
    box: list[ToolResult] = []
    context = (
        contextvars.copy_context()
    )  # so per-run context (e.g. tracing on Day 6) is visible inside the tool
    worker = threading.Thread(
        target=lambda: box.append(context.run(call)), name=f"tool-{name}", daemon=True
    )
    worker.start()
    worker.join(timeout)
    if worker.is_alive():
        return ToolResult.fail(
            f"TimeoutError：工具 {name} 在 {timeout:g} 秒内没有完成。请稍后再试，"
            "或者缩小请求的范围。",
            TimeoutError(f"{name} timed out after {timeout} s"),
        )
    return box[0] if box else ToolResult.fail(f"工具 {name} 结束了，但没有返回结果")


# --------------------------------------------------------------------------- the registry


class ToolRegistry:
    """Tools by name: the schemas to send to the model, and the dispatch of the calls it makes."""

    def __init__(self, tools: Iterable[Tool | Callable[..., Any]] = ()):
        self._tools: dict[str, Tool] = {}
        for item in tools:
            self.register(item)

    def register(self, tool_or_fn: Tool | Callable[..., Any]) -> Tool:
        """Add a ``Tool`` (or a plain function, decorated here with the defaults). Returns the tool,
        so it works as a decorator.
        """
        item = tool_or_fn if isinstance(tool_or_fn, Tool) else tool(tool_or_fn)
        if item.name in self._tools and self._tools[item.name] is not item:
            raise ValueError(
                f"已经注册过名为 {item.name!r} 的工具。请用 @tool(name=...) 给其中一个换个名字。"
            )
        self._tools[item.name] = item
        return item

    def __contains__(self, name: object) -> bool:
        return name in self._tools

    def __iter__(self) -> Iterator[Tool]:
        return iter(self._tools.values())

    def __len__(self) -> int:
        return len(self._tools)

    def get(self, name: str) -> Tool | None:
        return self._tools.get(name)

    def names(self) -> list[str]:
        return list(self._tools)

    def schemas(self) -> list[dict[str, Any]]:
        return [item.schema() for item in self._tools.values()]

    def dispatch(self, name: str, arguments: dict[str, Any] | str | None = None) -> ToolResult:
        """Run the named tool on the model's arguments. Never raises for anything the model
        sends.
        """
        item = self._tools.get(name)
        if item is None:
            valid = "、".join(self._tools) or "（还没有注册任何工具）"
            return ToolResult.fail(
                f"没有名为 {name!r} 的工具。可用的工具：{valid}。请用其中一个的准确名字调用。"
            )
        return item.invoke(arguments)

    def __repr__(self) -> str:
        return f"ToolRegistry({', '.join(self._tools)})"


__all__ = [
    "PERMISSION_LEVELS",
    "Tool",
    "level_name",
    "ToolDefinitionError",
    "ToolError",
    "ToolRegistry",
    "ToolResult",
    "build_schema",
    "parse_arguments",
    "parse_docstring",
    "run_with_timeout",
    "tool",
    "type_to_schema",
    "validation_errors",
]
