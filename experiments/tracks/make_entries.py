"""Write the track entries (``experiments/tracks/entries/*.json``) from the committed results.

Each entry's numbers are read here from the files it names: frames and CPU from the run's
curve (``friday rl``'s ``curve.jsonl``, ``friday train``'s ``curve.csv`` and the command's
``time.txt``) or the exploration's ``results.json``; win rates from the ``friday eval``
results of ``bash experiments/tracks/run.sh eval ...``. A policy evaluated in a results file is
checked against the hash recorded beside it, so an entry never pairs a newer policy with an
older evaluation. Also writes ``eval/family_a_100m.json``, what a 100 M budget would have
bought family A's exploration (PLAN.md, amendment 3). Then compile and check with
``python tools/build_tracks.py``:

    python experiments/tracks/make_entries.py && python tools/build_tracks.py
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
from pathlib import Path
from typing import Any

from friday_agents.evaluation.tracks import (
    ENTRY_FORMAT,
    ENTRY_VERSION,
    PROGRESS_KEYS,
    TrackEntryError,
    budget_row,
    curve_cpu_seconds,
)
from friday_agents.harness.paths import plain_or_compressed, read_maybe_compressed
from friday_agents.harness.stats import wilson_interval

REPO = Path(__file__).resolve().parents[2]
HERE = REPO / "experiments/tracks"
EXPLORE = "experiments/from-nothing/results/l1"
A2 = "experiments/from-nothing/results/a2-l1"
A3 = "experiments/from-nothing/results/a3-l1"
TRAINER_FRAMES = "the trainer's environment steps of all its processes (its curve's last row)"
TRAINER_CPU = (
    "cpu_seconds of the run's curve, summed over its processes: process CPU, its validation "
    "curve included"
)
REVERSE_FRAMES = (
    TRAINER_FRAMES + "; the actions the reverse curriculum replays to rebuild its start states "
    "are not counted (not recorded): a lower bound"
)
EVAL_ALL = "bash experiments/tracks/run.sh eval entries"
NET_SCALE = "experiments/net-scale/results"

#: Track (a) and (b) runs of friday rl: id -> (track, algorithm, run folder, command, notes).
RL_RUNS: dict[str, tuple[str, str, str, str, str]] = {
    "a-ppo-score-1m": (
        "a",
        "PPO, reward score (friday rl)",
        "experiments/tracks/runs/ppo-score-1m",
        "bash experiments/tracks/run.sh train ppo-score-1m",
        "64-64, 128 envs x 128 steps, 2 epochs of 4 minibatches, seed 1 (the 50 M runs' settings)",
    ),
    "a-ppo-counts-1m": (
        "a",
        "PPO, reward win_loss + count bonus 0.1 (friday rl)",
        "experiments/tracks/runs/ppo-counts-1m",
        "bash experiments/tracks/run.sh train ppo-counts-1m",
        "the 50 M count-bonus run's settings, 1 M frames",
    ),
    "a-ppo-score-10m": (
        "a",
        "PPO, reward score (friday rl)",
        "experiments/rl/scratch-ppo-l1",
        "friday rl --method ppo --level 1 --frames 5000000 --hidden 64,64 --eval-deals 500 "
        "--out experiments/rl/scratch-ppo-l1",
        "64 envs x 128 steps, 4 epochs of 4 minibatches (the trainer's defaults); experiments/rl",
    ),
    "a-ppo-shaped-10m": (
        "a",
        "PPO, reward win_loss + potential shaping (fights) (friday rl)",
        "experiments/rl/scratch50m-shaped-l1",
        "see experiments/rl/REPORT.md (scratch50m-shaped-l1)",
        "stopped at 3.44 M frames by its plan's amendment 1 (experiments/rl/PLAN-scratch.md)",
    ),
    "a-ppo-score-100m": (
        "a",
        "PPO, reward score (friday rl)",
        "experiments/rl/scratch50m-ppo-l1",
        "see experiments/rl/REPORT.md (scratch50m-ppo-l1)",
        "50 M frames, 128 envs x 128 steps, 2 epochs of 4 minibatches",
    ),
    "a-ppo-counts-100m": (
        "a",
        "PPO, reward win_loss + count bonus 0.1 (friday rl)",
        "experiments/rl/scratch50m-counts-l1",
        "see experiments/rl/REPORT.md (scratch50m-counts-l1)",
        "50 M frames, 128 envs x 128 steps, 2 epochs of 4 minibatches",
    ),
    "b-reverse-10m": (
        "b",
        "reverse curriculum from the agent's own games, reward score (friday rl)",
        "experiments/rl/scratch-reverse-l1",
        "friday rl --method reverse --level 1 --frames 5000000 --hidden 64,64 --eval-deals 500 "
        "--out experiments/rl/scratch-reverse-l1",
        "it never won a game, so its archive held losses and it became plain PPO (REPORT.md)",
    ),
}

#: Track (c): id -> (algorithm, results file, agent, frames counted, CPU measured, command,
#: notes).
TEACHER: dict[str, tuple[str, str, str, str, str, str, str]] = {
    "c-heuristic": (
        "heuristic (hand-written rules)",
        "experiments/results/readme_results.json",
        "heuristic",
        "not recorded: written and tuned by hand (experiments/heuristic-tuning/)",
        "not recorded",
        "friday eval --agents heuristic --levels 1-4 --games 1000",
        "learns nothing; the teacher of the other track-(c) agents",
    ),
    "c-ppo": (
        "ppo: SB3 MaskablePPO imitating the search, then DAgger",
        "experiments/results/readme_results.json",
        "ppo",
        "not recorded: the teacher's search games and the imitation's steps were not counted",
        "not recorded",
        "bash experiments/imitation/commit_agent.sh dagger-search (experiments/imitation/)",
        "one network for all levels",
    ),
    "c-guided": (
        "guided:prior=guided-prior:value=guided-value-per-level:top=1 (guided's defaults before "
        "the level-4 leaf study): search with heuristic rollouts, a learned prior and linear leaf "
        "values",
        "experiments/results/readme_results.json",
        "guided",
        "not recorded: its fits' data and its own simulations (32 a decision) were not counted",
        "not recorded",
        "friday eval --agents guided:prior=guided-prior:value=guided-value-per-level:top=1 "
        "--levels 1-4 --games 1000 --search-sims 32",
        "searches at play time (32 simulations a decision); the results file names it `guided`, "
        "played before guided's defaults changed",
    ),
    "c-net": (
        "net:model=net-v1 (the net network before the net-scale study): expert iteration on "
        "the search's labels, then PPO fine-tuning",
        "experiments/rl/eval/net_vs_start.json",
        "net",
        "not recorded: the search's labelling games were not counted (the RL fine-tuning "
        "itself: 3,031,040 frames)",
        "the distill run's cpu_hours (rounds 0-2) plus the fine-tuning's cpu_seconds",
        "friday distill --rounds 2; friday rl --init experiments/expert-iteration/results/"
        "round-01/network.npz --level 1 --frames 5000000 --eval-deals 500 --eval-levels 1,2,3,4 "
        "--out experiments/rl/finetune-l1",
        "plays without search; the teacher's own fits (guided's prior and values) not counted; "
        "the results file names it `net`, played before `net` changed",
    ),
    "c-net-scale": (
        "net (the net-scale study's network): expert iteration from a 64-simulation search "
        "with the level-4 leaf value on 5.7 M decisions, then PPO fine-tuning on level 1",
        f"{NET_SCALE}/eval/results.json",
        f"net:model={NET_SCALE}/rl-l1/policy.npz",
        "not recorded: the search's labelling games were not counted (the RL fine-tuning "
        "itself: 3,006,464 frames)",
        "the distill run's cpu_seconds (rounds 0-2: games and fits) plus the fine-tuning's "
        "cpu_seconds",
        "DATA=data/net-scale bash experiments/net-scale/run.sh; "
        "bash experiments/net-scale/evaluate.sh",
        "plays without search; the labelling search's leaf value and stage 0 not counted; the "
        "results file names it by its file, installed as `net` after",
    ),
}


def read_json(path: str) -> Any:
    return json.loads((REPO / path).read_text())


def curve_rows(run: str) -> list[dict]:
    text = read_maybe_compressed(REPO / run / "curve.jsonl")  # or its committed .gz
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def run_cpu_seconds(run: str, row: dict) -> float:
    """The CPU seconds of every process of ``run`` up to its curve ``row`` (a torchrun run's
    first process alone is refused: `curve_cpu_seconds`)."""
    try:
        return curve_cpu_seconds(row, f"{run}/curve.jsonl")
    except TrackEntryError as err:
        raise SystemExit(f"make_entries: {err}") from None


def levels_of(results_file: str, agent: str) -> dict[str, dict]:
    """The agent's per-level cells in a ``friday eval`` results file."""
    cells = {}
    for row in read_json(results_file)["summary"]:
        if row["agent"] == agent:
            low, high = wilson_interval(row["wins"], row["games"])
            cells[str(row["level"])] = {
                "games": row["games"],
                "wins": row["wins"],
                "win_rate": row["win_rate"],
                "wilson_95": [round(low, 6), round(high, 6)],
                "mean_score": row["mean_score"],
                # where the results' games recorded them: hazards beaten, where games end
                **{key: row[key] for key in PROGRESS_KEYS if key in row},
            }
    if not cells:
        raise SystemExit(f"make_entries: {results_file} has no agent {agent!r}")
    return cells


def check_evaluated(results_file: str, policy: str) -> None:
    """Stop if ``policy`` changed since ``results_file`` evaluated it (its hash beside it)."""
    hashes = dict(
        reversed(line.split()) for line in (REPO / results_file).with_suffix(".sha256").open()
    )
    now = hashlib.sha256((REPO / policy).read_bytes()).hexdigest()
    if hashes.get(policy) != now:
        raise SystemExit(
            f"make_entries: {policy} changed since {results_file} evaluated it; rerun "
            f"bash experiments/tracks/run.sh eval {Path(results_file).stem}"
        )


def entry(id_: str, track: str, frames: int | None, **fields: Any) -> dict:
    return {
        "format": ENTRY_FORMAT,
        "version": ENTRY_VERSION,
        "id": id_,
        "track": track,
        "budget": budget_row(frames),
        "frames": frames,
        **fields,
    }


def rl_entry(id_: str) -> dict:
    track, algorithm, run, command, notes = RL_RUNS[id_]
    last = curve_rows(run)[-1]
    policy = f"{run}/policy.npz"
    results = "experiments/tracks/eval/entries.json"
    check_evaluated(results, policy)
    return entry(
        id_,
        track,
        last["frames"],
        algorithm=algorithm,
        frames_counted=REVERSE_FRAMES if track == "b" else TRAINER_FRAMES,
        cpu_hours=round(run_cpu_seconds(run, last) / 3600, 3),
        cpu_measured=TRAINER_CPU,
        levels=levels_of(results, f"net:model={policy}"),
        result={"file": results, "agent": f"net:model={policy}"},
        run=run,
        command=f"{command}; {EVAL_ALL}",
        notes=f"level 1 trained; {notes}",
    )


def sb3_entry() -> dict:
    run = "experiments/tracks/runs/sb3-1m"
    stopped = REPO / run / "stopped.json"  # PLAN.md amendment 5: stopped by Ctrl-C
    if stopped.is_file():
        frames = json.loads(stopped.read_text())["timesteps"]
    else:
        with (REPO / run / "progress.csv").open() as handle:
            frames = int(float(list(csv.DictReader(handle))[-1]["time/total_timesteps"]))
    # /usr/bin/time writes a line before its format when the command's status is not 0
    time = json.loads((REPO / run / "time.txt").read_text().splitlines()[-1])
    policy = f"{run}/policy.zip"
    results = "experiments/tracks/eval/sb3.json"
    check_evaluated(results, policy)
    note = ""
    if stopped.is_file():
        note = f"; stopped by Ctrl-C at {frames:,} of 999,424 frames (PLAN.md amendment 5)"
    return entry(
        "a-sb3-1m",
        "a",
        frames,
        algorithm="SB3 MaskablePPO, reward progress (friday train)",
        frames_counted="SB3's timesteps (progress.csv's last row, or where it was stopped)",
        cpu_hours=round((time["user_s"] + time["system_s"]) / 3600, 3),
        cpu_measured="user + system CPU of the command (/usr/bin/time), its held-out curve "
        "included",
        levels=levels_of(results, f"ppo:model={policy}"),
        result={"file": results, "agent": f"ppo:model={policy}"},
        run=run,
        command="bash experiments/tracks/run.sh train sb3-1m; "
        "bash experiments/tracks/run.sh eval sb3",
        notes="level 1 trained; 64 envs x 128 steps, 4 epochs of minibatches of 2,048, 64-64, "
        "seed 0, friday train's default reward (PLAN.md amendment 4)" + note,
    )


def family_a_entry() -> dict:
    explore = read_json(f"{EXPLORE}/results.json")["summary"]
    stages = [A2] + ([A3] if plain_or_compressed(REPO / A3 / "curve.jsonl").is_file() else [])
    lasts = [curve_rows(stage)[-1] for stage in stages]
    learned_cpu = sum(map(run_cpu_seconds, stages, lasts))
    learned = sum(last["frames"] for last in lasts)
    policy = f"{stages[-1]}/policy.npz"  # the latest stage's policy
    results = "experiments/tracks/eval/family-a.json"
    check_evaluated(results, policy)
    return entry(
        "b-family-a",
        "b",
        explore["frames"] + learned,
        algorithm="family A: Go-Explore on 400 deals (friday explore), then the reverse "
        "curriculum from its wins (friday rl --method reverse)"
        + (", then PPO from the start" if len(stages) > 1 else ""),
        frames_counted=f"exploration of the 400 level-1 deals whose wins seed A2 "
        f"({explore['frames']:,}) plus the environment steps of "
        f"{' and '.join(Path(s).name for s in stages)} so far ({learned:,}); the reverse "
        "curriculum's replays to its start states not counted (a lower bound)",
        cpu_hours=round((explore["cpu_s"] + learned_cpu) / 3600, 3),
        cpu_measured="the exploration's cpu_s plus the learning runs' cpu_seconds (their "
        "validation curves included)",
        levels=levels_of(results, f"net:model={policy}"),
        result={"file": results, "agent": f"net:model={policy}"},
        run=[EXPLORE, *stages],
        command="bash experiments/from-nothing/explore.sh l1; bash experiments/from-nothing/"
        "learn.sh 1 100000000; bash experiments/tracks/run.sh eval family-a",
        notes=f"the latest committed policy ({Path(stages[-1]).name}, at {lasts[-1]['frames']:,} "
        f"of its frames); {explore['wins']} of 400 deals won by the exploration; "
        "experiments/from-nothing/",
    )


#: The no-teacher study's registered ``scratch`` (issue 42): what register.py copied and the
#: one play of the evaluation deals of the policy it copied.
NO_TEACHER = "experiments/no-teacher"
REGISTERED = f"{NO_TEACHER}/results/registered.json"
SCRATCH_RESULTS = f"{NO_TEACHER}/results/eval/scratch.json"


def committed_curve_rows(run: str) -> list[dict]:
    """The rows of the run's committed ``curve.jsonl.gz`` (a live run's plain curve beside it
    is git-ignored and may be ahead of what is committed)."""
    text = read_maybe_compressed(REPO / run / "curve.jsonl.gz")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def check_registered(record: dict, results_file: str) -> None:
    """Stop unless the registered policy, today's ``scratch`` model and the ``scratch`` the
    results played are one file (by SHA-256), so the entry's run is what the results played."""
    played = {m["sha256"] for m in read_json(results_file)["resolved"]["scratch"]["models"]}
    hashes = {
        "the registration record": {record["sha256"]},
        f"{record['model']} today": {
            hashlib.sha256((REPO / record["model"]).read_bytes()).hexdigest()
        },
        f"its source {record['source']}": {
            hashlib.sha256((REPO / record["source"]).read_bytes()).hexdigest()
        },
        f"the scratch {results_file} played": played,
    }
    if len(set().union(*hashes.values())) != 1:
        named = "; ".join(
            f"{what}: {', '.join(h[:12] for h in sorted(v))}" for what, v in hashes.items()
        )
        raise SystemExit(
            f"make_entries: scratch is not one file ({named}); rerun "
            f"bash {NO_TEACHER}/run.sh eval-scratch after registering"
        )


def run_chain(run: str) -> list[str]:
    """The run and the study runs it started from (``--init`` of a run's ``policy.npz``),
    first run first: a fine-tuned policy's frames and CPU are its start's and its own."""
    chain = [run]
    while init := read_json(f"{chain[0]}/config.json")["init"]:
        start = Path(init).parent.as_posix()
        if Path(init).name != "policy.npz" or not start.startswith(f"{NO_TEACHER}/runs/"):
            raise SystemExit(
                f"make_entries: {chain[0]} started from {init}, not a study run's policy: "
                "its frames and CPU cannot be counted"
            )
        chain.insert(0, start)
    return chain


def scratch_entry() -> dict:
    """The registered ``scratch``: PPO from nothing on the progress reward, the frames and CPU
    of its run and of every run it started from (their committed curves), its evaluation
    beside the heuristic and guided."""
    record = read_json(REGISTERED)
    check_registered(record, SCRATCH_RESULTS)
    chain = run_chain(Path(record["source"]).parent.as_posix())
    lasts = [committed_curve_rows(run)[-1] for run in chain]
    config = read_json(f"{chain[-1]}/config.json")
    first = read_json(f"{chain[0]}/config.json")
    frames = sum(last["frames"] for last in lasts)
    cpu_seconds = sum(run_cpu_seconds(run, last) for run, last in zip(chain, lasts, strict=True))
    trained = config.get("levels") or str(config["level"])
    return entry(
        f"a-ppo-progress-{budget_row(frames).replace(' ', '').lower()}",
        "a",
        frames,
        algorithm=f"PPO, reward progress, c = {first['progress_coef']} then "
        f"{config['progress_coef']} (friday rl): the agent scratch",
        frames_counted=TRAINER_FRAMES,
        cpu_hours=round(cpu_seconds / 3600, 3),
        cpu_measured=TRAINER_CPU,
        levels=levels_of(SCRATCH_RESULTS, "scratch"),
        result={"file": SCRATCH_RESULTS, "agent": "scratch"},
        run=chain if len(chain) > 1 else chain[0],
        command=f"bash {NO_TEACHER}/run.sh 1; bash {NO_TEACHER}/run.sh select1; "
        f"bash {NO_TEACHER}/run.sh 5; bash {NO_TEACHER}/run.sh select5; "
        f"bash {NO_TEACHER}/run.sh register5",
        notes=f"{' then '.join(chain)}: levels {trained} trained last; "
        f"{first['hidden'].replace(',', '-')} (as its first run made it), "
        f"{config['num_envs']} envs x {config['num_steps']} steps, {config['epochs']} epochs "
        f"of {config['minibatches']} minibatches: the no-teacher study's choice on validation "
        f"deals, registered as the agent scratch ({REGISTERED}; {NO_TEACHER}/PLAN.md)",
    )


#: The no-teacher study's ``scratch-search`` (stage 6): what register_search.py copied and its
#: one play of the evaluation deals.
REGISTERED_SEARCH = f"{NO_TEACHER}/results/registered-search.json"
SCRATCH_SEARCH_RESULTS = f"{NO_TEACHER}/results/eval/scratch-search.json"
SCRATCH_SEARCH_ROUNDS = f"{NO_TEACHER}/runs/s6m-distill"
SCRATCH_SEARCH_VALUE = f"{NO_TEACHER}/runs/s6-value"


def stage6_cpu_seconds() -> float:
    """The leaf value's data and fits, and the expert iteration's games and fits (its curve's
    CPU seconds, as for net-scale's distill run; the validation play that measures each round
    is not included)."""
    seconds = 0.0
    for report in sorted((REPO / SCRATCH_SEARCH_VALUE).glob("leaf-l*.json")):
        fit = json.loads(report.read_text())
        seconds += fit["data_cpu_seconds"] + fit["fit_cpu_seconds"]
    rounds = SCRATCH_SEARCH_ROUNDS
    return seconds + run_cpu_seconds(rounds, curve_rows(rounds)[-1])


def _as_list(run: str | list[str]) -> list[str]:
    return [run] if isinstance(run, str) else list(run)


def scratch_search_entry(scratch: dict) -> dict:
    """``scratch-search``: search on ``scratch``'s ingredients learned from nothing (track b:
    it restores states to search). Its frames are ``scratch``'s training frames (the search's
    simulations, its labelling games and the leaf value's games were not counted: a lower
    bound); its CPU is ``scratch``'s plus stage 6's."""
    record = read_json(REGISTERED_SEARCH)
    played = read_json(SCRATCH_SEARCH_RESULTS)["resolved"]["scratch-search"]["models"]
    for model in played:
        if model["sha256"] != hashlib.sha256((REPO / model["path"]).read_bytes()).hexdigest():
            raise SystemExit(
                f"make_entries: {model['path']} changed since {SCRATCH_SEARCH_RESULTS} played "
                f"it; rerun bash {NO_TEACHER}/run.sh eval-scratch-search"
            )
    frames = scratch["frames"]
    return entry(
        f"b-scratch-search-{budget_row(frames).replace(' ', '').lower()}",
        "b",
        frames,
        algorithm="scratch-search: determinized search whose prior, anchor and rollout policy "
        "is a network learned from nothing and whose leaf value was fitted on its own games, "
        f"departing from the network only past a margin of {record['margin']}",
        frames_counted="scratch's training frames (its entry's); the search's simulations, "
        "the labelling games of the expert iteration and the leaf value's games were not "
        "counted: a lower bound",
        cpu_hours=round(scratch["cpu_hours"] + stage6_cpu_seconds() / 3600, 3),
        cpu_measured="scratch's (its entry's) plus the leaf value's data and fits and the "
        "expert iteration's games and fits (their own counts; its validation play not counted)",
        levels=levels_of(SCRATCH_SEARCH_RESULTS, "scratch-search"),
        result={"file": SCRATCH_SEARCH_RESULTS, "agent": "scratch-search"},
        run=[*_as_list(scratch["run"]), SCRATCH_SEARCH_VALUE, SCRATCH_SEARCH_ROUNDS],
        command=f"{scratch['command']}; bash {NO_TEACHER}/run.sh 6-value; "
        f"bash {NO_TEACHER}/run.sh 6-margin; bash {NO_TEACHER}/run.sh 6m-distill; "
        f"bash {NO_TEACHER}/run.sh 6-select; bash {NO_TEACHER}/run.sh register6; "
        f"bash {NO_TEACHER}/run.sh eval-scratch-search",
        notes=f"searches at play time (32 simulations a decision); its network: "
        f"{record['prior']} ({REGISTERED_SEARCH}; {NO_TEACHER}/PLAN.md, amendments 3-4)",
    )


def net_v1_cpu_hours() -> float:
    """``friday distill``'s rounds (its curve's CPU hours) and the level-1 fine-tuning."""
    distill = read_json("experiments/expert-iteration/results/curve.json")["rows"][-1]
    finetune = "experiments/rl/finetune-l1"
    return distill["cpu_hours"] + run_cpu_seconds(finetune, curve_rows(finetune)[-1]) / 3600


def net_scale_cpu_hours() -> float:
    """``friday distill``'s three rounds (its curve's CPU seconds of games and fits) and the
    level-1 fine-tuning."""
    runs = (f"{NET_SCALE}/{run}" for run in ("distill", "rl-l1"))
    return sum(run_cpu_seconds(run, curve_rows(run)[-1]) for run in runs) / 3600


#: The teacher-track entries whose CPU was measured: id -> its CPU hours.
TEACHER_CPU_HOURS = {"c-net": net_v1_cpu_hours, "c-net-scale": net_scale_cpu_hours}


def teacher_entry(id_: str) -> dict:
    algorithm, results, agent, frames_counted, cpu_measured, command, notes = TEACHER[id_]
    cpu = round(TEACHER_CPU_HOURS[id_](), 3) if id_ in TEACHER_CPU_HOURS else None
    return entry(
        id_,
        "c",
        None,
        algorithm=algorithm,
        frames_counted=frames_counted,
        cpu_hours=cpu,
        cpu_measured=cpu_measured,
        levels=levels_of(results, agent),
        result={"file": results, "agent": agent},
        run=None,
        command=command,
        notes=notes,
    )


#: Per-deal budgets of the 100 M line (PLAN.md amendment 3).
PER_DEAL_BUDGETS = (500_000, 1_000_000, 2_000_000, 5_000_000)


def family_a_100m() -> dict:
    """Wins a 100 M exploration budget finds at each per-deal budget, from stage 2's deals."""
    explored = read_json(f"{EXPLORE}/results.json")
    deals, run_budget = explored["deals"], explored["config"]["budget"]
    rows = []
    for budget in PER_DEAL_BUDGETS:
        # a deal's walk is the same up to any budget; at the run's own budget its frames are
        # the run's (a deal may overrun its budget by less than one walk)
        frames = sum(
            d["frames"] if budget >= run_budget else min(d["frames"], budget) for d in deals
        )
        wins = sum(1 for d in deals if d["won"] and d["frames"] <= budget)
        rows.append(
            {
                "per_deal_budget": budget,
                "deals": len(deals),
                "wins": wins,
                "frames": frames,
                "deals_per_100m": round(100e6 * len(deals) / frames, 1),
                "wins_per_100m": round(100e6 * wins / frames, 2),
            }
        )
    return {
        "source": f"{EXPLORE}/results.json",
        "rule": "experiments/from-nothing/PLAN.md, amendment 3",
        "rows": rows,
    }


def main(argv: list[str] | None = None) -> int:
    argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0]).parse_args(
        argv
    )
    entries = [rl_entry(id_) for id_ in RL_RUNS]
    scratch = scratch_entry()
    entries += [sb3_entry(), family_a_entry(), scratch, scratch_search_entry(scratch)]
    entries += [teacher_entry(id_) for id_ in TEACHER]
    folder = HERE / "entries"
    folder.mkdir(exist_ok=True)
    for old in folder.glob("*.json"):
        old.unlink()
    for item in entries:
        (folder / f"{item['id']}.json").write_text(json.dumps(item, indent=1) + "\n")
    (HERE / "eval/family_a_100m.json").write_text(json.dumps(family_a_100m(), indent=1) + "\n")
    print(f"wrote {len(entries)} entries to {folder.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
