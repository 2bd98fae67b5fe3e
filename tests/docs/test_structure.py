"""The package's structure: studies outside it, model files by role with a manifest, one
reader of games files, agents described by their whole spec, subcommands imported only when
they run, and each agent of ``friday eval`` built once."""

from __future__ import annotations

import gzip
import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from friday_agents.cli import main
from friday_agents.cli.view import saved_rows
from friday_agents.evaluation.report import agent_description
from friday_agents.evaluation.runner import EvalConfig, EvaluationError, load_rows
from friday_agents.evaluation.strategy.strategy import AnalysisInputError
from friday_agents.evaluation.strategy.strategy import load_games as strategy_games
from friday_agents.harness.games_file import GamesFileError, read_games, read_games_file
from friday_agents.learning.fitting.game_data import recorded_games
from friday_agents.learning.imitation.data import ImitationDataError, done_games
from friday_agents.learning.imitation.data import read_games as imitation_games
from friday_agents.models import (
    CHECKOUT_ONLY,
    GUIDED_LEAF_LEVEL4,
    GUIDED_PRIOR,
    GUIDED_VALUE_LEAF,
    GUIDED_VALUE_PER_LEVEL,
    MANIFEST,
    MODELS_DIR,
    MOVED,
    NET,
    NET_V1,
    PPO_ALL_LEVELS,
    RENAMED_WORDS,
    ROLES,
    SEARCH_VALUE,
    VALUE_NET,
    ModelNameError,
    model_file,
)
from friday_agents.players.networks.linear_value import load_value_model
from friday_agents.players.networks.policy_net import load_policy_network
from friday_agents.players.networks.value_net import load_value_network
from friday_agents.players.ppo import PPOAgent, PPOCheckpointError, default_checkpoint
from friday_agents.players.registry import AGENTS, AgentSpecError, make_agent
from friday_agents.players.search.guided import BEFORE_LEAF_STUDY
from friday_agents.players.search.value_levels import load_leaf_value
from friday_env import RecordError

REPO = Path(__file__).resolve().parents[2]

# ------------------------------------------------------------------ the models folder


def _manifest() -> dict:
    return json.loads(MANIFEST.read_text())["models"]


def _loads_file(spec: str, name: str) -> bool:
    """Whether the agent ``spec`` builds holds the model read from the models folder's
    ``name``."""
    agent = make_agent(spec)
    path = MODELS_DIR / name
    if name == "ppo_all_levels.zip":
        return isinstance(agent, PPOAgent) and all(
            default_checkpoint(lv) == path for lv in range(1, 5)
        )
    if path.suffix == ".npz" and hasattr(agent, "policy"):  # the net agent
        return agent.policy.network is load_policy_network(path)
    if name in ("guided_prior.npz", "scratch_distilled.npz") or (
        name in ("net.npz", "net_v1.npz") and hasattr(agent, "prior")
    ):
        return agent.prior is not None and agent.prior.network is load_policy_network(path)
    if name == "value_net.npz":
        return agent.model is load_value_network(path)
    model = agent.model
    if model is load_leaf_value(path):
        return True
    per_level = getattr(model, "models", {}).values()  # a per-level value: one of its models
    return any(one is load_leaf_value(path) for one in per_level)


def test_the_manifest_names_every_model_file_by_its_role_and_the_wheel_ships_the_used_ones():
    on_disk = {p.name for p in MODELS_DIR.iterdir() if p.suffix in (".json", ".npz", ".zip")}
    manifest = _manifest()
    assert set(manifest) == on_disk - {MANIFEST.name}
    assert {entry["role"]: MODELS_DIR / name for name, entry in manifest.items()} == ROLES
    assert all(role == path.stem.replace("_", "-") for role, path in ROLES.items())
    not_shipped = {name for name, entry in manifest.items() if entry.get("shipped") is False}
    assert not_shipped == {ROLES[role].name for role in CHECKOUT_ONLY} == {"value_net.npz"}
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text())
    shipped = pyproject["tool"]["setuptools"]["package-data"]["friday_agents.models"]
    assert set(shipped) == set(manifest) - not_shipped
    data = pyproject["tool"]["setuptools"]["package-data"]
    assert not any(package.startswith("friday_agents.players.search") for package in data)


def test_the_manifest_says_of_every_model_whether_a_teacher_made_it():
    """``teacher`` is true or false, never left out; only the models learned from nothing say
    false (the no-teacher agents may load only those: tests/agents/test_no_teacher.py)."""
    manifest = _manifest()
    assert all(type(entry.get("teacher")) is bool for entry in manifest.values())
    learned_from_nothing = {role for role in ROLES if role.startswith("scratch")}
    assert {entry["role"] for entry in manifest.values() if not entry["teacher"]} == (
        learned_from_nothing
    )
    assert "scratch" in learned_from_nothing


def test_the_shipped_models_are_those_a_default_agent_loads():
    """Every shipped file is loaded by an agent named without options or by guided's defaults
    before the level-4 leaf study (its earlier results' spec); the one not shipped by neither."""
    for name, entry in _manifest().items():
        by_default = [s for s in entry["loaded_by"] if ":" not in s or s == BEFORE_LEAF_STUDY]
        assert bool(by_default) == (entry.get("shipped", True)), name


@pytest.mark.parametrize("name", sorted(json.loads(MANIFEST.read_text())["models"]))
def test_each_model_file_is_loaded_by_the_specs_the_manifest_names(name):
    entry = _manifest()[name]
    assert entry["loaded_by"] and entry["command"] and entry["data"]
    for spec in entry["loaded_by"]:
        if spec == "ppo":
            pytest.importorskip("sb3_contrib")
        assert _loads_file(spec, name), f"{spec} does not load {name}"
    for word in entry["data"].split() + entry["command"].split():
        if word.startswith("experiments/data/"):
            assert (REPO / word).is_file(), f"{name}: {word} is not committed"


def test_the_role_constants_are_the_files_the_agents_load():
    assert make_agent("search").model is load_value_model(SEARCH_VALUE)
    assert make_agent("guided").model is load_leaf_value(GUIDED_VALUE_LEAF)
    assert make_agent("guided").model.models[4] is load_leaf_value(GUIDED_LEAF_LEVEL4)
    assert make_agent(BEFORE_LEAF_STUDY).model is load_leaf_value(GUIDED_VALUE_PER_LEVEL)
    assert make_agent("search:value=value-net").model is load_value_network(VALUE_NET)
    assert make_agent(BEFORE_LEAF_STUDY).prior.network is load_policy_network(GUIDED_PRIOR)
    assert make_agent("net").policy.network is load_policy_network(NET)
    assert make_agent("guided").prior.network is load_policy_network(NET_V1)
    assert default_checkpoint(1) == PPO_ALL_LEVELS


def test_net_names_one_network_wherever_a_spec_names_it():
    """``net`` is the net agent's network as the agent, as a prior and in the rollouts; so is
    ``net-v1`` (guided's default prior, the ``net`` network before the net-scale study);
    guided's prior before the level-4 leaf study is ``guided-prior``, another file."""
    for role in ("net", "net-v1"):
        network = make_agent(f"net:model={role}").policy.network
        assert make_agent(f"guided:prior={role}").prior.network is network
        assert make_agent(f"search:rollout={role}").rollout_policy.__self__.network is network
        assert make_agent("guided:prior=guided-prior").prior.network is not network
    assert make_agent("guided").prior.network is make_agent("net:model=net-v1").policy.network


@pytest.mark.parametrize(
    ("spec", "new"),
    [
        ("search:value=net", "value=value-net"),
        ("search:value=levels", "value=guided-value-per-level"),
        ("guided:prior=agents/friday_agents/models/net.npz", "prior=net"),
        ("search:prior=agents/friday_agents/models/policy_prior.npz", "prior=guided-prior"),
        ("search:value=agents/friday_agents/models/search_value.json", "value=search-value"),
        ("net:model=agents/friday_agents/models/guided_prior.npz", "model=guided-prior"),
        (
            "search:value=agents/friday_agents/players/search/value_weights.json",
            "value=search-value",
        ),
        ("search:value=agents/friday_agents/players/search/value_net.npz", "value=value-net"),
        ("search:prior=agents/friday_agents/players/search/policy_net.npz", "prior=guided-prior"),
    ],
)
def test_an_old_model_name_is_refused_naming_its_role(spec, new):
    with pytest.raises(AgentSpecError) as caught:
        make_agent(spec)
    assert new in str(caught.value)
    assert str(caught.value).count("\n") == 0


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("search:value=guided-prior", "is not a value network"),
        ("search:prior=search-value", "must be an .npz policy network"),
        ("net:model=guided-value-cards", "must be a policy network"),
        ("search:value=ppo-all-levels", "must be a .json"),
    ],
)
def test_a_role_of_the_wrong_kind_is_refused_by_name(spec, message):
    with pytest.raises(AgentSpecError, match=message):
        make_agent(spec)


def test_every_old_word_names_a_role():
    assert set(RENAMED_WORDS.values()) <= set(ROLES)


@pytest.mark.parametrize(
    "spec",
    [
        "guided:value=agents/friday_agents/players/search/value_per_level.json",
        "search:value=agents/friday_agents/players/search/value_per_level_basic.json",
    ],
)
def test_a_model_named_by_its_old_path_says_where_it_moved(spec):
    old = spec.split("=", 1)[1]
    with pytest.raises(AgentSpecError) as caught:
        make_agent(spec)
    assert "guided-value-per-level" in str(caught.value) or MOVED[old] in str(caught.value)


def test_a_checkout_only_model_missing_from_an_install_says_where_it_comes_from(
    monkeypatch, tmp_path
):
    """In an installed wheel value_net.npz is absent: naming it says it comes with a source
    checkout (simulated by pointing the role at a missing file)."""
    monkeypatch.setitem(ROLES, "value-net", tmp_path / "value_net.npz")
    with pytest.raises(ModelNameError, match="comes with a source checkout"):
        model_file("value-net", "value")
    with pytest.raises(AgentSpecError, match="comes with a source checkout"):
        make_agent("search:value=value-net")


def test_docs_list_every_model_role_and_no_spec_names_a_model_path():
    agents_doc = (REPO / "docs" / "agents.md").read_text()
    for role in ROLES:
        assert f"`{role}`" in agents_doc, role
    pattern = re.compile(r"(?:prior|value|rollout|model)=agents/friday_agents/models/")
    for page in [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]:
        assert not pattern.search(page.read_text()), page


def test_the_old_ppo_checkpoint_path_says_where_it_moved():
    pytest.importorskip("sb3_contrib")
    with pytest.raises(
        PPOCheckpointError, match=r"agents/friday_agents/models/ppo_all_levels\.zip"
    ):
        PPOAgent(model="agents/friday_agents/players/ppo/checkpoints/ppo-all-levels.zip")


def test_the_basic_per_level_value_of_the_study_still_loads_from_its_folder():
    """The value guided used before the cards model is loaded by no agent by default, so it
    lives with its study, naming the shipped models it combines."""
    path = REPO / "experiments/search-strength/models/guided_value_per_level_basic.json"
    model = load_leaf_value(path)
    assert model.models[1] is load_value_model(SEARCH_VALUE)
    assert model.models[4] is load_value_model(MODELS_DIR / "guided_value_level4.json")


# ------------------------------------------------------------------ studies out of the package

STUDY_SCRIPTS = sorted(
    p for p in (REPO / "experiments").glob("*/*.py") if "__main__" in p.read_text()
)


def test_no_study_is_left_in_the_package():
    installed = {p.stem for p in (REPO / "agents" / "friday_agents").rglob("*.py")}
    assert not installed & {"value_check", "ingredients", "timing", "tune", "study"}
    assert not (REPO / "agents" / "friday_agents" / "learning" / "imitation" / "report.py").exists()
    assert {p.parent.name for p in STUDY_SCRIPTS} >= {
        "search-strength",
        "heuristic-tuning",
        "imitation",
    }


@pytest.mark.parametrize("script", STUDY_SCRIPTS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_each_study_script_runs_as_a_script_from_anywhere(script, tmp_path):
    """``python experiments/<study>/<script>.py --help`` works from any directory: a study
    imports the installed library and its own folder's scripts only."""
    done = subprocess.run(
        [sys.executable, str(script), "--help"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "usage:" in done.stdout


# ------------------------------------------------------------------ one games-file reader


def _write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


GAME = {"agent": "random", "level": 1, "index": 0, "seed": 11_000_000, "actions": [0]}


def test_a_last_line_cut_short_is_dropped_and_said(tmp_path):
    whole = json.dumps(GAME)
    found = read_games_file(_write(tmp_path / "g.jsonl", f"{whole}\n\n{whole}\n{whole[:9]}"))
    assert found.games == [GAME, GAME] and found.cut_short
    assert found.where(1) == f"{tmp_path / 'g.jsonl'}:3"  # blank lines skipped, numbers kept


@pytest.mark.parametrize(
    "text, message",
    [
        ("{bad\n" + json.dumps(GAME) + "\n", "jsonl:1 is not a JSON line"),
        (json.dumps(GAME) + "\n{bad\n", "jsonl:2 is not a JSON line"),  # ended: not a cut
        ("[1, 2]\n", "jsonl:1 is not a JSON object"),
    ],
)
def test_every_reader_applies_the_same_policy(tmp_path, text, message):
    """The games-file readers of friday eval --resume, friday view, friday imitate, the
    strategy analysis and the fits all refuse the same lines with the same message."""
    path = _write(tmp_path / "g.jsonl", text)
    config = EvalConfig(("random",), (1,), {"random": 1}, 32)
    (tmp_path / "games.jsonl").write_text(text)
    readers = [
        (GamesFileError, lambda: read_games(path)),
        (ImitationDataError, lambda: imitation_games(path)),
        (AnalysisInputError, lambda: strategy_games(path)),
        (GamesFileError, lambda: list(recorded_games(path))),
        (RecordError, lambda: saved_rows(path)),
        (EvaluationError, lambda: load_rows(tmp_path, config)),
    ]
    for error, read in readers:
        with pytest.raises(error, match=message.replace(".", r"\.")):
            read()


def test_gzip_and_missing_files(tmp_path):
    packed = tmp_path / "g.jsonl.gz"
    with gzip.open(packed, "wt") as handle:
        handle.write(json.dumps(GAME) + "\n")
    assert read_games(packed) == [GAME]
    with pytest.raises(GamesFileError, match="does not exist"):
        read_games(tmp_path / "none.jsonl")
    assert read_games(tmp_path / "none.jsonl", missing_ok=True) == []


def test_resume_repairs_a_cut_short_file_before_appending(tmp_path):
    config = EvalConfig(("random",), (1,), {"random": 2}, 32)
    game = GAME | {"won": False, "score": -9, "life": 0, "actions": 1, "fights": 1, "seconds": 0.1}
    whole = json.dumps(game)
    (tmp_path / "games.jsonl").write_text(f"{whole}\n{whole[:7]}")
    assert load_rows(tmp_path, config) == [game]
    assert (tmp_path / "games.jsonl").read_text() == f"{whole}\n"


def test_imitate_collect_repairs_a_cut_short_file_before_appending(tmp_path):
    games = tmp_path / "teacher.jsonl"
    whole = json.dumps(GAME)
    games.write_text(f"{whole}\n{whole[:7]}")
    assert done_games(games) == {(1, 0)}
    assert games.read_text() == f"{whole}\n"


# ------------------------------------------------------------------ labels from the spec


def test_an_agent_is_described_by_its_whole_spec():
    plain, tuned = (
        agent_description("oracle", 32),
        agent_description("oracle:prior=guided-prior:value=guided-value-per-level", 32),
    )
    assert plain != tuned and tuned.startswith(plain.removesuffix("; 32 simulations per decision"))
    assert "policy prior" in tuned and "per level" in tuned
    assert "64 simulations" in agent_description("search:sims=64", 32)
    committed = agent_description("ppo", 32)
    other = agent_description("ppo:model=run/policy.zip", 32)
    assert "ppo_all_levels.zip" in committed and "ppo_all_levels.zip" not in other
    assert "`model=run/policy.zip`" in other


# ------------------------------------------------------------------ the CLI imports lazily

SUBCOMMAND_MODULES = (
    "friday_agents.cli.eval",
    "friday_agents.players.human",
    "friday_agents.cli.replay",
    "friday_agents.cli.view",
    "friday_agents.learning.sb3.train",
    "friday_agents.cli.imitate",
    "friday_agents.cli.bench",
)


def _imported_after(*args: str) -> set[str]:
    code = (
        "import sys\n"
        "from friday_agents.cli import main\n"
        "try:\n"
        f"    main({list(args)!r})\n"
        "except SystemExit:\n"
        "    pass\n"
        f"print(' '.join(m for m in {SUBCOMMAND_MODULES!r} if m in sys.modules))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return set(done.stdout.split("\n")[-2].split())


def test_friday_help_imports_no_subcommand():
    assert _imported_after("--help") == set()


def test_friday_eval_imports_only_the_evaluation():
    assert _imported_after("eval", "--help") == {"friday_agents.cli.eval"}


def test_every_subcommand_still_has_its_help():
    for command in ("eval", "play", "replay", "view", "train", "imitate", "bench"):
        with pytest.raises(SystemExit) as done:
            main([command, "--help"])
        assert done.value.code == 0


# ------------------------------------------------------------------ each agent built once


class CountingAgent:
    """Plays the first legal action and counts how often it is built."""

    built = 0

    def __init__(self) -> None:
        CountingAgent.built += 1

    def reset(self, seed: int) -> None:
        pass

    def act(self, game) -> int:
        return game.legal_actions()[0]


def test_friday_eval_builds_each_agent_once(tmp_path, monkeypatch):
    monkeypatch.setitem(AGENTS, "counting", f"{__name__}:CountingAgent")
    CountingAgent.built = 0
    args = ["eval", "--agents", "counting", "--levels", "1,2", "--games", "3", "--workers", "1"]
    assert main([*args, "--no-progress", "--out", str(tmp_path / "run")]) == 0
    assert CountingAgent.built == 1
    rows = read_games(tmp_path / "run" / "games.jsonl")
    assert len(rows) == 6 and {row["agent"] for row in rows} == {"counting"}
