"""The code on the docs pages runs as written: the home page's install lines name real extras
and its quick start plays a game; the environment page's vector-env example plays games."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO / "docs"


def blocks(page: str, language: str) -> list[str]:
    text = (DOCS / page).read_text(encoding="utf-8")
    return re.findall(rf"```{language}\n(.*?)```", text, re.DOTALL)


def test_the_home_page_installs_extras_that_exist():
    extras = set(
        tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    )
    (install,) = blocks("index.md", "bash")
    named = re.findall(r'pip install -e "\.\[([\w,]+)\]"', install)
    assert named, install
    assert {extra for group in named for extra in group.split(",")} <= extras
    assert "download.pytorch.org/whl/cpu" in install  # CPU-only torch, not the CUDA build


def test_the_home_page_quick_start_plays_a_game(capsys):
    (quick_start,) = blocks("index.md", "python")
    namespace: dict = {}
    exec(compile(quick_start, "docs/index.md", "exec"), namespace)
    assert namespace["terminated"] is True
    assert namespace["reward"] in (-1.0, 1.0)
    assert capsys.readouterr().out.split()[0] == str(namespace["reward"])


def test_the_environment_page_vector_env_example_plays_games(capsys):
    (example,) = [b for b in blocks("environment.md", "python") if "vector_entry_point" in b]
    namespace: dict = {}
    exec(compile(example, "docs/environment.md", "exec"), namespace)
    assert namespace["finished"] >= 20
    rows = [line.split() for line in capsys.readouterr().out.splitlines()]
    assert len(rows) == namespace["finished"]
    # each line: the env, the ended game's reward (win_loss) and its final score
    assert all(0 <= int(env) < 8 and float(reward) in (-1.0, 1.0) for env, reward, _ in rows)
    assert np.all(namespace["obs"].shape == (8, 991))
