"""The simulator's prompt-JSON and text-ReAct modes: tools read from a hand-written system prompt,
calls written as (messy) text, results read back from the conversation.

Pure Python and fast: ``promptmode.respond`` is called directly with a ``ChatRequest``; the real
planner decides what to do, and the tests check what this mode adds around it.
"""

from __future__ import annotations

import json
import re
import time
from datetime import datetime
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from handwritten_agent import prompting
from handwritten_agent.course.offline import serve
from handwritten_agent.course.offline.backend import ChatRequest
from handwritten_agent.course.offline.faults import MESSINESS, split_model_name
from handwritten_agent.course.offline.simulator import messiness, promptmode
from handwritten_agent.course.offline.simulator.planner import PlannedCall
from handwritten_agent.llm import ChatClient
from handwritten_agent.tokens import count_message_tokens, estimate_tokens

NOW = datetime(2026, 3, 12, 14, 30)

CALCULATE = {
    "name": "calculate",
    "description": "执行一个数学计算。支持加(+)、减(-)、乘(*)、除(/)。",
    "parameters": {
        "type": "object",
        "properties": {
            "expression": {"type": "string", "description": "数学表达式，例如 3 + 5 * 2"}
        },
        "required": ["expression"],
    },
}
CLOCK = {
    "name": "get_current_time",
    "description": "获取当前的系统日期和时间。",
    "parameters": {"type": "object", "properties": {}, "required": []},
}
WEATHER = {
    "name": "get_weather",
    "description": "获取指定城市的天气信息（示例数据）。",
    "parameters": {
        "type": "object",
        "properties": {
            "city": {"type": "string", "description": "城市名称，例如 北京、上海"},
            "date": {"type": "string", "description": "日期", "enum": ["today", "tomorrow"]},
        },
        "required": ["city"],
    },
}
TOOLS = [CALCULATE, CLOCK, WEATHER]

# The prompt seed 000 builds by hand (section 3.1), written out as its code produces it.
SEED_PROMPT = """你是一个智能助手，可以调用工具来帮助用户解决问题。你可以调用的工具如下：

工具名称：calculate
描述：执行一个数学计算。支持加(+)、减(-)、乘(*)、除(/)。
参数说明：
 - expression (string): 数学表达式，例如：3 + 5 * 2。请确保表达式是明确且可计算的。

工具名称：get_current_time
描述：获取当前的系统日期和时间。

工具名称：get_weather
描述：获取指定城市在指定日期的天气信息。
参数说明：
 - city (string): 城市名称，例如：北京、上海。
 - date (string, 可选): 日期，可选值：today、tomorrow。

当用户的问题需要调用工具时，你必须严格按照以下JSON格式回应，且只输出这个JSON，不要有任何其他文字：
{
  "tool_name": "工具名称",
  "arguments": {
    // 具体的参数键值对
  }
}

如果用户的问题不需要调用任何工具，或者你已经通过知识直接回答，请用自然语言正常回复。
现在开始对话吧。"""


# ------------------------------------------------------------------------------------------ helpers


def request(
    system: str,
    messages: list[dict[str, Any]],
    model: str = "course-sim",
    stop: list[str] | None = None,
) -> ChatRequest:
    base, options = split_model_name(model)
    return ChatRequest(
        model=model,
        messages=[{"role": "system", "content": system}, *messages],
        base_model=base,
        options=options,
        stop=stop,
    )


def reply(
    system: str,
    messages: list[dict[str, Any]],
    model: str = "course-sim",
    stop: list[str] | None = None,
) -> str:
    completion = promptmode.respond(request(system, messages, model, stop), now=NOW)
    assert completion.tool_calls == []  # prompt mode never uses native tool calls
    return completion.content or ""


def user(text: str) -> dict[str, str]:
    return {"role": "user", "content": text}


def assistant(text: str) -> dict[str, str]:
    return {"role": "assistant", "content": text}


def strict_call(text: str, name_key: str = "name", args_key: str = "arguments") -> PlannedCall:
    """The call in a clean reply: the whole text must be one strict JSON object."""
    value = json.loads(text)
    assert set(value) == {name_key, args_key}
    return PlannedCall(value[name_key], value[args_key])


def lenient_call(text: str) -> PlannedCall:
    """The call in a messy reply, read back by the lenient reader."""
    values = [v for _, _, v in messiness.iter_json_values(text) if isinstance(v, dict)]
    assert values, f"no JSON object in {text!r}"
    return PlannedCall(values[0]["name"], values[0]["arguments"])


JSON_PROMPT = prompting.render_tool_prompt(TOOLS)
REACT_PROMPT = prompting.render_react_prompt(TOOLS)
ASK_CALC = "帮我计算一下 (12 + 34) * 2 等于多少"
CALL = PlannedCall("calculate", {"expression": "(12 + 34) * 2"})


# ------------------------------------------------------------------------------ reading the prompt


def test_tools_recovered_from_the_package_prompts():
    for prompt in (JSON_PROMPT, REACT_PROMPT):
        recovered = promptmode.read_tool_prompt(prompt)
        assert recovered.tools == TOOLS
        assert (recovered.reply.name_key, recovered.reply.args_key) == ("name", "arguments")
    assert promptmode.read_tool_prompt(JSON_PROMPT).react is None
    assert promptmode.read_tool_prompt(REACT_PROMPT).react == promptmode.ReactLabels()


def test_tools_recovered_from_the_seed_line_format():
    recovered = promptmode.read_tool_prompt(SEED_PROMPT)
    assert [t["name"] for t in recovered.tools] == ["calculate", "get_current_time", "get_weather"]
    calculate, clock, weather = recovered.tools
    assert calculate["description"] == "执行一个数学计算。支持加(+)、减(-)、乘(*)、除(/)。"
    assert calculate["parameters"]["properties"]["expression"]["type"] == "string"
    assert "3 + 5 * 2" in calculate["parameters"]["properties"]["expression"]["description"]
    assert calculate["parameters"]["required"] == ["expression"]
    assert clock["parameters"]["properties"] == {}
    assert weather["parameters"]["required"] == ["city"]  # "date (string, 可选)" is optional
    assert weather["parameters"]["properties"]["date"]["enum"] == ["today", "tomorrow"]
    # the reply format comes from the example, despite its // comment
    assert (recovered.reply.name_key, recovered.reply.args_key) == ("tool_name", "arguments")


def test_parameter_lines_of_the_seed_format_are_not_taken_for_tools():
    names = [t["name"] for t in promptmode.read_tool_prompt(SEED_PROMPT).tools]
    assert "expression" not in names and "city" not in names


@pytest.mark.parametrize(
    "render",
    [
        lambda tools: json.dumps(tools, ensure_ascii=False, indent=2),
        lambda tools: (
            "```json\n"
            + json.dumps(
                [{"type": "function", "function": t} for t in tools], ensure_ascii=False, indent=2
            )
            + "\n```"
        ),
        lambda tools: "\n\n".join(json.dumps(t, ensure_ascii=False) for t in tools),
        lambda tools: str(tools),  # an f-string of the Python list: single quotes, True/False
        lambda tools: json.dumps({"tools": tools}, ensure_ascii=False),
    ],
    ids=["list", "openai-fenced", "one-per-line", "python-repr", "tools-key"],
)
def test_tools_recovered_from_json_definitions(render):
    prompt = (
        "你可以使用以下工具：\n"
        + render(TOOLS)
        + '\n\n需要调用工具时，只输出 JSON：{"name": "工具名", "arguments": {...}}'
    )
    recovered = promptmode.read_tool_prompt(prompt)
    assert recovered.tools == TOOLS
    assert promptmode.looks_like_tool_prompt(prompt)


def test_tools_recovered_from_signature_lines():
    prompt = """Tools you can use:
- get_weather(city: str, date?: str): 查询城市天气
- calculate(expression: string) - evaluate an arithmetic expression
* convert(amount: float, currency: str = "USD"): 换算货币
1. get_current_time(): 当前时间

Answer with one JSON object: {"tool": "<name>", "args": {...}}"""
    recovered = promptmode.read_tool_prompt(prompt)
    by_name = {t["name"]: t for t in recovered.tools}
    assert list(by_name) == ["get_weather", "calculate", "convert", "get_current_time"]
    assert by_name["get_weather"]["parameters"]["required"] == ["city"]
    assert by_name["get_weather"]["description"] == "查询城市天气"
    assert by_name["calculate"]["description"] == "evaluate an arithmetic expression"
    assert by_name["convert"]["parameters"]["properties"]["amount"]["type"] == "number"
    assert by_name["convert"]["parameters"]["required"] == ["amount"]
    assert by_name["get_current_time"]["parameters"]["properties"] == {}
    assert (recovered.reply.name_key, recovered.reply.args_key) == ("tool", "args")


@pytest.mark.parametrize(
    "example, keys",
    [
        ('{"name": "<工具名>", "arguments": {<参数>}}', ("name", "arguments", None, None)),
        (
            '{"tool_name": "工具名称", "arguments": {"参数名": "参数值"}}',
            ("tool_name", "arguments", None, None),
        ),
        ("{'tool': 'tool name', 'args': {'key': 'value'}}", ("tool", "args", None, None)),
        (
            '{"thought": "...", "action": "tool name", "action_input": {...}}',
            ("action", "action_input", "thought", None),
        ),
        (
            '{"tool_call": {"name": "...", "arguments": {...}}}',
            ("name", "arguments", None, "tool_call"),
        ),
        ("", ("name", "arguments", None, None)),  # no example: the default
    ],
)
def test_reply_format_learnt_from_the_example(example, keys):
    prompt = f"可用工具：\n- calculate(expression: str): 计算\n\n调用工具时输出 JSON：\n{example}"
    fmt = promptmode.read_tool_prompt(prompt).reply
    assert (fmt.name_key, fmt.args_key, fmt.thought_key, fmt.wrapper) == keys


def test_what_counts_as_a_tool_prompt():
    assert promptmode.looks_like_tool_prompt(JSON_PROMPT)
    assert promptmode.looks_like_tool_prompt(REACT_PROMPT)
    assert promptmode.looks_like_tool_prompt(SEED_PROMPT)
    assert not promptmode.looks_like_tool_prompt("")
    assert not promptmode.looks_like_tool_prompt("你是一个乐于助人的助手。请用 JSON 格式回答。")
    # tools listed, but no call format asked for: a native-tools style system message
    assert not promptmode.looks_like_tool_prompt(
        "你可以使用的工具有：\n- get_weather: 查询天气\n请一步步思考。"
    )


# ------------------------------------------------------------------------------ writing a call


def test_clean_call_is_one_strict_json_object_in_the_prompts_keys():
    text = reply(JSON_PROMPT, [user(ASK_CALC)])
    assert text == '{"name": "calculate", "arguments": {"expression": "(12 + 34) * 2"}}'
    seed_text = reply(SEED_PROMPT, [user(ASK_CALC)])
    assert strict_call(seed_text, "tool_name") == CALL


EXPECTED_SHAPES = {
    "clean": '{"name": "calculate", "arguments": {"expression": "(12 + 34) * 2"}}',
    "fenced": (
        '```json\n{\n  "name": "calculate",\n  "arguments": {\n    "expression": "(12 + 34) * 2"\n '
        " }\n}\n```"
    ),
    "trailing_comma": '{"name": "calculate", "arguments": {"expression": "(12 + 34) * 2",},}',
    "fullwidth": "｛“name”：“calculate”，“arguments”：｛“expression”：“(12 + 34) * 2”｝｝",
    "single_quotes": "{'name': 'calculate', 'arguments': {'expression': '(12 + 34) * 2'}}",
}


@pytest.mark.parametrize("profile", sorted(EXPECTED_SHAPES))
def test_messiness_profile_exact_shape(profile):
    assert reply(JSON_PROMPT, [user(ASK_CALC)], f"course-sim:{profile}") == EXPECTED_SHAPES[profile]


def test_prose_profile_has_sentences_around_the_clean_json():
    text = reply(JSON_PROMPT, [user(ASK_CALC)], "course-sim:prose")
    before, middle, after = text.split("\n\n")
    assert middle == EXPECTED_SHAPES["clean"]
    assert "calculate" in before and before.endswith(("。", "：")) and after.endswith("。")
    assert "{" not in before + after


def test_prose_follows_the_language_of_the_request():
    english = reply(
        JSON_PROMPT, [user("Please calculate (12 + 34) * 2 for me")], "course-sim:prose"
    )
    before, middle, after = english.split("\n\n")
    assert lenient_call(middle) == CALL
    assert re.fullmatch(r"[ -~]+", before + after), english  # English sentences, no Chinese
    assert re.search(r"[\u4e00-\u9fff]", reply(JSON_PROMPT, [user(ASK_CALC)], "course-sim:prose"))


def test_mixed_profile_combines_several():
    text = reply(JSON_PROMPT, [user(ASK_CALC)], "course-sim:mixed")
    assert "```json\n" in text and not text.startswith("```")  # prose before a fence
    assert not text.rstrip().endswith("```")  # and prose after it
    assert re.search(r"[,，]\s*\}", text)  # trailing commas
    assert "：" in text and "，" in text  # full-width colon and comma
    with pytest.raises(json.JSONDecodeError):
        json.loads(text[text.index("{") : text.rindex("}") + 1])


@pytest.mark.parametrize("profile", sorted(MESSINESS))
def test_every_profile_carries_the_exact_call(profile):
    text = reply(JSON_PROMPT, [user(ASK_CALC)], f"course-sim:{profile}")
    assert lenient_call(text) == CALL
    if profile != "clean":
        with pytest.raises(json.JSONDecodeError):
            json.loads(text)


def test_profiles_combine():
    text = reply(JSON_PROMPT, [user(ASK_CALC)], "course-sim:fenced,single_quotes")
    assert text.startswith("```json\n{\n  'name': 'calculate',")
    assert lenient_call(text) == CALL


def test_values_are_never_altered_by_messiness():
    tricky = PlannedCall("calculate", {"expression": "max(1, 2): 'a' \"b\" ，：｛｝"})
    for profile in MESSINESS:
        value = {"name": tricky.name, "arguments": tricky.arguments}
        text = messiness.render_reply(
            value, messiness.profile_flags([profile]), tool_name="calculate"
        )
        assert lenient_call(text) == tricky, profile


def test_replies_are_deterministic():
    for model in [
        "course-sim",
        "course-sim:mixed",
        "course-sim:prose",
        "course-sim:malformed_json",
    ]:
        first = promptmode.respond(request(JSON_PROMPT, [user(ASK_CALC)], model), now=NOW)
        second = promptmode.respond(request(JSON_PROMPT, [user(ASK_CALC)], model), now=NOW)
        assert first == second


def test_completion_fields():
    req = request(JSON_PROMPT, [user(ASK_CALC)])
    completion = promptmode.respond(req, now=NOW)
    assert completion.finish_reason == "stop"
    assert completion.prompt_tokens == count_message_tokens(req.messages) > 0
    assert completion.completion_tokens == estimate_tokens(completion.content) > 0


# ----------------------------------------------------------------------------- reading results back


@pytest.mark.parametrize(
    "observation",
    [
        prompting.format_observation("calculate", {"success": True, "data": 92, "error": None}),
        "工具 calculate 返回：92",
        "工具结果：92",
        "Observation: 92",
        '{"tool": "calculate", "result": 92}',
    ],
)
def test_an_observation_is_paired_with_the_call_before_it(observation):
    call_text = reply(JSON_PROMPT, [user(ASK_CALC)], "course-sim:fenced")
    messages = [
        {"role": "system", "content": JSON_PROMPT},
        user(ASK_CALC),
        assistant(call_text),
        user(observation),
    ]
    exchange = promptmode.read_exchange(messages, promptmode.read_tool_prompt(JSON_PROMPT))
    assert exchange.request == ASK_CALC
    assert len(exchange.results) == 1
    call, text = exchange.results[0]
    assert call == CALL
    assert "92" in text and not text.startswith(("工具", "Observation"))


def test_observation_leads_to_a_final_answer_in_words():
    call_text = reply(JSON_PROMPT, [user(ASK_CALC)])
    final = reply(
        JSON_PROMPT,
        [user(ASK_CALC), assistant(call_text), user(prompting.format_observation("calculate", 92))],
    )
    assert "92" in final
    assert "{" not in final  # words, not a call


def test_a_tool_message_is_an_observation_too():
    call_text = reply(JSON_PROMPT, [user(ASK_CALC)])
    messages = [user(ASK_CALC), assistant(call_text), {"role": "tool", "content": "92"}]
    exchange = promptmode.read_exchange(messages, promptmode.read_tool_prompt(JSON_PROMPT))
    assert exchange.results == [(CALL, "92")]


def test_the_seeds_follow_up_message_alone_carries_result_and_question():
    # Seed 000 asks for the final answer in a fresh request that quotes the original question.
    follow_up = (
        "你调用的工具 calculate 返回了结果：计算结果为92。"
        f"请根据这个结果回复用户最初的问题：“{ASK_CALC}”。"
    )
    exchange = promptmode.read_exchange([user(follow_up)], promptmode.read_tool_prompt(SEED_PROMPT))
    assert exchange.request == ASK_CALC
    assert exchange.results == [
        (PlannedCall("calculate", {}), "计算结果为92")
    ]  # arguments unknown here
    final = reply(SEED_PROMPT, [user(follow_up)])
    assert (
        "92" in final and "(12 + 34) * 2" in final
    )  # the planner filled in the call it would have made


def test_a_new_user_message_starts_a_new_request():
    call_text = reply(JSON_PROMPT, [user(ASK_CALC)])
    messages = [
        user(ASK_CALC),
        assistant(call_text),
        user("工具结果：calculate 返回 92"),
        assistant("结果是 92"),
        user("北京今天天气怎么样"),
    ]
    exchange = promptmode.read_exchange(messages, promptmode.read_tool_prompt(JSON_PROMPT))
    assert exchange.request == "北京今天天气怎么样" and exchange.results == []


# ----------------------------------------------------------------------------- faults and the retry

FEEDBACK = "你上次返回的工具参数无法解析：Expecting ',' delimiter，请只输出一个合法的 JSON 对象。"


def test_malformed_json_cannot_be_read_even_leniently():
    text = reply(JSON_PROMPT, [user(ASK_CALC)], "course-sim:malformed_json")
    assert text.startswith('{"name": "calculate"')
    with pytest.raises(json.JSONDecodeError):
        json.loads(text)
    with pytest.raises(ValueError):
        messiness.loads_lenient(text)


def test_clock_call_without_arguments_is_cut_in_its_name():
    text = messiness.truncated_json(
        {"name": "get_current_time", "arguments": {}}, name="get_current_time", arguments={}
    )
    assert text.startswith('{"name": "get_') and "get_current_time" not in text


@pytest.mark.parametrize(
    "model", ["course-sim:malformed_json", "course-sim:mixed", "course-sim:fenced,malformed_json"]
)
def test_parse_error_feedback_gets_the_same_call_written_cleanly(model):
    first = reply(JSON_PROMPT, [user(ASK_CALC)], model)
    retried = reply(JSON_PROMPT, [user(ASK_CALC), assistant(first), user(FEEDBACK)], model)
    assert strict_call(retried) == CALL
    # and the faults stay on for the next call: only the retry is clean
    exchange_after = [
        user(ASK_CALC),
        assistant(first),
        user(FEEDBACK),
        assistant(retried),
        user(prompting.format_observation("calculate", 92)),
    ]
    assert "92" in reply(JSON_PROMPT, exchange_after, model)


def test_unknown_tool_then_the_right_one_after_the_error():
    first = reply(JSON_PROMPT, [user(ASK_CALC)], "course-sim:unknown_tool")
    wrong = strict_call(first)
    assert wrong.name not in {t["name"] for t in TOOLS} and wrong.arguments == CALL.arguments
    error = prompting.format_observation(
        wrong.name,
        {
            "success": False,
            "data": None,
            "error": f"未知工具 {wrong.name}，可用：calculate、get_current_time、get_weather",
        },
    )
    second = reply(
        JSON_PROMPT, [user(ASK_CALC), assistant(first), user(error)], "course-sim:unknown_tool"
    )
    assert strict_call(second) == CALL


def test_unknown_tool_names_are_plausible():
    assert promptmode.unknown_tool_name("get_weather", ["get_weather"]) == "weather"
    assert promptmode.unknown_tool_name("calculate", ["calculate"]) == "calculate_tool"
    assert promptmode.unknown_tool_name("get_x", ["get_x", "x", "get_x_tool"]) == "get_x_v2"


def test_string_arguments_are_a_json_string():
    text = reply(JSON_PROMPT, [user(ASK_CALC)], "course-sim:string_arguments")
    value = json.loads(text)
    assert isinstance(value["arguments"], str)
    assert json.loads(value["arguments"]) == CALL.arguments
    # reading it back still pairs the result with the real call
    messages = [user(ASK_CALC), assistant(text), user("工具结果：calculate 返回 92")]
    exchange = promptmode.read_exchange(messages, promptmode.read_tool_prompt(JSON_PROMPT))
    assert exchange.results == [(CALL, "92")]


def test_repeat_forever_never_answers():
    model = "course-sim:repeat_forever"
    messages = [user(ASK_CALC)]
    for _ in range(4):
        text = reply(JSON_PROMPT, messages, model)
        assert strict_call(text) == CALL
        messages += [assistant(text), user(prompting.format_observation("calculate", 92))]


def test_empty_reply():
    req = request(JSON_PROMPT, [user(ASK_CALC)], "course-sim:empty_reply")
    completion = promptmode.respond(req, now=NOW)
    assert (
        completion.content == ""
        and completion.completion_tokens == 0
        and completion.finish_reason == "stop"
    )


def test_faults_for_other_layers_are_ignored_here():
    assert (
        reply(JSON_PROMPT, [user(ASK_CALC)], "course-sim:slow,bad_tool_call_id")
        == EXPECTED_SHAPES["clean"]
    )


# ---------------------------------------------------------------------------- the text ReAct format


def react_call(text: str) -> tuple[str, PlannedCall]:
    match = re.fullmatch(r"Thought: (.+)\nAction: (\S+)\nAction Input: (.+)", text)
    assert match, text
    return match.group(1), PlannedCall(match.group(2), json.loads(match.group(3)))


def test_react_call_format():
    text = reply(REACT_PROMPT, [user(ASK_CALC)])
    thought, call = react_call(text)
    assert call == CALL and "calculate" in thought
    assert "Observation" not in text


@pytest.mark.parametrize("hand_back", ["user-message", "appended-to-assistant"])
def test_react_observation_leads_to_final_answer(hand_back):
    call_text = reply(REACT_PROMPT, [user(ASK_CALC)], stop=prompting.REACT_STOP)
    observation = prompting.format_react_observation(92)
    if hand_back == "user-message":
        messages = [user(ASK_CALC), assistant(call_text), user(observation)]
    else:
        messages = [user(ASK_CALC), assistant(call_text + "\n" + observation)]
    final = reply(REACT_PROMPT, messages, stop=prompting.REACT_STOP)
    match = re.fullmatch(r"Thought: (.+)\nFinal Answer: (.+)", final, re.S)
    assert match and "92" in match.group(2)
    assert "Observation" not in final


def test_react_scratchpad_in_one_user_message():
    scratchpad = (
        f"Question: {ASK_CALC}\nThought: 需要计算\nAction: calculate\n"
        'Action Input: {"expression": "(12 + 34) * 2"}\nObservation: 92\nThought:'
    )
    exchange = promptmode.read_exchange(
        [user(scratchpad)], promptmode.read_tool_prompt(REACT_PROMPT)
    )
    assert (
        exchange.request == ASK_CALC
        and exchange.results == [(CALL, "92")]
        and exchange.continues_thought
    )
    final = reply(REACT_PROMPT, [user(scratchpad)])
    assert not final.startswith("Thought:")  # it continues the open "Thought:"
    assert "\nFinal Answer: " in final and "92" in final


def test_react_respects_stop_sequences():
    full = reply(REACT_PROMPT, [user(ASK_CALC)])
    assert reply(REACT_PROMPT, [user(ASK_CALC)], stop=["Observation:"]) == full  # nothing to cut
    cut = reply(REACT_PROMPT, [user(ASK_CALC)], stop=["Action Input:"])
    assert cut == full[: full.index("Action Input:")] and cut.endswith("Action: calculate\n")


def test_react_faults_spoil_the_action_input():
    broken = reply(REACT_PROMPT, [user(ASK_CALC)], "course-sim:malformed_json")
    action_input = broken.split("Action Input: ", 1)[1]
    with pytest.raises(json.JSONDecodeError):
        json.loads(action_input)
    as_string = reply(REACT_PROMPT, [user(ASK_CALC)], "course-sim:string_arguments")
    assert json.loads(json.loads(as_string.split("Action Input: ", 1)[1])) == CALL.arguments
    # the error comes back as an observation; the next reply is the clean call
    retried = reply(
        REACT_PROMPT,
        [user(ASK_CALC), assistant(broken), user("Observation: 无法解析 Action Input 的 JSON")],
        "course-sim:malformed_json",
    )
    assert react_call(retried)[1] == CALL


def test_react_messiness_applies_to_the_action_input_only():
    text = reply(REACT_PROMPT, [user(ASK_CALC)], "course-sim:single_quotes,fenced,prose")
    assert text.split("Action Input: ", 1)[1] == "{'expression': '(12 + 34) * 2'}"
    assert text.startswith("Thought: ") and "```" not in text


def test_chinese_react_labels():
    prompt = (
        REACT_PROMPT.replace("Action Input", "行动输入")
        .replace("Thought", "思考")
        .replace("Final Answer", "最终答案")
        .replace("Observation", "观察")
        .replace("Action", "行动")
    )
    text = reply(prompt, [user(ASK_CALC)])
    assert text.startswith("思考：") and "\n行动：calculate\n行动输入：" in text
    final = reply(prompt, [user(ASK_CALC), assistant(text), user("观察：92")])
    assert "\n最终答案：" in final and "92" in final


# ------------------------------------------------------------------------------ whole conversations


def run_prompt_loop(
    prompt: str,
    question: str,
    model: str = "course-sim",
    *,
    react: bool = False,
    max_turns: int = 6,
) -> tuple[list[str], list[PlannedCall]]:
    """A minimal Day 2 loop over the course's real tools: read one call per reply, run it, hand back
    the result.
    """
    from handwritten_agent.scenarios import basic_registry

    registry = basic_registry(now=NOW)
    messages = [user(question)]
    replies: list[str] = []
    calls: list[PlannedCall] = []
    for _ in range(max_turns):
        text = reply(prompt, messages, model, stop=prompting.REACT_STOP if react else None)
        replies.append(text)
        messages.append(assistant(text))
        if react:
            actions = re.findall(r"^Action: (\S+)\nAction Input: (.+)$", text, re.M)
            if not actions:
                return replies, calls
            assert len(actions) == 1  # one call per turn
            call = PlannedCall(actions[0][0], messiness.loads_lenient(actions[0][1])[0])
        else:
            objects = [v for _, _, v in messiness.iter_json_values(text) if isinstance(v, dict)]
            if not objects:
                return replies, calls
            assert len(objects) == 1  # one call per turn
            call = PlannedCall(objects[0]["name"], objects[0]["arguments"])
        calls.append(call)
        result = registry.dispatch(call.name, call.arguments).to_dict()
        messages.append(
            user(
                prompting.format_react_observation(result)
                if react
                else prompting.format_observation(call.name, result)
            )
        )
    raise AssertionError(f"no final answer after {max_turns} turns: {replies}")


def course_specs() -> list[dict[str, Any]]:
    from handwritten_agent.scenarios import basic_registry

    return prompting.tool_specs(basic_registry(now=NOW).schemas())


@pytest.mark.parametrize("model", ["course-sim", "course-sim:mixed", "course-sim:fullwidth"])
@pytest.mark.parametrize("react", [False, True], ids=["json", "react"])
def test_multi_step_request_makes_one_call_per_turn(model, react):
    specs = course_specs()
    prompt = prompting.render_react_prompt(specs) if react else prompting.render_tool_prompt(specs)
    replies, calls = run_prompt_loop(
        prompt, "查询汇率后计算 100 美元能换多少人民币", model, react=react
    )
    assert [c.name for c in calls] == ["get_exchange_rate", "calculator"]
    assert "7.2" in calls[1].arguments["expression"]  # the second call uses the first call's result
    assert "720" in replies[-1]
    if react:
        assert replies[-1].startswith("Thought: ") and "\nFinal Answer: " in replies[-1]


def test_a_tool_error_is_reported_not_papered_over():
    replies, calls = run_prompt_loop(prompting.render_tool_prompt(course_specs()), "计算 1 除以 0")
    assert calls == [PlannedCall("calculator", {"expression": "1 / 0"})]
    assert "零" in replies[-1] and "{" not in replies[-1]


def test_answering_a_clarifying_question_completes_the_request():
    question = reply(JSON_PROMPT, [user("帮我查一下天气")])
    assert question.rstrip().endswith(("？", "?")) and "{" not in question
    follow = reply(JSON_PROMPT, [user("帮我查一下天气"), assistant(question), user("上海")])
    assert (
        strict_call(follow).name == "get_weather"
        and strict_call(follow).arguments["city"] == "上海"
    )


def test_small_talk_gets_words_not_a_call():
    text = reply(SEED_PROMPT, [user("你好")])
    assert (
        "{" not in text and text.startswith("你好") and "模拟器" not in text
    )  # a greeting, not a disclaimer
    who = reply(SEED_PROMPT, [user("你好，你是谁？")])
    assert (
        "{" not in who and "模拟器" in who and "规则引擎" in who
    )  # asked who it is, it says what it is


def test_course_simulator_uses_prompt_mode_without_tools():
    from handwritten_agent.course.offline.simulator import CourseSimulator

    simulator = CourseSimulator(now=NOW)
    completion = simulator.complete(request(JSON_PROMPT, [user(ASK_CALC)], "course-sim:fenced"))
    assert completion.tool_calls == [] and completion.content == EXPECTED_SHAPES["fenced"]
    plain = simulator.complete(request("你是一个乐于助人的助手。", [user(ASK_CALC)]))
    assert not (plain.content or "").startswith("{")


# ------------------------------------------------------------------------------ edges


def test_feedback_words_in_a_new_question_are_a_new_request():
    call_text = reply(JSON_PROMPT, [user(ASK_CALC)])
    messages = [
        user(ASK_CALC),
        assistant(call_text),
        user("工具结果：calculate 返回 92"),
        assistant("(12 + 34) * 2 = 92。"),
        user("日期格式错误怎么办？"),
    ]
    exchange = promptmode.read_exchange(messages, promptmode.read_tool_prompt(JSON_PROMPT))
    assert exchange.request == "日期格式错误怎么办？" and exchange.results == []


def test_a_result_in_a_system_message_mid_conversation():
    call_text = reply(JSON_PROMPT, [user(ASK_CALC)])
    messages = [
        {"role": "system", "content": JSON_PROMPT},
        user(ASK_CALC),
        assistant(call_text),
        {"role": "system", "content": "工具 calculate 返回：92"},
    ]
    exchange = promptmode.read_exchange(messages, promptmode.read_tool_prompt(JSON_PROMPT))
    assert exchange.results == [(CALL, "92")]
    assert promptmode.system_prompt(messages) == JSON_PROMPT


def test_bullets_alone_are_not_taken_for_tools():
    summary_prompt = (
        "把对话压缩成 JSON 摘要，字段如下：\n- user_name: 用户的名字\n- open_tasks:"
        " 未完成的事项\n只输出 JSON。"
    )
    assert not promptmode.looks_like_tool_prompt(summary_prompt)
    with_example = (
        "可用工具：\n- get_weather: 查询城市天气\n- get_current_time: 当前时间\n"
        '调用时只输出 {"name": "工具名", "arguments": {}}'
    )
    recovered = promptmode.read_tool_prompt(with_example)
    assert (
        recovered.tool_names == ["get_weather", "get_current_time"] and recovered.tools_are_guessed
    )
    assert promptmode.looks_like_tool_prompt(with_example)


def test_react_thought_holds_no_json():
    thought, _ = react_call(reply(REACT_PROMPT, [user(ASK_CALC)]))
    assert "{" not in thought and "(12 + 34) * 2" in thought and "calculate" in thought
    assert "expression=" not in thought  # a thought reads like a person's, not like arguments


def test_reply_in_a_nested_format_reads_back():
    prompt = (
        "工具：\n- calculate(expression: str): 计算算式\n"
        '需要调用时输出：{"tool_calls": [{"name": "<工具名>", "arguments": {}}]}'
    )
    text = reply(prompt, [user(ASK_CALC)])
    assert json.loads(text) == {
        "tool_calls": [{"name": "calculate", "arguments": {"expression": "(12 + 34) * 2"}}]
    }
    final = reply(prompt, [user(ASK_CALC), assistant(text), user("工具结果：92")])
    assert "92" in final and "{" not in final


def test_thought_key_is_filled_when_the_example_has_one():
    prompt = (
        "工具：\n- calculate(expression: str): 计算算式\n"
        '输出 JSON：{"thought": "你的思考", "action": "工具名", "action_input": {"参数": "值"}}'
    )
    value = json.loads(reply(prompt, [user(ASK_CALC)]))
    assert list(value) == ["thought", "action", "action_input"]
    assert (
        value["action"] == "calculate"
        and value["action_input"] == CALL.arguments
        and value["thought"]
    )


_PIECES = st.sampled_from(
    [
        "{",
        "}",
        "[",
        "]",
        "“",
        "”",
        "：",
        "，",
        ":",
        ",",
        '"',
        "'",
        "//",
        "\n",
        "- ",
        "工具名称：",
        "Action: ",
        "Action Input: ",
        "Observation: ",
        "calculate",
        "(",
        ")",
        "json",
        " ",
        "x",
        "1",
    ]
)
_TEXT = st.lists(st.one_of(_PIECES, st.text(max_size=6)), max_size=40).map("".join)


@settings(max_examples=80, deadline=None)
@given(system=_TEXT, message=_TEXT, earlier=_TEXT)
def test_no_prompt_or_conversation_makes_it_crash(system, message, earlier):
    promptmode.read_tool_prompt(system)
    promptmode.looks_like_tool_prompt(system)
    try:
        messiness.loads_lenient(message)
    except ValueError:
        pass  # the only error it may raise
    list(messiness.iter_json_values(message))
    completion = promptmode.respond(
        request(system, [user(earlier), assistant(message), user(message)]), now=NOW
    )
    assert isinstance(completion.content, str)


def test_over_http_with_the_official_sdk(sdk):
    """The same replies through the real offline server and the ``openai`` SDK (no ``tools``
    parameter).
    """
    messages = [{"role": "system", "content": JSON_PROMPT}, user(ASK_CALC)]
    response = sdk.chat.completions.create(model="course-sim:fenced", messages=messages)
    choice = response.choices[0]
    assert choice.message.content == EXPECTED_SHAPES["fenced"]
    assert choice.message.tool_calls is None and choice.finish_reason == "stop"
    assert response.usage.completion_tokens == estimate_tokens(EXPECTED_SHAPES["fenced"])

    react = [{"role": "system", "content": REACT_PROMPT}, user(ASK_CALC)]
    text = (
        sdk.chat.completions.create(model="course-sim", messages=react, stop=prompting.REACT_STOP)
        .choices[0]
        .message.content
    )
    assert react_call(text)[1] == CALL


# ---------------------------------------------------------------------- any layout a learner writes

OFFICE = [
    {
        "name": "book_meeting_room",
        "description": "预订一间会议室。",
        "parameters": {
            "type": "object",
            "properties": {
                "room": {"type": "string", "enum": ["A101", "B202"], "description": "会议室编号"},
                "attendees": {"type": "integer", "description": "参会人数，例如 6"},
                "projector": {"type": "boolean", "description": "是否需要投影仪"},
            },
            "required": ["room", "attendees"],
        },
    },
    {
        "name": "search_orders",
        "description": "按关键词查询订单。",
        "parameters": {
            "type": "object",
            "properties": {
                "keyword": {"type": "string", "description": "商品关键词，例如：耳机"},
                "limit": {"type": "integer", "description": "最多返回几条"},
            },
            "required": ["keyword"],
        },
    },
]
_ZH_TYPES = {
    "string": "字符串",
    "integer": "整数",
    "number": "数字",
    "boolean": "布尔值",
    "array": "数组",
    "object": "对象",
}
_PY_TYPES = {
    "string": "str",
    "integer": "int",
    "number": "float",
    "boolean": "bool",
    "array": "list",
    "object": "dict",
}


def _params(spec):
    schema = spec["parameters"]
    required = set(schema.get("required", []))
    return [(name, p, name in required) for name, p in schema["properties"].items()]


def _facts(tools):
    return {
        t["name"]: {
            name: (
                p.get("type", "string"),
                sorted(map(str, p["enum"])) if p.get("enum") else None,
                req,
            )
            for name, p, req in _params(t)
        }
        for t in tools
    }


def _enum_text(p, lead="可选值：", sep="、"):
    return f"，{lead}{sep.join(p['enum'])}" if p.get("enum") else ""


def layout_table_per_tool(tools):
    parts = []
    for t in tools:
        rows = [
            f"| {n} | {p['type']} | {'是' if r else '否'} |"
            f" {p.get('description', '')}{_enum_text(p)} |"
            for n, p, r in _params(t)
        ]
        table = (
            "| 参数 | 类型 | 必填 | 说明 |\n|------|------|------|------|\n" + "\n".join(rows)
            if rows
            else "参数：无"
        )
        parts.append(f"### {t['name']}\n{t['description']}\n\n{table}")
    return "\n\n".join(parts)


def layout_table_of_tools(tools):
    rows = []
    for t in tools:
        params = (
            "；".join(
                f"{n}（{p['type']}，{'必填' if r else '可选'}）：{p.get('description', '')}"
                f"{_enum_text(p, sep='/')}"
                for n, p, r in _params(t)
            )
            or "无"
        )
        rows.append(f"| {t['name']} | {t['description']} | {params} |")
    return "| 工具 | 描述 | 参数 |\n|---|---|---|\n" + "\n".join(rows)


def layout_one_table(tools):
    rows = []
    for t in tools:
        params = _params(t) or [("-", {"type": "", "description": ""}, False)]
        for n, p, r in params:
            enum = " / ".join(p.get("enum", [])) or "-"
            rows.append(
                f"| `{t['name']}` | `{n}` | {p['type']} | {'是' if r else '否'} | {enum} |"
                f" {p.get('description', '')} |"
            )
    return (
        "可用工具（每个工具的说明见下）：\n"
        + "\n".join(f"- {t['name']}：{t['description']}" for t in tools)
        + "\n\n| 工具 | 参数 | 类型 | 是否必填 | 可选值 | 说明 |\n| --- | --- | --- | --- | --- |"
        " --- |\n" + "\n".join(rows)
    )


def layout_nested_bullets(tools):
    lines = ["## 可用工具"]
    for t in tools:
        lines.append(f"- **{t['name']}**：{t['description']}")
        for n, p, r in _params(t):
            lines.append(
                f"  - `{n}` ({p['type']},"
                f" {'必填' if r else '可选'})：{p.get('description', '')}{_enum_text(p)}"
            )
    return "\n".join(lines)


def layout_numbered_inline(tools):
    lines = []
    for i, t in enumerate(tools, 1):
        params = "；".join(
            f"{n}（{_ZH_TYPES[p['type']]}，{'必填' if r else '可选'}）：{p.get('description', '')}"
            f"{_enum_text(p)}"
            for n, p, r in _params(t)
        )
        lines.append(
            f"{i}. {t['name']}：{t['description']}"
            + (f"参数：{params}。" if params else "不需要参数。")
        )
    return "你可以使用以下工具：\n" + "\n".join(lines)


def layout_prose(tools):
    sentences = []
    for t in tools:
        params = "；".join(
            f"{n}（{_ZH_TYPES[p['type']]}，{'必填' if r else '可选'}"
            f"{'，可选值 ' + '、'.join(p['enum']) if p.get('enum') else ''}）："
            f"{p.get('description', '')}"
            for n, p, r in _params(t)
        )
        sentences.append(
            f"工具 {t['name']}：{t['description'].rstrip('。')}，"
            + (f"参数 {params}。" if params else "没有参数。")
        )
    return "你是一个助手。" + "\n".join(sentences)


def layout_yaml(tools):
    lines = ["tools:"]
    for t in tools:
        lines += [
            f"  - name: {t['name']}",
            f"    description: {t['description']}",
            "    parameters:" + ("" if _params(t) else " {}"),
        ]
        for n, p, r in _params(t):
            lines += [
                f"      {n}:",
                f"        type: {p['type']}",
                f"        required: {'true' if r else 'false'}",
                f"        description: {p.get('description', '')}",
            ]
            if p.get("enum"):
                lines.append(f"        enum: [{', '.join(p['enum'])}]")
    return "\n".join(lines)


def layout_yaml_schema(tools):
    lines = []
    for t in tools:
        lines += [
            f"- name: {t['name']}",
            f"  description: {t['description']}",
            "  parameters:",
            "    type: object",
            "    properties:",
        ]
        for n, p, _r in _params(t):
            lines += [
                f"      {n}:",
                f"        type: {p['type']}",
                f'        description: "{p.get("description", "")}"',
            ]
            if p.get("enum"):
                lines.append(f"        enum: [{', '.join(p['enum'])}]")
        lines.append(f"    required: [{', '.join(n for n, _, r in _params(t) if r)}]")
    return "```yaml\n" + "\n".join(lines) + "\n```"


def layout_english(tools):
    parts = []
    for t in tools:
        params = (
            "\n".join(
                f"- {n} ({p['type']}, {'required' if r else 'optional'}):"
                f" {p.get('description', '')}"
                + (f", one of: {', '.join(p['enum'])}" if p.get("enum") else "")
                for n, p, r in _params(t)
            )
            or "none"
        )
        parts.append(
            f"### Tool: {t['name']}\nDescription: {t['description']}\nParameters:\n{params}"
        )
    return "You can call these tools.\n\n" + "\n\n".join(parts)


def layout_labels_with_required_list(tools):
    parts = []
    for t in tools:
        lines = [f"工具名称：{t['name']}", f"描述：{t['description']}"]
        if _params(t):
            lines.append("参数：")
            lines += [
                f"- {n}：{p['type']}，{p.get('description', '')}"
                + (f"，取值：{' 或 '.join(p['enum'])}" if p.get("enum") else "")
                for n, p, _ in _params(t)
            ]
            lines.append("必填参数：" + "、".join(n for n, _, r in _params(t) if r))
        parts.append("\n".join(lines))
    return "\n\n".join(parts)


def layout_signatures(tools):
    lines = []
    for t in tools:
        params = []
        for n, p, r in _params(t):
            kind = (
                "Literal[" + ", ".join(f"'{v}'" for v in p["enum"]) + "]"
                if p.get("enum")
                else _PY_TYPES[p["type"]]
            )
            params.append(f"{n}: {kind}" + ("" if r else " = None"))
        lines.append(f"- {t['name']}({', '.join(params)})：{t['description']}")
    return "工具：\n" + "\n".join(lines)


def layout_prose_sentences(tools):
    sentences = []
    for t in tools:
        text = f"{t['name']} 工具用于{t['description'].rstrip('。')}。"
        params = _params(t)
        if not params:
            text += "它不需要参数。"
        for i, (n, p, r) in enumerate(params):
            lead = "它有一个" if i == 0 else "还有一个"
            text += (
                f"{lead}{'' if r else '可选'}参数 {n}，"
                f"表示{p.get('description', '').split('，')[0]}，{'必填，' if r else ''}"
                f"类型是{_ZH_TYPES[p['type']]}"
                + (f"，可选值为 {' 或 '.join(p['enum'])}" if p.get("enum") else "")
                + "。"
            )
        sentences.append(text)
    return "你可以调用下面这些工具。\n" + "\n".join(sentences)


def layout_python_functions(tools):
    blocks = []
    for t in tools:
        params = []
        for n, p, r in _params(t):
            kind = (
                "Literal[" + ", ".join(f'"{v}"' for v in p["enum"]) + "]"
                if p.get("enum")
                else _PY_TYPES[p["type"]]
            )
            params.append(f"{n}: {kind}" + ("" if r else " = None"))
        blocks.append(
            f'def {t["name"]}({", ".join(params)}) -> dict:\n    """{t["description"]}"""'
        )
    return "可用的工具（Python 函数签名）：\n```python\n" + "\n\n".join(blocks) + "\n```"


def layout_english_tables(tools):
    parts = [
        "| Tool | Description |\n|:--|:--|\n"
        + "\n".join(f"| {t['name']} | {t['description']} |" for t in tools)
    ]
    for t in tools:
        rows = [
            f"| {n} | {p['type']} | {'yes' if r else 'no'} | {p.get('description', '')}"
            + (f" (one of: {', '.join(p['enum'])})" if p.get("enum") else "")
            + " |"
            for n, p, r in _params(t)
        ]
        if rows:
            parts.append(
                f"#### Parameters of {t['name']}\n| Name | Type | Required | Description"
                " |\n|---|---|---|---|\n" + "\n".join(rows)
            )
    return "\n\n".join(parts)


def layout_table_json_cells(tools):
    rows = [
        f"| {t['name']} | {t['description']} | {json.dumps(t['parameters'], ensure_ascii=False)} |"
        for t in tools
    ]
    return "| 名称 | 描述 | 参数（JSON Schema） |\n|---|---|---|\n" + "\n".join(rows)


def layout_table_properties_and_required_names(tools):
    rows = [
        f"| {t['name']} | {t['description']} |"
        f" {json.dumps(t['parameters']['properties'], ensure_ascii=False)} |"
        f" {', '.join(n for n, _, r in _params(t) if r) or '无'} |"
        for t in tools
    ]
    return "| 工具名 | 描述 | 参数 | 必填参数 |\n|:-|:-|:-|:-|\n" + "\n".join(rows)


def layout_table_row_per_parameter_blank_tool_cells(tools):
    rows = []
    for t in tools:
        params = _params(t) or [("（无）", {"type": "", "description": ""}, None)]
        for i, (n, p, r) in enumerate(params):
            mark = "" if r is None else "✅" if r else "❌"
            rows.append(
                f"| {t['name'] if i == 0 else ''} | {t['description'] if i == 0 else ''} | {n} |"
                f" {p['type']} | {mark} | "
                f"{p.get('description', '')}"
                f"{_enum_text(p, '（可选值：', '、') + '）' if p.get('enum') else ''} |"
            )
    return (
        "| 工具 | 工具说明 | 参数 | 类型 | 必填 | 参数说明 |\n|:-:|---|---|---|:-:|---|\n"
        + "\n".join(rows)
    )


def layout_bullet_tree(tools):
    lines = ["可用工具："]
    for t in tools:
        lines += [
            f"- {t['name']}",
            f"  - 描述：{t['description']}",
            "  - 参数：" + ("" if _params(t) else "无"),
        ]
        for n, p, r in _params(t):
            lines += [
                f"    - {n}",
                f"      - 类型：{p['type']}",
                f"      - 必填：{'是' if r else '否'}",
                f"      - 说明：{p.get('description', '')}",
            ]
            if p.get("enum"):
                lines.append(f"      - 可选值：{', '.join(p['enum'])}")
    return "\n".join(lines)


def layout_bullets_with_sentence_ends(tools):
    lines = []
    for t in tools:
        lines.append(f"* `{t['name']}`: {t['description']}")
        lines += [
            f"    * `{n}` — {p['type']}, {'required' if r else 'optional'}."
            f" {p.get('description', '')}"
            + (f" 可选值: {' | '.join(p['enum'])}." if p.get("enum") else "")
            for n, p, r in _params(t)
        ]
    return "\n".join(lines)


def layout_bare_signatures_with_indented_docs(tools):
    lines = ["工具（函数签名）："]
    for t in tools:
        lines.append(
            f"{t['name']}("
            + ", ".join(f"{n}: {p['type']}{'' if r else '?'}" for n, p, r in _params(t))
            + ")"
        )
        lines.append(f"    {t['description']}")
        lines += [
            f"    {n}: {p.get('description', '')}"
            + (f"（可选值：{'/'.join(p['enum'])}）" if p.get("enum") else "")
            for n, p, _ in _params(t)
        ]
    return "\n".join(lines)


def layout_typescript_with_comments(tools):
    lines = ["```ts"]
    for t in tools:
        lines.append(f"// {t['description']}")
        lines += [f"// {n}: {p.get('description', '')}" for n, p, _ in _params(t)]
        params = ", ".join(
            f"{n}{'' if r else '?'}: "
            + (" | ".join(f'"{v}"' for v in p["enum"]) if p.get("enum") else p["type"])
            for n, p, r in _params(t)
        )
        lines.append(f"function {t['name']}({params}): object;")
    return "\n".join(lines) + "\n```"


def layout_jsdoc(tools):
    lines = ["```js"]
    for t in tools:
        lines += ["/**", f" * {t['description']}"]
        lines += [
            f" * @param {{{p['type']}}} {n if r else '[' + n + ']'} {p.get('description', '')}"
            + (f" 可选值：{' / '.join(p['enum'])}" if p.get("enum") else "")
            for n, p, r in _params(t)
        ]
        lines += [" */", f"function {t['name']}({', '.join(n for n, _, _ in _params(t))}) {{}}", ""]
    return "\n".join(lines) + "```"


def layout_python_google_docstrings(tools):
    blocks = []
    for t in tools:
        signature = ", ".join(
            f"{n}: {_PY_TYPES[p['type']]}" + ("" if r else " = None") for n, p, r in _params(t)
        )
        args = "".join(
            f"\n        {n} ({_PY_TYPES[p['type']]}): {p.get('description', '')}"
            + (f" 可选值：{'、'.join(p['enum'])}。" if p.get("enum") else "")
            for n, p, _ in _params(t)
        )
        blocks.append(
            f'def {t["name"]}({signature}):\n    """{t["description"]}'
            + (f"\n\n    Args:{args}" if args else "")
            + '\n    """'
        )
    return "```python\n" + "\n\n".join(blocks) + "\n```"


def layout_yaml_flow_mappings(tools):
    lines = []
    for t in tools:
        lines += [
            f"{t['name']}:",
            f"  description: {t['description']}",
            "  parameters:" + ("" if _params(t) else " {}"),
        ]
        for n, p, r in _params(t):
            enum = f", enum: [{', '.join(p['enum'])}]" if p.get("enum") else ""
            lines.append(
                f"    {n}: {{type: {p['type']}, required: {str(r).lower()}{enum}, description:"
                f" {p.get('description', '')}}}"
            )
    return "```yaml\n" + "\n".join(lines) + "\n```"


def layout_xml_tags(tools):
    lines = ["<tools>"]
    for t in tools:
        lines += [
            f'  <tool name="{t["name"]}">',
            f"    <description>{t['description']}</description>",
        ]
        lines += [
            f'    <param name="{n}" type="{p["type"]}" required="{str(r).lower()}"'
            + (f' enum="{",".join(p["enum"])}"' if p.get("enum") else "")
            + f">{p.get('description', '')}</param>"
            for n, p, r in _params(t)
        ]
        lines.append("  </tool>")
    return "\n".join(lines + ["</tools>"])


def layout_xml_children_with_schema(tools):
    return "\n".join(
        f"<function>\n<name>{t['name']}</name>\n<description>{t['description']}</description>\n"
        f"<parameters>{json.dumps(t['parameters'], ensure_ascii=False)}</parameters>\n</function>"
        for t in tools
    )


LAYOUTS = [
    layout_table_per_tool,
    layout_table_of_tools,
    layout_one_table,
    layout_nested_bullets,
    layout_numbered_inline,
    layout_prose,
    layout_yaml,
    layout_yaml_schema,
    layout_english,
    layout_labels_with_required_list,
    layout_signatures,
    layout_prose_sentences,
    layout_python_functions,
    layout_english_tables,
    layout_table_json_cells,
    layout_table_properties_and_required_names,
    layout_table_row_per_parameter_blank_tool_cells,
    layout_bullet_tree,
    layout_bullets_with_sentence_ends,
    layout_bare_signatures_with_indented_docs,
    layout_typescript_with_comments,
    layout_jsdoc,
    layout_python_google_docstrings,
    layout_yaml_flow_mappings,
    layout_xml_tags,
    layout_xml_children_with_schema,
]
REPLY_FORMAT = (
    '\n\n需要调用工具时，只输出一个 JSON 对象：{"name": "工具名", "arguments": {"参数名": "值"}}。'
    "不需要工具时直接回答。"
)


@pytest.mark.parametrize("tools", [TOOLS, OFFICE], ids=["weather-calc-clock", "office"])
@pytest.mark.parametrize(
    "layout", LAYOUTS, ids=[f.__name__.removeprefix("layout_") for f in LAYOUTS]
)
def test_tools_read_from_any_layout(layout, tools):
    prompt = layout(tools) + REPLY_FORMAT
    recovered = promptmode.read_tool_prompt(prompt)
    assert _facts(recovered.tools) == _facts(tools), prompt
    for original, read in zip(tools, recovered.tools):
        assert original["description"].rstrip("。.") in read["description"], (read, prompt)
    assert promptmode.looks_like_tool_prompt(prompt) and not recovered.tools_are_guessed


@pytest.mark.parametrize(
    "layout", LAYOUTS, ids=[f.__name__.removeprefix("layout_") for f in LAYOUTS]
)
def test_the_simulator_calls_tools_described_in_any_layout(layout):
    prompt = layout(TOOLS) + REPLY_FORMAT
    assert strict_call(reply(prompt, [user(ASK_CALC)])) == CALL
    assert strict_call(reply(prompt, [user("明天上海的天气怎么样？")])) == PlannedCall(
        "get_weather", {"city": "上海", "date": "tomorrow"}
    )


def test_a_reply_format_after_the_last_tool_adds_no_parameters():
    prompt = (
        layout_nested_bullets(TOOLS)
        + '\n\n## 输出格式\n- name: 工具名\n- arguments: 参数对象，例如 {"city": "北京"}\n'
        "不需要工具时直接回答。"
    )
    assert _facts(promptmode.read_tool_prompt(prompt).tools) == _facts(TOOLS)
    prose = layout_prose(TOOLS) + (
        '\n\n调用时输出：{"name": "工具名", "arguments": {…}}，其中 name: 工具名，arguments: 参数。'
    )
    assert _facts(promptmode.read_tool_prompt(prose).tools) == _facts(TOOLS)


def test_example_values_are_not_taken_for_parameters():
    prompt = (
        "工具 convert_currency：换算货币。参数 from_currency（字符串，必填）：货币代码，"
        "例如：USD，EUR；"
        "amount（数字，必填）：金额，例如 100, 250；mode（字符串，可选）：today, tomorrow"
        " 之类的日期说法。\n"
        '调用时只输出 JSON：{"name": "工具名", "arguments": {}}'
    )
    (tool,) = promptmode.read_tool_prompt(prompt).tools
    assert list(tool["parameters"]["properties"]) == ["from_currency", "amount", "mode"]
    assert tool["parameters"]["required"] == ["from_currency", "amount"]
    assert tool["parameters"]["properties"]["amount"]["type"] == "number"


def test_marking_only_the_required_parameters_makes_the_others_optional():
    prompt = (
        "- get_weather：查询天气\n  - city（必填）：城市\n  - date：日期\n"
        '调用时只输出 JSON：{"name": "工具名", "arguments": {}}'
    )
    (tool,) = promptmode.read_tool_prompt(prompt).tools
    assert tool["parameters"]["required"] == ["city"]


def test_rules_nested_like_a_tool_tree_are_not_tools():
    """A prompt's own rules nest the same way as a bullet tree of tools; without parameters anywhere
    they are not tools.
    """
    prompt = (
        "请用 JSON 格式回答。\n- style\n  - 描述：正式、简洁\n- length\n  - 说明：不超过 100 字\n"
        "回答规则：\n- 先给结论\n  - 再给理由"
    )
    assert promptmode.read_tool_prompt(prompt).tools == []
    assert not promptmode.looks_like_tool_prompt(prompt)
    assert promptmode.read_tool_prompt("模板里写 {结果} 和 {string}，格式是 JSON。").tools == []


def test_headings_that_name_no_tool_are_not_tools():
    prompt = (
        "## Tools\n\n"
        + layout_table_per_tool(TOOLS)
        + '\n\n## Output\n只输出 JSON：{"name": "工具名", "arguments": {}}'
    )
    assert promptmode.read_tool_prompt(prompt).tool_names == [
        "calculate",
        "get_current_time",
        "get_weather",
    ]
    english = (
        "# Tools\n"
        + layout_english_tables(TOOLS)
        + '\n\n# Output\nJSON only: {"name": "tool", "arguments": {}}'
    )
    assert promptmode.read_tool_prompt(english).tool_names == [
        "calculate",
        "get_current_time",
        "get_weather",
    ]  # not "s" (from "Tools")


_LAYOUT_PIECES = st.sampled_from(
    [
        "|",
        "---",
        "| 参数 | 类型 |",
        "\n",
        "  ",
        "- ",
        "1. ",
        "name: ",
        "tools:",
        "parameters:",
        "type: ",
        "required: true",
        "enum: [a, b]",
        "参数：",
        "（",
        "）",
        "(",
        ")",
        "必填",
        "可选值：",
        "、",
        "，",
        "；",
        "工具 ",
        "get_x",
        "city",
        "**",
        "`",
        "#",
        "def ",
        ": str",
        "Literal['a', 'b']",
        "例如",
        "{",
        "}",
    ]
)


@settings(max_examples=150, deadline=None)
@given(pieces=st.lists(st.one_of(_LAYOUT_PIECES, st.text(max_size=4)), max_size=60))
def test_no_layout_makes_the_reader_crash(pieces):
    prompt = promptmode.read_tool_prompt("".join(pieces))
    for spec in prompt.tools:  # whatever it reads is a well-formed tool spec
        assert isinstance(spec["name"], str) and spec["parameters"]["type"] == "object"
        assert set(spec["parameters"].get("required", [])) <= set(spec["parameters"]["properties"])


@pytest.mark.parametrize("junk", ["{" * 4000, "[" * 4000, '{"a": ' * 2000, "x {" * 3000])
def test_stray_and_deeply_nested_brackets_neither_crash_nor_take_seconds(junk):
    from handwritten_agent.course.offline.simulator import messiness

    started = time.process_time()
    assert list(messiness.iter_json_values(junk)) == []
    assert (
        time.process_time() - started < 5
    )  # was ~20 s (quadratic) and a RecursionError for deep nesting
    with serve() as server:
        reply = ChatClient(server.base_url, "k", "course-sim", max_retries=0).complete(
            [
                {"role": "system", "content": "工具如下：" + junk},
                {"role": "user", "content": "你好"},
            ]
        )
    assert reply.content


def test_a_heading_named_like_code_beside_tool_headings_is_a_tool_without_parameters():
    from handwritten_agent.course.offline.simulator.toolprompt import read_tool_prompt

    prompt = (
        '需要工具时只输出一个 JSON 对象：{"tool": "工具名", "arguments": {...}}\n\n'
        "## Output\n只输出 JSON。\n\n"
        "## getCurrentTime\n获取当前的日期和时间。\n\n"
        "## get_weather\n查询某个城市的天气。\n- city（string，必填）：城市名，例如：北京\n\n"
        "## list_rooms\n列出所有会议室。\n"
    )
    tools = {tool["name"]: tool for tool in read_tool_prompt(prompt).tools}
    assert set(tools) == {"getCurrentTime", "get_weather", "list_rooms"}  # "Output" is no tool
    assert tools["list_rooms"]["parameters"].get("properties", {}) == {}
    # alone, with no tool heading beside it, a bare heading stays a section title
    alone = "## list_rooms\n列出所有会议室。\n"
    assert [tool["name"] for tool in read_tool_prompt(alone).tools] == []
