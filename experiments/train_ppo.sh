#!/usr/bin/env bash
# The recipe of the committed PPO agents: one MaskablePPO agent per level, trained one level
# after another, then measured by `friday eval` beside Random, Heuristic and Search.
#
# Budget: 800,000 timesteps per level (STEPS), about 13 minutes per level on one CPU core
# (~1,100 steps/s measured with the other core busy): under an hour for all four.
# Hyperparameters: experiments/ppo.toml. Reward: "progress" (win/loss +-1 at the end, plus
# 0.1 per hazard beaten), chosen because the score reward taught the policy to die fast.
#
# Writes, per level L:
#   runs/ppo-levelL/                        the run (checkpoints, config.json, curve.csv/png)
#   agents/checkpoints/ppo-levelL.zip       the policy `friday eval --agents ppo` plays
#   experiments/results/ppo-levelL-curve.{csv,png}  the learning curve (held-out deals)
#
# Usage (from the repository root):  bash experiments/train_ppo.sh [LEVELS...]
#   STEPS=100000 bash experiments/train_ppo.sh 1     # a shorter trial on level 1
set -euo pipefail
cd "$(dirname "$0")/.."
STEPS="${STEPS:-800000}"
LEVELS=("${@:-1 2 3 4}")
# shellcheck disable=SC2206
LEVELS=(${LEVELS[*]})

for level in "${LEVELS[@]}"; do
  echo "== level ${level}: ${STEPS} timesteps ($(date -u +%H:%M:%S))"
  friday train --config experiments/ppo.toml --level "${level}" \
    --total-timesteps "${STEPS}" --out-dir "runs/ppo-level${level}"
  cp "runs/ppo-level${level}/policy.zip" "agents/checkpoints/ppo-level${level}.zip"
  cp "runs/ppo-level${level}/curve.csv" "experiments/results/ppo-level${level}-curve.csv"
  cp "runs/ppo-level${level}/curve.png" "experiments/results/ppo-level${level}-curve.png"
done
echo "== done ($(date -u +%H:%M:%S)); measure with:"
echo "friday eval --agents random,heuristic,search,ppo --out results/eval --update-readme README.md"
