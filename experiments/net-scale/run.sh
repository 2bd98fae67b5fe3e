#!/usr/bin/env bash
# `net` at scale (PLAN.md), stages 1-3 in order; run again, it continues where it stopped (the
# rounds skip the games on disk, `friday rl` resumes from its checkpoint, `friday eval` with
# --resume). Stage 4, the evaluation deals, is evaluate.sh.
# Usage, from the repository root:   bash experiments/net-scale/run.sh
# DATA (default data/net-scale) holds the rounds' games, which are large and not committed.
set -euo pipefail
data=${DATA:-data/net-scale}
friday=${FRIDAY:-friday}
here=experiments/net-scale
results=$here/results
source experiments/level4-value/eval_runs.sh # play(): one friday eval run, resumed or kept

# 1. expert iteration: 3 rounds (config.json), both cores for the games, one for the fits
$friday distill --config $here/config.json --out $results/distill --data "$data" --workers 2 \
    --no-progress

# 2. PPO fine-tuning of the best round on levels 1 and 4, side by side (one core each)
network=$(python $here/choose.py round)
finetune() { # level, run folder (a run with a checkpoint continues with its own settings)
    if [ -e "$2/checkpoint.pt" ]; then
        $friday rl --resume --out "$2" --no-progress
    else
        $friday rl --init "$network" --level "$1" --frames 3000000 --eval-deals 500 \
            --eval-levels 1,2,3,4 --out "$2" --no-progress
    fi
}
finetune 1 $results/rl-l1 &
level1=$!
finetune 4 $results/rl-l4 &
level4=$!
wait $level1
wait $level4

# 3. every candidate on validation deals 0-499 of each level; the rule picks `net`
candidates=$(python -c "
import sys; sys.path.insert(0, '$here'); from choose import candidates; print(','.join(candidates()))")
play $results/selection 1-4 "$candidates" 500 --deals validation
python $here/choose.py selection
