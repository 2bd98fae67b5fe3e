#!/usr/bin/env bash
# Study rows "imitation + PPO fine-tuning": friday train --init from the policy of the study
# row BASE (runs/BASE/policy.zip) with experiments/imitation/finetune.toml, STEPS timesteps per
# level, reward flags REWARD ("--reward progress", the toml's, or "--reward win_loss --shaping value"), extra
# friday train flags EXTRA (e.g. "--warmup-frames 30000 --learning-rate 1e-5"). The held-out curve starts at the imitation policy
# (timestep 0), so a collapse in the first updates shows as a drop at the first points.
# The CPU column adds the fine-tuning to BASE's recipe.
# Usage: BASE=bc-search-212 bash experiments/imitation/finetune.sh NAME [LEVELS...]
set -euo pipefail
cd "$(dirname "$0")/../.."
NAME="$1"; shift
LEVELS=("${@:-1}")
# shellcheck disable=SC2206
LEVELS=(${LEVELS[*]})
BASE="${BASE:?the study row whose policy is fine-tuned}"
STEPS="${STEPS:-100000}"
REWARD="${REWARD:---reward progress}"
EXTRA="${EXTRA:-}"
LOG="experiments/imitation/results/costs/${NAME}.jsonl"
rm -f "${LOG}"
for level in "${LEVELS[@]}"; do
  # shellcheck disable=SC2086
  python experiments/imitation/study.py timed --levels "${level}" "${LOG}" -- \
    friday train --config experiments/imitation/finetune.toml --init "runs/${BASE}/policy.zip" \
    --level "${level}" ${REWARD} --frames "${STEPS}" ${EXTRA} \
    --out "runs/${NAME}-level${level}"
done
python experiments/imitation/study.py curve "runs/${NAME}-level${LEVELS[0]}/curve.jsonl" \
  "experiments/imitation/results/curves/${NAME}.csv" --x-label "PPO timesteps"
python experiments/imitation/study.py evaluate "${NAME}" --levels "${LEVELS[*]}" \
  --title "${TITLE:-${BASE} + PPO fine-tuning (${REWARD})}" \
  --note "friday train --init runs/${BASE}/policy.zip --config experiments/imitation/finetune.toml ${REWARD} ${EXTRA}, ${STEPS} frames per level; CPU adds the fine-tuning to ${BASE}" \
  --agent "ppo:model=runs/${NAME}-level{level}/policy.zip" --timed "${LOG}" --base "${BASE}"
