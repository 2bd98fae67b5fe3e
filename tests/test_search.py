"""The search agent's settings: one default simulation budget everywhere."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

from friday_agents.evaluation.evaluate import DEFAULT_SEARCH_SIMS
from friday_agents.search.agent import DEFAULT_SIMS, SearchAgent

README = Path(__file__).resolve().parents[1] / "README.md"


def test_one_default_simulation_budget():
    """``friday eval``, ``SearchAgent`` and the README's results table use one setting."""
    assert inspect.signature(SearchAgent).parameters["sims"].default == DEFAULT_SIMS
    assert SearchAgent().sims == DEFAULT_SEARCH_SIMS == DEFAULT_SIMS
    command = re.search(r"Reproduce with `(friday eval [^`]*)`", README.read_text())
    assert command, "the README's results section names no friday eval command"
    assert f"--search-sims {DEFAULT_SIMS} " in command.group(1) + " "
