#!/usr/bin/env bash
# Held-out win rate (200 deals per level from evaluation index 500,000 on) before and after
# the DAgger round with the search teacher (dagger_refit.sh): the curve that chose the
# committed agent among the candidates without looking at the reported deals.
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=experiments/results/imitation/curves/search-imitation-dagger.csv
for point in 0:bc-search-212 1:dagger-search-212; do
  python -m friday_agents.imitation.study curve-point "${OUT}" --x "${point%%:*}" \
    --x-label "DAgger rounds (search teacher)" --agent "ppo:model=runs/${point##*:}/policy.zip" \
    --workers "${WORKERS:-2}"
done
