"""Words for what tool results contain: field names as a reader says them, units, yes/no fields,
verbs.

A result field is named by its tool's author (``temp_high``, ``updated_at``, ``in_stock``); an
answer names it the way a reader would (最高温度, 更新于, 有货). ``field_label`` splits the name
into words and translates each through ``WORDS`` (modifiers such as low/high/total first in
Chinese: ``temp_high`` → 最高温度); a name with a word the table lacks keeps its English words,
so nothing is invented. A Chinese field name is its own label.

Left out: grammar beyond "modifier + noun", and field names in languages other than Chinese and
English.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from .actions import noun_first
from .text import CJK_RANGE, split_identifier, stem

# word -> (Chinese, English). The English side spells abbreviations out.
WORDS: dict[str, tuple[str, str]] = {
    "temp": ("温度", "temperature"),
    "temperature": ("温度", "temperature"),
    "humidity": ("湿度", "humidity"),
    "weather": ("天气", "weather"),
    "condition": ("天气", "conditions"),
    "conditions": ("天气", "conditions"),
    "wind": ("风力", "wind"),
    "rain": ("降雨", "rain"),
    "precipitation": ("降水", "precipitation"),
    "aqi": ("空气质量指数", "AQI"),
    "uv": ("紫外线", "UV"),
    "visibility": ("能见度", "visibility"),
    "pressure": ("气压", "pressure"),
    "sunrise": ("日出", "sunrise"),
    "sunset": ("日落", "sunset"),
    "feels": ("体感", "feels-like"),
    "like": ("", ""),
    "price": ("价格", "price"),
    "cost": ("费用", "cost"),
    "amount": ("金额", "amount"),
    "total": ("总计", "total"),
    "balance": ("余额", "balance"),
    "fee": ("手续费", "fee"),
    "tax": ("税额", "tax"),
    "discount": ("折扣", "discount"),
    "rate": ("比率", "rate"),
    "exchange": ("兑换", "exchange"),
    "change": ("涨跌", "change"),
    "percent": ("百分比", "percent"),
    "pct": ("百分比", "percent"),
    "percentage": ("百分比", "percentage"),
    "revenue": ("收入", "revenue"),
    "profit": ("利润", "profit"),
    "salary": ("薪资", "salary"),
    "budget": ("预算", "budget"),
    "spent": ("已花费", "spent"),
    "income": ("收入", "income"),
    "count": ("数量", "count"),
    "number": ("数量", "number"),
    "num": ("数量", "number"),
    "quantity": ("数量", "quantity"),
    "qty": ("数量", "quantity"),
    "stock": ("库存", "stock"),
    "inventory": ("库存", "inventory"),
    "size": ("大小", "size"),
    "status": ("状态", "status"),
    "state": ("状态", "state"),
    "result": ("结果", "result"),
    "message": ("消息", "message"),
    "msg": ("消息", "message"),
    "summary": ("摘要", "summary"),
    "description": ("描述", "description"),
    "desc": ("描述", "description"),
    "text": ("内容", "text"),
    "content": ("内容", "content"),
    "meaning": ("含义", "meaning"),
    "answer": ("答案", "answer"),
    "name": ("名称", "name"),
    "title": ("标题", "title"),
    "id": ("编号", "ID"),
    "code": ("代码", "code"),
    "type": ("类型", "type"),
    "kind": ("类型", "kind"),
    "category": ("类别", "category"),
    "tag": ("标签", "tag"),
    "tags": ("标签", "tags"),
    "city": ("城市", "city"),
    "country": ("国家", "country"),
    "address": ("地址", "address"),
    "location": ("位置", "location"),
    "region": ("地区", "region"),
    "district": ("区", "district"),
    "street": ("街道", "street"),
    "zip": ("邮编", "ZIP code"),
    "date": ("日期", "date"),
    "time": ("时间", "time"),
    "weekday": ("星期", "weekday"),
    "day": ("日", "day"),
    "timezone": ("时区", "time zone"),
    "tz": ("时区", "time zone"),
    "timestamp": ("时间戳", "timestamp"),
    "updated": ("更新", "updated"),
    "update": ("更新", "update"),
    "created": ("创建", "created"),
    "create": ("创建", "created"),
    "modified": ("修改", "modified"),
    "deadline": ("截止", "deadline"),
    "due": ("到期", "due"),
    "start": ("开始", "start"),
    "end": ("结束", "end"),
    "expires": ("过期", "expires"),
    "expiry": ("过期", "expiry"),
    "birthday": ("生日", "birthday"),
    "email": ("邮箱", "email"),
    "mail": ("邮件", "mail"),
    "phone": ("电话", "phone"),
    "mobile": ("手机", "mobile"),
    "tel": ("电话", "phone"),
    "url": ("链接", "URL"),
    "link": ("链接", "link"),
    "website": ("网站", "website"),
    "distance": ("距离", "distance"),
    "duration": ("时长", "duration"),
    "speed": ("速度", "speed"),
    "weight": ("重量", "weight"),
    "height": ("高度", "height"),
    "length": ("长度", "length"),
    "width": ("宽度", "width"),
    "area": ("面积", "area"),
    "volume": ("体积", "volume"),
    "capacity": ("容量", "capacity"),
    "seats": ("座位数", "seats"),
    "floor": ("楼层", "floor"),
    "score": ("分数", "score"),
    "rating": ("评分", "rating"),
    "rank": ("排名", "rank"),
    "level": ("等级", "level"),
    "grade": ("等级", "grade"),
    "age": ("年龄", "age"),
    "population": ("人口", "population"),
    "votes": ("票数", "votes"),
    "days": ("天数", "days"),
    "hours": ("小时数", "hours"),
    "minutes": ("分钟数", "minutes"),
    "seconds": ("秒数", "seconds"),
    "low": ("最低", "low"),
    "high": ("最高", "high"),
    "min": ("最低", "minimum"),
    "max": ("最高", "maximum"),
    "minimum": ("最低", "minimum"),
    "maximum": ("最高", "maximum"),
    "lowest": ("最低", "lowest"),
    "highest": ("最高", "highest"),
    "avg": ("平均", "average"),
    "average": ("平均", "average"),
    "mean": ("平均", "mean"),
    "current": ("当前", "current"),
    "remaining": ("剩余", "remaining"),
    "left": ("剩余", "left"),
    "used": ("已用", "used"),
    "available": ("可用", "available"),
    "last": ("最近", "last"),
    "first_name": ("名", "first name"),
    "given_name": ("名", "given name"),
    "last_name": ("姓", "last name"),
    "family_name": ("姓", "family name"),
    "surname": ("姓", "surname"),
    "full_name": ("姓名", "full name"),
    "phone_number": ("电话号码", "phone number"),
    "mobile_number": ("手机号码", "mobile number"),
    "latest": ("最新", "latest"),
    "next": ("下一", "next"),
    "first": ("第一", "first"),
    "new": ("新", "new"),
    "old": ("原", "old"),
    "estimated": ("预计", "estimated"),
    "expected": ("预计", "expected"),
    "carrier": ("承运商", "carrier"),
    "courier": ("快递公司", "courier"),
    "tracking": ("运单", "tracking"),
    "order": ("订单", "order"),
    "orders": ("订单", "orders"),
    "customer": ("客户", "customer"),
    "user": ("用户", "user"),
    "owner": ("负责人", "owner"),
    "assignee": ("处理人", "assignee"),
    "employee": ("员工", "employee"),
    "manager": ("经理", "manager"),
    "author": ("作者", "author"),
    "points": ("积分", "points"),
    "leave": ("假期", "leave"),
    "annual": ("年", "annual"),
    "room": ("房间", "room"),
    "rooms": ("房间", "rooms"),
    "meeting": ("会议", "meeting"),
    "ticket": ("工单", "ticket"),
    "tickets": ("工单", "tickets"),
    "pet": ("宠物", "pet"),
    "guest": ("客人", "guest"),
    "night": ("晚数", "night"),
    "nights": ("晚数", "nights"),
    "check_in": ("入住日期", "check-in date"),
    "check_out": ("离店日期", "check-out date"),
    "method": ("方式", "method"),
    "student": ("学员", "student"),
    "coach": ("教练", "coach"),
    "vet": ("兽医", "vet"),
    "doctor": ("医生", "doctor"),
    "patient": ("病人", "patient"),
    "appointment": ("预约", "appointment"),
    "tech": ("技师", "technician"),
    "technician": ("技师", "technician"),
    "item": ("项目", "item"),
    "items": ("项目", "items"),
    "product": ("商品", "product"),
    "products": ("商品", "products"),
    "language": ("语言", "language"),
    "lang": ("语言", "language"),
    "source": ("来源", "source"),
    "target": ("目标", "target"),
    "base": ("基准", "base"),
    "word": ("单词", "word"),
    "words": ("单词", "words"),
    "characters": ("字符", "characters"),
    "chars": ("字符", "characters"),
    "lines": ("行", "lines"),
    "file": ("文件", "file"),
    "files": ("文件", "files"),
    "path": ("路径", "path"),
    "version": ("版本", "version"),
    "note": ("备注", "note"),
    "remark": ("备注", "remark"),
    "reason": ("原因", "reason"),
    "flight": ("航班", "flight"),
    "flights": ("航班", "flights"),
    "train": ("车次", "train"),
    "hotel": ("酒店", "hotel"),
    "departure": ("出发", "departure"),
    "arrival": ("到达", "arrival"),
    "gate": ("登机口", "gate"),
    "seat": ("座位", "seat"),
    "book": ("书", "book"),
    "isbn": ("ISBN", "ISBN"),
    "year": ("年份", "year"),
    "month": ("月份", "month"),
    "week": ("周", "week"),
    "sms": ("短信", "SMS"),
    "notification": ("通知", "notification"),
    "schedule": ("日程", "schedule"),
    "event": ("事件", "event"),
    "events": ("事件", "events"),
    "task": ("任务", "task"),
    "tasks": ("任务", "tasks"),
    "project": ("项目", "project"),
    "department": ("部门", "department"),
    "team": ("团队", "team"),
    "member": ("成员", "member"),
    "members": ("成员", "members"),
    "population_density": ("人口密度", "population density"),
    "symbol": ("代码", "symbol"),
    "ticker": ("代码", "ticker"),
    "market": ("市场", "market"),
    "open": ("开盘价", "open"),
    "close": ("收盘价", "close"),
    "volume_traded": ("成交量", "volume"),
    "converted": ("换算结果", "converted amount"),
    "value": ("数值", "value"),
    "exchange_rate": ("汇率", "exchange rate"),
    "interest_rate": ("利率", "interest rate"),
    "tax_rate": ("税率", "tax rate"),
    "stock_price": ("股价", "stock price"),
    "heart_rate": ("心率", "heart rate"),
    "word_count": ("词数", "word count"),
    "page_count": ("页数", "page count"),
    "feels_like": ("体感温度", "feels-like temperature"),
    "order_status": ("订单状态", "order status"),
    "parcel": ("快递", "parcel"),
    "package": ("包裹", "package"),
    "shipment": ("货运单", "shipment"),
    "meeting_room": ("会议室", "meeting room"),
    "booking": ("预订", "booking"),
    "attendees": ("参会人数", "attendees"),
    "attendee": ("参会人", "attendee"),
    "participants": ("参与人数", "participants"),
    "from": ("发件人", "from"),
    "to": ("收件人", "to"),
    "sender": ("发件人", "sender"),
    "recipient": ("收件人", "recipient"),
    "recipients": ("收件人", "recipients"),
    "subject": ("主题", "subject"),
    "body": ("正文", "body"),
    "received": ("收到", "received"),
    "delivered": ("送达", "delivered"),
    "paid": ("支付", "paid"),
    "views": ("阅读量", "views"),
    "likes": ("点赞数", "likes"),
    "comments": ("评论数", "comments"),
    "downloads": ("下载量", "downloads"),
    "invoice": ("发票", "invoice"),
    "invoices": ("发票", "invoices"),
    "booked": ("预订", "booked"),
    "assigned": ("指派", "assigned"),
    "sent": ("已发送", "sent"),
    "eta": ("预计送达", "ETA"),
    "hours_open": ("营业时间", "opening hours"),
    "opening": ("营业", "opening"),
    "isbn13": ("ISBN", "ISBN"),
    "unit": ("单位", "unit"),
    "units": ("单位", "units"),
    "currency": ("币种", "currency"),
    "symbol_name": ("名称", "name"),
    "calories": ("热量", "calories"),
    "steps": ("步数", "steps"),
    "battery": ("电量", "battery"),
    "signal": ("信号", "signal"),
    "memory": ("内存", "memory"),
    "cpu": ("CPU", "CPU"),
    "disk": ("磁盘", "disk"),
    "usage": ("使用率", "usage"),
    "latency": ("延迟", "latency"),
    "uptime": ("运行时长", "uptime"),
    "error": ("错误", "error"),
    "errors": ("错误", "errors"),
    "warning": ("警告", "warning"),
    "warnings": ("警告", "warnings"),
    "quota": ("配额", "quota"),
    "limit": ("上限", "limit"),
    # words common in API results: collections, their counts, requests and who handles them
    "free": ("空闲", "free"),
    "busy": ("忙碌", "busy"),
    "slot": ("时段", "slot"),
    "slots": ("时段", "slots"),
    "results": ("结果", "results"),
    "record": ("记录", "record"),
    "records": ("记录", "records"),
    "list": ("列表", "list"),
    "entries": ("条目", "entries"),
    "entry": ("条目", "entry"),
    "rows": ("行", "rows"),
    "row": ("行", "row"),
    "matches": ("匹配项", "matches"),
    "match": ("匹配项", "match"),
    "hits": ("结果", "hits"),
    "total_count": ("总数", "total count"),
    "request": ("申请", "request"),
    "requests": ("申请", "requests"),
    "purchase": ("采购", "purchase"),
    "purchases": ("采购", "purchases"),
    "approval": ("审批", "approval"),
    "approver": ("审批人", "approver"),
    "requester": ("申请人", "requester"),
    "applicant": ("申请人", "applicant"),
    "reviewer": ("审核人", "reviewer"),
    "application": ("申请", "application"),
    "availability": ("空闲情况", "availability"),
    "reservation": ("预订", "reservation"),
    "reservations": ("预订", "reservations"),
    "bookings": ("预订", "bookings"),
    "users": ("用户", "users"),
    "customers": ("客户", "customers"),
    "employees": ("员工", "employees"),
    "contact": ("联系方式", "contact"),
    "contacts": ("联系人", "contacts"),
    "messages": ("消息", "messages"),
    "emails": ("邮件", "emails"),
    "document": ("文档", "document"),
    "documents": ("文档", "documents"),
    "options": ("选项", "options"),
    "option": ("选项", "option"),
    "suggestions": ("建议", "suggestions"),
    "recommendations": ("推荐", "recommendations"),
    "candidates": ("候选", "candidates"),
    "page": ("页", "page"),
    "pages": ("页数", "pages"),
    "unit_price": ("单价", "unit price"),
    "item_name": ("物品名称", "item name"),
    "progress": ("进度", "progress"),
    "stage": ("阶段", "stage"),
    "outcome": ("结果", "outcome"),
    "approved": ("批准", "approved"),
    "submitted": ("提交", "submitted"),
    "expense": ("报销", "expense"),
    "claim": ("申请单", "claim"),
    "refund": ("退款", "refund"),
    "payment": ("付款", "payment"),
    "payments": ("付款", "payments"),
    "account": ("账户", "account"),
    "accounts": ("账户", "accounts"),
    "sku": ("SKU", "SKU"),
    "capacity_max": ("最大容量", "maximum capacity"),
    "id_number": ("身份证号", "ID number"),
    "id_card": ("身份证号", "ID card"),
    "bank_card": ("银行卡号", "bank card"),
    "card": ("卡号", "card"),
    "receipt": ("回执号", "receipt"),
    "ticket_id": ("工单编号", "ticket ID"),
    "attendee_count": ("参会人数", "attendee count"),
    "queue": ("队列", "queue"),
    "position": ("位置", "position"),
    "fax": ("传真", "fax"),
    "job": ("任务", "job"),
    "jobs": ("任务", "jobs"),
    "step": ("步骤", "step"),
}

# Status values as a reader says them: value -> (Chinese, English). "sent" in a Chinese answer reads
# 已发送.
STATUS_VALUES: dict[str, tuple[str, str]] = {
    "sent": ("已发送", "sent"),
    "submitted": ("已提交", "submitted"),
    "pending": ("待处理", "pending"),
    "queued": ("排队中", "queued"),
    "running": ("运行中", "running"),
    "processing": ("处理中", "processing"),
    "in_progress": ("进行中", "in progress"),
    "completed": ("已完成", "completed"),
    "complete": ("已完成", "complete"),
    "done": ("已完成", "done"),
    "finished": ("已完成", "finished"),
    "failed": ("失败", "failed"),
    "failure": ("失败", "failed"),
    "error": ("出错", "error"),
    "cancelled": ("已取消", "cancelled"),
    "canceled": ("已取消", "cancelled"),
    "delivered": ("已送达", "delivered"),
    "shipped": ("已发货", "shipped"),
    "in_transit": ("运输中", "in transit"),
    "paid": ("已支付", "paid"),
    "unpaid": ("未支付", "unpaid"),
    "refunded": ("已退款", "refunded"),
    "approved": ("已批准", "approved"),
    "rejected": ("已拒绝", "rejected"),
    "denied": ("已拒绝", "denied"),
    "active": ("有效", "active"),
    "inactive": ("未启用", "inactive"),
    "enabled": ("已启用", "enabled"),
    "disabled": ("已停用", "disabled"),
    "ok": ("正常", "OK"),
    "success": ("成功", "success"),
    "succeeded": ("成功", "succeeded"),
    "successful": ("成功", "successful"),
    "created": ("已创建", "created"),
    "booked": ("已预订", "booked"),
    "reserved": ("已预订", "reserved"),
    "confirmed": ("已确认", "confirmed"),
    "accepted": ("已受理", "accepted"),
    "received": ("已收到", "received"),
    "scheduled": ("已安排", "scheduled"),
    "expired": ("已过期", "expired"),
    "open": ("未关闭", "open"),
    "closed": ("已关闭", "closed"),
    "draft": ("草稿", "draft"),
    "new": ("新建", "new"),
    "waiting": ("等待中", "waiting"),
    "awaiting_approval": ("待审批", "awaiting approval"),
    "pending_approval": ("待审批", "pending approval"),
    "saved": ("已保存", "saved"),
    "updated": ("已更新", "updated"),
    "deleted": ("已删除", "deleted"),
    "online": ("在线", "online"),
    "offline": ("离线", "offline"),
    "available": ("可用", "available"),
    "unavailable": ("不可用", "unavailable"),
}
# Fields whose string value is a status.
STATUS_FIELDS = frozenset(
    {"status", "state", "result", "outcome", "stage", "phase", "progress", "状态"}
)


def status_words(key: str, value: str) -> tuple[str, str] | None:
    """A status value as a reader says it (``sent`` → 已发送 / sent), for a field whose name says it
    holds a status.
    """
    words = set(words_of(key)) or {key}
    if not words & STATUS_FIELDS:
        return None
    return STATUS_VALUES.get(re.sub(r"[\s-]+", "_", str(value).strip().lower()))


# Words that go in front in Chinese ("temp_high" → 最高温度, "remaining_days" → 剩余天数).
MODIFIERS = frozenset(
    {
        "low",
        "high",
        "min",
        "max",
        "minimum",
        "maximum",
        "lowest",
        "highest",
        "avg",
        "average",
        "mean",
        "current",
        "remaining",
        "left",
        "used",
        "available",
        "last",
        "latest",
        "next",
        "first",
        "new",
        "old",
        "estimated",
        "expected",
        "total",
        "annual",
        "feels",
        "updated",
        "created",
        "modified",
        "free",
        "busy",
    }
)
# Words dropped from a label ("updated_at" → updated, "is_open" → open).
NOISE = frozenset(
    {
        "at",
        "on",
        "in",
        "of",
        "the",
        "is",
        "has",
        "have",
        "can",
        "was",
        "by",
        "to",
        "get",
        "info",
        "data",
        "value_of",
    }
)
# Fields whose value speaks for itself: "已发货", "多云" need no "状态为".
SELF_DESCRIBING = frozenset(
    {
        "status",
        "state",
        "weather",
        "condition",
        "conditions",
        "wind",
        "summary",
        "description",
        "desc",
        "message",
        "msg",
        "result",
        "text",
        "content",
        "meaning",
        "answer",
        "explanation",
        "detail",
        "details",
        "display",
        "readable",
        "formatted",
        "状态",
        "天气",
        "结果",
        "说明",
        "描述",
        "情况",
        "内容",
    }
)
# Fields holding a sentence that may restate the other fields ("meaning": "1 USD = 7.2 CNY").
STATEMENT = frozenset(
    {
        "meaning",
        "summary",
        "message",
        "msg",
        "description",
        "desc",
        "text",
        "explanation",
        "answer",
        "readable",
        "formatted",
        "display",
        "detail",
        "说明",
        "描述",
        "含义",
        "摘要",
    }
)
# Fields that qualify the data rather than state a fact.
CAVEAT_FIELDS = frozenset(
    {
        "note",
        "notes",
        "notice",
        "disclaimer",
        "warning",
        "caveat",
        "caveats",
        "remark",
        "remarks",
        "tip",
        "tips",
        "备注",
        "提示",
        "注意",
        "说明备注",
        "免责声明",
    }
)
# Fields that wrap the real data; their contents are read as if they were at the top.
WRAPPERS = frozenset(
    {
        "data",
        "result",
        "results",
        "payload",
        "response",
        "body",
        "info",
        "details",
        "detail",
        "record",
        "object",
        "item",
        "output",
        "value",
    }
)
# The moment a result is about: these names together make one date-and-time.
MOMENT_FIELDS = frozenset(
    {
        "date",
        "time",
        "datetime",
        "now",
        "current_time",
        "current_date",
        "local_time",
        "localtime",
        "timestamp_iso",
        "iso",
        "weekday",
        "day_of_week",
        "dayofweek",
        "today",
        "current",
        "日期",
        "时间",
        "星期",
        "当前时间",
        "现在",
    }
)
# Fields whose value is the unit of the numbers beside them.
UNIT_FIELDS = frozenset(
    {"unit", "units", "unit_name", "temp_unit", "temperature_unit", "单位", "温度单位"}
)
CURRENCY_FIELDS = frozenset({"currency", "currency_code", "ccy", "币种", "货币"})
MONEY_WORDS = frozenset(
    {
        "price",
        "cost",
        "amount",
        "total",
        "balance",
        "fee",
        "tax",
        "revenue",
        "profit",
        "salary",
        "budget",
        "spent",
        "income",
        "converted",
        "value",
        "金额",
        "价格",
        "余额",
        "费用",
        "总计",
    }
)
# Units written at the end of a field name ("distance_km", "temp_c").
UNIT_SUFFIXES: dict[str, tuple[str, str]] = {
    "c": ("摄氏度", "°C"),
    "celsius": ("摄氏度", "°C"),
    "f": ("华氏度", "°F"),
    "fahrenheit": ("华氏度", "°F"),
    "km": ("公里", "km"),
    "m": ("米", "m"),
    "cm": ("厘米", "cm"),
    "mm": ("毫米", "mm"),
    "mi": ("英里", "mi"),
    "kg": ("公斤", "kg"),
    "g": ("克", "g"),
    "lb": ("磅", "lb"),
    "pct": ("%", "%"),
    "percent": ("%", "%"),
    "ms": ("毫秒", "ms"),
    "sec": ("秒", "s"),
    "seconds": ("秒", "s"),
    "s": ("秒", "s"),
    "min": ("分钟", "min"),
    "minutes": ("分钟", "min"),
    "hours": ("小时", "h"),
    "hrs": ("小时", "h"),
    "h": ("小时", "h"),
    "days": ("天", "days"),
    "mb": ("MB", "MB"),
    "gb": ("GB", "GB"),
    "kb": ("KB", "KB"),
    "kmh": ("公里/小时", "km/h"),
    "mph": ("英里/小时", "mph"),
    "yuan": ("元", "yuan"),
}
# Units a field name implies on its own.
IMPLIED_UNITS: dict[str, tuple[str, str]] = {
    "humidity": ("%", "%"),
    "percent": ("%", "%"),
    "pct": ("%", "%"),
    "percentage": ("%", "%"),
    "usage": ("%", "%"),
    "battery": ("%", "%"),
}

# yes/no fields as a reader says them: word -> (zh true, zh false, en true, en false)
FLAGS: dict[str, tuple[str, str, str, str]] = {
    "available": ("可用", "不可用", "available", "not available"),
    "in_stock": ("有货", "缺货", "in stock", "out of stock"),
    "open": ("营业中", "已关闭", "open", "closed"),
    "success": ("成功", "失败", "succeeded", "failed"),
    "ok": ("正常", "异常", "OK", "not OK"),
    "enabled": ("已启用", "未启用", "enabled", "disabled"),
    "active": ("有效", "已失效", "active", "inactive"),
    "valid": ("有效", "无效", "valid", "invalid"),
    "exists": ("存在", "不存在", "exists", "does not exist"),
    "found": ("找到了", "没有找到", "found", "not found"),
    "paid": ("已支付", "未支付", "paid", "unpaid"),
    "confirmed": ("已确认", "未确认", "confirmed", "not confirmed"),
    "completed": ("已完成", "未完成", "completed", "not completed"),
    "done": ("已完成", "未完成", "done", "not done"),
    "finished": ("已完成", "未完成", "finished", "not finished"),
    "online": ("在线", "离线", "online", "offline"),
    "verified": ("已验证", "未验证", "verified", "not verified"),
    "shipped": ("已发货", "未发货", "shipped", "not shipped"),
    "delivered": ("已送达", "未送达", "delivered", "not delivered"),
    "free": ("空闲", "已占用", "free", "taken"),
    "busy": ("忙碌", "空闲", "busy", "free"),
    "booked": ("已预订", "未预订", "booked", "not booked"),
    "reserved": ("已预订", "未预订", "reserved", "not reserved"),
    "member": ("是会员", "不是会员", "a member", "not a member"),
    "holiday": ("是节假日", "不是节假日", "a holiday", "not a holiday"),
    "workday": ("是工作日", "不是工作日", "a workday", "not a workday"),
    "raining": ("在下雨", "没有下雨", "raining", "not raining"),
    "sent": ("已发送", "未发送", "sent", "not sent"),
    "approved": ("已批准", "未批准", "approved", "not approved"),
    "cancelled": ("已取消", "未取消", "cancelled", "not cancelled"),
    "refundable": ("可退款", "不可退款", "refundable", "not refundable"),
    "public": ("公开", "不公开", "public", "private"),
    "read": ("已读", "未读", "read", "unread"),
    "locked": ("已锁定", "未锁定", "locked", "unlocked"),
    "expired": ("已过期", "未过期", "expired", "not expired"),
    "overdue": ("已逾期", "未逾期", "overdue", "not overdue"),
}
# Flags that say the data is a sample (true) or live (false).
SAMPLE_FLAGS = frozenset(
    {
        "sample",
        "is_sample",
        "mock",
        "is_mock",
        "demo",
        "is_demo",
        "simulated",
        "fake",
        "test_data",
        "example",
    }
)
LIVE_FLAGS = frozenset({"realtime", "real_time", "live", "is_live", "is_realtime"})

# The first word of a tool's name as an action: word -> (Chinese verb, English verb)
VERBS: dict[str, tuple[str, str]] = {
    "void": ("作废", "void"),
    "record": ("登记", "record"),
    "register": ("注册", "register"),
    "close": ("关闭", "close"),
    "assign": ("分配", "assign"),
    "get": ("查询", "get"),
    "fetch": ("查询", "fetch"),
    "query": ("查询", "look up"),
    "lookup": ("查询", "look up"),
    "look": ("查询", "look up"),
    "search": ("搜索", "search"),
    "find": ("查找", "find"),
    "list": ("列出", "list"),
    "check": ("查询", "check"),
    "read": ("读取", "read"),
    "retrieve": ("查询", "retrieve"),
    "show": ("查看", "show"),
    "send": ("发送", "send"),
    "notify": ("通知", "notify"),
    "post": ("发布", "post"),
    "create": ("创建", "create"),
    "add": ("添加", "add"),
    "new": ("新建", "create"),
    "make": ("创建", "make"),
    "open": ("打开", "open"),
    "book": ("预订", "book"),
    "reserve": ("预订", "reserve"),
    "update": ("更新", "update"),
    "set": ("设置", "set"),
    "modify": ("修改", "modify"),
    "change": ("修改", "change"),
    "edit": ("编辑", "edit"),
    "delete": ("删除", "delete"),
    "remove": ("删除", "remove"),
    "cancel": ("取消", "cancel"),
    "calculate": ("计算", "calculate"),
    "calc": ("计算", "calculate"),
    "compute": ("计算", "compute"),
    "evaluate": ("计算", "evaluate"),
    "convert": ("换算", "convert"),
    "translate": ("翻译", "translate"),
    "count": ("统计", "count"),
    "pay": ("支付", "pay"),
    "refund": ("退款", "refund"),
    "transfer": ("转账", "transfer"),
    "schedule": ("安排", "schedule"),
    "subscribe": ("订阅", "subscribe to"),
    "upload": ("上传", "upload"),
    "download": ("下载", "download"),
    "approve": ("审批", "approve"),
    "submit": ("提交", "submit"),
    "apply": ("申请", "apply for"),
    "run": ("运行", "run"),
    "execute": ("执行", "execute"),
    "start": ("启动", "start"),
    "stop": ("停止", "stop"),
    "generate": ("生成", "generate"),
    "summarize": ("总结", "summarize"),
    "analyze": ("分析", "analyze"),
    "estimate": ("估算", "estimate"),
    "validate": ("校验", "validate"),
    "verify": ("验证", "verify"),
    "track": ("跟踪", "track"),
    "recommend": ("推荐", "recommend"),
}

# A verb of several senses, the Chinese word of each and the words of a tool that call for it
# (first match wins): ``transfer_employee`` moves a person (调动), ``transfer_funds`` money (转账).
VERB_SENSES: dict[str, tuple[tuple[str, str], ...]] = {
    "transfer": (
        (r"钱|款|账|金额|余额|money|funds?\b|amount|payment|balance|account", "转账"),
        (r"员工|职员|部门|岗位|调岗|employee|staff|department|position", "调动"),
        (r"", "转移"),
    ),
}

# Nouns that mean something else as the object of an action ("send_email": 发送邮件, not 发送邮箱).
# Verbs whose success changes something (the answer says it was done), as opposed to reading.
DOING_VERBS = frozenset(
    {
        "send",
        "notify",
        "post",
        "create",
        "add",
        "new",
        "make",
        "book",
        "reserve",
        "update",
        "set",
        "modify",
        "change",
        "edit",
        "delete",
        "remove",
        "cancel",
        "pay",
        "refund",
        "transfer",
        "schedule",
        "subscribe",
        "upload",
        "approve",
        "submit",
        "apply",
        "start",
        "stop",
        "generate",
    }
)
ACTION_NOUNS: dict[str, str] = {
    "email": "邮件",
    "mail": "邮件",
    "emails": "邮件",
    "message": "消息",
    "sms": "短信",
    "text": "短信",
    "notification": "通知",
    "room": "房间",
    "rooms": "房间",
    "note": "笔记",
    "notes": "笔记",
    "customers": "客户",
    "customer": "客户",
    "users": "用户",
    "user": "用户",
}

# Question words that ask for a field: field word -> words a question uses for it.
ASKED_BY: dict[str, tuple[str, ...]] = {
    "temp": (
        "温度",
        "气温",
        "多少度",
        "几度",
        "冷",
        "热",
        "temperature",
        "degrees",
        "hot",
        "cold",
        "warm",
    ),
    "temperature": (
        "温度",
        "气温",
        "多少度",
        "几度",
        "冷",
        "热",
        "temperature",
        "degrees",
        "hot",
        "cold",
        "warm",
    ),
    "humidity": ("湿度", "潮湿", "humid", "humidity"),
    "wind": ("风", "wind", "windy"),
    "weather": ("天气", "下雨", "晴", "阴", "雪", "weather", "rain", "sunny", "snow"),
    "condition": ("天气", "下雨", "晴", "weather", "rain", "sunny"),
    "conditions": ("天气", "下雨", "晴", "weather", "rain"),
    "price": ("价格", "价钱", "多少钱", "股价", "售价", "price", "cost", "costs", "how much"),
    "cost": ("费用", "多少钱", "花费", "cost", "how much"),
    "balance": ("余额", "还剩", "剩多少", "balance", "left"),
    "status": ("状态", "到哪", "进度", "怎么样了", "status", "where", "progress"),
    "state": ("状态", "state", "status"),
    "count": ("多少个", "几个", "数量", "多少条", "how many", "count", "number"),
    "remaining": ("还剩", "剩余", "还有", "remaining", "left"),
    "left": ("还剩", "剩余", "还有", "left", "remaining"),
    "carrier": ("快递", "承运", "哪家", "carrier", "courier"),
    "address": ("地址", "在哪", "address", "where"),
    "location": ("位置", "在哪", "到哪", "哪里", "location", "where"),
    "phone": ("电话", "号码", "phone", "number"),
    "email": ("邮箱", "email"),
    "rating": ("评分", "几分", "rating", "stars"),
    "score": ("分数", "几分", "score"),
    "distance": ("距离", "多远", "distance", "how far"),
    "duration": ("多久", "多长时间", "时长", "how long", "duration"),
    "population": ("人口", "多少人", "population"),
    "age": ("年龄", "几岁", "多大", "age", "how old"),
    "aqi": ("空气", "空气质量", "aqi", "air"),
    "updated": ("更新", "什么时候", "when", "updated"),
    "deadline": ("截止", "什么时候", "when", "deadline", "due"),
    "rate": ("汇率", "比率", "rate"),
    "author": ("作者", "谁写", "author", "who wrote"),
    "converted": ("换成", "换算", "兑换", "能换", "折合", "convert", "converted"),
    "available": ("有空", "空闲", "可用", "能用", "available", "free"),
    "free": ("有空", "空闲", "free", "available"),
    "open": ("开门", "营业", "开着", "open"),
    "stock": ("有货", "有没有货", "库存", "in stock"),
    "workday": ("工作日", "上班", "workday", "working day"),
    "holiday": ("节假日", "放假", "holiday"),
    "hours": ("几点", "营业时间", "开门", "hours", "when"),
    "owner": ("负责人", "谁", "owner", "who"),
}


# Other Chinese words for what a field holds; a tool's description that uses one of them gives the
# field its label.
SYNONYMS: dict[str, tuple[str, ...]] = {
    "name": ("名称", "姓名", "名字", "品名", "书名", "会议室名称"),
    "level": ("等级", "会员等级", "级别", "用户等级"),
    "points": ("积分", "会员积分"),
    "phone": ("电话", "手机号", "联系电话", "手机号码"),
    "mobile": ("手机", "手机号"),
    "email": ("邮箱", "电子邮箱", "邮件地址"),
    "address": ("地址", "住址", "收货地址"),
    "id_number": ("身份证号", "证件号"),
    "bank_card": ("银行卡号", "卡号"),
    "capacity": ("容量", "容纳人数", "座位数"),
    "location": ("位置", "地点"),
    "balance": ("余额", "账户余额"),
    "status": ("状态", "订单状态", "处理状态"),
    "total": ("总计", "总价", "总金额", "合计"),
    "sender": ("发件人",),
    "from": ("发件人", "来自"),
    "subject": ("主题", "邮件主题"),
    "body": ("正文", "内容"),
}


def synonyms(name: str) -> tuple[str, ...]:
    """The Chinese words that may name a field (``SYNONYMS``), by its whole name or its last
    word.
    """
    words = words_of(name)
    return SYNONYMS.get("_".join(words), ()) or (SYNONYMS.get(words[-1], ()) if words else ())


def words_of(name: str) -> list[str]:
    """A field name's words: ``updatedAt`` → ["updated", "at"]; a Chinese name is one word."""
    if re.search(f"[{CJK_RANGE}]", name):
        return [name]
    return split_identifier(name)


def field_label(name: str, lang: str, extra: Mapping[str, str] | None = None) -> str:
    """A field name as a reader says it (see the module docstring); "" for a name made only of noise
    words.

    ``extra``: Chinese words the tool's own schema gives (``schemawords``: ``room`` → 会议室 from "
    会议室编号"), used before the table in Chinese."""
    if re.search(f"[{CJK_RANGE}]", name):
        return name
    counted = _numbered(name, lang, extra)
    if counted:
        return counted
    if lang == "zh" and extra:
        return _label_with(name, extra)
    raw = words_of(name)
    if "_".join(raw) in WORDS:  # a compound the table knows with its little words ("check_in")
        return WORDS["_".join(raw)][0 if lang == "zh" else 1]
    words = [w for w in raw if w not in NOISE]
    if len(words) > 1 and words[-1] in UNIT_SUFFIXES:
        words = words[:-1]  # "temp_c" is a temperature; its unit goes with the number
    if not words:
        return ""
    if len(raw) >= 2 and raw[-1] == "by" and raw[-2] in WORDS:  # "booked_by" → 预订人 / booked by
        return WORDS[raw[-2]][0] + "人" if lang == "zh" else f"{WORDS[raw[-2]][1]} by"
    if "_".join(words) in WORDS:  # a compound the table knows as a whole ("exchange_rate" → 汇率)
        return WORDS["_".join(words)][0 if lang == "zh" else 1]
    known = all(w in WORDS or stem(w) in WORDS for w in words)
    if lang == "zh":
        if not known:
            return " ".join(words)
        parts = [WORDS.get(w) or WORDS[stem(w)] for w in words]
        front = [p[0] for w, p in zip(words, parts) if w in MODIFIERS]
        rest = [p[0] for w, p in zip(words, parts) if w not in MODIFIERS]
        return "".join(front + rest)
    parts = [(WORDS.get(w) or WORDS.get(stem(w)) or ("", w))[1] or w for w in words]
    return " ".join(p for p in parts if p)


NUMBER_WORDS = frozenset({"number", "no", "nr"})


def _numbered(name: str, lang: str, extra: Mapping[str, str] | None) -> str:
    """``order_number`` is the order's number (订单号), ``number_of_guests`` a count (客人数);
    "" for any other name, and for one the table or the schema's words name as a whole."""
    raw = [w for w in words_of(name) if w != "of"]
    if len(raw) < 2 or "_".join(raw) in WORDS or (extra and "_".join(raw) in extra):
        return ""
    if raw[-1] in NUMBER_WORDS and raw[0] not in NUMBER_WORDS:
        head = field_label("_".join(raw[:-1]), lang, extra)
        if lang != "zh":
            return f"{head} number" if head else ""
        return f"{head}号" if head and re.search(f"[{CJK_RANGE}]", head) else ""
    if raw[0] == "number" and "of" in words_of(name):
        head = field_label("_".join(raw[1:]), lang, extra)
        if lang != "zh":
            return f"number of {head}" if head else ""
        return f"{head}数" if head and re.search(f"[{CJK_RANGE}]", head) else ""
    return ""


def _label_with(name: str, extra: Mapping[str, str]) -> str:
    """The Chinese label of ``name`` with the schema's words first, then the table's; English words
    when one is unknown.
    """
    words = [w for w in words_of(name) if w not in NOISE]
    if len(words) > 1 and words[-1] in UNIT_SUFFIXES:
        words = words[:-1]
    if not words:
        return ""
    joined = "_".join(words)
    if joined in extra:
        return extra[joined]
    if joined in WORDS or (len(words_of(name)) >= 2 and words_of(name)[-1] == "by"):
        return field_label(name, "zh")

    def zh(word: str) -> str | None:
        for key in (word, stem(word)):
            if key in extra:
                return extra[key]
            if key in WORDS:
                return WORDS[key][0]
        return None

    parts = [zh(w) for w in words]
    if any(part is None for part in parts):
        return " ".join(words)
    front = [p for w, p in zip(words, parts) if w in MODIFIERS and p]
    rest = [p for w, p in zip(words, parts) if w not in MODIFIERS and p]
    return "".join(front + rest)


def flag_words(name: str) -> tuple[str, str, str, str] | None:
    """How a reader says a yes/no field: ``in_stock`` → (有货, 缺货, in stock, out of stock)."""
    words = [w for w in words_of(name) if w not in NOISE]
    joined = "_".join(words)
    for key in (
        "_".join(words_of(name)),
        joined,
        words[-1] if words else "",
        words[0] if words else "",
    ):
        if key in FLAGS:
            return FLAGS[key]
    return None


def action_words(tool_name: str, lang: str, description: str = "") -> tuple[str, str]:
    """A tool's name as an action: ``query_order_status`` → ("查询", "订单状态") / ("look up",
    "order status").

    The verb is empty when the first word is not a known verb; in Chinese, when a word of the object
    is unknown, the object is the noun the tool's ``description`` puts after that verb ("提交报销单
    并…" → 报销单), else empty.
    """
    words = split_identifier(tool_name)
    if not words:
        return "", ""
    verb = None if noun_first(tool_name, description) else VERBS.get(words[0])
    rest = words[1:] if verb else words
    for cue, word in VERB_SENSES.get(words[0], ()):
        if re.search(cue, " ".join(rest) + " " + description, re.I):
            verb = (word, verb[1] if verb else words[0])
            break
    target: list[str] = []
    for joint in ("to", "for"):  # "send_sms_to_customers": 发送短信给客户 / send sms to customers
        if joint in rest[1:]:
            at = rest.index(joint, 1)
            rest, target = rest[:at], rest[at + 1 :]
            break
    rest = [w for w in rest if w not in NOISE]
    if lang == "zh":
        obj = _noun_zh(rest, description)
        whom = _noun_zh(target, description)
        if whom and obj:
            obj = f"{obj}给{whom}"
        if not obj and verb and description:
            obj = description_noun(description, verb[0])
        return (verb[0] if verb else ""), obj
    return (verb[1] if verb else ""), " ".join(rest + (["to"] + target if target else []))


_NOUN_END = re.compile(r"[，,。；;、：:（(\s]|并|和|及|以便|然后|返回")


def description_noun(description: str, verb: str) -> str:
    """The noun a Chinese description puts after ``verb``: "提交采购申请并生成工单" + 提交 → 采购申
    请; "查询指定时间段内空闲的会议室" + 查询 → 会议室 (the head after the last 的). "" when the
    verb is not there or the noun is long.
    """
    at = description.find(verb) if verb else -1
    if at < 0:  # the description says it with another verb ("列出…" for list_, "查询…" for get_)
        found = [
            (description.find(zh), zh)
            for zh, _ in VERBS.values()
            if 0 <= description.find(zh) <= 12
        ]
        if not found:
            return ""
        at, verb = min(found)
    rest = description[at + len(verb) :]
    end = _NOUN_END.search(rest)
    noun = (rest[: end.start()] if end else rest).strip()
    noun = re.sub(r"^(?:一|某)[份个封条张间台件项位]", "", noun.rsplit("的", 1)[-1])
    return (
        noun
        if 1 < len(noun) <= 8
        and re.fullmatch(f"[{CJK_RANGE}A-Za-z0-9 ]+", noun)
        and re.search(f"[{CJK_RANGE}]", noun)
        else ""
    )


# A noun narrowed by the tool's description: a "room" of a tool that speaks of meetings is a meeting
# room, of a hotel a room.
NARROWER_NOUNS: dict[str, tuple[tuple[str, ...], str]] = {
    "房间": (("会议", "meeting"), "会议室"),
    # a ticket to travel or to get in, not a work order
    "工单": (
        ("票", "ferry", "train", "flight", "bus", "concert", "museum", "show", "passenger"),
        "票",
    ),
}


def _noun_zh(words: list[str], description: str = "") -> str:
    """Words of a tool's name as a Chinese noun, or "" when a word is unknown (better none than half
    a translation).
    """
    if not words:
        return ""
    if all(w in ACTION_NOUNS for w in words):
        noun = "".join(ACTION_NOUNS[w] for w in words)
    else:
        noun = field_label("_".join(words), "zh")
        if not re.search(f"[{CJK_RANGE}]", noun):
            return ""
    cues, narrower = NARROWER_NOUNS.get(noun, ((), noun))
    return narrower if any(cue in description.lower() for cue in cues) else noun


def asked_words(name: str, lang: str) -> set[str]:
    """The words a question may use to ask for this field (its label, its name's words, their
    synonyms).
    """
    found: set[str] = set()
    for word in words_of(name):
        if word in NOISE:
            continue
        found.add(word)
        found.add(stem(word))
        found.update(ASKED_BY.get(word, ()))
        if word in WORDS:
            found.update(w for w in WORDS[word] if w)
    label = field_label(name, lang)
    if label:
        found.add(label)
    return {w for w in found if w and (len(w) >= 2 or re.search(f"[{CJK_RANGE}]", w))}


__all__ = [
    "WORDS",
    "FLAGS",
    "VERBS",
    "VERB_SENSES",
    "STATUS_VALUES",
    "status_words",
    "field_label",
    "flag_words",
    "action_words",
    "description_noun",
    "asked_words",
    "words_of",
]
