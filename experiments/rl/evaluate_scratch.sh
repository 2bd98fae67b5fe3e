#!/usr/bin/env bash
# The from-scratch runs' last policies on the README's evaluation deals, played once after
# both runs reached 50 M frames (experiments/rl/PLAN-scratch.md): bash experiments/rl/evaluate_scratch.sh
set -euo pipefail
PPO=experiments/rl/scratch50m-ppo-l1/policy.npz
COUNTS=experiments/rl/scratch50m-counts-l1/policy.npz
mkdir -p experiments/rl/eval
friday eval --agents "net:model=$PPO,net:model=$COUNTS" --levels 1 --games 1000 --no-progress \
    --out results/scratch-eval
cp results/scratch-eval/results.json experiments/rl/eval/scratch.json
