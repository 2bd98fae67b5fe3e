#!/usr/bin/env bash
# Rule 3 of PLAN.md (amendment 1): the evaluation deals, played once, by the configuration rules
# 1-2 adopted (results/decision.json), named explicitly. One worker; resumes.
# Usage, from the repository root:   bash experiments/level4-breadth/evaluate.sh
#   results/evaluation/level4: 1,000 level-4 deals (paired with guided's committed games on the
#       same deals, experiments/level4-value/results/evaluation/level4);
#   results/evaluation/level4-256: at 256 simulations on the first 500 (not lower than at 32);
#   results/evaluation/level4-curve: at 16, 64, 128 and 512 on the first 300.
set -euo pipefail
friday=${FRIDAY:-friday}
here=experiments/level4-breadth
source experiments/level4-value/eval_runs.sh # play(): one friday eval run, resumed or kept
decision=$here/results/decision.json
read -r adopted chosen < <(python -c "
import json; d = json.load(open('$decision')); print(int(d['rule_2_adopted']), d['rule_1_choice'])")
[ "$adopted" = 1 ] || { echo "evaluate.sh: rule 2 adopted nothing; no evaluation" >&2; exit 0; }
top=${chosen##*top=}
spec() { # the adopted configuration at $1 simulations
    if [ "$1" = 32 ]; then echo "guided:top=$top"; else echo "guided:sims=$1:top=$top"; fi
}
out=$here/results/evaluation
play $out/level4 4 "$(spec 32)" 1000
play $out/level4-256 4 "$(spec 256)" 500
curve=
for sims in 16 64 128 512; do curve="$curve${curve:+,}$(spec "$sims")"; done
play $out/level4-curve 4 "$curve" 300
