#!/usr/bin/env bash
# Study row "imitation of the heuristic": heuristic games on training deals (GAMES per level),
# one 256x256 policy for all four levels (the level is one-hot in the flat observation) fitted
# by masked cross-entropy for EPOCHS epochs, then 1,000 evaluation deals per level.
# The policy is also the starting point of the search-imitation recipe (search.sh).
# Writes experiments/imitation/results/bc-heuristic.json.
# Usage (from the repository root): bash experiments/imitation/heuristic.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
GAMES="${GAMES:-1000}"
EPOCHS="${EPOCHS:-4}"
friday imitate collect --teacher heuristic --levels 1-4 --games "${GAMES}" \
  --out "data/heuristic-${GAMES}.jsonl" --workers 1 --no-progress
friday imitate encode "data/heuristic-${GAMES}.jsonl" --out "data/heuristic-${GAMES}.npz"
friday imitate fit --dataset "data/heuristic-${GAMES}.npz" --levels 1-4 \
  --out runs/bc-heuristic/policy.zip --epochs "${EPOCHS}"
python experiments/imitation/study.py evaluate bc-heuristic --title "imitation of the heuristic" \
  --note "${GAMES} heuristic games per level, one network for all levels, ${EPOCHS} epochs" \
  --agent "ppo:model=runs/bc-heuristic/policy.zip" --data "data/heuristic-${GAMES}.jsonl" \
  --fits "runs/bc-heuristic/policy.fit.json" --fit-share 0.25
