#!/usr/bin/env bash
# Stage A1 of experiments/from-nothing/PLAN.md: friday explore on the study's training deals,
# one worker each (the machine's cores are shared), into run folders outside git; each run's
# config, results and won games are then copied under results/.
#   bash experiments/from-nothing/explore.sh pilot|l1|l4|l1-20m
# A run stopped by Ctrl-C or a kill continues with: friday explore --resume --out runs/explore-<stage>
set -euo pipefail
stage=${1:?pilot, l1, l4 or l1-20m}
budget=5000000
case $stage in
    pilot) args=(--level 1 --first-index 600000 --deals 20) ;;
    l1) args=(--level 1 --first-index 600000 --deals 400) ;;
    l4) args=(--level 4 --first-index 600000 --deals 100) ;;
    # stage 4: the level-1 deals again at 20 M frames (the same first 5 M frames of each deal)
    l1-20m) args=(--level 1 --first-index 600000 --deals 400) budget=20000000 ;;
    *) echo "unknown stage $stage: pilot, l1, l4 or l1-20m" >&2 && exit 2 ;;
esac
out=runs/explore-$stage
if [ -e "$out/config.json" ]; then
    friday explore --resume --out "$out" --workers 1 --no-progress
else
    friday explore "${args[@]}" --budget "$budget" --walk 50 --seed 0 --workers 1 --no-progress \
        --out "$out"
fi
dest=experiments/from-nothing/results/$stage
mkdir -p "$dest"
cp "$out/config.json" "$out/results.json" "$out/games.jsonl" "$dest/"
