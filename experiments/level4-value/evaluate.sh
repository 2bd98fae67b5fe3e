#!/usr/bin/env bash
# Stage D of PLAN.md: the evaluation deals, played once, after rules 1-3 have chosen on validation
# deals (results/validation/decision.json, prior.json). The chosen agent is guided, with the
# per-level leaf file when rule 2 adopted it and `net` as its prior when amendment 2's rule
# adopted that, at rule 3's budget. One worker; resumes.
# Usage, from the repository root:   bash experiments/level4-value/evaluate.sh
#   results/evaluation/level4: the chosen agent and guided on 1,000 level-4 deals (the >= 60 %
#       target, paired against guided); level4-256: the chosen agent at 256 simulations on the
#       first 500 (more search not worse); level4-curve: at 16, 64, 128, 512 on the first 300
#       (the curve; 32 and 256 come from the same deals);
#   results/evaluation/levels1-3: the chosen agent on 1,000 deals of each of levels 1-3 (level 1:
#       the >= 95 % target; levels 2 and 3 complete its row of the README's table).
set -euo pipefail
friday=${FRIDAY:-friday}
here=experiments/level4-value
source $here/eval_runs.sh
decision=$here/results/validation/decision.json
[ -e "$decision" ] || { echo "evaluate.sh: no $decision (run run.sh first)" >&2; exit 2; }
prior_file=$here/results/validation/prior.json
[ -e "$prior_file" ] || { echo "evaluate.sh: no $prior_file (run run.sh first)" >&2; exit 2; }
read -r adopted budget net < <(python -c "
import json; d = json.load(open('$decision')); p = json.load(open('$prior_file'))
print(int(d['rule_2_adopted']), d['rule_3_budget'], int(p['adopted']))")
# guided's options spelled out (the study changed its defaults once it had chosen): the prior
# and the value that rules 5 and 2 chose, else those of before the study
prior=guided-prior value=guided-value-per-level
[ "$net" = 1 ] && prior=net
[ "$adopted" = 1 ] && value=$here/results/leaf_per_level.json
base=guided:prior=$prior:value=$value
before=guided:prior=guided-prior:value=guided-value-per-level
spec() { # the chosen agent at $1 simulations (32 is guided's default: no option)
    if [ "$1" = 32 ]; then echo "$base"; else echo "$base:sims=$1"; fi
}
chosen=$(spec "$budget")
# friday eval's per-agent game counts go by agent name, not by spec: one run per count
out=$here/results/evaluation
level4=$chosen
[ "$chosen" != "$before" ] && level4="$level4,$before"
play $out/level4 4 "$level4" 1000
play $out/level4-256 4 "$(spec 256)" 500
curve=
for sims in 16 64 128 512; do curve="$curve${curve:+,}$(spec "$sims")"; done
play $out/level4-curve 4 "$curve" 300
play $out/levels1-3 1-3 "$chosen" 1000
