#!/usr/bin/env bash
# Stage A1 of experiments/from-nothing/PLAN.md: friday explore on the study's training deals,
# one worker each (the machine's cores are shared), into run folders outside git; each run's
# config, results and won games are then copied under results/.
#   bash experiments/from-nothing/explore.sh pilot|l1|l4
# A run stopped by Ctrl-C or a kill continues with: friday explore --resume --out runs/explore-<stage>
set -euo pipefail
stage=${1:?pilot, l1 or l4}
case $stage in
    pilot) args=(--level 1 --first-index 600000 --deals 20) ;;
    l1) args=(--level 1 --first-index 600000 --deals 400) ;;
    l4) args=(--level 4 --first-index 600000 --deals 100) ;;
    *) echo "unknown stage $stage: pilot, l1 or l4" >&2 && exit 2 ;;
esac
out=runs/explore-$stage
if [ -e "$out/config.json" ]; then
    friday explore --resume --out "$out" --workers 1 --no-progress
else
    friday explore "${args[@]}" --budget 5000000 --walk 50 --seed 0 --workers 1 --no-progress \
        --out "$out"
fi
dest=experiments/from-nothing/results/$stage
mkdir -p "$dest"
cp "$out/config.json" "$out/results.json" "$out/games.jsonl" "$dest/"
