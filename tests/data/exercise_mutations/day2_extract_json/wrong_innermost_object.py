"""Finds an object with a regex that allows no braces inside (\{[^{}]*\}): for nested JSON it returns the innermost object, not the first whole one."""

import json
from handwritten_agent.parsing import ParseError, parse_tool_call

OPENERS, CLOSERS = "{｛", "}｝"
QUOTES = {'"': '"', "'": "'", "“": "”", "”": "”"}  # 开引号 -> 与它配对的闭引号
FULLWIDTH = {"｛": "{", "｝": "}", "［": "[", "］": "]", "：": ":", "，": ","}


def find_json_object(text: str) -> str:
    """text 里的第一个 {...} 块，忽略字符串里的括号。找不到时抛出 ValueError。"""
    start = next((i for i, ch in enumerate(text) if ch in OPENERS), None)
    if start is None:
        raise ValueError("回复里没有 JSON 对象（找不到 {）")
    depth, closing, i = 0, None, start  # closing：当前所在字符串的闭引号（不在字符串里时为空）
    while i < len(text):
        ch = text[i]
        if closing:
            if ch == "\\":
                i += 1  # 跳过被转义的字符
            elif ch == closing:
                closing = None
        elif ch in QUOTES:
            closing = QUOTES[ch]
        elif ch in OPENERS:
            depth += 1
        elif ch in CLOSERS:
            depth -= 1
            if depth == 0:
                return text[start:i + 1]
        i += 1
    raise ValueError("JSON 对象没有结束（缺少配对的 }），回复可能被截断了")


def repair_json(block: str) -> str:
    """修复字符串外的引号、全角标点和末尾逗号；字符串里的文字保持不变。"""
    out: list[str] = []
    closing, i = None, 0
    while i < len(block):  # 第 1 遍：所有字符串改用双引号，字符串外的标点改成 ASCII
        ch = block[i]
        if closing:
            if ch == "\\" and i + 1 < len(block):
                out.append(block[i:i + 2])
                i += 1
            elif ch == closing:
                out.append('"')
                closing = None
            elif ch == '"':
                out.append('\\"')  # 单引号字符串里的双引号必须转义
            else:
                out.append(ch)
        elif ch in QUOTES:
            out.append('"')
            closing = QUOTES[ch]
        else:
            out.append(FULLWIDTH.get(ch, ch))
        i += 1
    text = "".join(out)
    kept: list[str] = []
    in_string, i = False, 0
    while i < len(text):  # 第 2 遍：删掉闭括号前只隔着空白的逗号
        ch = text[i]
        if in_string:
            if ch == "\\":
                kept.append(text[i:i + 2])
                i += 2
                continue
            in_string = ch != '"'
        elif ch == '"':
            in_string = True
        elif ch == "," and text[i + 1:].lstrip()[:1] in ("}", "]"):
            i += 1
            continue
        kept.append(ch)
        i += 1
    return "".join(kept)


def extract_json(text: str) -> dict:
    """模型回复里的第一个 JSON 对象，必要时先修复。找不到时抛出 ValueError。"""
    import re
    found = re.search(r"[{｛][^{}｛｝]*[}｝]", text)
    if found is None:
        raise ValueError("没有 JSON 对象")
    block = found.group()
    try:
        value = json.loads(block)
    except json.JSONDecodeError:
        value = json.loads(repair_json(block))  # 仍然是坏的：让 JSONDecodeError（它是一种 ValueError）继续抛出
    if not isinstance(value, dict):
        raise ValueError(f"期望一个 JSON 对象，得到的是 {type(value).__name__}")
    return value


ARGS = (extract_json,)
