"""Checks for the Day 2 structured-outputs exercise (filled in with the exercise itself)."""

from __future__ import annotations
