"""A model's generated text turned into what the API returns — content and tool calls — while it
streams.

A chat model writes one stream of text. Qwen-style chat templates ask for tool calls between
``<tool_call>`` tags; small models also write a call as bare or fenced JSON, and sometimes copy the
template's own markup into a reply (``<tools>\\n\\n</tools>``, ``<|im_start|>assistant``).
``ReplyAssembler`` reads the text piece by piece — a token at a time, or all at once — and returns:

- **content as soon as it is certain to be content.** Text is held back only from a character that
  may open a call or markup (``<``, ``{``, ``[``, a code fence) until that structure closes or can
  no longer be one; leading and trailing whitespace is trimmed, so the streamed pieces join to
  exactly the final content;
- **each tool call as soon as it is complete**: when ``</tool_call>`` (or the closing bracket or
  fence) arrives and the Day 2 parser (``handwritten_agent.parsing``) reads a call from it;
- **nothing for template markup**: special tokens (``<|...|>``, with the role name after
  ``<|im_start|>``), stray template tags (``</tools>``), a ``<tool_call>`` span with no call in it
  (its tags go, words inside stay), and whole ``<tools>`` and ``<tool_response>`` spans without a
  call (``<tools>\\n\\n</tools>``) — the template puts the tool list and tool results there, so what
  a model writes inside them is imitation or invention, never an answer.

Inside a call span a model sometimes writes its call as an XML element instead of JSON with a
``name`` key — ``<function name="f" arguments='{…}'/>``, ``<function name="f">{…}</function>`` or
``<function=f>{…}</function>`` (``element_calls``). Such an element is a call when its arguments
are a JSON object and nothing else is inside it; one that also holds a made-up ``<result>`` is
imitation, not a call.

Each call span is judged on its own: a span whose JSON is broken stays in the content, word for
word (the model's real output, as OpenAI-compatible servers return it), while the calls around it
are still calls. Streaming and non-streaming replies go through the same assembler, so they are
equal by construction.

Left out: calls written in the text ReAct format (``Action:``/``Action Input:``; the template asks
for tags, and prompt-JSON replies are parsed by the agent, not the server), and other models' call
markers such as ``[TOOL_CALLS]`` (their JSON is still found when it stands alone).
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ...parsing import ParseError, find_json_blocks, parse_tool_calls

CALL_TAGS = ("tool_call", "tools")
"""Tags whose inside is read for calls. Qwen asks for ``<tool_call>``, but a small model often
writes its calls one per line inside ``<tools>``, copying how the prompt lists the tools."""
DROPPED_SPANS = ("tool_response",)
"""Tags whose whole span is dropped: there the template puts tool results, which a model must not
invent.
"""
DEFAULT_TAGS = frozenset({*CALL_TAGS, *DROPPED_SPANS})
ROLES = ("system", "developer", "user", "assistant", "tool", "ipython")

_TAG = re.compile(r"<(/?)([A-Za-z_][\w-]{0,40})>")
_SPECIAL = re.compile(r"<\|[^|<>\s]{1,40}\|>")
_SPECIAL_PREFIX = re.compile(r"<(?:\|[^|<>\s]{0,40}\|?)?")
_ROLE_LINE = re.compile(r"(?:" + "|".join(ROLES) + r")[ \t]*(?:\n|$)")
_JSON_OPENERS = "{[｛［"
_ELEMENT = re.compile(
    r"<(?P<tag>function|tool|invoke)(?P<head>(?:=|\s)[^<>]*?)\s*"
    r"(?:/>|>(?P<body>.*?)</(?P=tag)\s*>)",
    re.S,
)
_ATTRIBUTE = re.compile(r"""([A-Za-z_][\w-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')""")
_ARGUMENT_ATTRIBUTES = ("arguments", "parameters", "args", "input")
_FENCE = "```"


def template_tags(template: str | None) -> frozenset[str]:
    """The XML-style tag names a chat template uses (``tools``, ``tool_call``, …), plus the default
    ones.

    These are the tags a model may copy from its prompt into a reply. ``<function-name>``-style
    placeholders in the template's instructions count too: a model copies those as well.
    """
    found = {name for _, name in _TAG.findall(template or "")}
    return DEFAULT_TAGS | found


@dataclass
class Assembled:
    """What a piece of text turned into: new content, and calls as ``(name, arguments JSON)``."""

    content: str = ""
    calls: list[tuple[str, str]] = field(default_factory=list)


class ReplyAssembler:
    """Feed generated text with ``feed``; call ``finish`` once at the end. Both return what became
    certain.

    ``parse_calls`` is False when no tools were offered: then only markup is removed.
    ``hidden_prefix`` is text the server forced the reply to start with (a prefill such as
    ``<tool_call>\\n{"name": "``): it is read before the generated text, so the call parses, but
    never shown as content. ``max_calls`` keeps only the first calls
    (``parallel_tool_calls=False``).
    """

    def __init__(
        self,
        *,
        parse_calls: bool = True,
        tags: Iterable[str] = DEFAULT_TAGS,
        hidden_prefix: str = "",
        max_calls: int | None = None,
    ):
        self.parse_calls = parse_calls
        self.tags = frozenset(tags)
        self.max_calls = max_calls
        self._hidden = len(hidden_prefix)
        self._pending = hidden_prefix  # text not decided yet
        self._position = 0  # offset of _pending in the whole text
        self._spaces = ""  # whitespace held back: it is content only if more content follows
        self._started = False  # has any content been given out?
        self.content = ""  # all content given out so far
        self.calls: list[tuple[str, str]] = []
        self.finished = False
        openers = "<" + (_JSON_OPENERS + "`" if parse_calls else "")
        self._opener = re.compile("[" + re.escape(openers) + "]")

    # -- the interface ------------------------------------------------------------------------

    def feed(self, text: str) -> Assembled:
        if self.finished:
            raise RuntimeError(
                "这个 ReplyAssembler 已经调用过 finish()，不能再 feed：每条新回复请新建一个"
                " ReplyAssembler。"
            )
        self._pending += text
        return self._drain(final=False)

    def finish(self) -> Assembled:
        """Decide everything still held back (an unclosed call is parsed as it is) and trim the
        end.
        """
        if self.finished:
            return Assembled()
        out = self._drain(final=True)
        self._spaces = ""
        self.finished = True
        return out

    # -- deciding -----------------------------------------------------------------------------

    def _drain(self, final: bool) -> Assembled:
        out = Assembled()
        while self._pending:
            match = self._opener.search(self._pending)
            if match is None:
                self._give_text(len(self._pending), out)
                break
            if match.start() > 0:
                self._give_text(match.start(), out)
                continue
            if not self._resolve(final, out):
                break  # wait for more text
        return out

    def _resolve(self, final: bool, out: Assembled) -> bool:
        """Decide the structure that starts ``_pending``; False when more text is needed to tell."""
        text = self._pending
        if text.startswith("<"):
            return self._resolve_angle(text, final, out)
        if text[0] in _JSON_OPENERS:
            blocks = [block for block in find_json_blocks(text) if block.start == 0]
            if blocks and blocks[0].closed:
                self._give_span(blocks[0].end, text[: blocks[0].end], out)
                return True
            if not final:
                return False
            self._give_span(len(text), text, out)
            return True
        return self._resolve_fence(text, final, out)

    def _resolve_fence(self, text: str, final: bool, out: Assembled) -> bool:
        if not text.startswith(_FENCE):
            if not final and _FENCE.startswith(text):
                return False
            ticks = len(text) - len(text.lstrip("`"))
            self._give_text(ticks, out)
            return True
        close = text.find(_FENCE, len(_FENCE))
        if close < 0 and not final:
            return False
        end = len(text) if close < 0 else close + len(_FENCE)
        inner = text[len(_FENCE) : close if close >= 0 else len(text)]
        inner = (
            inner.split("\n", 1)[1] if "\n" in inner else inner
        )  # drop the language name ("json")
        self._give_span(end, inner, out)
        return True

    def _resolve_angle(self, text: str, final: bool, out: Assembled) -> bool:
        special = _SPECIAL.match(text)
        if special:
            end = special.end()
            rest = text[end:]
            role = _ROLE_LINE.match(rest)
            if role and (role.group().endswith("\n") or final):
                end += role.end()
            elif (
                not final
                and any(name.startswith(rest) or rest.startswith(name) for name in ROLES)
                and "\n" not in rest
            ):
                return False  # "<|im_start|>assi…": the role name may still be coming
            self._drop(end)
            return True
        tag = _TAG.match(text)
        if tag and tag.group(2) in self.tags:
            name = tag.group(2)
            spans = name in DROPPED_SPANS or (name in CALL_TAGS and self.parse_calls)
            if tag.group(1) == "/" or not spans:
                self._drop(
                    tag.end()
                )  # a stray tag (a closing one, or a placeholder copied from the prompt)
                return True
            close_tag = f"</{name}>"
            close = text.find(close_tag, tag.end())
            if close < 0 and not final:
                return False
            if name in CALL_TAGS:
                self._give_call_span(name, tag.end(), close, len(close_tag), out)
            elif close >= 0:
                self._drop(close + len(close_tag))
            else:
                self._drop(
                    tag.end()
                )  # an opening tag that is never closed: drop the tag, keep what follows
            return True
        if not final and (_could_become_tag(text, self.tags) or _SPECIAL_PREFIX.fullmatch(text)):
            return False
        self._give_text(1, out)  # an ordinary "<", as in "3 < 5"
        return True

    # -- giving out ---------------------------------------------------------------------------

    def _give_span(self, end: int, candidate: str, out: Assembled) -> None:
        """The first ``end`` characters are a possible call: calls if the parser finds some, else
        text.
        """
        found = parse_tool_calls(candidate)
        if isinstance(found, list) and found:
            self._take_calls(found, out)
            self._drop(end)
        else:
            self._give_text(end, out)

    def _give_call_span(
        self, name: str, open_end: int, close: int, close_length: int, out: Assembled
    ) -> None:
        """``<tool_call>…</tool_call>`` or ``<tools>…</tools>`` (``close`` < 0: never closed) at the
        start of ``_pending``.

        Calls inside → the calls. Otherwise a closed ``<tools>`` span is dropped whole: in the
        template it only ever holds the tool list, so whatever the model puts there (a schema copied
        from the prompt, made-up ``<function name=…><result>…`` XML) is imitation, not an answer. In
        a ``<tool_call>`` span, broken JSON stays as text, so the model's real attempt is seen;
        nothing but whitespace is dropped; words lose the tags and are read on as ordinary text (as
        they are after an opening ``<tools>`` that never closes).
        """
        end = len(self._pending) if close < 0 else close + close_length
        found = parse_tool_calls(self._pending[:end])
        elements = element_calls(self._pending[open_end : close if close >= 0 else end])
        if isinstance(found, list) and found:
            self._take_calls(found, out)
            self._drop(end)
        elif elements:
            self._take_calls(elements, out)
            self._drop(end)
        elif isinstance(found, ParseError) and name == "tool_call":
            self._give_text(end, out)
        elif (name != "tool_call" and close >= 0) or not self._pending[
            open_end : close if close >= 0 else end
        ].strip():
            self._drop(
                end
            )  # tags around nothing, or a closed <tools> span without a call: all markup
        else:
            inner_end = len(self._pending) if close < 0 else close
            self._pending = self._pending[:inner_end] + self._pending[end:]  # the closing tag goes
            self._drop(open_end)  # and the opening one; the inside is read again as ordinary text

    def _take_calls(self, found: list[Any], out: Assembled) -> None:
        for call in found:
            if self.max_calls is None or len(self.calls) < self.max_calls:
                # the arguments as JSON text, as the wire format carries them
                entry = call if isinstance(call, tuple) else (call.name, call.arguments)
                self.calls.append(entry)
                out.calls.append(entry)

    def _drop(self, count: int) -> None:
        self._pending = self._pending[count:]
        self._position += count

    def _give_text(self, count: int, out: Assembled) -> None:
        """Move ``count`` characters of ``_pending`` to the content (minus the hidden prefix and
        trimmed ends).
        """
        piece = self._pending[:count]
        if self._position < self._hidden:
            piece = piece[self._hidden - self._position :]
        self._drop(count)
        if not self._started:
            piece = piece.lstrip()
            if not piece:
                return
            self._started = True
        stripped = piece.rstrip()
        if not stripped:
            self._spaces += piece
            return
        text = self._spaces + stripped
        self._spaces = piece[len(stripped) :]
        self.content += text
        out.content += text


def element_calls(text: str) -> list[tuple[str, str]]:
    """Calls written as XML elements in ``text``, as ``(name, arguments JSON)``; ``[]`` unless every
    element there is one.

    The name comes from ``name="…"`` or ``<function=…>``; the arguments from an ``arguments`` (or
    ``parameters``, ``args``, ``input``) attribute or from the element's body, and must be a JSON
    object; an element with both is not a call. One element that is not a call (no name, a body
    that is no JSON object) makes the whole span no call, as ``parse_tool_calls`` refuses a reply
    with one broken call among good ones.
    """
    calls: list[tuple[str, str]] = []
    for match in _ELEMENT.finditer(text):
        head = match.group("head")
        attributes = {
            key.lower(): html.unescape(double or single)
            for key, double, single in _ATTRIBUTE.findall(head)
        }
        name = attributes.get("name", "")
        if head.startswith("="):
            name = head[1:].split()[0].strip("\"'") if head[1:].split() else ""
        given = [attributes[key] for key in _ARGUMENT_ATTRIBUTES if key in attributes]
        argument = given[0] if given else None
        body = (match.group("body") or "").strip()
        if argument is None:
            argument = body
        elif body:
            return []  # arguments and something inside, such as an invented <result>: imitation
        try:
            arguments = json.loads(argument.strip())
        except ValueError:
            return []
        if not re.fullmatch(r"[A-Za-z_][\w.-]{0,63}", name) or not isinstance(arguments, dict):
            return []
        calls.append((name, json.dumps(arguments, ensure_ascii=False)))
    return calls


def _could_become_tag(text: str, tags: frozenset[str]) -> bool:
    """Is ``text`` (starting with "<") the beginning of one of the template's tags?"""
    return any(f"<{slash}{name}>".startswith(text) for name in tags for slash in ("", "/"))


def assemble(text: str, **options: Any) -> tuple[str, list[tuple[str, str]]]:
    """The content and calls of a finished text: what a reply assembled piece by piece would
    give.
    """
    assembler = ReplyAssembler(**options)
    assembler.feed(text)
    assembler.finish()
    return assembler.content, assembler.calls


def stream_pieces(pieces: Iterable[str], **options: Any) -> Iterator[Assembled]:
    """Feed ``pieces`` one by one and yield what each one made certain (for tests and
    demonstrations).
    """
    assembler = ReplyAssembler(**options)
    for piece in pieces:
        yield assembler.feed(piece)
    yield assembler.finish()
