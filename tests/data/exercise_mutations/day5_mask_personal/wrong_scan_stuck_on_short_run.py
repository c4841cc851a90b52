"""Scans runs of digits by hand but forgets to move past a run that is neither a phone nor an ID
number (a short number such as 2024): the index stays put and the loop never ends."""


def mask_personal(text):
    out, i = [], 0
    while i < len(text):
        if not text[i].isdigit():
            out.append(text[i])
            i += 1
            continue
        j = i
        while j < len(text) and text[j].isdigit():
            j += 1
        run = text[i:j]
        if len(run) == 17 and j < len(text) and text[j] in "Xx":
            run, j = run + text[j], j + 1
        if len(run) == 18:
            out.append(run[:3] + "*" * 11 + run[-4:])
            i = j
        elif len(run) == 11 and run[0] == "1":
            out.append(run[:3] + "****" + run[-4:])
            i = j
        # any other run of digits: forgot out.append(run); i = j
    return "".join(out)


ARGS = (mask_personal,)
FAILS_AT = "秒内没有结束"
