"""The built wheel is a complete package: installed (not editable) in a fresh virtualenv with
its dependencies, it runs the README's main command with all four agents from a directory
outside the repository, and it ships no top-level ``agents`` package (a name another popular
package, openai-agents, also installs).

The virtualenv gets torch as the README says (``pip install torch==2.13.0``, the CPU build),
then the wheel with its ``rl`` and ``eval`` extras; it sees no site-packages but its own, so
nothing can come from the working tree. About a minute on the CI machine.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
AGENTS_IMPORT = "friday_agents"


def _source_files() -> list[str]:
    """The files of the working tree that git tracks or would track (not the ignored)."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split("\0")
    return [name for name in listed if name and (REPO / name).is_file()]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel built by pip from a clean copy of the source tree (no stale build/)."""
    source = tmp_path_factory.mktemp("source")
    for name in _source_files():
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / name, source / name)
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(out), str(source)],
        check=True,
        capture_output=True,
        timeout=600,
    )
    (built,) = out.glob("friday_env-*.whl")
    return built


def _names(wheel: Path) -> list[str]:
    with zipfile.ZipFile(wheel) as archive:
        return archive.namelist()


def test_wheel_description_links_nothing_relative(wheel):
    """The long description in the wheel's METADATA is the README with its relative links
    reduced to their text (setup.py's long_description): an index could not follow them."""
    with zipfile.ZipFile(wheel) as archive:
        (name,) = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
        metadata = archive.read(name).decode("utf-8")
    assert "Description-Content-Type: text/markdown" in metadata
    assert "# friday-env" in metadata
    assert re.findall(r"\]\((?![a-z][a-z+.-]*:)[^)\s]+\)", metadata) == []


def test_wheel_exposes_no_top_level_agents_package(wheel):
    names = _names(wheel)
    tops = {name.split("/")[0] for name in names if not name.split("/")[0].endswith(".dist-info")}
    assert tops == {"friday_env", AGENTS_IMPORT}
    (top_level,) = [n for n in names if n.endswith(".dist-info/top_level.txt")] or [None]
    if top_level:
        with zipfile.ZipFile(wheel) as archive:
            listed = archive.read(top_level).decode().split()
        assert "agents" not in listed


def test_wheel_ships_the_data_files_the_agents_load(wheel):
    """Every model file a default agent loads (agents/friday_agents/models/: value models,
    the search's networks, the PPO policy) is in the wheel, under the installed package
    name, and no other data file of agents/ is but the leaderboard friday tracks prints (the
    manifest is not a model, value_net.npz comes with a source checkout); so are py.typed and
    the licence."""
    names = set(_names(wheel))
    data = [
        name
        for name in _source_files()
        if name.startswith("agents/") and Path(name).suffix in (".json", ".zip", ".npz")
    ]
    models = [name for name in data if name.startswith("agents/friday_agents/models/")]
    assert "agents/friday_agents/models/search_value.json" in models
    assert "agents/friday_agents/models/ppo_all_levels.zip" in models  # ppo's policy
    assert "agents/friday_agents/models/guided_value_leaf.json" in models  # guided's value
    assert "agents/friday_agents/models/guided_leaf_level4.npz" in models  # its level-4 network
    assert "agents/friday_agents/models/guided_prior.npz" in models  # guided's prior before
    checkout_only = ("manifest.json", "value_net.npz")
    leaderboard = "agents/friday_agents/evaluation/tracks.json"  # friday tracks
    thirteen_net = "agents/friday_agents/thirteen/net13.npz"  # Friday the 13th's default net
    assert leaderboard in data and thirteen_net in data
    for name in data:
        shipped = AGENTS_IMPORT + name.removeprefix("agents/friday_agents") in names
        expected = name in (leaderboard, thirteen_net) or (
            name in models and not name.endswith(checkout_only)
        )
        assert shipped == expected, name
    assert {"friday_env/py.typed", f"{AGENTS_IMPORT}/py.typed"} <= names
    assert any(name.endswith(".dist-info/licenses/LICENSE") for name in names)


def test_wheel_ships_built_extensions_and_no_build_sources(wheel):
    """The wheel carries the compiled core and the agents' kernels built, and none of what
    builds them (C sources, headers; the header generators live in tools/) nor the test-only
    modules; the sdist keeps the sources (MANIFEST.in, tests/docs/test_packaging.py)."""
    names = _names(wheel)
    modules = {Path(name).name.split(".")[0] for name in names if name.endswith(".so")}
    assert {"compiled", "_kernels"} <= modules, names
    assert not modules & {"_test_hooks", "_kernel_test_hooks"}, modules
    assert not [name for name in names if name.endswith((".c", ".h"))]
    core_python = [n for n in names if n.startswith("friday_env/_core/") and n.endswith(".py")]
    assert core_python == ["friday_env/_core/__init__.py"]


def _run(*args: str, cwd: Path, timeout: float = 900) -> subprocess.CompletedProcess:
    environ = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    done = subprocess.run(
        list(args), cwd=cwd, capture_output=True, text=True, timeout=timeout, env=environ
    )
    assert done.returncode == 0, f"{' '.join(args)}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


def test_wheel_installed_in_a_fresh_virtualenv_runs_all_four_agents(wheel, tmp_path):
    home = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True, system_site_packages=False, symlinks=True).create(home)
    python = home / "bin" / "python"
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    _run(str(python), "-m", "pip", "install", "-q", "torch==2.13.0", cwd=outside)
    _run(str(python), "-m", "pip", "install", "-q", f"{wheel}[rl,eval]", cwd=outside)
    where = _run(
        str(python),
        "-c",
        f"import friday_env, {AGENTS_IMPORT}; "
        f"print(friday_env.__file__); print({AGENTS_IMPORT}.__file__)",
        cwd=outside,
    ).stdout.split()
    site = home.resolve()
    assert all(Path(path).resolve().is_relative_to(site) for path in where), where
    cores = _run(
        str(python), "-c", "import friday_env; print(friday_env.available_cores())", cwd=outside
    ).stdout
    assert "'c'" in cores, f"the wheel carries no compiled core: {cores}"
    done = _run(
        str(home / "bin" / "friday"),
        "eval", "--agents", "random,heuristic,search,ppo", "--levels", "1-4", "--games", "1",
        "--search-sims", "4", "--workers", "2", "--no-progress", "--out", str(outside / "eval"),
        cwd=outside,
    )  # fmt: skip
    for agent in ("random", "heuristic", "search", "ppo"):
        rows = [line for line in done.stdout.splitlines() if line.split()[:1] == [agent]]
        assert len(rows) == 4, done.stdout
    assert (outside / "eval" / "results.json").is_file()
    tracks = _run(str(home / "bin" / "friday"), "tracks", "--json", cwd=outside).stdout
    assert '"track": "b"' in tracks and "family A" in tracks, tracks  # the shipped leaderboard
    roles = _run(
        str(python),
        "-c",
        f"from {AGENTS_IMPORT}.players.registry import AgentSpecError, make_agent\n"
        "make_agent('guided')\n"
        "make_agent('guided:prior=guided-prior:value=guided-value-per-level:top=1')\n"
        "try:\n    make_agent('search:value=value-net')\n"
        "except AgentSpecError as err:\n    print(err)",
        cwd=outside,
    ).stdout
    assert "comes with a source checkout" in roles, roles  # value_net.npz is not shipped
