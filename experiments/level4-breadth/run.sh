#!/usr/bin/env bash
# The level-4 breadth study (PLAN.md): the candidates on level-4 validation deals 0-499, their
# CPU per game (cost.py), then rules 1 and 2 (choose.py). One worker; resumes when run again.
# Usage, from the repository root:   bash experiments/level4-breadth/run.sh
set -euo pipefail
friday=${FRIDAY:-friday}
here=experiments/level4-breadth
source experiments/level4-value/eval_runs.sh # play(): one friday eval run, resumed or kept
candidates=$(python -c "
import sys; sys.path.insert(0, '$here'); from cost import CANDIDATES; print(','.join(CANDIDATES))")
play $here/results/validation 4 "$candidates" 500 --deals validation
[ -e $here/results/cost.json ] || python $here/cost.py --out $here/results/cost.json
python $here/choose.py rules --level 4

# Amendment 2: the same question on levels 1-3
levels13=$(python -c "
import sys; sys.path.insert(0, '$here'); from cost import CANDIDATES_LEVELS_1_3 as c; print(','.join(c))")
play $here/results/validation-levels1-3 1-3 "$levels13" 500 --deals validation
for level in 1 2 3; do
    [ -e $here/results/cost-level$level.json ] ||
        python $here/cost.py --level $level --out $here/results/cost-level$level.json
    python $here/choose.py rules --level $level
done
