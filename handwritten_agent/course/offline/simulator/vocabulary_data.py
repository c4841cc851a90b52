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
        "退",
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
        "约",
        "挂",
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
    [
        "下单",
        "订购",
        "采购",
        "购买",
        "买",
        "点单",
        "点餐",
        "purchase",
        "buy",
        "order",
        "xiadan",
        "goumai",
        "caigou",
    ],
    ["发送", "通知", "告诉", "send", "notify", "message", "fasong"],
    ["修改", "更新", "调整", "挪到", "改到", "update", "change", "modify", "reschedule", "xiugai"],
    ["续借", "续期", "延期", "续一下", "renew", "extend", "xujie", "xuqi"],
    ["添加", "新增", "加一个", "add", "tianjia"],
    ["创建", "新建", "建一个", "create", "chuangjian"],
    [
        *("注册", "办证", "办个证", "办卡", "建档", "报名", "参加", "参与", "开通", "开户"),
        *("register", "sign up", "enroll", "zhuce"),
    ],
    ["读者", "借阅人", "reader", "readers", "patron", "patrons", "duzhe"],
    [
        "缴费",
        "交费",
        "付费",
        "缴纳",
        "付款",
        "付了",
        "收了",
        "收款",
        "收费",
        "付钱",
        "交钱",
        "结账",
        "交了",
        "pay",
        "paid",
        "payment",
        "jiaofei",
    ],
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
    ["医生", "大夫", "兽医", "doctor", "veterinarian", "veterinarians", "vet", "vets", "yisheng"],
    ["宠物", "猫", "狗", "pet", "pets", "chongwu"],
    ["关闭", "结单", "关了", "关掉", "完结", "close", "closed", "guanbi"],
    ["分配", "派工", "派给", "派单", "交给", "指派", "assign", "dispatch", "paigong", "fenpei"],
    ["教练", "coach", "instructor", "jiaolian"],
    ["列表", "清单", "列出", "一览", "list", "listing"],  # "会员列表" to a tool that 列出所有会员
    ["课时", "学时", "hours", "lesson hours", "keshi"],
    ["剩余", "还剩", "剩下", "remaining", "left"],
    ["学员", "student", "trainee", "xueyuan"],
    ["技师", "师傅", "technician", "technicians", "jishi"],
    ["科室", "门诊", "department", "clinic", "keshi"],
    ["会议室", "房间", "meeting room", "room"],
    ["客房", "房间", "开房", "大床房", "标间", "hotel room", "room", "kefang"],
    ["入住", "住", "check in", "check-in", "ruzhu"],
    ["工单", "维修单", "ticket", "work order", "gongdan"],
    ["容量", "人数", "塞下", "坐下", "装下", "capacity", "seats"],
    ["价格", "单价", "多少钱", "价钱", "price", "prices", "cost", "jiage"],
    # everyday nouns, Chinese and English, so that a tool described in one language is found by a
    # request in the other (a glossary, not synonyms: each group is one thing)
    ["图书馆", "library", "tushuguan"],
    ["图书", "书籍", "书本", "books", "tushu"],
    ["客户", "顾客", "customer", "customers", "client", "clients", "kehu"],
    ["用户", "user", "users", "yonghu"],
    ["会员", "member", "members", "membership", "huiyuan"],
    ["订单", "order id", "orders", "dingdan"],
    ["名字", "姓名", "名称", "昵称", "name", "names", "mingzi"],
    ["电话", "手机号", "号码", "phone", "phone number", "mobile", "dianhua"],
    ["地址", "住址", "address", "dizhi"],
    ["车辆", "汽车", "车子", "car", "cars", "vehicle", "vehicles", "cheliang"],
    ["租车", "租用", "租借", "rent", "rental", "hire", "zuche"],
    ["费用", "收费", "fee", "fees", "charge", "charges", "feiyong"],
    ["员工", "职员", "同事", "employee", "employees", "staff", "yuangong"],
    ["部门", "department", "bumen"],
    ["商品", "货品", "物品", "product", "products", "item", "items", "shangpin"],
    ["库存", "存货", "inventory", "kucun"],
    ["航班", "机票", "flight", "flights", "hangban"],
    ["公交卡", "公交票", "乘车卡", "bus pass", "bus card", "gongjiaoka"],
    ["停车证", "停车许可证", "停车卡", "parking permit", "parking pass", "tingchezheng"],
    ["座位", "位子", "seat", "seats", "zuowei"],
    ["课程", "课", "course", "courses", "class", "classes", "lesson", "lessons", "kecheng"],
    ["学生", "student", "students", "xuesheng"],
    ["老师", "教师", "teacher", "teachers", "laoshi"],
    ["账户", "账号", "account", "accounts", "zhanghu"],
    ["余额", "balance", "yue"],
    ["发票", "invoice", "invoices", "fapiao"],
    ["体检", "检查项目", "checkup", "health check", "physical exam", "tijian"],
    ["美容", "洗护", "grooming", "meirong"],
    ["工位", "办公桌", "desk", "desks", "workstation", "gongwei"],
    ["记住", "记一下", "记下", "记下来", "remember", "memorize", "jizhu"],
    ["饮料", "饮品", "喝的", "drink", "drinks", "beverage", "beverages", "yinliao"],
    ["吃的", "菜品", "餐食", "food", "dish", "dishes", "meal"],
    ["菜单", "价目表", "menu", "caidan"],
    ["咖啡", "coffee", "kafei"],
    ["拿铁", "latte", "natie"],
    ["美式", "americano", "meishi"],
    ["大杯", "large"],
    ["中杯", "medium"],
    ["小杯", "small"],
    ["停车位", "车位", "parking spot", "parking space", "spot", "spots", "chewei"],
    ["车牌", "车牌号", "plate", "license plate", "chepai"],
    ["数量", "几个", "几台", "quantity", "count"],
]

# A one-character member is that word only outside these longer words ("大约 45 分钟" is no
# booking, "退款" no cancellation).
LONE_CHARACTER_EXCEPTIONS: dict[str, str] = {
    "约": "大约|节约|约束|合约|条约|公约|契约|约莫|约合|约为|约定|约等于|制约",
    "退": "退款|退货|退出|退休|后退|倒退|退步|减退|消退|退化|退还|退钱|退费|退税|退房|退回|退订",
    "住": "记住|住址|住院|抓住|挡住|停住|站住|忍住|稳住|保住|守住|卡住",
    "挂": "挂失|挂断|挂电话|挂机|挂起|牵挂|挂念|挂钩|挂了|挂着|挂在|悬挂",
    "猫": "猫眼",
    "狗": "狗仔",
}

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
QUESTION_WORDS = (
    r"哪|什么|啥|怎么|怎样|咋|如何|谁|多少|几时|几点|几号|几节|何时|为何|是否|有无|可否|能否"
)

A_NOT_A = (
    r"(\w)不\1|(\w)没\2|有没有|是不是|能不能|可不可以|会不会|要不要"  # "开不开", "有没有", "是不是"
)

# A question about whether something has happened ("撤了吗", "退掉没", "是不是已经作废了") rather
# than a request to do it; a request marker ("帮我…吗", "能不能…") makes it a polite request again.
STATE_QUESTION = (
    r"(?:已经|已|是否已|有没有|是不是已)\w{0,8}|\w(?:了|过|掉|完)(?:吗|么|嘛|没有?|没|不|呢|吧)"
    # "GB3012 取消没", "工单关闭没有": a verb, then 没 at the end
    r"|[\u4e00-\u9fff]{2}没有?\s*[?？]?\s*$"
)
REQUEST_MARKERS = (
    r"帮|请|麻烦|劳驾|给我|替我|能不能|能否|可不可以|可以|能|would you|could you|please"
)
