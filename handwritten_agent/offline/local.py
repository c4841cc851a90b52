"""A real small LLM on the CPU: the local llama.cpp backend of the OpenAI-compatible server.

``LocalBackend`` answers chat requests with a GGUF model through ``llama-cpp-python`` — by default
the course model, Qwen2.5-Coder-1.5B-Instruct Q4_K_M, assembled by ``model_fetch``. It does what a
hosted provider does behind its API, in four visible steps:

1. **Render** the messages and tools into one prompt string with the model's own chat template (the
   Jinja2 template stored in the GGUF under ``tokenizer.chat_template``). Qwen2.5's template writes
   the tools' JSON schemas into the system prompt and asks for ``<tool_call>{json}</tool_call>``.
2. **Count** the prompt's tokens; a prompt that does not fit the context window is refused with the
   API's 400 ``context_length_exceeded`` error instead of crashing llama.cpp.
3. **Generate** plain text with ``create_completion`` (temperature 0 unless the request says
   otherwise, so the same request gives the same reply).
4. **Parse** the text with the course's own Day 2 parser (``handwritten_agent.parsing``): tool calls
   become ``tool_calls`` with deterministic ids, the rest stays ``content``.

``tool_choice="none"`` offers no tools; ``"required"`` starts the reply with ``<tool_call>`` and
``{"name": "`` (a named function: with its name and ``"arguments": ``) when the template uses that
format, so the model has to continue with a call. ``parallel_tool_calls=False`` stops generating
after the first call. llama.cpp is not thread-safe, so one lock serializes requests.

The model is loaded on the first request (a few seconds), not when the backend is created. The
loaded model keeps the tokens it has already read: an agent loop's next request, which repeats the
whole conversation and adds a little, is read only from where it differs.
Left out: real token-by-token streaming (the server streams the finished reply), sampling options
beyond temperature/top_p/seed, images, and any GGUF-specific tool format other than Qwen's tags —
other models' tool calls are still found when they write JSON the parser understands.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import re
import threading
from pathlib import Path
from typing import Any

from ..parsing import ParseError, find_json_blocks, parse_tool_calls
from . import model_fetch
from .backend import BackendError, ChatRequest, Completion

COURSE_MODEL_ID = "qwen2.5-coder-1.5b"
DEFAULT_MAX_TOKENS = 1024  # a bound on every reply when the request sets none: a small model can ramble
INSTALL_HINT = ('The local model needs llama-cpp-python, which is not installed. Install the local extra with '
                '`pip install -e ".[local]"` from the course folder (it compiles llama.cpp, which takes a few '
                'minutes), then run `python -m handwritten_agent model fetch`.')
TOOL_CALL_OPEN = "<tool_call>"
TOOL_CALL_CLOSE = "</tool_call>"
END_OF_TURN = ["<|im_end|>", "<|endoftext|>"]  # Qwen's end markers; llama.cpp also stops at any end-of-generation token


def _require_llama_cpp() -> None:
    if importlib.util.find_spec("llama_cpp") is None:
        raise ModuleNotFoundError(INSTALL_HINT, name="llama_cpp")


def _text_of(content: Any) -> str:
    """Message content as the template expects it: a string (text parts of a list are joined)."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return json.dumps(content, ensure_ascii=False)


def _template_messages(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Copy messages into the shape chat templates expect.

    Templates written for Hugging Face (Qwen's included) print ``tool_call.arguments | tojson``, so
    the arguments must be an object there, not the JSON *string* the wire format carries; otherwise
    the model would see its own past calls double-encoded.
    """
    rendered = []
    for message in messages:
        copy = dict(message)
        copy["content"] = _text_of(message.get("content"))
        if message.get("tool_calls"):
            calls = []
            for call in message["tool_calls"]:
                function = dict(call.get("function") or {})
                arguments = function.get("arguments")
                if isinstance(arguments, str):
                    try:
                        function["arguments"] = json.loads(arguments)
                    except json.JSONDecodeError:
                        pass  # keep the broken text: the model should see what was really said
                calls.append({**call, "function": function})
            copy["tool_calls"] = calls
        rendered.append(copy)
    return rendered


def context_length_error(limit: int, prompt_tokens: int, max_tokens: int | None) -> BackendError:
    """The 400 error the OpenAI API returns when a request does not fit the model's context window."""
    if max_tokens is not None:
        message = (f"This model's maximum context length is {limit} tokens. However, you requested "
                   f"{prompt_tokens + max_tokens} tokens ({prompt_tokens} in the messages, {max_tokens} in the "
                   "completion). Please reduce the length of the messages or completion.")
    else:
        message = (f"This model's maximum context length is {limit} tokens. However, your messages resulted in "
                   f"{prompt_tokens} tokens. Please reduce the length of the messages.")
    return BackendError(400, message, param="messages", code="context_length_exceeded")


def default_threads() -> int:
    """Threads for llama.cpp: every CPU this process may use, up to 4; half of them beyond that.

    Generation is limited by memory bandwidth, and llama.cpp runs best with one thread per physical
    core; machines with more than 4 CPUs usually count each core twice (hyper-threading).
    """
    try:
        available = len(os.sched_getaffinity(0))
    except AttributeError:  # macOS and Windows have no sched_getaffinity
        available = os.cpu_count() or 1
    return max(1, available if available <= 4 else available // 2)


def tool_call_id(prompt: str, index: int, name: str, arguments: str) -> str:
    """A deterministic id: the same prompt and call always get the same id; different turns get different ones."""
    digest = hashlib.sha256(f"{prompt}\x00{index}\x00{name}\x00{arguments}".encode()).hexdigest()
    return "call_" + digest[:24]


class LocalBackend:
    """The server backend that runs a GGUF model on the CPU with llama.cpp."""

    def __init__(self, model_path: str | None = None, *, n_ctx: int = 4096, n_threads: int | None = None):
        _require_llama_cpp()
        # Make sure the file is there now (assembling the course model if needed), so a missing model
        # is reported when the server starts, not on the first request.
        self.model_file: Path = model_fetch.fetch(model_path, progress=True)
        self.custom = bool(model_path)
        label = self.model_file.name if self.custom else model_fetch.COURSE_MODEL.label
        self.name = f"local llama.cpp model ({label})"
        self.model_id = self.model_file.stem.lower() if self.custom else COURSE_MODEL_ID
        self.n_ctx = n_ctx
        self.n_threads = n_threads or default_threads()
        self._lock = threading.Lock()
        self._llm: Any = None
        self._formatter: Any = None
        self._uses_tool_call_tags = False

    # -- the Backend protocol -----------------------------------------------------------------

    def list_models(self) -> list[str]:
        # One model answers whatever name a request uses; this is the name it is listed under.
        return [self.model_id]

    def complete(self, request: ChatRequest) -> Completion:
        with self._lock:
            self._load()
            return self._complete(request)

    # -- loading ------------------------------------------------------------------------------

    def load(self) -> None:
        """Load the model now instead of on the first request (e.g. to time it, or to warm up a server)."""
        with self._lock:
            self._load()

    def close(self) -> None:
        """Free the model's memory; the next request loads it again."""
        with self._lock:
            if self._llm is not None and hasattr(self._llm, "close"):
                self._llm.close()
            self._llm = None

    def _load(self) -> None:
        if self._llm is not None:
            return
        from llama_cpp import Llama
        from llama_cpp.llama_chat_format import Jinja2ChatFormatter

        try:
            llm = Llama(model_path=str(self.model_file), n_ctx=self.n_ctx, n_threads=self.n_threads,
                        n_threads_batch=self.n_threads, verbose=False)
        except (ValueError, RuntimeError) as exc:
            raise BackendError(500, f"llama.cpp could not load the model file {self.model_file} ({exc}). If it is the "
                                    "course model, run `python -m handwritten_agent model fetch` to check it; a GGUF "
                                    "from elsewhere may need a newer llama-cpp-python.", type="server_error") from exc
        template = llm.metadata.get("tokenizer.chat_template")
        if not template:
            raise BackendError(500, f"The model file {self.model_file} has no chat template (GGUF key "
                                    "tokenizer.chat_template), so chat messages cannot be turned into a prompt. "
                                    "Use an instruct/chat GGUF.", type="server_error")
        eos, bos = llm.token_eos(), llm.token_bos()

        def token_text(token: int) -> str:
            return llm.detokenize([token], special=True).decode("utf-8", errors="replace") if token != -1 else ""

        self._formatter = Jinja2ChatFormatter(template=template, eos_token=token_text(eos), bos_token=token_text(bos))
        self._uses_tool_call_tags = TOOL_CALL_OPEN in template
        self._llm = llm

    # -- one request --------------------------------------------------------------------------

    def render_prompt(self, request: ChatRequest) -> tuple[str, str, bool]:
        """The prompt string for a request, the text the reply is forced to start with, and whether tools are offered.

        Needs the loaded model (its template): call ``load()`` first when using it on its own.
        """
        tools = request.tools if request.tools and request.tool_choice != "none" else None
        prefill = ""
        choice = request.tool_choice
        if tools and isinstance(choice, dict):
            wanted = (choice.get("function") or {}).get("name")
            tools = [t for t in tools if (t.get("function") or {}).get("name") == wanted] or tools
            if self._uses_tool_call_tags and wanted:
                prefill = f'{TOOL_CALL_OPEN}\n{{"name": "{wanted}", "arguments": '
        elif tools and choice == "required" and self._uses_tool_call_tags:
            prefill = f'{TOOL_CALL_OPEN}\n{{"name": "'  # the model must go on with a tool's name
        formatted = self._formatter(messages=_template_messages(request.messages), tools=tools,
                                    tool_choice=None if tools is None else choice)
        return formatted.prompt + prefill, prefill, tools is not None

    def _complete(self, request: ChatRequest) -> Completion:
        try:
            prompt, prefill, tools_offered = self.render_prompt(request)
        except Exception as exc:  # the template rejected the conversation (e.g. roles out of order)
            raise BackendError(400, f"The model's chat template could not render these messages: {exc}",
                               param="messages") from exc
        tokens = self._llm.tokenize(prompt.encode("utf-8"), add_bos=False, special=True)
        limit = self._llm.n_ctx()
        if len(tokens) >= limit or (request.max_tokens is not None and len(tokens) + request.max_tokens > limit):
            raise context_length_error(limit, len(tokens), request.max_tokens)
        max_tokens = request.max_tokens if request.max_tokens is not None else min(DEFAULT_MAX_TOKENS, limit - len(tokens))

        stop = list(END_OF_TURN) + list(request.stop or [])
        single_call = tools_offered and not request.parallel_tool_calls and self._uses_tool_call_tags
        if single_call:
            stop.append(TOOL_CALL_CLOSE)  # one call is all that may be returned: stop generating after it
        options: dict[str, Any] = {"temperature": request.temperature if request.temperature is not None else 0.0}
        if request.extra.get("top_p") is not None:
            options["top_p"] = float(request.extra["top_p"])
        if request.extra.get("seed") is not None:
            options["seed"] = int(request.extra["seed"])
        result = self._llm.create_completion(tokens, max_tokens=max_tokens, stop=stop, **options)
        choice = result["choices"][0]
        text = prefill + choice["text"]
        if single_call and TOOL_CALL_OPEN in text and TOOL_CALL_CLOSE not in text:
            text += TOOL_CALL_CLOSE  # the stop sequence itself is not returned
        usage = result.get("usage") or {}
        completion_tokens = int(usage.get("completion_tokens", 0))
        length_cut = choice.get("finish_reason") == "length"
        return self._to_completion(text, prompt, prefill=prefill, tools_offered=tools_offered,
                                   single_call=single_call, length_cut=length_cut, prompt_tokens=len(tokens),
                                   completion_tokens=completion_tokens)

    def _to_completion(self, text: str, prompt: str, *, prefill: str, tools_offered: bool, single_call: bool,
                       length_cut: bool, prompt_tokens: int, completion_tokens: int) -> Completion:
        """Split generated text into content and tool calls (only when tools were offered)."""
        calls: list[dict[str, Any]] = []
        content = text
        if tools_offered:
            found, content = _parse(text)
            if not found and prefill:
                content = text[len(prefill):]  # the forced start is ours, not the model's: never show it as content
            if single_call:
                found = found[:1]
            for index, (name, arguments) in enumerate(found):
                calls.append({"id": tool_call_id(prompt, index, name, arguments), "type": "function",
                              "function": {"name": name, "arguments": arguments}})
        content = content.strip()
        finish = "tool_calls" if calls else ("length" if length_cut else "stop")
        return Completion(content=content or None, tool_calls=calls, finish_reason=finish,
                          prompt_tokens=prompt_tokens, completion_tokens=completion_tokens)


_TAGGED = re.compile(re.escape(TOOL_CALL_OPEN) + r".*?(?:" + re.escape(TOOL_CALL_CLOSE) + r"|$)", re.DOTALL)
_EMPTY_FENCE = re.compile(r"```[A-Za-z]*\s*```")


def _parse(text: str) -> tuple[list[tuple[str, str]], str]:
    """Tool calls (name, arguments as a JSON string) and the text outside them, using the Day 2 parser.

    A reply that tries to call a tool but writes broken JSON yields no calls and keeps all its text as
    content, as OpenAI-compatible servers do: the agent then sees the model's real words.
    """
    found = parse_tool_calls(text)
    if isinstance(found, ParseError) or not found:
        return [], text
    calls = [(call.name, call.arguments) for call in found]
    # The content is what is left once the calls' markup is cut out: Qwen's <tool_call> spans first,
    # then any JSON block that is itself a call (fenced or bare JSON), then fences left empty.
    rest = _TAGGED.sub("", text)
    for block in reversed(find_json_blocks(rest)):
        attempt = parse_tool_calls(block.text)
        if not isinstance(attempt, ParseError) and attempt:
            rest = rest[:block.start] + rest[block.end:]
    return calls, _EMPTY_FENCE.sub("", rest)
