"""``friday bench``: the quick run completes and records every measurement; the README's
performance section is the rendering of the committed full run."""

from __future__ import annotations

import json
import math
import statistics
from dataclasses import asdict
from pathlib import Path

import numpy as np
import pytest
from published import published_section

from friday_agents.bench.report import SECTION, markdown_section, rewrite_readme, text_table
from friday_agents.bench.suite import (
    CORE_GROUPS,
    DEFAULT_OUT,
    GROUPS,
    TARGETS,
    Results,
    full_budget,
)
from friday_agents.cli import main
from friday_agents.sections import markers
from friday_env.core import available_cores

ROOT = Path(__file__).resolve().parents[2]

#: Every measurement of issue 6, (a) to (h).
ISSUE_6_KEYS = {
    "engine_actions_per_s",  # (a)
    "friday_steps_per_s",  # (b)
    "blackjack_steps_per_s",  # (c)
    "friday_over_blackjack",
    "games_per_s_level_1",  # (d)
    "games_per_s_level_2",
    "games_per_s_level_3",
    "games_per_s_level_4",
    "clone_us",  # (e)
    "ppo_fps_friday",  # (f)
    "ppo_fps_trivial",
    "ppo_fps_ratio",
    "ppo_fps_unencoded",  # (f) the bound of encoder speed-ups
    "ppo_fps_unencoded_ratio",
    "memory_per_env_mb",  # (g)
    "vec_async_1",  # (h)
    "vec_async_2",
    "vec_subproc_1",
    "vec_subproc_2",
}
#: The compiled core beside the Python engine (issue 19), per group.
CORE_GROUP_KEYS = {
    "core": {  # (i), (j)
        "core_api_python",
        "core_api_c",
        "core_api_ratio",
        "core_random_play",
        "core_random_play_ratio",
    },
    "vector": {  # (k)
        "vector_env_c",
        "vector_env_python",
        "blackjack_sync",
        "vector_env_c_over_blackjack",
        "vector_env_python_over_blackjack",
    },
    "cleanrl": {"cleanrl_fps_vector", "cleanrl_fps_python", "cleanrl_fps_ratio"},  # (l)
    "search": {  # (m)
        "search_guided_python",
        "search_guided_c",
        "search_guided_ratio",
        "search_guided_differing",
    },
}


def expected_keys(groups: list[str]) -> set[str]:
    """The measurements a run of these groups records."""
    keys = set(ISSUE_6_KEYS)
    for group in groups:
        keys |= CORE_GROUP_KEYS.get(group, set())
    return keys


@pytest.fixture(scope="module")
def quick_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("bench") / "quick.json"
    code = main(["bench", "--quick", "--out", str(out)])
    return code, out


def test_quick_bench_completes_and_writes_every_measurement(quick_run, capsys):
    code, out = quick_run
    assert code == 0
    doc = json.loads(out.read_text(encoding="utf-8"))
    measured = doc["meta"]["groups"]
    if "c" in available_cores():
        assert measured == list(GROUPS) and doc["meta"]["skipped"] == []
    else:  # the groups comparing the cores need the compiled core
        assert doc["meta"]["skipped"] == list(CORE_GROUPS)
    assert set(doc["results"]) == expected_keys(measured)
    repeats = doc["meta"]["repeats"]
    pairs = doc["meta"]["budget"]["ppo_pairs"]
    per_key_runs = {"search_guided_differing": 1}  # (m): one count over the levels
    per_key_runs.update(dict.fromkeys(CORE_GROUP_KEYS["search"] - {"search_guided_differing"}, 2))
    for key, result in doc["results"].items():
        runs = per_key_runs.get(key, pairs if key.startswith("ppo") else repeats)
        assert len(result["runs"]) == runs, key
        if key == "search_guided_differing":  # guided plays the same games on both cores
            assert result["runs"] == [0.0], "guided's games differ between the cores"
            continue
        assert all(math.isfinite(r) and r > 0 for r in result["runs"]), key
        assert result["median"] == statistics.median(result["runs"]), key
        assert result["label"] and result["unit"], key
    assert doc["results"]["engine_actions_per_s"]["per_cpu_second"] > 0
    for key in ("ppo_fps_friday", "ppo_fps_trivial", "ppo_fps_unencoded"):
        assert doc["results"][key]["env_us_per_frame"] > 0
    for level in (1, 2, 3, 4):
        assert doc["results"][f"games_per_s_level_{level}"]["decisions_per_game"] > 1


def test_quick_bench_checks_every_target(quick_run):
    _, out = quick_run
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert set(doc["targets"]) == set(TARGETS) & set(doc["results"])
    if "c" in available_cores():
        assert set(doc["targets"]) == set(TARGETS)
    for key, target in doc["targets"].items():
        median = doc["results"][key]["median"]
        at_least, bound = TARGETS[key]
        assert target["met"] == (median >= bound if at_least else median <= bound)


def test_quick_bench_records_how_it_was_run(quick_run):
    _, out = quick_run
    meta = json.loads(out.read_text(encoding="utf-8"))["meta"]
    assert meta["quick"] is True
    assert meta["command"] == f"friday bench --quick --out {out}"
    assert meta["groups"] + meta["skipped"] == list(GROUPS)
    assert meta["cpu_count"] >= 1 and meta["python"].startswith("3.")
    assert set(meta["load_average"]) == {"start", "end"}
    assert meta["versions"]["gymnasium"] != "not installed"


def test_ratios_are_taken_within_each_repeat(quick_run):
    _, out = quick_run
    results = json.loads(out.read_text(encoding="utf-8"))["results"]
    pairs = (
        ("friday_over_blackjack", "friday_steps_per_s", "blackjack_steps_per_s"),
        ("ppo_fps_ratio", "ppo_fps_friday", "ppo_fps_trivial"),
        ("ppo_fps_unencoded_ratio", "ppo_fps_unencoded", "ppo_fps_trivial"),
        ("core_api_ratio", "core_api_c", "core_api_python"),
        ("core_random_play_ratio", "core_random_play", "core_api_python"),
        ("vector_env_c_over_blackjack", "vector_env_c", "blackjack_sync"),
        ("vector_env_python_over_blackjack", "vector_env_python", "blackjack_sync"),
        ("cleanrl_fps_ratio", "cleanrl_fps_vector", "cleanrl_fps_python"),
    )
    for ratio, top, bottom in pairs:
        if ratio not in results:  # a group that needs the compiled core
            continue
        expected = [
            a / b for a, b in zip(results[top]["runs"], results[bottom]["runs"], strict=True)
        ]
        assert results[ratio]["runs"] == pytest.approx(expected)


def test_table_lists_every_measurement_and_target(quick_run):
    _, out = quick_run
    doc = json.loads(out.read_text(encoding="utf-8"))
    table = text_table(doc)
    for result in doc["results"].values():
        assert result["label"] in table
    assert table.count("≥") + table.count("≤") == len(TARGETS)


def test_from_json_rewrites_a_readme_without_measuring(quick_run, tmp_path, capsys):
    _, out = quick_run
    readme = tmp_path / "README.md"
    begin, end = markers(SECTION)
    readme.write_text(f"intro\n{begin}\nold\n{end}\nend\n", encoding="utf-8")
    assert main(["bench", "--from-json", str(out), "--readme", str(readme)]) == 0
    text = readme.read_text(encoding="utf-8")
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert text == f"intro\n{begin}\n{markdown_section(doc)}{end}\nend\n"
    assert f"friday bench --quick --out {out}" in text
    assert "performance section rewritten" in capsys.readouterr().out


def test_readme_performance_section_is_the_committed_full_run():
    doc = json.loads((ROOT / DEFAULT_OUT).read_text(encoding="utf-8"))
    assert doc["meta"]["quick"] is False, "the README must show a full run"
    assert set(doc["results"]) == expected_keys(doc["meta"]["groups"])
    assert published_section(SECTION) == markdown_section(doc).removesuffix("\n"), (
        f"the published performance section is not the rendering of {DEFAULT_OUT}: run "
        f"friday bench --from-json {DEFAULT_OUT} --readme docs/performance.md"
    )


def test_rewrite_needs_the_markers(quick_run):
    _, out = quick_run
    doc = json.loads(out.read_text(encoding="utf-8"))
    with pytest.raises(ValueError, match="section:performance"):
        rewrite_readme("no markers here", doc)


def test_missed_targets_are_named_in_the_section():
    results = Results()
    results.add("clone_us", "(e) Game.clone()", "µs", [12.0, 14.0, 13.0])
    results.add("engine_actions_per_s", "(a) engine", "actions/s", [160_000.0])
    doc = {
        "meta": {
            "command": "friday bench --out x.json",
            "json": "x.json",
            "date": "today",
            "repeats": 3,
            "cpu": "a cpu",
            "cpu_count": 2,
            "python": "3.11",
            "load_average": {"start": 1.0, "end": 1.5},
            "note": "shared",
            "budget": asdict(full_budget(3)),
        },
        "results": results.items,
        "targets": results.targets(),
    }
    assert doc["targets"]["clone_us"]["met"] is False
    assert doc["targets"]["engine_actions_per_s"]["met"] is True
    section = markdown_section(doc)
    assert "Targets missed in this run:\n\n- (e) Game.clone(): 13.00 µs against ≤ 10.00 µs" in (
        section
    )
    assert "(a) engine: " not in section.split("Targets missed")[1]
    assert "(shared)" in section


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--only", "engine,warp"], "unknown groups ['warp']"),
        (["--repeats", "0"], "--repeats must be at least 1"),
    ],
)
def test_bad_options_are_refused_with_a_message(argv, message, capsys, tmp_path):
    assert main(["bench", *argv, "--out", str(tmp_path / "x.json")]) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "x.json").exists()


def test_help_names_every_measurement(capsys):
    with pytest.raises(SystemExit):
        main(["bench", "--help"])
    text = capsys.readouterr().out
    for words in ("Blackjack-v1", "clone()", "MaskablePPO", "SubprocVecEnv", "--quick", "--out"):
        assert words in text
    for words in ("Game API", "inside the compiled core", "vector_entry_point", "CleanRL"):
        assert words in text
    assert "core, vector, cleanrl" in text  # the groups (--only)


def test_timed_rows_of_the_core_groups_are_described_only_when_measured(quick_run):
    from friday_agents.bench.report import what_is_timed

    _, out = quick_run
    budget = json.loads(out.read_text(encoding="utf-8"))["meta"]["budget"]
    text = "\n".join(what_is_timed(budget))
    assert "(i) the loop of (a)" in text and "(k) 8 envs" in text and "(l) `examples/" in text
    old = {key: value for key, value in budget.items() if not key.startswith(("core", "vector"))}
    assert "(i)" not in "\n".join(what_is_timed(old))


def test_random_legal_actions_are_legal_and_uniform():
    from friday_agents.bench.measure import random_legal_actions

    masks = np.zeros((3, 199), np.int8)
    masks[0, [4, 7]] = 1
    masks[1, 198] = 1
    masks[2, [0, 50, 100, 150]] = 1
    rng = np.random.default_rng(0)
    draws = np.array([random_legal_actions(masks, rng) for _ in range(4000)])
    assert set(draws[:, 0]) == {4, 7} and set(draws[:, 1]) == {198}
    counts = np.bincount(draws[:, 2], minlength=199)[[0, 50, 100, 150]]
    assert counts.min() > 850  # about 1000 each


def test_trivial_env_has_friday_spaces_and_passes_the_env_checker():
    import gymnasium as gym
    from gymnasium.utils.env_checker import check_env

    import friday_env  # noqa: F401
    from friday_agents.bench.envs import TrivialMaskedEnv

    env, friday = TrivialMaskedEnv(), gym.make("Friday-v0")
    assert env.observation_space == friday.observation_space
    assert env.action_space == friday.action_space
    check_env(env, skip_render_check=True)
    _, info = env.reset(seed=0)
    steps = 0
    terminated = False
    while not terminated:
        assert info["action_mask"].any()
        assert (info["action_mask"] == env.action_masks()).all()
        _, _, terminated, _, info = env.step(int(info["action_mask"].argmax()))
        steps += 1
    assert steps == TrivialMaskedEnv.EPISODE_STEPS


def test_unencoded_env_plays_friday_with_a_constant_observation():
    import gymnasium as gym

    import friday_env  # noqa: F401
    from friday_agents.bench.envs import UnencodedFridayEnv

    env, friday = UnencodedFridayEnv(), gym.make("Friday-v0")
    assert env.observation_space == friday.observation_space
    first, info = env.reset(seed=3)
    _, friday_info = friday.reset(seed=3)
    terminated = False
    while not terminated:
        mask = info["action_mask"]
        assert (mask == friday_info["action_mask"]).all()
        action = int(np.flatnonzero(mask)[-1])
        observation, reward, terminated, _, info = env.step(action)
        _, friday_reward, friday_terminated, _, friday_info = friday.step(action)
        assert (observation == first).all()
        assert (reward, terminated) == (friday_reward, friday_terminated)
    assert info["final_score"] == friday_info["final_score"]


def test_a_missed_ppo_ratio_says_what_the_encoder_costs_and_what_is_left():
    from friday_agents.bench.report import _ppo_budget

    def measured(fps, env_us):
        return {"median": fps, "env_us_per_frame": env_us}

    results = {
        "ppo_fps_friday": measured(4_000.0, 40.0),
        "ppo_fps_trivial": measured(5_000.0, 10.0),
        "ppo_fps_unencoded": measured(4_400.0, 25.0),
        "ppo_fps_unencoded_ratio": {"median": 0.88},
    }
    text = _ppo_budget(results, 0.9)
    assert "the bound allows Friday-v0 22 µs more per frame; it took 50 µs more" in text
    assert "encoder took 15 µs" in text and "reached 88.0 %" in text
    assert "even an encoder costing nothing would miss the bound" in text
    results["ppo_fps_unencoded"] = measured(4_950.0, 12.0)
    results["ppo_fps_unencoded_ratio"] = {"median": 0.99}
    # frames: trivial 200 µs, unencoded 202.0 µs; the bound allows 22.2 µs more
    assert "leaves the encoder 20.2 µs per frame, against the 28 µs it takes" in (
        _ppo_budget(results, 0.9)
    )
