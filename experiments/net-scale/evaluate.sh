#!/usr/bin/env bash
# Stage 4 of PLAN.md: the evaluation deals, played once, by the network stage 3 chose
# (results/selection/choice.json), named by its file, then summarised against the targets
# (choose.py evaluation). If today's `net` (net-v1 since amendment 10) was chosen, nothing is
# replaced and nothing is played: its evaluation is already committed
# (experiments/rl/eval/net_vs_start.json).
# Usage, from the repository root:   bash experiments/net-scale/evaluate.sh
set -euo pipefail
friday=${FRIDAY:-friday}
here=experiments/net-scale
source experiments/level4-value/eval_runs.sh # play(): one friday eval run, resumed or kept
choice=$here/results/selection/choice.json
[ -e "$choice" ] || { echo "evaluate.sh: no $choice (run run.sh first)" >&2; exit 2; }
chosen=$(python -c "import json; print(json.load(open('$choice'))['chosen'])")
todays=$(python -c "import sys; sys.path.insert(0, '$here'); from choose import TODAYS_NET; print(TODAYS_NET)")
if [ "$chosen" = "$todays" ]; then
    echo "evaluate.sh: today's net was chosen; nothing to play (PLAN.md, selection)"
    exit 0
fi
play $here/results/eval 1-4 "$chosen" 1000
python $here/choose.py evaluation
