"""A prompt written by hand for the three tools of the first case; it ignores the tools it is given."""

import json

STOCK = {"type": "object", "properties": {"symbol": {"type": "string", "description": "股票代码，例如：AAPL"},
                                           "market": {"type": "string", "enum": ["US", "HK", "CN"], "description": "交易所所在的市场"}},
         "required": ["symbol"]}
TRANSLATE = {"type": "object", "properties": {"text": {"type": "string", "description": "要翻译的原文"},
                                               "target_language": {"type": "string", "enum": ["英文", "日文", "法文"], "description": "目标语言"}},
             "required": ["text", "target_language"]}


def render_tool_prompt(tools):
    return f"""你是一个能调用工具的助手。
### get_stock_price
用途：查询一只股票的最新价格（示例数据），例如“苹果公司的股价是多少”。
参数：{json.dumps(STOCK, ensure_ascii=False)}
### translate_text
用途：把一段文字翻译成另一种语言，例如“把你好翻译成英文”。
参数：{json.dumps(TRANSLATE, ensure_ascii=False)}
### get_current_time
用途：获取当前的日期和时间，不需要参数。
参数：{{"type": "object", "properties": {{}}}}
调用工具时只输出一个 JSON 对象：{{"name": "工具名", "arguments": {{…}}}}。不需要工具时直接回答。"""


ARGS = (render_tool_prompt,)
FAILS_AT = "另一组工具"
