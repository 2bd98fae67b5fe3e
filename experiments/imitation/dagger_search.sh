#!/usr/bin/env bash
# The last step of the committed agent's recipe: one DAgger round with the search teacher.
# The search imitation (search.sh, NAME=bc-search) plays GAMES training deals per level
# (indices from 600,000: disjoint from the teacher's games), the search agent (32 sims) labels
# a share SHARE of the decisions the student faces, and the policy is refitted for EPOCHS
# epochs on the teacher's games plus these (soft targets, tau TAU).
# Writes experiments/imitation/results/${OUT}.json.
set -euo pipefail
cd "$(dirname "$0")/../.."
GAMES="${GAMES:-300}"
SHARE="${SHARE:-0.25}"
EPOCHS="${EPOCHS:-3}"
TAU="${TAU:-2}"
BASE="${BASE:-bc-search}"
BASE_GAMES="${BASE_GAMES:?the games per level of the base search imitation}"
OUT="${OUT:-dagger-search}"
friday imitate dagger --student "runs/${BASE}/policy.zip" --teacher search:sims=32 \
  --levels 1-4 --games "${GAMES}" --first-index 600000 --label-share "${SHARE}" --workers 2 \
  --no-progress --games-file "data/${OUT}.jsonl" --data "data/search32-first${BASE_GAMES}.jsonl" \
  --soft-tau "${TAU}" --epochs "${EPOCHS}" --learning-rate 3e-4 --out "runs/${OUT}/policy.zip"
python experiments/imitation/study.py evaluate "${OUT}" --title "${TITLE:-imitation of search + DAgger (search teacher)}" \
  --note "${BASE}, then one DAgger round: ${GAMES} student games per level, ${SHARE} of their decisions labelled by search:sims=32, refitted ${EPOCHS} epochs (tau ${TAU}); CPU includes everything before" \
  --agent "ppo:model=runs/${OUT}/policy.zip" \
  --data data/heuristic-1000.jsonl "data/search32-first${BASE_GAMES}.jsonl" "data/${OUT}.jsonl" \
  --timing data/search32-timing.jsonl \
  --fits runs/bc-heuristic/policy.fit.json "runs/${BASE}/policy.fit.json" "runs/${OUT}/policy.fit.json" \
  --fit-share 0.25
