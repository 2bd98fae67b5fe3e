#!/usr/bin/env bash
# Study row "imitation of the heuristic": 2,000 heuristic games per level on training deals,
# one 256x256 policy per level fitted by masked cross-entropy (8 epochs), then 1,000
# evaluation deals per level. Writes experiments/results/imitation/bc-heuristic/.
# Usage (from the repository root): bash experiments/imitation/heuristic.sh [LEVELS...]
set -euo pipefail
cd "$(dirname "$0")/../.."
LEVELS=("${@:-1 2 3 4}")
# shellcheck disable=SC2206
LEVELS=(${LEVELS[*]})
GAMES="${GAMES:-2000}"
friday imitate collect --teacher heuristic --levels 1-4 --games "${GAMES}" \
  --out data/heuristic.jsonl --workers 1 --no-progress
for level in "${LEVELS[@]}"; do
  friday imitate encode data/heuristic.jsonl --levels "${level}" --out "data/heuristic-l${level}.npz"
  friday imitate fit --dataset "data/heuristic-l${level}.npz" --levels "${level}" \
    --out "runs/bc-heuristic/level${level}.zip" --epochs 8
done
python -m agents.imitation_study evaluate bc-heuristic --title "imitation of the heuristic" \
  --agent "ppo:model=runs/bc-heuristic/level{level}.zip" --levels "${LEVELS[*]}" \
  --data data/heuristic.jsonl --fits "runs/bc-heuristic/level{level}.fit.json"
