"""The results policy (``docs/developing.md``, "Results in the repository"): no checkpoint in
git but the one resume checkpoint of a run still in progress (its folder listed in
``experiments/in_progress.txt``); games and curves over 1 MB committed compressed, and read
so; model files only where a shipped model, a track entry or a test names them."""

from __future__ import annotations

import gzip
import importlib.util
import json
import subprocess
from pathlib import Path

import pytest

from friday_agents.harness.curve import read_curve
from friday_agents.harness.games_file import read_games
from friday_agents.models import GUIDED_LEAF_LEVEL4, MODELS_DIR

REPO = Path(__file__).resolve().parents[2]
IN_PROGRESS = REPO / "experiments/in_progress.txt"
#: The most a games file or a curve may weigh uncompressed in git.
LIMIT = 1_000_000
#: Model files by their suffix (a checkpoint is a ``checkpoint.pt``, tested apart).
MODEL_SUFFIXES = (".npz", ".zip", ".pt", ".pth", ".onnx", ".safetensors")
#: The files that name what a track entry played.
TRACK_FILES = ("agents/friday_agents/evaluation/tracks.json", "experiments/tracks/entries")
#: Test fixtures live here: a test names their folder.
FIXTURES = "tests/data/"
#: Finished runs' checkpoints a test resumes (the checkpoint -> the test, ``file::name``).
RESUMED_BY_A_TEST = {
    "experiments/from-nothing/results/a2-l1/checkpoint.pt": (
        "tests/cli/test_vocabulary.py::test_the_committed_study_run_resumes_for_one_update"
    ),
}
#: The networks of the net-scale study's rounds: its stage-3 selection (below) plays them.
NET_SCALE_ROUNDS = (
    "experiments/net-scale/results/distill/round-00/network.npz",
    "experiments/net-scale/results/distill/round-01/network.npz",
    "experiments/net-scale/results/distill/round-02/network.npz",
)
#: The no-teacher study's stage 6: the expert iteration's networks (its selection, below, plays
#: the search with each) and the per-level leaf networks ``scratch-search``'s value copies.
NO_TEACHER_ROUNDS = (
    "experiments/no-teacher/runs/s6m-distill/round-00/network.npz",
    "experiments/no-teacher/runs/s6m-distill/round-01/network.npz",
    "experiments/no-teacher/runs/s6m-distill/round-02/network.npz",
)
NO_TEACHER_LEAVES = (
    "experiments/no-teacher/runs/s6-value/leaf-l1.npz",
    "experiments/no-teacher/runs/s6-value/leaf-l2.npz",
    "experiments/no-teacher/runs/s6-value/leaf-l3.npz",
    "experiments/no-teacher/runs/s6-value/leaf-l4.npz",
)
#: The no-teacher study's stage-1 candidates and the wide run (stage 4) that joined them: stage
#: 1's selection and amendment 2's fourth candidate (below) play them.
NO_TEACHER_STAGE1 = (
    "experiments/no-teacher/runs/s1-c0.1-l1/policy.npz",
    "experiments/no-teacher/runs/s2-c0.1-l1/policy.npz",
    "experiments/no-teacher/runs/s3-c0.1-l1/policy.npz",
)
NO_TEACHER_WIDE = "experiments/no-teacher/runs/s1-c0.1-l1-w256/policy.npz"
#: The level-4 leaf study's network, the one ``guided-leaf-level4`` ships (below).
LEAF_STUDY_NETWORK = "experiments/level4-value/results/fits/h64.npz"


def _tracked() -> list[str]:
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True)
    return [n.decode() for n in listed.stdout.split(b"\0") if n and (REPO / n.decode()).exists()]


def runs_in_progress() -> set[str]:
    """The run folders of ``experiments/in_progress.txt`` (``#`` starts a comment)."""
    lines = IN_PROGRESS.read_text(encoding="utf-8").splitlines()
    return {line.strip().rstrip("/") for line in lines if line.strip() and line[0] != "#"}


def _in_progress(name: str) -> bool:
    return any(name.startswith(folder + "/") for folder in runs_in_progress())


def _is_checkpoint(name: str) -> bool:
    file = Path(name).name
    return file.startswith("checkpoint") and Path(file).suffix in (".pt", ".pth", ".ckpt")


def test_the_runs_in_progress_are_listed_by_their_relative_folders():
    for folder in runs_in_progress():
        assert not Path(folder).is_absolute() and ".." not in Path(folder).parts, folder
        assert folder.startswith("experiments/"), folder


def test_no_checkpoint_is_committed_but_the_resume_checkpoint_of_a_run_in_progress():
    found = [
        name
        for name in _tracked()
        if _is_checkpoint(name)
        and not (_in_progress(name) or name.startswith(FIXTURES) or name in RESUMED_BY_A_TEST)
    ]
    assert not found, f"checkpoints of finished runs (delete them): {found}"


def test_a_finished_runs_checkpoint_is_kept_only_for_the_test_that_resumes_it():
    for checkpoint, test in RESUMED_BY_A_TEST.items():
        file, _, name = test.partition("::")
        assert (REPO / checkpoint).is_file()
        assert f"def {name}(" in (REPO / file).read_text(encoding="utf-8"), test


def test_a_fixture_checkpoint_is_one_a_test_reads():
    tests = "\n".join(p.read_text(encoding="utf-8") for p in (REPO / "tests").rglob("*.py"))
    for name in _tracked():
        if _is_checkpoint(name) and name.startswith(FIXTURES):
            assert Path(name).parent.name in tests, name


def test_games_and_curves_over_1_mb_are_committed_compressed():
    heavy = [
        f"{name}: {(REPO / name).stat().st_size:,} bytes"
        for name in _tracked()
        if name.endswith((".jsonl", "curve.csv"))
        and (REPO / name).stat().st_size > LIMIT
        and not _in_progress(name)  # a run still writing keeps its plain file
    ]
    assert not heavy, "compress (gzip) these:\n" + "\n".join(heavy)


def test_every_compressed_games_file_and_curve_reads_as_the_plain_one():
    """Each committed ``.jsonl.gz`` is gzip text, and the readers given the plain name (as the
    studies' scripts give it) read the compressed copy."""
    for name in _tracked():
        if not name.endswith(".jsonl.gz"):
            continue
        lines = gzip.decompress((REPO / name).read_bytes()).decode().splitlines()
        plain = REPO / name.removesuffix(".gz")
        if not plain.exists() and Path(plain).name == "curve.jsonl":
            assert len(read_curve(plain)) == sum(1 for line in lines if line.strip())
        elif not plain.exists() and Path(plain).name == "games.jsonl":
            assert len(read_games(plain)) == sum(1 for line in lines if line.strip())


def _named_by(paths: list[str]) -> str:
    text = []
    for path in paths:
        folder = REPO / path
        files = sorted(folder.rglob("*")) if folder.is_dir() else [folder]
        text += [f.read_bytes().decode("utf-8", "replace") for f in files if f.is_file()]
    return "\n".join(text)


#: Model files the wheel ships outside the models folder (pyproject's package-data):
#: Friday the 13th's default network, a game of its own with no roles of the solo game's.
SHIPPED_ELSEWHERE = ("agents/friday_agents/thirteen/net13.npz",)


def test_model_files_are_shipped_or_named_by_a_track_entry_or_a_test():
    tracks = _named_by(list(TRACK_FILES))
    tests = _named_by(["tests"])
    unnamed = []
    for name in _tracked():
        if not name.endswith(MODEL_SUFFIXES) or _is_checkpoint(name):
            continue
        shipped = (REPO / name).resolve().parent == MODELS_DIR or name in SHIPPED_ELSEWHERE
        named = name in tracks or name in tests or _in_progress(name)  # a run's next selection
        if not (shipped or named or name.startswith(FIXTURES)):
            unnamed.append(name)
    assert not unnamed, f"model files no shipped model, track entry or test names: {unnamed}"


def _study_script(study: str, script: str):
    """``experiments/<study>/<script>.py`` under a name of its own (two studies have a
    ``choose.py``)."""
    path = REPO / "experiments" / study / f"{script}.py"
    spec = importlib.util.spec_from_file_location(f"{study}_{script}".replace("-", "_"), path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_net_scale_selection_reproduces_from_its_committed_games_and_networks():
    """Stage 3 chose among the rounds' networks and the fine-tuned ones, on the committed
    (compressed) games: the same choice from the files in git."""
    choose = _study_script("net-scale", "choose")
    for network in NET_SCALE_ROUNDS:
        spec = f"net:model={network}"
        assert (REPO / network).is_file() and spec in choose.candidates()
    committed = json.loads((choose.RESULTS / "selection" / "choice.json").read_text())
    chosen = choose.choose_network(choose.RESULTS / "selection")
    assert json.loads(json.dumps(chosen)) == committed  # as the file holds it


def test_the_no_teacher_search_selection_reproduces_and_its_files_are_registered(monkeypatch):
    """Stage 6 chose among the search with START and with each round's network, on committed
    games: the same choice from the files in git; what register_search.py copied into the
    models folder is byte for byte what the study made (the rounds' networks, the leaves)."""
    monkeypatch.syspath_prepend(str(REPO / "experiments" / "no-teacher"))  # its sibling imports
    decide = _study_script("no-teacher", "decide")
    agents = json.loads((decide.RESULTS / "stage6-selection" / "results.json").read_text())
    for network in NO_TEACHER_ROUNDS:
        assert (REPO / network).is_file()
        assert any(f"prior={network}:" in agent for agent in agents["config"]["agents"])
    committed = json.loads((decide.RESULTS / "stage6-select-decision.json").read_text())
    assert json.loads(json.dumps(decide.stage6_select())) == committed
    record = json.loads((decide.RESULTS / "registered-search.json").read_text())
    sources = {entry["source"] for entry in record["copied"].values()}
    assert set(NO_TEACHER_LEAVES) | {NO_TEACHER_ROUNDS[-1]} == sources
    for entry in record["copied"].values():
        assert (REPO / entry["model"]).read_bytes() == (REPO / entry["source"]).read_bytes()


def test_the_no_teacher_stage1_selection_and_the_wide_candidate_reproduce(monkeypatch):
    """Stage 1 chose among three seeds' policies and amendment 2 set the wide run beside them,
    on the same 500 level-1 validation deals: the committed decisions from the files in git."""
    monkeypatch.syspath_prepend(str(REPO / "experiments" / "no-teacher"))  # its sibling imports
    decide = _study_script("no-teacher", "decide")
    seeds = json.loads((decide.RESULTS / "stage1-selection" / "results.json").read_text())
    for policy in NO_TEACHER_STAGE1:
        assert (REPO / policy).is_file() and f"net:model={policy}" in seeds["config"]["agents"]
    wide = json.loads((decide.RESULTS / "stage4-selection" / "results.json").read_text())
    assert (REPO / NO_TEACHER_WIDE).is_file()
    assert wide["config"]["agents"] == [f"net:model={NO_TEACHER_WIDE}"]
    committed = json.loads((decide.RESULTS / "stage4-select-decision.json").read_text())
    assert json.loads(json.dumps(decide.stage4_select())) == committed


def test_the_leaf_study_played_the_network_guided_ships():
    """The leaf study's per-level file names its level-4 network, the file the role
    ``guided-leaf-level4`` ships byte for byte."""
    per_level = json.loads(
        (REPO / "experiments/level4-value/results/leaf_per_level.json").read_text()
    )
    assert f"experiments/level4-value/results/{per_level['levels']['4']}" == LEAF_STUDY_NETWORK
    assert (REPO / LEAF_STUDY_NETWORK).read_bytes() == GUIDED_LEAF_LEVEL4.read_bytes()


@pytest.mark.parametrize("name", ["games.jsonl", "curve.jsonl"])
def test_a_reader_prefers_the_plain_file_of_a_run_still_writing(tmp_path, name):
    """Both copies present (a run resumed beside its committed one): the plain file is read."""
    plain, packed = tmp_path / name, tmp_path / f"{name}.gz"
    row = {"frames": 1} if name == "curve.jsonl" else {"agent": "random", "level": 1}
    plain.write_text(json.dumps(row) + "\n")
    packed.write_bytes(gzip.compress(b""))
    read = read_curve(plain) if name == "curve.jsonl" else read_games(plain)
    assert len(read) == 1
