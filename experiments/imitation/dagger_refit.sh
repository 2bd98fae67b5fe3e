#!/usr/bin/env bash
# Study row "DAgger states, refitted into the 212-game search imitation": the DAgger games of
# dagger_search.sh (states reached by the 370-game search imitation, labelled by the search
# agent) added to the first 212 search games per level, refitted from runs/bc-search-212
# (EPOCHS epochs, soft targets tau TAU). The CPU column charges everything these inputs cost:
# the heuristic imitation, 370 search games per level, both search imitations, the DAgger
# games and this fit.
set -euo pipefail
cd "$(dirname "$0")/../.."
EPOCHS="${EPOCHS:-3}"
TAU="${TAU:-2}"
OUT="${OUT:-dagger-search-212}"
friday imitate encode data/search32-first212.jsonl data/dagger-search.jsonl \
  --out "data/${OUT}.npz"
friday imitate fit --dataset "data/${OUT}.npz" --levels 1-4 --init runs/bc-search-212/policy.zip \
  --soft-tau "${TAU}" --epochs "${EPOCHS}" --learning-rate 3e-4 --out "runs/${OUT}/policy.zip"
python experiments/imitation/study.py evaluate "${OUT}" \
  --title "imitation of search (212 games) + DAgger states (search teacher)" \
  --note "runs/bc-search-212 refitted ${EPOCHS} epochs (tau ${TAU}) on its 212 search games per level plus the DAgger games of dagger-search (150 per level, a quarter of the decisions labelled by search:sims=32)" \
  --agent "ppo:model=runs/${OUT}/policy.zip" \
  --data data/heuristic-1000.jsonl data/search32-first370.jsonl data/dagger-search.jsonl \
  --timing data/search32-timing.jsonl \
  --fits runs/bc-heuristic/policy.fit.json runs/bc-search/policy.fit.json \
  runs/bc-search-212/policy.fit.json "runs/${OUT}/policy.fit.json" --fit-share 0.25
