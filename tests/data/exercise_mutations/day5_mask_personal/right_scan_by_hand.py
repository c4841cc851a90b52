"""Correct without regular expressions: scan runs of digits (plus a trailing X) by hand."""


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
        if len(run) == 17 and j < len(text) and text[j] in "Xx" and not (j + 1 < len(text) and (text[j + 1].isdigit() or text[j + 1] in "Xx")):
            run, j = run + text[j], j + 1
        if len(run) == 18 and (run[-1].isdigit() or run[-1] in "Xx"):
            out.append(run[:3] + "*" * 11 + run[-4:])
        elif len(run) == 11 and run[0] == "1" and run[1] in "3456789":
            out.append(run[:3] + "****" + run[-4:])
        else:
            out.append(run)
        i = j
    return "".join(out)


ARGS = (mask_personal,)
