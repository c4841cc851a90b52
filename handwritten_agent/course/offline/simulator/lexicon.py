"""The simulator's small vocabulary: intents, date words, currencies, cities and surnames.

An intent is a named group of trigger words in Chinese and English (``time``: 几点, 时间, clock …).
Tool choice gives a bonus when the user's request and a tool's name/description share an intent,
which is how "现在几点了？" finds a tool described in English as "Get the current time". The lists
are deliberately short: a tool the lexicon does not know is still found through the words of its
description, exactly as the course teaches (a clear description with an example).

Left out: synonyms beyond these lists, fuzzy spelling, and any knowledge of what a tool returns.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .text import normalize

# intent -> trigger words. Chinese triggers match as substrings; English ones as whole words.
INTENTS: dict[str, tuple[str, ...]] = {
    "time": (
        "几点",
        "时间",
        "时刻",
        "现在",
        "日期",
        "几号",
        "星期几",
        "礼拜几",
        "钟点",
        "time",
        "clock",
        "date",
        "now",
        "datetime",
        "timestamp",
        "today's date",
    ),
    "math": (
        "算",
        "计算",
        "乘",
        "除",
        "加上",
        "减去",
        "等于",
        "次方",
        "平方",
        "开方",
        "根号",
        "表达式",
        "算式",
        "数学",
        "calculate",
        "calculator",
        "compute",
        "math",
        "arithmetic",
        "expression",
        "plus",
        "minus",
        "times",
        "multiply",
        "multiplied",
        "divide",
        "divided",
        "sum",
        "product",
        "squared",
        "sqrt",
        "power",
        "square root",
        "percent",
        "equals",
    ),
    "weather": (
        "天气",
        "气温",
        "温度",
        "多少度",
        "几度",
        "冷不冷",
        "热不热",
        "下雨",
        "降雨",
        "下雪",
        "晴",
        "阴天",
        "刮风",
        "预报",
        "湿度",
        "weather",
        "temperature",
        "forecast",
        "rain",
        "snow",
        "sunny",
        "humidity",
    ),
    "exchange": (
        "汇率",
        "兑换",
        "换成",
        "能换",
        "兑",
        "外汇",
        "美元",
        "人民币",
        "欧元",
        "日元",
        "英镑",
        "港币",
        "港元",
        "货币",
        "币种",
        "exchange",
        "currency",
        "currencies",
        "convert",
        "usd",
        "cny",
        "eur",
        "jpy",
        "gbp",
        "rmb",
        "yuan",
        "dollar",
        "dollars",
        "euro",
        "euros",
    ),
    "order": (
        "订单",
        "单号",
        "物流",
        "快递",
        "发货",
        "退货",
        "售后",
        "order",
        "orders",
        "shipping",
        "shipment",
        "delivery",
        "tracking",
        "parcel",
    ),
    "customer": ("客户", "会员", "积分", "customer", "customers", "client", "member", "loyalty"),
    "email": ("邮件", "邮箱", "email", "e-mail", "mail", "inbox"),
    "room": (
        "会议室",
        "订会议",
        "预订",
        "预定",
        "帮我订",
        "订一间",
        "订个",
        "订间",
        "客房",
        "房间",
        "空房",
        "room",
        "rooms",
        "meeting room",
        "book",
        "booking",
        "reserve",
    ),
    "purchase": ("采购", "购买", "申购", "purchase", "procurement", "buy"),
    "availability": (
        "有空",
        "空闲",
        "空着",
        "空的",
        "空不空",
        "空房",
        "空位",
        "没人用",
        "占用",
        "被占",
        "占了",
        "有人用",
        "可用",
        "可入住",
        "可预订",
        "余量",
        "available",
        "availability",
        "vacant",
        "occupied",
        "free",
        "busy",
    ),
    "message": (
        "短信",
        "通知",
        "消息",
        "转告",
        "说一声",
        "捎个话",
        "sms",
        "notify",
        "notification",
        "text message",
        "message",
        "messages",
    ),
    "search": ("搜索", "搜一下", "检索", "查找", "search", "look up", "lookup", "find"),
    "stock": ("股价", "股票", "stock", "share price", "ticker"),
    "calendar": ("日程", "日历", "会议", "安排", "calendar", "schedule", "meeting", "appointment"),
    "translate": ("翻译", "译成", "translate", "translation"),
    "file": ("文件", "文档", "读取", "file", "files", "document", "read"),
    "memory": ("记住", "记得", "记一下", "记下", "偏好", "remember", "preference", "preferences"),
}

MATH_SYMBOLS = re.compile(
    r"\d\s*(?:[-+*/×÷^%]|\*\*)\s*[\d(（]|[)）]\s*[-+*/×÷^]|的\s*\d+(?:\.\d+)?\s*%|\d\s*%\s*of\s*\d|"
    r"[\d零一二两三四五六七八九十百千万](?:\s*[万千百])?\s*(?:加上?|减去?|乘以?|除以?)\s*[\d零一二"
    r"两三四五六七八九十(（]|"
    r"^\s*(?:再|然后)?\s*(?:加上?|减去?|乘以?|除以?)\s*[\d零一二两三四五六七八九十(（]|"
    r"[\d零一二两三四五六七八九十百千万]\s*的\s*百分之\s*[\d零一二两三四五六七八九十]"
)  # "（再）加 50 元是多少": on the result before


# words that hold a one-character trigger in another sense ("预算" is a budget, not a sum to work
# out; "打算" a plan): no trigger of theirs counts
NOT_TRIGGERS = re.compile(r"预算|打算|就算|总算|算是|还算")


@lru_cache(maxsize=4096)
def intents_in(text: str) -> frozenset[str]:
    """The intents whose trigger words occur in ``text``."""
    low = NOT_TRIGGERS.sub(" ", normalize(text).lower())
    found = set()
    for intent, triggers in INTENTS.items():
        for trigger in triggers:
            if trigger.isascii():
                if re.search(rf"(?<![a-z]){re.escape(trigger)}(?![a-z])", low):
                    found.add(intent)
                    break
            elif trigger in low:
                found.add(intent)
                break
    if MATH_SYMBOLS.search(low):
        found.add("math")
    return frozenset(found)


# Words that mark a request as small talk rather than a task.
GREETINGS = (
    "你好",
    "您好",
    "嗨",
    "哈喽",
    "早上好",
    "晚上好",
    "谢谢",
    "多谢",
    "你是谁",
    "你叫什么",
    "再见",
    "hello",
    "hi",
    "hey",
    "thanks",
    "thank you",
    "who are you",
    "good morning",
    "bye",
)


# Words that make a leftover part of a request a request of its own (worth saying it was not done).
REQUEST_WORDS = re.compile(
    r"帮我|帮忙|请|查|看一下|看看|订|发|算|告诉|给我|能不能|可以|吗|说一下|说说|讲一下|讲讲|列出|列"
    r"一下|换成|\b(?:what|how|when|where|who|please|can"
    r" you|could you|check|tell|show|find|book|send)\b",
    re.I,
)

# words holding a request word that ask for nothing ("预算" is no 算, "请假" no 请)
NOT_A_REQUEST = re.compile(r"预算|打算|请假|申请|邀请|需要|要求")
# "请记住：…", "帮我记一下": what follows is a statement to keep, not a request
REMEMBER_PREFIX = re.compile(
    r"^(?:请|麻烦)?(?:你)?(?:帮我)?(?:记住|记一下|记下)\s*[:：,，]?\s*|^please"
    r" remember\s*(?:that)?\s*[:,]?\s*",
    re.I,
)

# a sentence in the form of a request, whatever its verb: "…一下", "帮她…", a condition with its
# consequence ("要是…就…"), a soft imperative ending ("…吧", "…哈") — never a plain statement
ASKS_FOR_SOMETHING = re.compile(
    r"一下|帮|替[我你他她]|麻烦|(?:要是|如果|假如|假若|若是|万一|只要).{1,40}?就"
    r"|[吧呗哈]\s*[。！!~～]*\s*$"
)
# what an action is done on or at: a time of day, a day, an id or code ("B502", "P003")
ACTION_DATA = re.compile(
    r"\d\s*[点:：]|[今明后]天|[今明]儿|大后天|周[一二三四五六日天]|星期|礼拜|号"
    r"|(?<![A-Za-z])[A-Za-z]{1,4}-?\d{2,}"
)

# the shape of an order, whatever the verb: "把…", "给…" at the start, a verb with 个 and its object
# ("打个气", "约个保养"; not 这个/一个/几个)
ACTION_FORM = re.compile(
    r"^\s*(?:把|将|给|替|帮)|(?<![这那一两几每某哪整半各有是])个(?=[\u4e00-\u9fff])"
)


def is_small_talk(text: str) -> bool:
    low = normalize(text).lower().strip(" ,.!?，。！？~")
    return any(low == g or low.startswith(g) and len(low) <= len(g) + 4 for g in GREETINGS)


# Relative dates, as day offsets from today. Longest first so 大后天 wins over 后天.
RELATIVE_DAYS: tuple[tuple[str, int], ...] = (
    ("大后天", 3),
    ("大前天", -3),
    ("大后儿", 3),
    ("明早", 1),
    ("明晨", 1),
    ("明晚", 1),
    ("今早", 0),
    ("今晨", 0),
    ("今晚", 0),
    ("昨晚", -1),
    ("今儿个", 0),
    ("明儿个", 1),
    ("今儿", 0),
    ("明儿", 1),
    ("后儿", 2),
    ("昨儿", -1),
    ("前儿", -2),
    ("后天", 2),
    ("前天", -2),
    ("明天", 1),
    ("明日", 1),
    ("今天", 0),
    ("今日", 0),
    ("昨天", -1),
    ("昨日", -1),
    ("day after tomorrow", 2),
    ("day before yesterday", -2),
    ("tomorrow", 1),
    ("today", 0),
    ("tonight", 0),
    ("yesterday", -1),
)

# ISO code -> names people use for the currency, Chinese first.
CURRENCIES: dict[str, tuple[str, ...]] = {
    "USD": ("美元", "美金", "us dollar", "us dollars", "dollar", "dollars"),
    "CNY": ("人民币", "rmb", "yuan", "renminbi"),
    "EUR": ("欧元", "euro", "euros"),
    "JPY": ("日元", "日币", "yen"),
    "GBP": ("英镑", "pound", "pounds", "sterling"),
    "HKD": ("港币", "港元", "hong kong dollar"),
    "KRW": ("韩元", "won"),
    "AUD": ("澳元", "australian dollar"),
    "CAD": ("加元", "加拿大元", "canadian dollar"),
    "CHF": ("瑞士法郎", "swiss franc"),
    "SGD": ("新加坡元", "新币", "singapore dollar"),
    "TWD": ("新台币", "台币", "new taiwan dollar"),
    "INR": ("印度卢比", "卢比", "rupee", "rupees"),
    "RUB": ("卢布", "rouble", "ruble", "roubles", "rubles"),
    "THB": ("泰铢", "baht"),
}

# Chinese name -> English name, for cities a weather-like tool may be asked about.
CITIES: dict[str, str] = {
    "北京": "Beijing",
    "上海": "Shanghai",
    "广州": "Guangzhou",
    "深圳": "Shenzhen",
    "杭州": "Hangzhou",
    "南京": "Nanjing",
    "成都": "Chengdu",
    "重庆": "Chongqing",
    "武汉": "Wuhan",
    "西安": "Xi'an",
    "天津": "Tianjin",
    "苏州": "Suzhou",
    "长沙": "Changsha",
    "郑州": "Zhengzhou",
    "青岛": "Qingdao",
    "厦门": "Xiamen",
    "沈阳": "Shenyang",
    "大连": "Dalian",
    "济南": "Jinan",
    "哈尔滨": "Harbin",
    "昆明": "Kunming",
    "合肥": "Hefei",
    "福州": "Fuzhou",
    "宁波": "Ningbo",
    "无锡": "Wuxi",
    "东莞": "Dongguan",
    "佛山": "Foshan",
    "珠海": "Zhuhai",
    "南宁": "Nanning",
    "贵阳": "Guiyang",
    "兰州": "Lanzhou",
    "乌鲁木齐": "Urumqi",
    "拉萨": "Lhasa",
    "海口": "Haikou",
    "三亚": "Sanya",
    "石家庄": "Shijiazhuang",
    "太原": "Taiyuan",
    "南昌": "Nanchang",
    "长春": "Changchun",
    "呼和浩特": "Hohhot",
    "香港": "Hong Kong",
    "澳门": "Macau",
    "台北": "Taipei",
    "东京": "Tokyo",
    "首尔": "Seoul",
    "纽约": "New York",
    "伦敦": "London",
    "巴黎": "Paris",
    "新加坡": "Singapore",
    "悉尼": "Sydney",
    "柏林": "Berlin",
    "旧金山": "San Francisco",
}

# Common surnames: a two- or three-character word starting with one of these may be a person's name.
SURNAMES = frozenset(
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕"
    "丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃"
    "武戴莫孔向汤"
)
# words that say what a person is, after their name ("王教练"; "周五教练" is a
# person called 周五, no Friday)
TITLES = (
    "医生",
    "大夫",
    "教练",
    "师傅",
    "老师",
    "技师",
    "律师",
    "护士",
    "主任",
    "教授",
    "经理",
    "顾问",
    "先生",
    "女士",
    "小姐",
)
# courtesies and fillers, never a name or a value ("谢谢" starts with the surname 谢)
COURTESIES = ("谢谢", "多谢", "感谢", "你好", "您好", "麻烦", "请问", "好的", "可以吗", "辛苦")
# Characters that end a name rather than continue it ("李四的", "给王五发").
NAME_STOPPERS = frozenset(
    "的地得了在是有要还和与给发说请查问把被对向从到也都就会能吗呢吧啊年月日天今明昨最近客户员工先生"
    "女士经理老师同学"
    "上下午晚早这那每周号点"
    "订约挂派办开退取预"  # "给张伟订一间": the verb after the name
)  # "通知王强下午…": 下 starts the time, not the name

# What starts right after a two-character name and is no part of it: a verb with its complement
# ("李娜加入…", "王磊调到…", "陈晨拉进…", "把报告发给…", "改成…"), or a verb that takes the named
# person as its doer ("何静报名…", "王磊跟进…"). A third character of a name is read only when no
# such word starts there, so "李娜加入白名单" names 李娜, not 李娜加.
VERB_AFTER_NAME = re.compile(
    r"[加调拉转移放送发派交传寄迁划归挪分踢升降改设换带接领拨退搬撤推提选评列编安]"
    r"[入到进去回出给成为至往]"
    r"|处理|跟进|负责|对接|报名|报到|参加|参与|出席|值班|签到|签字|审批|审核|入职|离职|转正|请假"
    r"|出差|上班|下班|加班|调休|休假|登记|注册|升级|降级|续费|缴费|付款|领取|提交|办理|预约"
    r"|想|希望|打算|准备"  # "张三想要更新…": a wish after the name
)
