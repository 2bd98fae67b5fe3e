#!/usr/bin/env bash
# Study row "PPO from scratch, value-shaped reward": the committed PPO recipe
# (experiments/ppo.toml, 64x64, 8 envs) with reward value_shaped (win_loss plus
# gamma*V(s')-V(s), V = agents/search/value.py's fitted state value / 100) instead of progress,
# STEPS timesteps on level 1 only (the budget of one level of train_ppo.sh is 800k).
# Writes experiments/results/imitation/scratch-shaped.json and its curve.
set -euo pipefail
cd "$(dirname "$0")/../.."
STEPS="${STEPS:-400000}"
LOG=experiments/results/imitation/costs/scratch-shaped.jsonl
rm -f "${LOG}"
python -m friday_agents.imitation.study timed --levels 1 "${LOG}" -- \
  friday train --config experiments/ppo.toml --level 1 --reward value_shaped \
  --total-timesteps "${STEPS}" --eval-freq 100000 --out-dir runs/scratch-shaped-level1
python -m friday_agents.imitation.study curve runs/scratch-shaped-level1/curve.csv \
  experiments/results/imitation/curves/scratch-shaped.csv --x-label "PPO timesteps"
python -m friday_agents.imitation.study evaluate scratch-shaped --levels 1 \
  --title "PPO from scratch, value-shaped reward (level 1 only)" \
  --note "experiments/ppo.toml with --reward value_shaped, ${STEPS} timesteps on level 1" \
  --agent "ppo:model=runs/scratch-shaped-level1/policy.zip" --timed "${LOG}"
