"""Returns a plain function: @tool was forgotten."""


def build_exchange_tool():
    def query_exchange_rate(from_currency: str, to_currency: str) -> dict:
        """查询汇率。"""
        return {"rate": 7.2}
    return query_exchange_rate


ARGS = (build_exchange_tool,)
FAILS_AT = "用 @tool 定义工具"
