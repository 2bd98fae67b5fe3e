#!/usr/bin/env bash
# The no-teacher study's runs (experiments/no-teacher/PLAN.md), in order, from the repository root.
# Each run is one process; at most one per core (nice -n 10 beside other work). A run that stops
# (Ctrl-C, the session's end) continues with the same line plus --resume, e.g.
#   friday rl --resume --out experiments/no-teacher/runs/s1-c0.1-l1
# (a resumed run takes its own config.json; only --frames and --device may change).
set -euo pipefail
stage=${1:?usage: bash experiments/no-teacher/run.sh STAGE (1, select1, ...)}

common=(--reward progress --level 1 --hidden 64,64 --eval-levels 1,2,3,4 --no-progress)

case "$stage" in
1)  # stage 1: level 1, c = 0.1, seeds 1-3, 60 M frames each (seeds 1-2 started 2026-11-28 at
    # main a1b1a36, seed 3 at e770444: the faster trainer, the same learning to 1e-5)
    for seed in 1 2 3; do
        friday rl "${common[@]}" --progress-coef 0.1 --seed "$seed" --frames 60000000 \
            --out "experiments/no-teacher/runs/s$seed-c0.1-l1"
    done ;;
select1)  # stage 1's selection: each seed's final policy on 500 level-1 validation deals
    runs=experiments/no-teacher/runs
    friday eval --agents "net:model=$runs/s1-c0.1-l1/policy.npz,net:model=$runs/s2-c0.1-l1/policy.npz,net:model=$runs/s3-c0.1-l1/policy.npz" \
        --levels 1 --games 500 --deals validation --no-progress \
        --out experiments/no-teacher/results/stage1-selection
    python experiments/no-teacher/choose.py ;;
register1)  # the interim registration: stage 1's choice becomes scratch (the models folder)
    python experiments/no-teacher/register.py \
        --choice experiments/no-teacher/results/stage1-selection/choice.json ;;
eval-scratch)  # the registered scratch plays the evaluation deals once, paired with heuristic and guided
    friday eval --agents heuristic,scratch,guided --levels 1-4 --games 1000 --no-progress \
        --out experiments/no-teacher/results/eval/scratch-run
    cp experiments/no-teacher/results/eval/scratch-run/results.json \
        experiments/no-teacher/results/eval/scratch.json
    gzip -9f experiments/no-teacher/results/eval/scratch-run/games.jsonl  # the results policy: > 1 MB
    python experiments/no-teacher/targets.py --run experiments/no-teacher/results/eval/scratch-run \
        --agent scratch ;;
2)  # stage 2: the coefficient sweep, level 1, seed 1, 25 M frames (c = 0.1 is stage 1's seed 1)
    for coef in 0.05 0.2; do
        friday rl "${common[@]}" --progress-coef "$coef" --seed 1 --frames 25000000 \
            --out "experiments/no-teacher/runs/s1-c$coef-l1"
    done ;;
3)  # stage 3 (amendment 1): the control (a copy of the chosen run resumed to 80 M frames) and
    # the two variants from its final policy, 20 M frames each
    runs=experiments/no-teacher/runs
    start=(--init "$runs/s3-c0.1-l1/policy.npz" --kl-coef 0 --init-temperature 1 --warmup-frames 200000)
    [ -d "$runs/s3-c0.1-l1-to80m" ] || cp -r "$runs/s3-c0.1-l1" "$runs/s3-c0.1-l1-to80m"
    friday rl --resume --frames 80000000 --no-progress --out "$runs/s3-c0.1-l1-to80m"
    friday rl "${start[@]}" --reward win_loss --level 1 --eval-levels 1,2,3,4 --seed 1 \
        --frames 20000000 --no-progress --out "$runs/s3-win-loss-20m"
    friday rl "${start[@]}" --reward progress --progress-coef 0.1 --progress-coef-final 0 \
        --level 1 --eval-levels 1,2,3,4 --seed 1 --frames 20000000 --no-progress \
        --out "$runs/s3-anneal-20m" ;;
select3)  # stage 3's decision: the control and the variants on 500 level-1 validation deals
    runs=experiments/no-teacher/runs
    friday eval --agents "net:model=$runs/s3-c0.1-l1-to80m/policy.npz,net:model=$runs/s3-win-loss-20m/policy.npz,net:model=$runs/s3-anneal-20m/policy.npz" \
        --levels 1 --games 500 --deals validation --no-progress \
        --out experiments/no-teacher/results/stage3-selection
    python experiments/no-teacher/decide.py 3 ;;
4)  # stage 4: width, level 1, c = 0.1, seed 1, 256-256, 25 M frames
    friday rl --reward progress --level 1 --hidden 256,256 --eval-levels 1,2,3,4 --no-progress \
        --progress-coef 0.1 --seed 1 --frames 25000000 --out experiments/no-teacher/runs/s1-c0.1-l1-w256 ;;
select4)  # amendment 2: the wide run at 60 M frames as stage 1's fourth candidate (same 500 deals)
    friday eval --agents net:model=experiments/no-teacher/runs/s1-c0.1-l1-w256/policy.npz \
        --levels 1 --games 500 --deals validation --no-progress \
        --out experiments/no-teacher/results/stage4-selection
    python experiments/no-teacher/decide.py 4-select ;;
5)  # stage 5 (amendments 1-2): stage 1's choice fine-tuned on levels 1-4 mixed with stage 2's
    # coefficient, 30 M frames, then resumed to 40 M (no stage-3 variant adopted) or 10 M more
    # from its policy with the adopted variant's reward
    runs=experiments/no-teacher/runs
    coef=$(python -c "import json; print(json.load(open('experiments/no-teacher/results/stage2-decision.json'))['chosen_coef'])")
    friday rl --init "$runs/s3-c0.1-l1/policy.npz" --kl-coef 0 --init-temperature 1 \
        --warmup-frames 200000 --reward progress --progress-coef "$coef" --levels 1,2,3,4 \
        --eval-levels 1,2,3,4 --seed 1 --frames 30000000 --no-progress --out "$runs/s5-all-levels"
    adopted=$(python -c "import json; print(json.load(open('experiments/no-teacher/results/stage3-decision.json'))['adopted'] or '')")
    if [ -z "$adopted" ]; then
        friday rl --resume --frames 40000000 --no-progress --out "$runs/s5-all-levels"
    else
        echo "stage 3 adopted $adopted: its 10 M frames follow (amendment 1)" >&2; exit 2
    fi ;;
select5)  # stage 5's selection: stage 1's choice and stage 5's policy on 500 validation deals a level
    runs=experiments/no-teacher/runs
    friday eval --agents "net:model=$runs/s3-c0.1-l1/policy.npz,net:model=$runs/s5-all-levels/policy.npz" \
        --levels 1-4 --games 500 --deals validation --no-progress \
        --out experiments/no-teacher/results/stage5-selection
    python experiments/no-teacher/decide.py 5 ;;
register5)  # stage 5's choice, if it is stage 5's policy, replaces scratch; the interim scratch's
    # evaluation is kept as stage1-scratch*, and the new scratch plays the evaluation deals once
    python experiments/no-teacher/register.py --choice experiments/no-teacher/results/stage5-decision.json
    eval=experiments/no-teacher/results/eval
    git mv "$eval/scratch-run" "$eval/stage1-scratch-run"
    git mv "$eval/scratch.json" "$eval/stage1-scratch.json"
    bash experiments/no-teacher/run.sh eval-scratch ;;
6-value)  # stage 6 (amendment 3): the leaf value from START's own games (START: scratch as stage 6
    # starts), per level; the data in data/ (not committed), the fits in runs/s6-value
    start=scratch  # by its role: the models folder's scratch.npz
    out=experiments/no-teacher/runs/s6-value
    mkdir -p "$out"
    for level in 1 2 3 4; do
        friday value data --agent "net:model=$start" --continuations 0 --level "$level" \
            --deals 2000 --out "data/no-teacher/value-l$level" --no-progress
        friday value data --agent "net:model=$start" --continuations 0 --level "$level" \
            --deal-set validation --deals 500 --out "data/no-teacher/value-validation-l$level" --no-progress
        friday value fit --data "data/no-teacher/value-l$level" \
            --validation "data/no-teacher/value-validation-l$level" --sources base --hidden 64,64 \
            --seed 0 --out "$out/leaf-l$level.npz" --report "$out/leaf-l$level.json"
    done
    python - "$out" <<'PY'
import json, sys
out = sys.argv[1]
levels = {str(level): f"leaf-l{level}.npz" for level in (1, 2, 3, 4)}
note = "stage 6's leaf value: one network per level fitted on scratch's own games (PLAN.md, amendment 3)"
text = json.dumps({"format": "friday-env/value-per-level", "levels": levels, "note": note}, indent=1)
open(f"{out}/leaf_per_level.json", "w").write(text + "\n")
PY
    ;;
6-distill)  # stage 6's expert iteration (amendment 3); resumes with the same line
    friday distill --config experiments/no-teacher/s6-distill.json \
        --out experiments/no-teacher/runs/s6-distill --data data/no-teacher/s6-distill \
        --workers 2 --no-progress ;;
6-margin)  # stage 6 (amendment 4): the labelling search's margin, on 100 validation deals of levels 1 and 4
    search="search:sims=32:value=experiments/no-teacher/runs/s6-value/leaf_per_level.json:prior=scratch:top=2:anchor=prior:rollout=scratch"
    agents=""
    for margin in 0 0.02 0.05 0.1 0.2; do agents="$agents,$search:margin=$margin"; done
    friday eval --agents "${agents#,}" --levels 1,4 --games 100 --deals validation --workers 1 \
        --no-progress --out experiments/no-teacher/results/stage6-margin
    python experiments/no-teacher/decide.py 6-margin ;;
6-departures)  # how often the search with START leaves its prior, margin 0 and 0.1 (50 validation
    # deals of levels 1 and 4)
    search="search:sims=32:value=experiments/no-teacher/runs/s6-value/leaf_per_level.json:prior=scratch:top=2:anchor=prior:rollout=scratch"
    for margin in 0 0.1; do
        python experiments/no-teacher/departures.py --agent "$search:margin=$margin" --levels 1,4 \
            --deals 50 --out "experiments/no-teacher/results/stage6-departures/margin-$margin.json"
    done ;;
6m-distill)  # stage 6's expert iteration again (amendment 4): amendment 3's settings with the
    # chosen margin, from START; resumes with the same line
    python - <<'PY'
import json
folder = "experiments/no-teacher"
config = json.load(open(f"{folder}/s6-distill.json"))
margin = json.load(open(f"{folder}/results/stage6-margin-decision.json"))["chosen_margin"]
config |= {"first_index": 560000, "margin": margin}
open(f"{folder}/s6m-distill.json", "w").write(json.dumps(config, indent=1) + "\n")
PY
    friday distill --config experiments/no-teacher/s6m-distill.json \
        --out experiments/no-teacher/runs/s6m-distill --data data/no-teacher/s6m-distill \
        --workers 2 --no-progress ;;
6-select)  # stage 6's selection (amendments 3-4): the search with START and with each round's
    # network, on 500 validation deals of levels 1 and 4
    agents=$(python - <<'PY'
import json
folder = "experiments/no-teacher"
config = json.load(open(f"{folder}/s6m-distill.json"))
networks = ["scratch"] + [
    f"{folder}/runs/s6m-distill/round-{r:02d}/network.npz" for r in range(config["rounds"])
]
value, margin = config["value"], config["margin"]
print(",".join(
    f"search:sims=32:value={value}:prior={n}:top=2:anchor=prior:rollout={n}:margin={margin:g}"
    for n in networks
))
PY
)
    friday eval --agents "$agents" --levels 1,4 --games 500 --deals validation --no-progress \
        --out experiments/no-teacher/results/stage6-selection
    python experiments/no-teacher/decide.py 6-select ;;
register6)  # stage 6's choice into the models folder (scratch-search, scratch-distilled)
    python experiments/no-teacher/register_search.py ;;
eval-scratch-search)  # scratch-search and scratch-distilled play the evaluation deals once,
    # paired with heuristic and guided (each agent is paired with the one listed before it)
    friday eval --agents heuristic,scratch-search,guided,scratch-distilled --levels 1-4 --games 1000 \
        --no-progress --out experiments/no-teacher/results/eval/scratch-search-run
    cp experiments/no-teacher/results/eval/scratch-search-run/results.json \
        experiments/no-teacher/results/eval/scratch-search.json
    gzip -9f experiments/no-teacher/results/eval/scratch-search-run/games.jsonl
    for agent in scratch-search scratch-distilled; do
        python experiments/no-teacher/targets.py \
            --run experiments/no-teacher/results/eval/scratch-search-run --agent "$agent"
    done ;;
*)  echo "stage $stage: not planned to run yet (see PLAN.md)" >&2; exit 2 ;;
esac
