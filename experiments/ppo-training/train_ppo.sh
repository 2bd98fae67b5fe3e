#!/usr/bin/env bash
# The recipe of the committed PPO agents: one MaskablePPO agent per level, trained one level
# after another, then measured by `friday eval` beside Random, Heuristic and Search.
#
# Budget: 800,000 timesteps per level (STEPS) on one CPU core each. Measured on the 2-core
# machine the committed agents come from, shared with other jobs: 1,041 s, 679 s, 348 s and
# 354 s for levels 1-4 (770 to 2,300 steps/s depending on the load): 40 minutes in all.
# Hyperparameters: experiments/ppo-training/ppo.toml. Reward: the env's progress reward (+-1 at the end,
# plus 0.1 per hazard and pirate beaten), chosen because the score reward taught the policy to die
# fast (the committed agents were trained with the older --bonus hazards: pirates not paid).
#
# Writes, per level L:
#   runs/ppo-levelL/                        the run (checkpoints, config.json, curve.jsonl/png)
#   (the committed `ppo` agent is the imitation policy of experiments/imitation/; copy
#   runs/ppo-levelL/policy.zip to agents/friday_agents/models/ppo_levelL.zip to make `ppo` play it)
#   experiments/ppo-training/results/ppo-levelL-curve.{jsonl,png}  the learning curve (held-out deals;
#   the committed .csv curves were written before the one curve format, on evaluation-range deals)
# and then results/ppo-recipe/ (results.json, results.csv, plots): a quick `friday eval` (its
# `ppo` is the committed agent unless the new policies were copied as said above).
#
# Usage (from the repository root):  bash experiments/ppo-training/train_ppo.sh [LEVELS...]
#   STEPS=100000 bash experiments/ppo-training/train_ppo.sh 1     # a shorter trial on level 1
set -euo pipefail
cd "$(dirname "$0")/../.."
STEPS="${STEPS:-800000}"
# EVAL_FLAGS adds friday eval flags (the README's tables come from python tools/docs_sections.py).
# shellcheck disable=SC2206
EVAL_FLAGS=(${EVAL_FLAGS:-})
LEVELS=("${@:-1 2 3 4}")
# shellcheck disable=SC2206
LEVELS=(${LEVELS[*]})

for level in "${LEVELS[@]}"; do
  echo "== level ${level}: ${STEPS} timesteps ($(date -u +%H:%M:%S))"
  friday train --config experiments/ppo-training/ppo.toml --level "${level}" \
    --frames "${STEPS}" --out "runs/ppo-level${level}"
  cp "runs/ppo-level${level}/curve.jsonl" "experiments/ppo-training/results/ppo-level${level}-curve.jsonl"
  cp "runs/ppo-level${level}/curve.png" "experiments/ppo-training/results/ppo-level${level}-curve.png"
done
echo "== done ($(date -u +%H:%M:%S)); measuring on the evaluation deals"
# Every agent on the same fixed deals; consecutive agents are compared (PPO against Random).
rm -rf results/ppo-recipe  # a new measurement of the new agents
friday eval --agents random,ppo,heuristic,search --levels 1-4 --games 300,search=50 \
  --no-progress --out results/ppo-recipe "${EVAL_FLAGS[@]}"
