#!/usr/bin/env bash
# Study rows "imitation + PPO fine-tuning": friday train --init from an imitation policy with
# experiments/imitation/finetune.toml, STEPS timesteps per level, reward REWARD (progress or
# value_shaped). The held-out curve starts at the imitation policy (timestep 0), so a
# collapse in the first updates shows as a drop at the first points.
# Usage: bash experiments/imitation/finetune.sh INIT_POLICY NAME [LEVELS...]
set -euo pipefail
cd "$(dirname "$0")/../.."
INIT="$1"; NAME="$2"; shift 2
LEVELS=("${@:-1}")
# shellcheck disable=SC2206
LEVELS=(${LEVELS[*]})
STEPS="${STEPS:-100000}"
REWARD="${REWARD:-progress}"
LOG="experiments/results/imitation/costs/${NAME}.jsonl"
rm -f "${LOG}"
for level in "${LEVELS[@]}"; do
  python -m friday_agents.imitation.study timed --levels "${level}" "${LOG}" -- \
    friday train --config experiments/imitation/finetune.toml --init "${INIT}" ${EXTRA:-} \
    --level "${level}" --reward "${REWARD}" --total-timesteps "${STEPS}" \
    --out-dir "runs/${NAME}-level${level}"
done
python -m friday_agents.imitation.study curve "runs/${NAME}-level${LEVELS[0]}/curve.csv" \
  "experiments/results/imitation/curves/${NAME}.csv" --x-label "PPO timesteps"
python -m friday_agents.imitation.study evaluate "${NAME}" --levels "${LEVELS[*]}" \
  --title "${TITLE:-imitation + PPO fine-tuning (${REWARD})}" \
  --note "friday train --init ${INIT} --config experiments/imitation/finetune.toml --reward ${REWARD}, ${STEPS} timesteps per level; the CPU column adds only the fine-tuning to ${BASE_NOTE:-the imitation recipe}" \
  --agent "ppo:model=runs/${NAME}-level{level}/policy.zip" --timed "${LOG}"
