#!/usr/bin/env bash
# Learning curve of the search imitation: held-out win rate (200 deals per level from
# evaluation index 500,000 on, never the reported deals) against the search games per level
# the policy was fitted on (0 = the heuristic imitation it starts from).
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=experiments/imitation/results/curves/search-imitation.csv
for point in 0:bc-heuristic 212:bc-search-212 370:bc-search; do
  python experiments/imitation/study.py curve-point "${OUT}" --x "${point%%:*}" \
    --x-label "search games per level" --agent "ppo:model=runs/${point##*:}/policy.zip" \
    --workers "${WORKERS:-2}"
done
