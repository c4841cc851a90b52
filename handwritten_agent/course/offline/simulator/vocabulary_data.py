"""Words the simulator reads as data, not code: synonym groups and question endings.

Each group lists colloquial verbs, homophone typos, English and pinyin equivalents of one meaning; a
tool or request that contains any member is matched as if it contained every member
(``vocabulary.expand``). Grow the tables here; the code that reads them does not change.
"""

SYNONYM_GROUPS: list[list[str]] = [
    [
        "取消",
        "撤了",
        "撤掉",
        "撤销",
        "作废",
        "退掉",
        "不要了",
        "cancel",
        "cancelled",
        "canceled",
        "void",
        "voided",
        "revoke",
        "quxiao",
    ],
    [
        "预订",
        "预约",
        "定一",
        "定个",
        "定下",
        "占一下",
        "约个",
        "约一下",
        "约上",
        "占个",
        "排上",
        "挂号",
        "挂个",
        "book",
        "reserve",
        "appointment",
        "schedule",
        "yuyue",
        "guahao",
    ],
    [
        "查询",
        "看看",
        "瞧瞧",
        "档案",
        "记录",
        "look",
        "lookup",
        "search",
        "find",
        "query",
        "record",
        "chaxun",
    ],
    ["下单", "订购", "采购", "购买", "买", "purchase", "buy", "xiadan", "goumai", "caigou"],
    ["发送", "通知", "告诉", "send", "notify", "message", "fasong"],
    ["修改", "调整", "挪到", "改到", "update", "change", "modify", "reschedule", "xiugai"],
    ["续借", "续期", "延期", "续一下", "renew", "extend", "xujie", "xuqi"],
    ["注册", "办证", "办个证", "办卡", "建档", "register", "sign up", "enroll", "zhuce"],
    ["读者", "reader", "readers", "duzhe"],
    ["缴费", "交费", "付费", "缴纳", "付款", "pay", "payment", "jiaofei"],
    ["罚款", "罚金", "滞纳金", "fine", "penalty", "fakuan"],
    ["归还", "还书", "还回", "return", "guihuan"],
    ["批准", "同意", "准了", "approve", "pizhun"],
    ["驳回", "拒绝", "打回", "reject", "deny", "bohui"],
    ["暂停", "pause", "suspend", "zanting"],
    ["恢复", "resume", "restore", "huifu"],
    ["终止", "退订", "terminate", "unsubscribe", "zhongzhi"],
    ["有货", "库存", "现货", "in stock", "stock", "kucun"],
    ["状态", "情况", "进度", "进展", "到哪", "status", "progress", "zhuangtai", "jindu"],
    ["包裹", "快递件", "parcel", "parcels", "package", "packages", "baoguo"],
    ["病人", "患者", "patient", "bingren"],
    ["医生", "大夫", "doctor", "yisheng"],
    ["科室", "门诊", "department", "clinic", "keshi"],
    ["会议室", "房间", "meeting room", "room"],
    ["容量", "人数", "塞下", "坐下", "装下", "capacity", "seats"],
    ["价格", "单价", "多少钱", "price", "cost"],
    ["数量", "几个", "几台", "quantity", "count"],
]

QUESTION_ENDINGS: list[str] = [
    "吗",
    "么",
    "嘛",
    "呢",
    "不",
    "没",
    "没有",
    "否",
    "不是",
    "对吧",
    "是吧",
    "好吧",
]

# Question words: a sentence holding one asks something even without a particle or a "?"
# ("OD20240615 到哪了", "TK-3391 现在什么情况", "谁在跟").
QUESTION_WORDS = r"哪|什么|啥|怎么|怎样|咋|如何|谁|多少|几时|几点|几号|几节|何时|为何"

A_NOT_A = (
    r"(\w)不\1|(\w)没\2|有没有|是不是|能不能|可不可以|会不会|要不要"  # "开不开", "有没有", "是不是"
)

# A question about whether something has happened ("撤了吗", "退掉没", "是不是已经作废了") rather
# than a request to do it; a request marker ("帮我…吗", "能不能…") makes it a polite request again.
STATE_QUESTION = (
    r"(?:已经|已|是否已|有没有|是不是已)\w{0,8}|\w(?:了|过|掉|完)(?:吗|么|嘛|没有?|没|不|呢|吧)"
)
REQUEST_MARKERS = (
    r"帮|请|麻烦|劳驾|给我|替我|能不能|能否|可不可以|可以|能|would you|could you|please"
)
