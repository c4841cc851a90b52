"""Correct, as TypeScript declarations: a comment line per tool and parameter, `name?:` for optional, enums as literal unions."""


def render_tool_prompt(tools):
    lines = ["你可以调用下面这些函数（TypeScript 声明，参数名后带 ? 的可以不填）：", "```ts"]
    for spec in tools:
        schema = spec.get("parameters") or {}
        required = schema.get("required") or []
        properties = schema.get("properties") or {}
        lines.append(f"// {spec['description']}")
        lines += [f"// {name}: {p.get('description', '')}" for name, p in properties.items()]
        params = []
        for name, p in properties.items():
            kind = " | ".join(f'"{value}"' for value in p["enum"]) if p.get("enum") else p.get("type", "string")
            params.append(f"{name}{'' if name in required else '?'}: {kind}")
        lines.append(f"function {spec['name']}({', '.join(params)}): object;")
    lines.append("```")
    lines.append('要调用时，整条回复只有一个 JSON 对象：{"name": "函数名", "arguments": {"参数": "值"}}。不需要调用时直接回答用户。')
    return "\n".join(lines)


ARGS = (render_tool_prompt,)
