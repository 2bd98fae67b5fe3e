#!/usr/bin/env bash
# The large-batch study (PLAN.md beside this file), from the repository root. A stopped run
# continues with: friday rl --resume --out experiments/large-batch/runs/b1024-s1-c0.1-l1
set -euo pipefail
step=${1:?usage: bash experiments/large-batch/run.sh run|report}
case "$step" in
run)
    friday rl --reward progress --progress-coef 0.1 --level 1 --hidden 64,64 --seed 1 \
        --num-envs 1024 --num-steps 16 --eval-every 5 --eval-levels 1 --frames 25000000 \
        --no-progress --out experiments/large-batch/runs/b1024-s1-c0.1-l1 ;;
run2)  # amendment 1: the default's minibatch size and optimizer steps per frame
    friday rl --reward progress --progress-coef 0.1 --level 1 --hidden 64,64 --seed 1 \
        --num-envs 1024 --num-steps 16 --minibatches 8 --eval-every 5 --eval-levels 1 \
        --frames 25000000 --no-progress --out experiments/large-batch/runs/b1024-mb8-s1-c0.1-l1 ;;
report)
    python experiments/large-batch/report.py ;;
*)  echo "unknown step $step" >&2; exit 2 ;;
esac
