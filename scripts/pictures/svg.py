"""Drawing primitives for hand-written SVG: boxes, text, arrows, chips, pills — and the course's
colours.

Pure standard library, so the pictures are reproducible byte for byte and reviewable as text. Left
out: measuring text with real fonts (widths are estimated, boxes are drawn with room to spare) and
any layout engine — coordinates are chosen by hand.
"""

from __future__ import annotations

from xml.sax.saxutils import escape

FONT = (
    "'PingFang SC','Hiragino Sans GB','Microsoft YaHei','Noto Sans CJK SC','Source Han Sans SC',"
    "'WenQuanYi Micro Hei',sans-serif"
)
MONO = (
    "Menlo,Consolas,'DejaVu Sans Mono','Noto Sans Mono CJK SC','WenQuanYi Micro Hei Mono',monospace"
)

INK = "#2b2b2b"
MUTED = "#6b6b6b"
USER, CODE, MODEL, TOOL = "#4e79a7", "#59a14f", "#8e6bb8", "#e08a2b"
CALL_A, CALL_B = "#d1495b", "#1f8a9e"
GOOD, WARN, BAD, PAUSE, OTHER = "#3c8d2f", "#c77c02", "#c0392b", "#7d4fb0", "#7f7f7f"


def text_width(text: str, size: float, mono: bool = False) -> float:
    """An estimate of the drawn width: a CJK character is about one em, Latin about 0.56 em (0.6 in
    mono).
    """
    latin = 0.6 if mono else 0.56
    return sum(size * (1.0 if ord(char) > 0x2E7F else latin) for char in text)


class Svg:
    """A few drawing primitives that append SVG elements."""

    def __init__(self, width: int, height: int, title: str):
        self.width, self.height, self.title = width, height, title
        self.items: list[str] = []
        self.markers: dict[str, str] = {}

    def rect(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        *,
        fill: str = "#fff",
        stroke: str = INK,
        rx: float = 8,
        width: float = 1.5,
        dash: str | None = None,
    ) -> None:
        dashed = f' stroke-dasharray="{dash}"' if dash else ""
        self.items.append(
            f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" rx="{rx:g}" fill="{fill}" '
            f'stroke="{stroke}" stroke-width="{width:g}"{dashed}/>'
        )

    def text(
        self,
        x: float,
        y: float,
        content: str | list[str],
        *,
        size: float = 14,
        anchor: str = "middle",
        color: str = INK,
        weight: str = "normal",
        mono: bool = False,
        line: float = 1.35,
    ) -> None:
        lines = content if isinstance(content, list) else [content]
        family = MONO if mono else FONT
        spans = "".join(
            f'<tspan x="{x:g}" dy="{0 if i == 0 else size * line:g}">{escape(part)}</tspan>'
            for i, part in enumerate(lines)
        )
        self.items.append(
            f'<text x="{x:g}" y="{y:g}" font-family="{family}" font-size="{size:g}" fill="{color}" '
            f'text-anchor="{anchor}" font-weight="{weight}">{spans}</text>'
        )

    def line(
        self,
        x1: float,
        y1: float,
        x2: float,
        y2: float,
        *,
        color: str = INK,
        width: float = 1.6,
        dash: str | None = None,
        arrow: bool = True,
    ) -> None:
        dashed = f' stroke-dasharray="{dash}"' if dash else ""
        head = f' marker-end="url(#{self._marker(color)})"' if arrow else ""
        self.items.append(
            f'<line x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" stroke="{color}" '
            f'stroke-width="{width:g}"{dashed}{head}/>'
        )

    def path(
        self,
        d: str,
        *,
        color: str = INK,
        width: float = 1.6,
        dash: str | None = None,
        arrow: bool = True,
    ) -> None:
        dashed = f' stroke-dasharray="{dash}"' if dash else ""
        head = f' marker-end="url(#{self._marker(color)})"' if arrow else ""
        self.items.append(
            f'<path d="{d}" fill="none" stroke="{color}" stroke-width="{width:g}"{dashed}{head}/>'
        )

    def box(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        lines: list[str],
        *,
        color: str,
        fill: str = "#fff",
        size: float = 14,
        bold_first: bool = True,
        dash: str | None = None,
    ) -> None:
        """A rounded box with centred lines; the first one bold (a title)."""
        self.rect(x, y, w, h, fill=fill, stroke=color, dash=dash)
        top = y + h / 2 - (len(lines) - 1) * size * 1.4 / 2 + size * 0.35
        for i, part in enumerate(lines):
            self.text(
                x + w / 2,
                top + i * size * 1.4,
                part,
                size=size,
                weight="bold" if bold_first and i == 0 else "normal",
                color=color if bold_first and i == 0 else INK,
            )

    def chip(self, x: float, y: float, text: str, *, color: str, size: float = 12.5) -> float:
        """A tinted label with a coloured bar on its left, in monospace; returns its width."""
        w = text_width(text, size, mono=True) + 22
        self.rect(x, y, w, size + 12, fill=tint(color), stroke=color, rx=5, width=1.2)
        self.rect(x, y, 5, size + 12, fill=color, stroke=color, rx=2, width=0)
        self.text(x + 13, y + size + 3, text, size=size, anchor="start", mono=True)
        return w

    def pill(self, x: float, y: float, label: str, note: str, *, color: str) -> None:
        """An exit of the loop: a coloured pill with the stop_reason, a note beside it."""
        w = text_width(label, 14, mono=True) + 26
        self.rect(x, y, w, 28, fill=color, stroke=color, rx=14)
        self.text(x + w / 2, y + 19, label, size=14, color="#fff", weight="bold", mono=True)
        self.text(x + w + 10, y + 19, note, size=13, anchor="start", color=MUTED)

    def _marker(self, color: str) -> str:
        name = "arrow-" + color.lstrip("#")
        self.markers[name] = (
            f'<marker id="{name}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" '
            'markerHeight="8" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" '
            f'fill="{color}"/></marker>'
        )
        return name

    def render(self) -> str:
        defs = "".join(self.markers[name] for name in sorted(self.markers))
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width}" height="{self.height}"'
            f' viewBox="0 0 {self.width} {self.height}" role="img"'
            f' aria-label="{escape(self.title)}">\n<title>{escape(self.title)}</title>\n'
            f"<defs>{defs}</defs>\n<rect"
            ' width="100%" height="100%" fill="#ffffff"/>\n' + "\n".join(self.items) + "\n</svg>\n"
        )


def tint(color: str, amount: float = 0.88) -> str:
    """``color`` mixed with white (``amount`` of white)."""
    r, g, b = (int(color[i : i + 2], 16) for i in (1, 3, 5))
    mix = [round(c + (255 - c) * amount) for c in (r, g, b)]
    return "#" + "".join(f"{c:02x}" for c in mix)
