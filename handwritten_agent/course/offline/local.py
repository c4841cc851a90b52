"""A real small LLM on the CPU: the local llama.cpp backend of the OpenAI-compatible server.

``LocalBackend`` answers chat requests with a GGUF model through ``llama-cpp-python`` — by default
the course model, Qwen2.5-Coder-1.5B-Instruct Q4_K_M, assembled by ``model_fetch``. It does what a
hosted provider does behind its API, in four visible steps:

1. **Render** the messages and tools into one prompt string with the model's own chat template (the
   Jinja2 template stored in the GGUF under ``tokenizer.chat_template``). Qwen2.5's template writes
   the tools' JSON schemas into the system prompt and asks for ``<tool_call>{json}</tool_call>``.
2. **Count** the prompt's tokens; a prompt that does not fit the context window is refused with the
   API's 400 ``context_length_exceeded`` error instead of crashing llama.cpp.
3. **Generate** token by token with ``create_completion(stream=True)`` (temperature 0 unless the
   request says otherwise, so the same request gives the same reply).
4. **Assemble** the text as it comes (``assembly.ReplyAssembler``, built on the course's Day 2
   parser): tool calls become ``tool_calls`` with deterministic ids, chat-template markup the model
   copied into its reply is dropped, the rest is ``content``.

``stream()`` yields each piece as soon as it is certain, so the server streams a reply while it is
generated; ``complete()`` is the same generation read to its end, so a streamed and a non-streamed
reply are equal. Closing the stream stops llama.cpp after the current token.

``tool_choice="none"`` offers no tools; ``"required"`` starts the reply with ``<tool_call>`` and
``{"name": "`` (a named function: with its name and ``"arguments": ``) when the template uses that
format, so the model has to continue with a call. ``parallel_tool_calls=False`` stops generating
after the first call. Every call into llama.cpp is made on one long-lived thread of the backend's
own (``model_thread.ModelThread``), whichever server thread asked: that serializes requests
(llama.cpp is not thread-safe) and keeps llama.cpp's OpenMP worker team single, which the generation
speed depends on.

The model is loaded on the first request (a few seconds), not when the backend is created. The
loaded model keeps the tokens it has already read: an agent loop's next request, which repeats the
whole conversation and adds a little, is read only from where it differs. **Prefix caching**, as
real servers do it: the state after each of the last few generations is kept in memory
(``prefix_cache.PrefixCache``, ``CACHE_BYTES``), so conversations that interleave (Day 7's workers,
the evaluation) each resume from their own longest cached prefix; the tokens not read again are
reported as ``usage.prompt_tokens_details.cached_tokens``. The first state of each new system
prompt or tool set is also kept on disk (``prefix_folder``, by default
``<cache folder>/prefixes``), so the next process — a restarted kernel, the next notebook — does not
read that prefix again.
``response_format`` (JSON mode or a JSON schema) becomes a llama.cpp grammar
(``response_grammar``), so the reply cannot leave the schema's shape, and the schema is written into
the system message (``with_schema_note``); with tools offered the grammar is not applied, since it
would forbid the tool-call tags.
Left out: sampling options beyond temperature/top_p/seed, images, and any GGUF-specific tool format
other than Qwen's tags — other models' tool calls are still found when they write JSON the parser
understands.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from ...messages import message_text
from . import model_fetch, prefix_cache
from .assembly import DEFAULT_TAGS, Assembled, ReplyAssembler, template_tags
from .backend import BackendError, ChatRequest, Completion, ReplyDelta
from .model_thread import ModelThread

COURSE_MODEL_ID = "qwen2.5-coder-1.5b"
DEFAULT_N_CTX = 4096  # the context window the backend gives llama.cpp unless told otherwise
CACHE_BYTES = 1 << 30  # memory for kept prompt prefixes: about 20 states of a 2k-token prompt
THREADS_ENV = (  # how many threads llama.cpp uses, instead of default_threads()'s choice
    "HANDWRITTEN_AGENT_THREADS"
)
# a bound on every reply when the request sets none: a small model can ramble
DEFAULT_MAX_TOKENS = 1024
INSTALL_HINT = (
    "本地模型需要 llama-cpp-python，但它还没有安装。在课程目录里运行 `make local`"
    "（按本机 CPU 编译 llama.cpp，需要几分钟；再拼装模型并检查它能运行）。不用 make 时："
    '`CMAKE_ARGS="$(python -m handwritten_agent model cmake-args)" pip install -e ".[dev,local]"`，'
    "再运行 `python -m handwritten_agent model fetch` 和 `python -m handwritten_agent model "
    "check`。"
)
TOOL_CALL_OPEN = "<tool_call>"
TOOL_CALL_CLOSE = "</tool_call>"
END_OF_TURN = [
    "<|im_end|>",
    "<|endoftext|>",
]  # Qwen's end markers; llama.cpp also stops at any end-of-generation token
T = TypeVar("T")


def _require_llama_cpp() -> None:
    if importlib.util.find_spec("llama_cpp") is None:
        raise ModuleNotFoundError(INSTALL_HINT, name="llama_cpp")


def _template_messages(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Copy messages into the shape chat templates expect.

    Templates written for Hugging Face (Qwen's included) print ``tool_call.arguments | tojson``, so
    the arguments must be an object there, not the JSON *string* the wire format carries; otherwise
    the model would see its own past calls double-encoded.
    """
    rendered = []
    for message in messages:
        copy = dict(message)
        copy["content"] = message_text(message)
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
    """The 400 error the OpenAI API returns when a request does not fit the model's context
    window.
    """
    if max_tokens is not None:
        message = (
            f"This model's maximum context length is {limit} tokens. However, you requested"
            f" {prompt_tokens + max_tokens} tokens ({prompt_tokens} in the messages, {max_tokens}"
            " in the completion). Please reduce the length of the messages or completion."
        )
    else:
        message = (
            f"This model's maximum context length is {limit} tokens. However, your messages"
            f" resulted in {prompt_tokens} tokens. Please reduce the length of the messages."
        )
    return BackendError(400, message, param="messages", code="context_length_exceeded")


def default_threads() -> int:
    """Threads for llama.cpp: ``HANDWRITTEN_AGENT_THREADS`` if set, else every CPU this process may
    use, up to 4; half beyond that.

    Generation is limited by memory bandwidth, and llama.cpp runs best with one thread per physical
    core; machines with more than 4 CPUs usually count each core twice (hyper-threading). On a
    machine whose cores are busy with other work, fewer threads can be much faster: llama.cpp's
    threads wait for each other many times per token, and a thread the system has paused holds up
    the rest.
    """
    chosen = os.environ.get(THREADS_ENV, "").strip()
    if chosen:
        if not chosen.isdigit() or int(chosen) < 1:
            raise ValueError(
                f"环境变量 {THREADS_ENV} 应该是一个正整数（llama.cpp 用几个线程），现在是 "
                f"{chosen!r}。"
            )
        return int(chosen)
    try:
        available = len(os.sched_getaffinity(0))
    except AttributeError:  # macOS and Windows have no sched_getaffinity
        available = os.cpu_count() or 1
    return max(1, available if available <= 4 else available // 2)


def tool_call_id(prompt: str, index: int, name: str, arguments: str) -> str:
    """A deterministic id: the same prompt and call always get the same id; different turns get
    different ones.
    """
    digest = hashlib.sha256(f"{prompt}\x00{index}\x00{name}\x00{arguments}".encode()).hexdigest()
    return "call_" + digest[:24]


def response_schema(response_format: Any) -> dict[str, Any] | None:
    """The JSON Schema a ``response_format`` asks for: the schema of ``json_schema``, an empty
    schema (any JSON value) for ``json_object``, ``None`` for text or no format."""
    if not isinstance(response_format, dict):
        return None
    if response_format.get("type") == "json_object":
        return {}
    if response_format.get("type") == "json_schema":
        spec = response_format.get("json_schema") or {}
        schema = spec.get("schema") if isinstance(spec, dict) else None
        return schema if isinstance(schema, dict) else {"type": "object"}
    return None


def response_grammar(response_format: Any, grammar_module: Any = None) -> Any:
    """The llama.cpp grammar that constrains decoding to ``response_format``, or ``None``.

    The same as ``llama_cpp``'s ``create_chat_completion(response_format=...)`` does: a schema
    becomes a grammar with ``LlamaGrammar.from_json_schema``, JSON mode uses the stock
    ``JSON_GBNF`` grammar (any JSON object). ``grammar_module`` is ``llama_cpp.llama_grammar``
    unless a test gives its own.
    """
    schema = response_schema(response_format)
    if schema is None:
        return None
    if grammar_module is None:
        from llama_cpp import llama_grammar as grammar_module
    if not schema:
        return grammar_module.LlamaGrammar.from_string(grammar_module.JSON_GBNF, verbose=False)
    return grammar_module.LlamaGrammar.from_json_schema(
        json.dumps(schema, ensure_ascii=False), verbose=False
    )


def with_schema_note(messages: list[dict[str, Any]], response_format: Any) -> list[dict[str, Any]]:
    """The messages with the requested schema stated in the system message.

    A grammar fixes the shape the model may write, not what each field means: hosted APIs show the
    model the schema, and so does this backend (a system message of its own when there is none).
    """
    schema = response_schema(response_format)
    if not schema:
        return messages
    note = "只输出一个符合下面 JSON Schema 的 JSON 对象，不要输出别的文字：\n" + json.dumps(
        schema, ensure_ascii=False
    )
    if messages and messages[0].get("role") in ("system", "developer"):
        first = dict(messages[0])
        first["content"] = f"{message_text(first)}\n\n{note}"
        return [first, *messages[1:]]
    return [{"role": "system", "content": note}, *messages]


class LocalBackend:
    """The server backend that runs a GGUF model on the CPU with llama.cpp."""

    # the server keeps this backend's content under response_format: its decoding is constrained
    structured_outputs = True

    def __init__(
        self,
        model_path: str | None = None,
        *,
        n_ctx: int = DEFAULT_N_CTX,
        n_threads: int | None = None,
        cache_bytes: int = CACHE_BYTES,
        prefix_folder: Path | None | str = "default",
    ):
        """``cache_bytes``: memory for cached prompt prefixes (0: only the last one is kept).
        ``prefix_folder``: where states are kept for other processes (``None``: nowhere); by
        default ``$HANDWRITTEN_AGENT_PREFIX_CACHE`` (``off``: nowhere), else ``<cache
        folder>/prefixes``.
        """
        _require_llama_cpp()
        self.cache_bytes = cache_bytes
        self.prefix_base: Path | None = (
            prefix_cache.configured_folder(model_fetch.cache_dir() / "prefixes")
            if prefix_folder == "default"
            else (Path(prefix_folder) if prefix_folder is not None else None)
        )
        self.prefixes: prefix_cache.PrefixCache | None = None
        # Make sure the file is there now (assembling the course model if needed), so a missing
        # model is reported when the server starts, not on the first request.
        self.model_file: Path = model_fetch.fetch(model_path, progress=True)
        self.custom = bool(model_path)
        label = self.model_file.name if self.custom else model_fetch.COURSE_MODEL.label
        self.name = f"local llama.cpp model ({label})"
        self.model_id = self.model_file.stem.lower() if self.custom else COURSE_MODEL_ID
        self.n_ctx = n_ctx
        self.n_threads = n_threads or default_threads()
        self._thread = ModelThread(
            name="llama.cpp"
        )  # every llama.cpp call is made there, one at a time
        self._llm: Any = None
        self._formatter: Any = None
        self._uses_tool_call_tags = False
        self._tags = template_tags(None)
        self.generations: deque[Generation] = deque(
            maxlen=32
        )  # the latest generations, newest last

    # -- the Backend protocol -----------------------------------------------------------------

    def list_models(self) -> list[str]:
        # One model answers whatever name a request uses; this is the name it is listed under.
        return [self.model_id]

    def complete(self, request: ChatRequest) -> Completion:
        def whole() -> Completion:
            last: ReplyDelta | Completion | None = None
            for piece in self._reply(request):
                last = piece
            assert isinstance(last, Completion)  # _reply() always ends with the whole Completion
            return last

        return self._thread.call(whole)

    def stream(self, request: ChatRequest) -> Iterator[ReplyDelta | Completion]:
        """The reply as it is generated (the ``StreamingBackend`` protocol); closing the iterator
        stops it.

        Requests run one at a time, each from its first item to its last; a refused request raises
        ``BackendError`` before anything is yielded.
        """
        return self._thread.iterate(lambda: self._reply(request))

    def _reply(self, request: ChatRequest) -> Iterator[ReplyDelta | Completion]:
        """One request, on the model's thread: load, prepare, generate."""
        self._load()
        job = self._prepare(request)
        yield ReplyDelta()  # accepted: the server can start its response now
        yield from self._generate(job)

    # -- loading ------------------------------------------------------------------------------

    def load(self) -> None:
        """Load the model now instead of on the first request (e.g. to time it, or to warm up a
        server).
        """
        self._thread.call(self._load)

    def with_model(self, fn: Callable[[Any], T]) -> T:
        """``fn(llm)`` with the loaded ``llama_cpp.Llama``, on the model's thread, after the
        requests before it.

        For measuring or inspecting the model itself: calling the ``Llama`` from another thread
        would race the server's requests and start a second OpenMP team, which slows every
        generation.
        """

        def run() -> T:
            self._load()
            return fn(self._llm)

        return self._thread.call(run)

    @property
    def busy(self) -> bool:
        """True while a request (or a ``with_model`` call) runs or waits for the model."""
        return self._thread.busy

    def close(self) -> None:
        """Free the model's memory and end its thread; the next request starts both again."""

        def free() -> None:
            if self._llm is not None and hasattr(self._llm, "close"):
                self._llm.close()
            self._llm = None

        self._thread.call(free)
        self._thread.stop()

    def _load(self) -> None:
        if self._llm is not None:
            return
        import llama_cpp
        from llama_cpp import Llama
        from llama_cpp.llama_chat_format import Jinja2ChatFormatter

        try:
            llm = prefix_cache.lean_llama(Llama)(
                model_path=str(self.model_file),
                n_ctx=self.n_ctx,
                n_threads=self.n_threads,
                n_threads_batch=self.n_threads,
                verbose=False,
            )
        except (ValueError, RuntimeError) as exc:
            raise BackendError(
                500,
                f"llama.cpp 读不了模型文件 {self.model_file}（{exc}）。如果它是课程模型，运行 "
                "`python -m handwritten_agent model fetch` 检查它；别处下载的 GGUF 可能需要更新的 "
                "llama-cpp-python。",
                type="server_error",
            ) from exc
        template = llm.metadata.get("tokenizer.chat_template")
        if not template:
            raise BackendError(
                500,
                f"模型文件 {self.model_file} 里没有聊天模板（GGUF 的 tokenizer.chat_template），"
                "没法把聊天消息变成提示词。请用 instruct/chat 版本的 GGUF。",
                type="server_error",
            )
        eos, bos = llm.token_eos(), llm.token_bos()

        def token_text(token: int) -> str:
            return (
                llm.detokenize([token], special=True).decode("utf-8", errors="replace")
                if token != -1
                else ""
            )

        if self.cache_bytes:
            folder = (
                prefix_cache.folder_for(
                    self.model_file, self.n_ctx, llama_cpp.__version__, self.prefix_base
                )
                if self.prefix_base is not None
                else None
            )
            self.prefixes = prefix_cache.PrefixCache(self.cache_bytes, folder)
            llm.set_cache(self.prefixes)
        self._formatter = Jinja2ChatFormatter(
            template=template, eos_token=token_text(eos), bos_token=token_text(bos)
        )
        self._uses_tool_call_tags = TOOL_CALL_OPEN in template
        self._tags = template_tags(template)
        self._llm = llm

    # -- one request --------------------------------------------------------------------------

    def render_prompt(self, request: ChatRequest) -> tuple[str, str, bool]:
        """The prompt string for a request, the text the reply is forced to start with, and whether
        tools are offered.

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
        messages = request.messages
        if tools is None:
            messages = with_schema_note(messages, request.extra.get("response_format"))
        formatted = self._formatter(
            messages=_template_messages(messages),
            tools=tools,
            tool_choice=None if tools is None else choice,
        )
        return formatted.prompt + prefill, prefill, tools is not None

    def _prepare(self, request: ChatRequest) -> Prepared:
        """Everything decided before generating: prompt, tokens, limits, stop sequences,
        sampling.
        """
        try:
            prompt, prefill, tools_offered = self.render_prompt(request)
        except Exception as exc:  # the template rejected the conversation (e.g. roles out of order)
            raise BackendError(
                400, f"模型的聊天模板无法渲染这些消息：{exc}", param="messages"
            ) from exc
        tokens = self._llm.tokenize(prompt.encode("utf-8"), add_bos=False, special=True)
        limit = self._llm.n_ctx()
        if len(tokens) >= limit or (
            request.max_tokens is not None and len(tokens) + request.max_tokens > limit
        ):
            raise context_length_error(limit, len(tokens), request.max_tokens)
        max_tokens = (
            request.max_tokens
            if request.max_tokens is not None
            else min(DEFAULT_MAX_TOKENS, limit - len(tokens))
        )
        stop = list(END_OF_TURN) + list(request.stop or [])
        single_call = (
            tools_offered and not request.parallel_tool_calls and self._uses_tool_call_tags
        )
        if single_call:
            stop.append(
                TOOL_CALL_CLOSE
            )  # one call is all that may be returned: stop generating after it
        options: dict[str, Any] = {
            "temperature": request.temperature if request.temperature is not None else 0.0
        }
        if request.extra.get("top_p") is not None:
            options["top_p"] = float(request.extra["top_p"])
        if request.extra.get("seed") is not None:
            options["seed"] = int(request.extra["seed"])
        if not tools_offered:  # a grammar would forbid the tool-call tags: only for the answer
            grammar = response_grammar(request.extra.get("response_format"))
            if grammar is not None:
                options["grammar"] = grammar
        return Prepared(
            prompt,
            tokens,
            prefill,
            tools_offered,
            single_call,
            self._tags,
            max_tokens,
            stop,
            options,
        )

    def _cached(self, tokens: list[int]) -> int:
        """How many of ``tokens`` llama.cpp will not evaluate again: the longest prefix shared with
        what the model holds now, or with the best cached state (which it then loads); the last
        prompt token is always evaluated, for its logits."""
        from llama_cpp import Llama

        llm = self._llm
        held = Llama.longest_token_prefix(llm._input_ids.tolist(), tokens)
        if self.prefixes is not None:
            # a longer prefix kept in memory or on disk: llama.cpp loads that state first
            held = max(held, self.prefixes.fetch(tokens, better_than=held))
        return max(0, min(held, len(tokens) - 1))

    def _generate(self, job: Prepared) -> Iterator[ReplyDelta | Completion]:
        """Run llama.cpp token by token and turn its text into the reply (``reply_stream``)."""
        from llama_cpp import StoppingCriteriaList

        record = Generation(prompt_tokens=len(job.tokens), cached_tokens=self._cached(job.tokens))
        self.generations.append(record)

        last_length = -1

        def count(input_ids: Any, _logits: Any) -> bool:
            # llama-cpp-python calls this once per sampled token, then once more after its loop with
            # the same input as the last call: only a new input length is a new token
            nonlocal last_length
            if len(input_ids) != last_length:
                last_length = len(input_ids)
                record.completion_tokens += 1
            return False

        started = time.perf_counter()
        chunks = self._llm.create_completion(
            job.tokens,
            max_tokens=job.max_tokens,
            stop=job.stop,
            stream=True,
            stopping_criteria=StoppingCriteriaList([count]),
            **job.options,
        )

        def pieces() -> Iterator[tuple[str, str | None]]:
            for chunk in chunks:
                choice = chunk["choices"][0]
                record.text += choice.get("text") or ""
                yield choice.get("text") or "", choice.get("finish_reason")

        try:
            for item in reply_stream(pieces(), job, lambda: record.completion_tokens):
                if isinstance(item, Completion):
                    record.finish = item.finish_reason
                    item.cached_tokens = record.cached_tokens
                yield item
        finally:
            chunks.close()  # when our consumer stopped early, llama.cpp generates no further token
            record.seconds = round(time.perf_counter() - started, 3)


@dataclass
class Prepared:
    """A request made ready for llama.cpp: what ``reply_stream`` needs to know about it besides the
    text.
    """

    prompt: str
    tokens: list[int]
    prefill: str = ""
    tools_offered: bool = False
    single_call: bool = False
    tags: frozenset[str] = DEFAULT_TAGS
    max_tokens: int = DEFAULT_MAX_TOKENS
    stop: list[str] = field(default_factory=list)
    options: dict[str, Any] = field(default_factory=dict)


@dataclass
class Generation:
    """What one generation did, kept for tests and for a look at the server's behaviour."""

    prompt_tokens: int
    cached_tokens: int = 0  # of the prompt tokens, those read from a kept prefix
    completion_tokens: int = 0  # tokens sampled, the one that ended the turn included
    # the finish_reason once it ran to its end; "stopped" when closed early (client gone)
    finish: str = "stopped"
    seconds: float = 0.0
    text: str = ""  # what the model wrote, before calls and markup were taken out of it
    thread: int = field(default_factory=threading.get_ident)  # the thread that ran llama.cpp for it


def reply_stream(
    pieces: Iterable[tuple[str, str | None]], job: Prepared, completion_tokens: Callable[[], int]
) -> Iterator[ReplyDelta | Completion]:
    """Generated text, piece by piece as ``(text, finish_reason)``, turned into the reply's deltas
    and its Completion.

    Every piece yields something (an empty ``ReplyDelta`` when it made nothing certain yet), so the
    consumer can stop the generation between any two tokens by closing this generator. Tool calls
    get ids from the prompt and their position (``tool_call_id``); the last item is the whole
    Completion.
    """
    assembler = ReplyAssembler(
        parse_calls=job.tools_offered,
        tags=job.tags,
        hidden_prefix=job.prefill,
        max_calls=1 if job.single_call else None,
    )
    calls: list[dict[str, Any]] = []

    def deltas(assembled: Assembled) -> list[ReplyDelta]:
        out = [ReplyDelta(content=assembled.content)] if assembled.content else []
        for name, arguments in assembled.calls:
            call = {
                "id": tool_call_id(job.prompt, len(calls), name, arguments),
                "type": "function",
                "function": {"name": name, "arguments": arguments},
            }
            calls.append(call)
            out.append(ReplyDelta(tool_call=call))
        return out

    finish = None
    for text, reason in pieces:
        finish = reason or finish
        yield from deltas(assembler.feed(text)) or [ReplyDelta()]
    yield from deltas(assembler.finish())
    reason = "tool_calls" if calls else ("length" if finish == "length" else "stop")
    yield Completion(
        content=assembler.content or None,
        tool_calls=calls,
        finish_reason=reason,
        prompt_tokens=len(job.tokens),
        completion_tokens=completion_tokens(),
    )
