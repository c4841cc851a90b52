"""Checks for the MCP appendix's exercise (filled in with the exercise itself)."""

from __future__ import annotations
