"""Chinese labels in matplotlib pictures: use a CJK font when the machine has one, and stay quiet
when it has none.

matplotlib's default font (DejaVu Sans) has no Chinese glyphs. ``use_chinese_font()`` looks for a
font that has them — the ones macOS, Windows and the usual Linux packages ship — and puts it first,
keeping DejaVu Sans for Latin text. Without one, Chinese characters are drawn as empty boxes, and
the "Glyph … missing" warnings that matplotlib would print under every figure are silenced, so a
notebook's text output is the same on every machine (nbval compares text, not pictures).

To get Chinese labels on Linux: ``sudo apt install fonts-noto-cjk`` (or ``fonts-wqy-microhei``).

Left out: shipping a font (a CJK font is tens of megabytes) and choosing fonts per language.
"""

from __future__ import annotations

import warnings

CJK_FONTS = (
    "Noto Sans CJK SC",
    "Source Han Sans SC",
    "WenQuanYi Micro Hei",
    "WenQuanYi Zen Hei",
    "PingFang SC",
    "Hiragino Sans GB",
    "Heiti SC",
    "Microsoft YaHei",
    "SimHei",
    "Noto Sans SC",
    "Sarasa Gothic SC",
    "AR PL UMing CN",
    "Arial Unicode MS",
)
"""Fonts with Simplified Chinese glyphs, in the order they are preferred."""


def chinese_font() -> str | None:
    """The family name of an installed font that has Chinese glyphs, or None (matplotlib unchanged).

    A font installed after matplotlib built its cache (and the ``.ttc`` collections most Linux
    distributions ship) is not in matplotlib's list yet, so the system's font files are added first.
    """
    from matplotlib import font_manager

    chosen = _first_installed(font_manager)
    if chosen is None:
        known = {font.fname for font in font_manager.fontManager.ttflist}
        for path in font_manager.findSystemFonts():
            if path not in known:
                try:
                    font_manager.fontManager.addfont(path)
                except (OSError, RuntimeError, ValueError):  # a file FreeType cannot read: skip it
                    continue
        chosen = _first_installed(font_manager)
    return chosen


def use_chinese_font() -> str | None:
    """Configure matplotlib for Chinese labels; returns the font chosen, or None when the machine
    has none.
    """
    import matplotlib

    warnings.filterwarnings(
        "ignore", message=r"Glyph \d+ .* missing from (current )?font", category=UserWarning
    )
    chosen = chinese_font()
    if chosen is not None:
        others = [f for f in matplotlib.rcParams["font.sans-serif"] if f != chosen]
        matplotlib.rcParams["font.sans-serif"] = [chosen, *others]
        matplotlib.rcParams["font.family"] = "sans-serif"
    # the Unicode minus sign is missing from many CJK fonts
    matplotlib.rcParams["axes.unicode_minus"] = False
    return chosen


def _first_installed(font_manager: object) -> str | None:
    installed = {font.name for font in font_manager.fontManager.ttflist}  # type: ignore[attr-defined]
    return next((name for name in CJK_FONTS if name in installed), None)


__all__ = ["CJK_FONTS", "chinese_font", "use_chinese_font"]
