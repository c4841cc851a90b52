"""The names of a trace line's fields, and where each name comes from.

Where the structured log of the course's reference article 001 (§7.4) names a field, the trace
uses that name; for the rest it uses the OpenTelemetry GenAI semantic conventions (``gen_ai.*``,
``error.type``; status *Development* in the registry, read 2026-12); a few fields neither names
keep a plain name.
``otel`` turns the articles' names into their convention attributes when it exports spans, using
``SEED_TO_OTEL``.

Fields, the lines they are on, and where the name comes from (or what it is exported as):

- ``ts`` (every line): article 002 (ISO 8601 with offset, µs)
- ``event`` (every line): plain (``run_start`` … ``run_end``)
- ``request_id`` (every line (the run id)): article 001 → span attribute ``request_id``
- ``trace_id`` (every line): OTel trace id (32 hex, from the run id)
- ``user_id`` (every line): article 001 → ``user.id``
- ``session_id`` (every line): article 003 → ``gen_ai.conversation.id``
- ``step`` (every line): article 002
- ``seq`` (every line (0, 1, 2 … within a run)): plain: the order when timestamps tie
- ``gen_ai.operation.name`` (every line): OTel: ``invoke_agent`` / ``chat`` / ``execute_tool``
- ``model`` (``model_call``): article 001 → ``gen_ai.response.model``
- ``gen_ai.request.model`` (``model_call``): OTel (the model asked for)
- ``gen_ai.provider.name`` (``model_call``): OTel (``openai``, ``deepseek``, … or the backend)
- ``gen_ai.response.id`` (``model_call`` (when the backend gave one)): OTel
- ``input_tokens`` (``model_call``, ``run_end``): article 001 → ``gen_ai.usage.input_tokens``;
  null = not reported
- ``output_tokens`` (``model_call``, ``run_end``): article 001 → ``gen_ai.usage.output_tokens``;
  null = not reported
- ``gen_ai.usage.cache_read.input_tokens`` (``model_call``): OTel: the part of ``input_tokens``
  served from the provider's prompt cache; null = the provider did not say
- ``finish_reason`` (``model_call``): article 001 → ``gen_ai.response.finish_reasons`` (a list)
- ``duration_ms`` (``model_call``, ``run_end``): plain (span duration on export)
- ``message_count`` (``model_call``): plain: messages sent
- ``tools_offered`` (``model_call``): plain: names of the tools the model was shown
- ``tool_calls`` (``model_call``): plain: names of the tools the model asked for
- ``cost``, ``cost_currency`` (``model_call``, ``run_end``): plain (``cost``); null when unknown
- ``gen_ai.input.messages`` (``model_call`` (``record_messages=True``)): OTel (opt-in content),
  OpenAI chat format
- ``gen_ai.output.messages`` (``model_call`` (``record_messages=True``)): OTel (opt-in content),
  OpenAI chat format
- ``tool`` (``tool_call``, ``tool_result``, gate lines): article 001 → ``gen_ai.tool.name``
- ``gen_ai.tool.call.id`` (``tool_call``, ``tool_result``, gate lines): OTel
- ``gen_ai.tool.call.arguments`` (``tool_call``): OTel (redacted; an object, or the raw text)
- ``tool_duration_ms`` (``tool_result``): article 001
- ``status`` (``tool_result``, ``run_end``): article 001: ``success`` / ``error`` / ``refused`` /
  ``repeated`` / ``cached``; run: ``success`` / ``stopped``
- ``output_summary`` (``tool_result``): article 003: a short, redacted summary
- ``gen_ai.tool.call.result`` (``tool_result`` (``record_messages``)): OTel (opt-in content)
- ``content`` (``tool_result`` (``record_messages``)): plain: the exact ``role: tool`` message text
- ``error.type`` (any line that failed): OTel (exception class, ``invalid_arguments``, an HTTP
  status, or the stop reason)
- ``error`` (any line that failed): plain: the message
- ``stop_reason`` (``run_end``): plain: ``final``, ``max_steps``, ``timeout``, ``budget`` …

Left out: the OTel *events* (``gen_ai.client.inference.operation.details``) and metrics; the trace
has lines, ``otel`` makes spans.
"""

from __future__ import annotations

SEED_TO_OTEL: dict[str, str] = {
    "model": "gen_ai.response.model",
    "input_tokens": "gen_ai.usage.input_tokens",
    "output_tokens": "gen_ai.usage.output_tokens",
    "tool": "gen_ai.tool.name",
    "session_id": "gen_ai.conversation.id",
    "user_id": "user.id",
}
"""The reference articles' field names and the OpenTelemetry attribute each becomes on export."""

OPERATION = {
    "run_start": "invoke_agent",
    "run_end": "invoke_agent",
    "final": "invoke_agent",
    "memory": "invoke_agent",
    "model_call": "chat",
    "retry": "chat",
    "tool_call": "execute_tool",
    "tool_result": "execute_tool",
    "needs_confirmation": "execute_tool",
}
"""``gen_ai.operation.name`` of each line; a gate's own kinds (``permission`` …) are
``execute_tool``.
"""


__all__ = ["OPERATION", "SEED_TO_OTEL"]
