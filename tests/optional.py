"""Tests of optional parts (a browser, RL libraries): skip with the reason when what they
need is missing, except under ``CI=true``, where CI installs everything and a missing piece
is a failure rather than a silent skip."""

from __future__ import annotations

import importlib.util
import os

import pytest


def unavailable(why: str) -> None:
    """Skip (or, in CI, fail) the calling test because ``why``."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI must run this test, but {why}")
    pytest.skip(why)


def require_modules(*modules: str, install: str) -> None:
    """Skip (CI: fail) unless every module imports; ``install`` says how to get them."""
    missing = [m for m in modules if importlib.util.find_spec(m) is None]
    if missing:
        unavailable(f"{', '.join(missing)} not installed ({install})")
