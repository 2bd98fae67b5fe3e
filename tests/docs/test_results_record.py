"""Results record what played: every results file stores, beside each spec as typed, its
resolved spec (every constructor option, each model file by role and SHA-256:
``friday_agents.players.resolved``); the committed results got theirs once from the rewriters
that spelled out what they played (``tools/migrate_results.py``), tested here as that record."""

from __future__ import annotations

import hashlib
import importlib.util
import inspect
import json
import subprocess
from pathlib import Path

import pytest

from friday_agents.cli import main
from friday_agents.models import NET, ROLES
from friday_agents.players.registry import agent_class, make_agent
from friday_agents.players.resolved import played_spec, resolve_spec
from friday_agents.players.search.guided import BEFORE_LEAF_STUDY

REPO = Path(__file__).resolve().parents[2]


def _load_migration():
    spec = importlib.util.spec_from_file_location("migrate", REPO / "tools/migrate_results.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


migrate = _load_migration()


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _committed_results() -> list[Path]:
    names = subprocess.run(
        ["git", "ls-files", "*.json"], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout.split()
    return [
        REPO / name
        for name in names
        if '"friday-env/evaluation-results"' in (REPO / name).read_text(encoding="utf-8")
    ]


# ------------------------------------------------------------------- resolving a spec


def test_a_resolved_spec_holds_every_option_and_every_model_by_role_and_hash():
    entry = resolve_spec("guided", sims=32)
    parameters = inspect.signature(agent_class("guided")).parameters
    assert entry["spec"] == "guided" and entry["agent"] == "guided"
    assert list(entry["options"]) == list(parameters) and entry["defaults"] == {"sims": 32}
    assert entry["options"]["sims"] == 32 and entry["options"]["prior"] == "net-v1"
    by_option = {model["option"]: model for model in entry["models"]}
    assert set(by_option) == {"prior", "value", *(f"value/level{lv}" for lv in (1, 2, 3, 4))}
    assert by_option["value/level4"]["role"] == "guided-leaf-level4"
    for model in entry["models"]:
        assert not Path(model["path"]).is_absolute()
        assert model["sha256"] == _sha256(ROLES[model["role"]])


@pytest.mark.parametrize(
    ("spec", "roles"),
    [
        ("random", []),
        ("heuristic", []),
        ("search", ["search-value"]),
        ("net", ["net"]),
        ("net:model=net-v1", ["net-v1"]),
        ("scratch", ["scratch"]),
        ("ppo", ["ppo-all-levels"]),
        ("oracle:prior=guided-prior", ["guided-prior", "search-value"]),
        (
            "search:value=experiments/level4-value/results/leaf_per_level.json",
            [None, *["guided-value-cards"] * 3, None],
        ),
    ],
)
def test_each_agent_names_the_files_it_loads(spec, roles):
    assert [model["role"] for model in resolve_spec(spec)["models"]] == roles


def test_a_spec_that_still_plays_the_same_is_shown_as_typed():
    for spec in ("guided", "guided:top=1", "net", "search:sims=8", "heuristic", "scratch"):
        assert played_spec(resolve_spec(spec, sims=32)) == spec


@pytest.mark.parametrize(
    ("typed", "played", "shown"),
    [
        ("guided", BEFORE_LEAF_STUDY, BEFORE_LEAF_STUDY),
        ("guided", "guided:top=1", "guided:top=1"),
        ("net", "net:model=net-v1", "net:model=net-v1"),
        (  # an option typed in place keeps its place; the others follow, models first
            "guided:prior=net:sims=64",
            "guided:sims=64:top=1:value=guided-value-per-level:prior=net-v1",
            "guided:prior=net-v1:sims=64:value=guided-value-per-level:top=1",
        ),
    ],
)
def test_a_spec_whose_meaning_changed_is_shown_as_it_played(typed, played, shown):
    stored = resolve_spec(played, sims=32) | {"spec": typed}
    assert played_spec(stored) == shown
    make_agent(shown)  # the shown spec is one an agent takes


def test_friday_eval_stores_the_resolved_spec_and_a_relative_out(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "run"  # given absolute, stored relative to where the command ran
    args = ["eval", "--agents", "random,net", "--levels", "1", "--games", "1", "--workers", "1"]
    assert main([*args, "--no-progress", "--out", str(out)]) == 0
    results = json.loads((out / "results.json").read_text())
    assert set(results["resolved"]) == {"random", "net"}
    (model,) = results["resolved"]["net"]["models"]
    assert model["role"] == "net" and model["sha256"] == _sha256(NET)
    assert results["command"].endswith("--out run")


# --------------------------------------------------------------- the committed results


def test_every_committed_results_file_stores_what_each_agent_played():
    files = _committed_results()
    assert len(files) >= 60
    for path in files:
        results = json.loads(path.read_text(encoding="utf-8"))
        resolved = results.get("resolved")
        assert isinstance(resolved, dict), f"{path}: no resolved specs"
        assert list(resolved) == results["config"]["agents"], path
        for spec, entry in resolved.items():
            sims = {"sims": results["config"]["search_sims"]}  # for the agents taking it
            assert entry["spec"] == spec and entry["defaults"].items() <= sims.items()
            for model in entry["models"]:
                assert not Path(model["path"]).is_absolute(), path
                assert model["role"] is None or model["role"] in ROLES, path
            played_spec(entry)  # reads back as a spec today's agents take


@pytest.mark.parametrize(
    ("path", "spec", "shown"),
    [
        ("experiments/results/readme_results.json", "guided", BEFORE_LEAF_STUDY),
        (
            "experiments/rl/eval/guided_priors.json",
            "guided:prior=net",
            "guided:prior=net-v1:value=guided-value-per-level:top=1",
        ),
        ("experiments/rl/eval/net_vs_start.json", "net", "net:model=net-v1"),
        ("experiments/level4-breadth/results/validation/results.json", "guided", "guided:top=1"),
        ("experiments/net-scale/results/selection/results.json", "net", "net:model=net-v1"),
        ("experiments/level4-breadth/results/evaluation/level4/results.json", "guided:top=3",
         "guided:top=3"),
    ],
)  # fmt: skip
def test_the_migrated_results_say_what_played(path, spec, shown):
    entry = json.loads((REPO / path).read_text())["resolved"][spec]
    assert played_spec(entry) == shown
    assert entry["migrated"].startswith("tools/migrate_results.py")


def test_net_v1_s_hash_is_the_network_the_results_before_the_net_scale_study_played():
    """``net`` before the net-scale study was ``net_v1.npz``'s bytes: the hash git held."""
    entry = json.loads((REPO / "experiments/rl/eval/net_vs_start.json").read_text())
    (model,) = entry["resolved"]["net"]["models"]
    assert model["role"] == "net-v1" and model["sha256"] == _sha256(ROLES["net-v1"])


# ----------------------------------------------- the rewriters the migration read (its record)


@pytest.mark.parametrize(
    ("spec", "as_played"),
    [
        ("net", "net:model=net-v1"),
        ("net:model=", "net:model=net-v1"),
        ("net:model=net", "net:model=net-v1"),
        ("net:model=net-v1", None),
        ("net:model=experiments/rl/scratch-ppo-l1/policy.npz", None),
        ("net:model=runs/net", None),  # a path that ends in the word, not the role
        ("guided", None),  # its prior was net-v1's network then and is since
        ("guided:prior=net", "guided:prior=net-v1"),
        ("guided:prior=net-v1", None),
        ("guided:prior=experiments/net.npz", None),
        ("search:prior=net:top=3", "search:prior=net-v1:top=3"),
        ("search:rollout=net:sims=8", "search:rollout=net-v1:sims=8"),
        ("search:value=value-net", None),
        ("oracle:prior=net", "oracle:prior=net-v1"),
        ("scratch", None),
        ("heuristic", None),
    ],
)
def test_committed_specs_naming_net_name_net_v1(spec, as_played):
    """``None``: the spec comes back unchanged."""
    relabelled = migrate.as_before_net_scale(spec)
    assert relabelled == (as_played or spec)
    assert migrate.as_before_net_scale(relabelled) == relabelled
    if "/" not in relabelled:  # the paths here name no file
        make_agent(relabelled)  # every relabelled spec is one an agent takes


def test_the_relabellings_compose():
    """A run from before the level-4 leaf study: guided's defaults of then, and net-v1."""
    spec = migrate.as_before_net_scale(migrate.as_before_leaf_study("guided:prior=net:sims=64"))
    assert spec == "guided:prior=net-v1:sims=64:value=guided-value-per-level:top=1"
    assert migrate.as_before_net_scale(migrate.as_before_leaf_study("net")) == "net:model=net-v1"


@pytest.mark.parametrize(
    ("spec", "leaf", "breadth"),
    [
        (
            "guided",
            "guided:prior=guided-prior:value=guided-value-per-level:top=1",
            "guided:top=1",
        ),
        (
            "guided:prior=net:sims=64",
            "guided:prior=net:sims=64:value=guided-value-per-level:top=1",
            "guided:prior=net:sims=64:top=1",
        ),
        ("guided:top=2", "guided:top=2:prior=guided-prior:value=guided-value-per-level", None),
        ("guided:prior=", "guided:prior=:value=guided-value-per-level", None),  # no prior, no top
        ("search", None, None),
        ("search:prior=net", None, None),
        ("oracle:prior=guided-prior", None, None),
        (BEFORE_LEAF_STUDY, None, None),
    ],
)
def test_committed_specs_are_spelled_out_as_they_played(spec, leaf, breadth):
    """``None``: the spec comes back unchanged (another agent's, or one naming everything)."""
    assert migrate.as_before_leaf_study(spec) == (leaf or spec)
    assert migrate.as_before_breadth_study(spec) == (breadth or spec)
    for relabelled in (migrate.as_before_leaf_study(spec), migrate.as_before_breadth_study(spec)):
        make_agent(relabelled)  # every spelled-out spec is one an agent takes


def test_the_specs_of_before_play_top_1_everywhere():
    assert migrate.as_before_leaf_study("guided") == BEFORE_LEAF_STUDY
    assert migrate.as_before_breadth_study("guided") == migrate.BEFORE_BREADTH_STUDY
    for spec in (BEFORE_LEAF_STUDY, migrate.BEFORE_BREADTH_STUDY):
        assert make_agent(spec).tops == dict.fromkeys((1, 2, 3, 4), 1)
