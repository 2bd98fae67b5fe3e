#!/usr/bin/env bash
# The level-4 leaf study (PLAN.md), stages A to C and selection rules 1-3, in order, one worker
# (the machine's cores are shared). Every stage resumes when this is run again: the data skips
# the chunks on disk, a fit is minutes, the evaluation continues with --resume.
# Usage, from the repository root:   bash experiments/level4-value/run.sh
# DATA (default data/) holds the data folders, which are large and not committed.
set -euo pipefail
data=${DATA:-data}
friday=${FRIDAY:-friday}
here=experiments/level4-value
source $here/eval_runs.sh
fits=$here/results/fits
validation=$here/results/validation
mkdir -p "$fits"

# A, A': the positions, played by guided as it was when they were (its defaults before this
# study and the level-4 breadth study changed them; the data folders recorded it as `guided`)
player=guided:prior=guided-prior:value=guided-value-per-level:top=1
$friday value data --level 4 --deal-set validation --deals 2000 --out "$data/level4-value-validation" \
    --agent "$player" --workers 1 --no-progress
$friday value data --level 4 --deals 24000 --out "$data/level4-value" --agent "$player" --workers 1 \
    --no-progress

# B: the fits of rule 1 (each skipped when its network is there)
fit() { # name, extra options
    local name=$1
    shift
    [ -e "$fits/$name.npz" ] && return
    $friday value fit --data "$data/level4-value" --validation "$data/level4-value-validation" \
        --out "$fits/$name.npz" "$@"
}
fit h64
fit h128 --hidden 128,128
fit h64-base --sources base
python $here/choose.py fit

# C: rules 2 and 3 on 500 level-4 validation deals, and amendment 2's prior rule (the same
# deals, with `net` as guided's prior, and 500 validation deals of levels 1-3)
leaf=$here/results/leaf_per_level.json
validate() { # out, levels, agents: 500 validation deals each
    play "$1" "$2" "$3" 500 --deals validation
}
# guided's options spelled out: these were its defaults when the study ran (the committed games
# name them by the bare word `guided`), and the study itself changed them afterwards
old=guided:prior=guided-prior
linear=guided-value-per-level
validate "$validation" 4 "$old:value=$linear,$old:value=$leaf,$old:sims=256:value=$linear,\
$old:sims=256:value=$leaf,guided:prior=net:value=$linear,guided:prior=net:value=$leaf"
validate "$validation-levels1-3" 1-3 "$old:value=$linear,guided:prior=net:value=$linear"
python $here/choose.py leaf
python $here/choose.py prior
