"""What the simulator says when it does not answer from results: clarifying questions, notes, the
fallback reply.

- ``clarify_question``: the required arguments nobody gave, asked for by their descriptions in one
  question; a parameter whose absence would reach everyone (``scope``) is asked for as a choice:
  whom, or explicitly everyone;
- ``unfinished_note`` / ``unmet_note``: a part of the request that was not done, and why (no tool
  fits; the step before gave no result; "有的话…" and there was none; the thing the user named was
  not among the results);
- ``fallback_reply``: the honest reply when no tool fits — why a request was not done; what this
  simulator is (only when asked who it is); asked what it can do, what the offered tools do; told
  not to do something, that nothing was done; two tools that change things fitting alike, which one
  is meant; a question with only tools that change things, that none can look it up.

``clarify_question`` also says what the request's own time words leave open ("「这周末」没有定到
具体哪一天", "「一早」没有说具体几点").

Left out: small talk beyond a greeting, a thanks and "who are you" (the simulator is a rule engine
and says so when asked).
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from .actions import (
    READ,
    contradicts,
    ordered_verb,
    request_actions,
    request_object,
    request_verbs,
    tool_action,
)
from .arguments import Param, evidence, examples_of, params_of
from .arguments.fields import set_clauses, set_only
from .arguments.params import classify, widens_when_empty
from .choose import _other_object as other_object
from .choose import fits_verb, negates, other_verb, profile, rivals_for
from .dates import (
    ambiguous_times,
    find_dates,
    find_parts,
    find_times,
    morning_by_default,
    vague_day,
)
from .facts import join_words
from .fieldwords import action_words, field_label
from .lexicon import (
    ACTION_DATA,
    ACTION_FORM,
    ASKS_FOR_SOMETHING,
    NOT_A_REQUEST,
    REMEMBER_PREFIX,
    REQUEST_WORDS,
    is_small_talk,
)
from .text import normalize, split_identifier, tokens
from .vocabulary import (
    VOCABULARY_TOKENS,
    asks,
    asks_about_state,
    expand,
    is_question,
    members,
    tells_state,
)


def _action_words(spec: dict[str, Any], lang: str) -> tuple[str, str]:
    return action_words(str(spec.get("name", "")), lang, str(spec.get("description", "") or ""))


def _param_ask(param: Param, lang: str) -> str:
    description = param.description.strip().rstrip("。.")
    label = param.label() if description else ""
    detail = (
        description[len(label) :].lstrip("，,;；:： ").strip()
        if label and description.startswith(label)
        else ""
    )
    if lang == "zh":
        said = field_label(param.name, "zh")
        if (not label or label.isascii()) and re.search(r"[\u4e00-\u9fff]", said):
            # "the pet's name" asked in Chinese: 宠物名称 (pet_name), its English words kept after
            same = label.lower().replace(" ", "_") == param.name.lower()
            detail = ", ".join(x for x in ("" if same else label, detail) if x)
            label = said
        inside = "，".join(x for x in (param.name, detail) if x)
        return f"{label or param.name}（{inside}）" if label else param.name
    inside = ", ".join(x for x in (param.name, detail) if x)
    label = re.sub(r"^(?:the|a|an)\s+", "", label, flags=re.I)
    return f"the {label[:1].lower() + label[1:]} ({inside})" if label else param.name


def _time_gap(said: str, missing: list[Param]) -> str:
    """What the request's own time words leave open ("「这周末」是哪一天", "「一早」是几点"), when a
    date or time is among the missing arguments."""
    if not said or not any(classify(p) == "datetime" for p in missing):
        return ""
    vague = vague_day(said)
    if vague and not find_dates(said, date.today()):
        return f"您说的「{vague}」没有定到具体哪一天。"
    parts = find_parts(said)
    if parts and not find_times(said):
        return f"您说的「{parts[0][0]}」没有说具体几点。"
    bare = ambiguous_times(said) or morning_by_default(said)
    if bare:
        hour = said[bare[0][0] : bare[0][1]].strip()
        hours = find_times(hour)
        if hours and hours[0][0][0] >= 6:
            return f"您说的「{hour}」是上午还是晚上？"
        return f"您说的「{hour}」是下午还是凌晨？"
    return ""


def clarify_question(spec: dict[str, Any], missing: list[Param], lang: str, said: str = "") -> str:
    """Ask for the required arguments nobody gave, by their descriptions: one question. A parameter
    whose absence would reach everyone (``scope``) is asked for as a choice the user must make:
    whom, or explicitly everyone.
    """
    zh = lang == "zh"
    wide = [param for param in missing if widens_when_empty(param)]
    if wide:
        verb, obj = _action_words(spec, lang)
        action = (
            (join_words(verb, obj) if verb else f"调用 {spec.get('name', '工具')}")
            if zh
            else (f"{verb} {obj}".strip() or "do this")
        )
        label = re.sub(r"^(?:the|a|an)\s+", "", wide[0].label(), flags=re.I)
        example = next((e for e in examples_of(wide[0]) if e), "")
        if zh:  # ends with the question, so the user's reply is read together with this request
            return (
                f"要{action}，我不会默认发给所有人（如果确实是全部，请明确说“全部”）。"
                "请问具体是哪些："
                f"{label}（{wide[0].name}{'，例如 ' + example if example else ''}）？"
            )
        return (
            f"To {action}, I will not default to everyone (if you really mean all, say so"
            f" explicitly). Which ones exactly — {label}"
            f" ({wide[0].name}{', e.g. ' + example if example else ''})?"
        )
    asked = [_param_ask(param, lang) for param in missing]
    verb, obj = _action_words(spec, lang)
    if zh:
        items = "、".join(asked[:-1]) + " 和 " + asked[-1] if len(asked) > 1 else asked[0]
        action = join_words(verb, obj) if verb else f"调用 {spec.get('name', '工具')}"
        return f"{_time_gap(said, missing)}要{action}，能告诉我{items}吗？"
    items = ", ".join(asked[:-1]) + " and " + asked[-1] if len(asked) > 1 else asked[0]
    action = f"{verb} {obj}".strip() if verb else f"call {spec.get('name', 'the tool')}"
    return f"To {action}, could you tell me {items}?"


def people_question(spec: dict[str, Any], unclear: list[tuple[str, list[str]]], lang: str) -> str:
    """A person the user named by title that the lookup matched to no one or to several people:
    the step is not taken, and the user is asked which one ("李医生": 李明 or 李华)."""
    verb, obj = _action_words(spec, lang)
    zh = lang == "zh"
    action = (
        (join_words(verb, obj) if verb else f"调用 {spec.get('name', '工具')}")
        if zh
        else (f"{verb} {obj}".strip() if verb else f"call {spec.get('name', 'the tool')}")
    )
    parts = []
    for said, found in unclear:
        if zh:
            parts.append(
                f"请问是哪一位：{'、'.join(found)}？"
                if not said
                else f"「{said}」对应的有好几位：{'、'.join(found)}，请问是哪一位？"
                if found
                else f"查到的名单里没有「{said}」，请确认一下名字？"
            )
        else:
            parts.append(
                f"Which one: {', '.join(found)}?"
                if not said
                else f'"{said}" matches several people: {", ".join(found)} — which one?'
                if found
                else f'No one called "{said}" is in the list I looked up — please check the name?'
            )
    if zh:
        return f"还没有{action}：" + "".join(parts)
    return f"I have not {action} yet: " + " ".join(parts)


def unfinished_note(segment: str, reason: str, lang: str) -> str:
    """A part of the request that was not done, and why: a field set to a new value that no
    parameter has is named ("「容量改为30人」…「容量」"); ``voiced``: a message in an assistant's
    voice reporting ``segment``, the action it would be, asked back."""
    field = set_clauses(segment)[0][0] if reason == "unclear" and set_only(segment) else ""
    if lang == "zh":
        return {
            "no_tool": f"「{segment}」没有合适的工具，这部分我做不了",
            "blocked": f"「{segment}」依赖上一步的结果，而上一步没有拿到结果，所以没有做",
            "unclear": f"「{segment}」这部分没有做：工具里没有对得上「{field}」的一项，"
            "请换个说法再说一次"
            if field
            else f"「{segment}」这部分我没看懂要做什么，所以没有做，请换个说法再说一次",
            "voiced": "这句话读起来像是助手的回复，不是对我的请求，所以我什么也没做。"
            f"您是要我{segment}吗？",
        }[reason]
    if reason == "voiced":
        return (
            "This reads like an assistant's reply, not a request, so I did nothing. "
            f'Do you want me to do "{segment}"?'
        )
    return {
        "no_tool": f'No tool fits "{segment}", so I could not do that part',
        "blocked": (
            f'"{segment}" depends on the previous step, which gave no usable result, so it was not'
            " done"
        ),
        "unclear": f'I did not understand what to do with "{segment}", so it was not done',
    }[reason]


def unmet_note(spec: dict[str, Any], unmet: list[Param], lang: str, named: list[str] = ()) -> str:
    """A step not taken because the results before it had nothing for it: "有的话帮我订下来" and
    there was none, or the thing the user ``named`` ("Z99") is not among what the lookup returned —
    never replaced by another one.
    """
    verb, obj = _action_words(spec, lang)
    action = (
        (join_words(verb, obj) if verb else f"调用 {spec.get('name', '工具')}")
        if lang == "zh"
        else (f"{verb} {obj}".strip() if verb else f"call {spec.get('name', 'the tool')}")
    )
    if lang == "zh":
        what = (
            "、".join(named)
            if named
            else "符合条件的" + "、".join(param.label() for param in unmet)
        )
        return f"前面查到的结果里没有{join_words('', what)}，所以没有{action}"
    what = (
        " or ".join(named) if named else ", ".join(param.label() for param in unmet) + " that fits"
    )
    return f"The results above have no {what}, so I did not {action}"


_GREETINGS = ("你好", "您好", "嗨", "哈喽", "早上好", "晚上好", "hello", "hi", "hey")


def _is_greeting(text: str) -> bool:
    lowered = text.strip().lower()
    return any(lowered.startswith(word) for word in _GREETINGS)


def _after_greeting(text: str) -> str:
    """The message without a greeting at its start ("你好，帮我查天气" -> "帮我查天气")."""
    stripped = text.strip()
    for word in _GREETINGS:
        if stripped.lower().startswith(word):
            return stripped[len(word) :].lstrip(" ,，!！~～。.、")
    return stripped


def _asks_for_task(text: str) -> bool:
    """Whether a message asks for something to be done or found out (a verb of ``actions``, a
    request word, a question), not small talk."""
    if is_small_talk(text) or _is_greeting(text):
        return False
    text = normalize(text)
    return bool(
        request_actions(text)
        or REQUEST_WORDS.search(NOT_A_REQUEST.sub("", text))
        or re.search(r"[?？]\s*$", text)
    )  # "…是多少" asks, even unmarked


_CAPABILITIES = re.compile(
    r"你(?:都|还)?(?:能|会|可以)(?:帮我)?(?:做|干)?(?:些)?什么|有(?:哪些|什么)功能|能帮(?:我|"
    r"上)?(?:做)?什么|"
    r"\bwhat can you (?:do|help)",
    re.I,
)
_IDENTITY = re.compile(
    r"你是谁|你是什么|你叫什么|你(?:的)?名字|介绍(?:一下|下)?(?:你自己|你|自己)|你是(?:不是)?(?:真"
    r"人|人|机器人|AI|模型|大模型|LLM)|"
    r"\bwho are you|\bwhat are you|\byour name|\bare you (?:a |an"
    r" )?(?:bot|robot|human|person|ai|llm|model)\b",
    re.I,
)
_THANKS = re.compile(r"^\s*(?:谢谢|多谢|感谢|辛苦了|thanks|thank you)", re.I)


def _capabilities(tools: list[dict[str, Any]], lang: str) -> str:
    """What the offered tools can do, in words from their names and descriptions ("查询空闲会议室、
    预订会议室 …").
    """
    done = []
    for spec in tools:
        verb, obj = _action_words(spec, lang)
        phrase = (
            (join_words(verb, obj) if lang == "zh" else f"{verb} {obj}".strip())
            if verb and obj
            else ""
        )
        phrase = (
            phrase
            or re.split(r"[，,。.;；:：]", str(spec.get("description", "") or ""), maxsplit=1)[0][
                :20
            ]
            or str(spec.get("name", ""))
        )
        if phrase and phrase not in done:
            done.append(phrase)
    return ("、" if lang == "zh" else ", ").join(done[:8])


_NOT_UNDERSTOOD_ZH = (
    "课程模拟器是个规则引擎，没看懂这句话的说法，所以什么也没做。可以换个说法，写明要做的事和对象"
    "（例如“查询……”“取消编号为……的……”），或者改用本地模型（make local）或真实模型。"
)
_NOT_UNDERSTOOD_EN = (
    "the course simulator is a rule engine and did not understand this wording, so it did nothing."
    " Try naming the action and its object plainly, or use the local model (make local) or a real"
    " model."
)


def _carries_an_id(user_text: str, tools: list[dict[str, Any]]) -> bool:
    """The statement holds an id of a kind a tool takes ("LN7730 …" for "loan id like LN5521")."""
    return any(evidence(spec, user_text) > 0 for spec in tools if spec.get("name"))


def _first_clause(description: str) -> str:
    plain = re.sub(r"\s*[（(][^）)]*[）)]", "", description.strip())
    return re.split(r"[，,。;；]|例如|e\.g\.|\.\s", plain, maxsplit=1)[0].strip()


def _some_tool_shares_words(user_text: str, tools: list[dict[str, Any]]) -> bool:
    """Whether any offered tool's name or description (with its synonyms) shares a word with the
    request: then "no tool can do this" could be false, and the honest reply is "I did not
    understand"."""
    wanted, actions = set(tokens(user_text)), request_actions(user_text)
    for spec in tools:
        name, description = str(spec.get("name", "")), str(spec.get("description", "") or "")
        said = [
            word
            for verb in request_verbs(user_text)
            for word in (verb, *(w for w in expand(verb).split() if len(w) >= 2))
        ]  # "缴费" to a tool that 登记…缴纳的罚款: its description names the request's verb
        action = tool_action(name, description)
        if not fits_verb(profile(spec), user_text):
            continue  # "续借一本书" to a tool that searches the catalog: it does not renew
        if (
            (contradicts(actions, action) and not any(word in description for word in said))
            or (action == READ and actions - {READ} and READ not in actions)
            or other_object(request_object(user_text), profile(spec))
        ):
            # "下载文档" to a tool that deletes documents, "订机票" to one that books rooms,
            # "退款" to one that only looks payments up: another task
            continue
        verb = other_verb(user_text)
        if verb and not request_actions(verb) and verb in f"{description} {expand(description)}":
            # "帮我还一本书" to a tool that returns books (归还): a verb no family lists, which the
            # tool's words hold — it may do it
            return True
        text = f"{' '.join(split_identifier(name))} {description}"
        own = set(tokens(text)) | set(tokens(expand(text)))
        lead = description.strip()[:2]  # "处理客房事务" for "处理一下 HT7731": its own verb
        if (action in actions and own & set(said)) or (len(lead) == 2 and lead in user_text):
            return True  # "约" to a tool that books ("Book a class"): the tool may do it
        shared = wanted & own
        if len(shared) >= 2 or shared & VOCABULARY_TOKENS:  # not one stray bigram ("一张")
            return True
        examples = [e for p in params_of(spec) for e in examples_of(p) if len(str(e)) >= 2]
        if evidence(spec, user_text) or any(str(e) in normalize(user_text) for e in examples):
            return True  # "查一下内胎" to a tool whose part is "例如 内胎": a value it takes
    return False


_VALUE_MARK = re.compile(r"[改设换变][为成]")


def _wanted_verb(user_text: str) -> str:
    """The verb of the action asked for, as written (the last one, never a noun after 的: "把付款退
    掉" → 退掉): what no offered tool does."""
    text = normalize(user_text)
    actions, verbs = request_actions(text), request_verbs(text)
    verbs = [v for v in verbs if not _VALUE_MARK.fullmatch(v)]  # "改成": what the value is, no verb
    said = [
        (m.start(), m.group(0))
        for verb in verbs
        for m in re.finditer(
            rf"(?<!的){re.escape(re.sub(r'(?<=.)[到掉了]$', '', verb))}[款费货掉]?", text
        )
        if request_actions(m.group(0)) & actions or len(verbs) == 1
    ]
    return max(said)[1] if said else ""


# a yes/no question's ending ("…一下吗？"): it says a question is asked, not what is asked for
_QUESTION_FORM = re.compile(r"(?:吗|么|嘛|呢)?\s*[？?]?\s*$")


def _says_what(text: str) -> bool:
    """Whether the request names an action by a verb or asks a question by a question word ("到
    哪了"), not only by a yes/no question's form."""
    plain = _QUESTION_FORM.sub("", normalize(text).rstrip("。.！!~"))
    return bool(request_actions(plain)) or asks(plain)


def _verb_no_tool_does(user_text: str, tools: list[dict[str, Any]]) -> str:
    """The verb an order opens with that no family lists ("帮我续借一本书" → 续借), when it is
    certain that no offered tool does it: every tool only looks things up, or the vocabulary knows
    the verb and no tool's words name it or a synonym. "" otherwise: a tool that changes things in
    words the simulator cannot place ("放弃一个入住" with a tool that cancels) may well do it."""
    verb = other_verb(user_text)
    if not verb or len(verb) < 2 or request_actions(verb):
        return ""
    profiles = [profile(spec) for spec in tools if spec.get("name")]
    if any(fits_verb(p, user_text) for p in profiles):
        return ""
    return verb if verb in members(verb) or all(p.reads for p in profiles) else ""


# a statement ("我不吃辣", "同行的是张伟", "we are five"): about the speaker, or with a verb that
# says what is, not what to do — what may be acknowledged as told
_DECLARATIVE = re.compile(
    r"我|咱|是|有|在|叫|姓|属于|\b(?:i|i'm|my|we|we're|our|is|are|was|were|has|have)\b", re.I
)
# the words of an order whatever its verb ("帮我弄一下"); a final 吧 alone is none ("那好吧")
_ORDER_WORDS = re.compile(r"一下|帮|替[我你他她]|麻烦")


def fallback_reply(
    user_text: str, tools: list[dict[str, Any]], lang: str, *, tools_disabled: bool = False
) -> str:
    """The honest reply when no tool fits, in one or two sentences.

    It says what this simulator is (a rule engine, not an LLM) only when asked who it is: every
    notebook's banner already says it, and a disclaimer in every small-talk reply buries the
    conversation. Asked what it can do, it lists what the offered tools do; asked to do something no
    tool does, it says why not (no tools, none fits, tool_choice is none); a greeting or a thanks
    gets a greeting or a thanks, and a statement that asks for nothing an acknowledgement.
    """
    count = len([t for t in tools if t.get("name")])
    text = normalize(user_text)
    zh = lang == "zh"
    greeting = _is_greeting(user_text)
    if _IDENTITY.search(text):
        if zh:
            return (
                f"{'你好，' if greeting else ''}我是课程的离线模拟器：一个规则引擎，"
                "不是大语言模型，只会按工具的说明调用工具、"
                "转述结果。想真正对话，请在 .env 里配置真实模型。"
            )
        return (
            f"{'Hello, ' if greeting else ''}I am the course's offline simulator: a rule engine,"
            " not an LLM; I only call tools by their descriptions and report what they return. For"
            " a real conversation, configure a real model in .env."
        )
    if count and not tools_disabled and _CAPABILITIES.search(text):
        can = _capabilities([t for t in tools if t.get("name")], lang)
        return (
            f"这次能用的工具可以：{can}。告诉我具体要办的事就行。"
            if zh
            else f"With the tools offered I can: {can}. Tell me what you need."
        )
    if count and not tools_disabled and asks_about_state(user_text):
        # "PO7781 撤了吗": whether it happened; no tool reads it, none is run to make it so
        return (
            "这次的工具里没有能查到这件事是否已经办了的，所以我没法确认；我也没有替你执行任何操作。"
            "想让我去办，请直接说要做什么（例如“帮我取消 …”）。"
            if zh
            else "None of the tools offered can tell whether that has happened, so I cannot"
            " confirm it; I did not carry out anything. To have it done, say what to do."
        )
    if count and not tools_disabled and tells_state(user_text):
        # "我帮 AP2031 退了钱，因为…": told what happened; nothing is run to make it happen again
        return (
            "这句话说的是事情的情况，不是要我去做，所以我没有执行任何操作。"
            "要我去办，请直接说要做什么（例如“帮我取消 …”）。"
            if zh
            else "That tells me what happened rather than asking me to do it, so I did not carry"
            " out anything. To have something done, say what to do."
        )
    profiles = [profile(t) for t in tools if t.get("name")]
    if count and not tools_disabled and any(negates(normalize(user_text), p) for p in profiles):
        # "QJ3301 先不批": told not to; nothing else is done in its place
        return "好的，那就先不办，我什么也没做。" if zh else "All right, I have done nothing."
    if (
        count
        and not tools_disabled
        and asks(user_text)
        and all(p.action is not None and not p.reads for p in profiles)
    ):
        # "OD20240615 到哪了" with only tools that change things: no lookup, nothing run
        return (
            "这次的工具里没有能查询的（都是会改动数据的操作），所以这个问题我没法回答；"
            "我也没有执行任何操作。"
            if zh
            else "None of the tools offered can look this up (they all change things), so I"
            " cannot answer; I did not carry out anything."
        )
    rivals = rivals_for(normalize(user_text), profiles) if count and not asks(user_text) else []
    if rivals and not tools_disabled:  # two tools that change things fit alike: ask which
        named = [_first_clause(t.description) or t.name for t in rivals[:3]]
        if zh:
            return (
                "这句话我拿不准要做哪一件，所以什么也还没做：是"
                + "，还是".join(f"「{n}」" for n in named)
                + "？请说清楚要做哪一个。"
            )
        return (
            "I cannot tell which of these you mean, so I have done nothing yet: "
            + ", or ".join(f'"{n}"' for n in named)
            + "?"
        )
    body = _after_greeting(user_text)
    if REMEMBER_PREFIX.match(body.strip()) and not is_question(body):
        # "请记住：我周五前要交报告": heard, and nothing is stored or run
        return "好的，知道了。" if zh else "All right, noted."
    undone = _verb_no_tool_does(body, tools) if count and not tools_disabled else ""
    if (
        _asks_for_task(body)
        or undone
        or (
            (not count or tools_disabled)
            and not is_small_talk(body)
            and (ACTION_FORM.search(body) or _ORDER_WORDS.search(body))
        )
    ):  # an order in any form ("把周会挪到下午") with nothing to carry it out: said, not noted
        if zh:
            if tools_disabled:
                why = "这次请求不允许调用工具（tool_choice 为 none），所以这件事我做不了。"
            elif count and _some_tool_shares_words(user_text, tools):
                why = _NOT_UNDERSTOOD_ZH
            elif count and not _wanted_verb(user_text) and not undone and not _says_what(body):
                # "张三，我想参加…，去小区打扫一下吗？": no verb read, only a question's form —
                # what is asked is not known, so neither is that no tool does it
                why = _NOT_UNDERSTOOD_ZH
            elif count:
                verb = _wanted_verb(user_text) or undone
                why = (
                    f"这次提供的工具里没有能{verb}的，所以这件事我做不了，什么也没做。"
                    if verb
                    else f"这次的 {count} 个工具里没有能做这件事的，所以我做不了。"
                )
            else:
                why = "这次请求没有提供工具，所以这件事我做不了。"
            return ("你好，" if greeting else "") + why
        if tools_disabled:
            why = (
                "this request does not allow tool calls (tool_choice is none), so I cannot do this."
            )
        elif count and (
            _some_tool_shares_words(user_text, tools) or not (undone or _says_what(body))
        ):  # words a tool shares, or no verb read: not understood, never "no tool can"
            why = _NOT_UNDERSTOOD_EN
        elif count:
            why = f"none of the {count} tools offered can do this, so I cannot do it."
        else:
            why = "this request offers no tools, so I cannot do this."
        return f"Hello, {why}" if greeting else why[:1].upper() + why[1:]
    if _THANKS.search(user_text):
        return "不客气。" if zh else "You're welcome."
    if greeting:
        return "你好！有什么需要帮忙的？" if zh else "Hello! How can I help?"
    if is_question(user_text) or (
        count
        and not tools_disabled
        and (
            ordered_verb(body)  # "我想续借《三体》": an order by its form, never noted as told
            or _carries_an_id(user_text, tools)
            or ASKS_FOR_SOMETHING.search(user_text)
            or ACTION_DATA.search(user_text)
            or ACTION_FORM.search(user_text)
        )
    ):  # a question, a request's form or what an action is done on or at ("LN7730 弄一下",
        # "周二十点，B501") is never acknowledged as noted
        return _NOT_UNDERSTOOD_ZH if zh else _NOT_UNDERSTOOD_EN[:1].upper() + _NOT_UNDERSTOOD_EN[1:]
    if count and not tools_disabled and not _DECLARATIVE.search(text):
        # with tools on offer, words the rules cannot place ("来两杯拿铁" with no verb they know)
        # may well be a request: said not understood, never "noted" as if taken care of
        return _NOT_UNDERSTOOD_ZH if zh else _NOT_UNDERSTOOD_EN[:1].upper() + _NOT_UNDERSTOOD_EN[1:]
    return (
        "好的，知道了。" if zh else "All right, noted."
    )  # a statement about the speaker that asks for nothing: acknowledged, nothing done


__all__ = ["clarify_question", "fallback_reply", "unfinished_note", "unmet_note"]
