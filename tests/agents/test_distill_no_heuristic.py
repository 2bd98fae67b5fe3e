"""``friday distill`` whose labelling search reads no heuristic (``anchor`` and ``rollout``
``prior``: the round's network is the search's prior, its anchor and its rollout policy), the
expert iteration of issue 42's stage 6, on a tiny budget (no learning threshold)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_expert_iteration import TINY, run_distill

import friday_agents.players.search.agent as search_agent
from friday_agents.harness.games_file import read_games_file
from friday_agents.learning.distill.config import ExitConfigError, load_config

#: One round on level 1 from the no-teacher network ``scratch``, the search anchored on it and
#: rolling it out.
NO_HEURISTIC = TINY | {
    "rounds": 1,
    "levels": [1],
    "first_prior": "scratch",
    "sims": 2,
    "top": 2,
    "anchor": "prior",
    "rollout": "prior",
}


def test_a_round_with_no_heuristic_in_its_labels_runs_and_measures_its_own_search(
    tmp_path, monkeypatch
):
    def refuse(*args, **kwargs):
        raise AssertionError("the heuristic was called")

    monkeypatch.setattr(search_agent, "heuristic_action", refuse)  # one worker: in process
    assert run_distill(tmp_path, NO_HEURISTIC) == 0
    summary = json.loads((tmp_path / "out" / "round-00" / "summary.json").read_text())
    teacher = "search:sims=2:value=guided-value-per-level:prior=scratch:top=2:anchor=prior"
    assert summary["teacher"] == f"{teacher}:rollout=scratch"
    network = Path(tmp_path / "out" / "round-00" / "network.npz")
    assert summary["search"]["spec"].endswith(
        f"prior={network}:top=2:anchor=prior:rollout={network}"
    )
    start = json.loads((tmp_path / "out" / "start.json").read_text())
    assert start["search"]["spec"] == summary["teacher"]
    games = read_games_file(tmp_path / "data" / "round-00" / "teacher.jsonl").games
    assert games and all(game["teacher"] == summary["teacher"] for game in games)


def test_a_study_without_the_new_settings_labels_as_before(tmp_path):
    path = tmp_path / "config.json"
    path.write_text(json.dumps(TINY))
    config = load_config(path)
    assert (config.anchor, config.rollout) == ("heuristic", "")
    assert config.teacher_spec("P") == "search:sims=4:value=guided-value-per-level:prior=P:top=2"
    assert config.uses_heuristic


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"anchor": "network"}, "anchor (heuristic or prior)"),
        ({"anchor": "prior", "top": 1}, "anchor (prior needs top of at least 2)"),
        ({"rollout": "net"}, "rollout ('' for the heuristic, or prior)"),
        ({"margin": -0.1}, "margin (a number >= 0)"),
    ],
)
def test_bad_anchor_and_rollout_are_refused_by_name(tmp_path, change, message):
    path = tmp_path / "config.json"
    path.write_text(json.dumps(TINY | change))
    with pytest.raises(ExitConfigError, match=message.replace("(", r"\(").replace(")", r"\)")):
        load_config(path)


def test_the_labelling_searchs_margin_goes_into_its_spec(tmp_path):
    """PLAN amendment 4 of issue 42's stage 6: the labelling search departs from the round's
    network only past ``margin``."""
    path = tmp_path / "config.json"
    path.write_text(json.dumps(NO_HEURISTIC | {"margin": 0.05}))
    spec = load_config(path).teacher_spec("P")
    assert spec.endswith(":top=2:anchor=prior:rollout=P:margin=0.05")
