#!/usr/bin/env bash
# The search's policy prior and one round of expert iteration (README, "Stronger search").
#   round 0: the prior is fitted on the plain search's games (650 training deals per level,
#            with the search's action values), and search:prior=guided-prior:top=K plays the
#            evaluation deals against search;
#   round 1: the round-0 variant with top=1 plays 100 new training deals per level (indices
#            1000-1099), the prior is refitted on round-0 plus round-1 games, and the round-1
#            prior plays the same evaluation deals.
# The round-1 games are committed, compressed: experiments/data/prior-top1-r1-train.jsonl.gz
# (friday fit policy-net reads .jsonl.gz too); the round-0 games (8 MB compressed) are not.
# Every step is resumable or cheap to redo; search games are the slow part. CPU is shared:
# one worker per run, niced. Usage (from the repository root): bash experiments/search-strength/prior.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
EVAL=experiments/search-strength/results/eval
RUN=(nice -n 5)
# round 0: the data and the shipped prior
"${RUN[@]}" friday imitate collect --teacher search --levels 1-4 --games 650 --workers 1 \
  --no-progress --out data/search32.jsonl
"${RUN[@]}" friday fit policy-net --data data/search32.jsonl \
  --out agents/friday_agents/models/guided_prior.npz --report experiments/search-strength/results/policy_net_fit.json
# the committed learned agent's actor as the prior instead (report only)
"${RUN[@]}" friday fit policy-net --data data/search32.jsonl \
  --from-ppo agents/friday_agents/models/ppo_all_levels.zip --out data/policy_net_ppo.npz \
  --report experiments/search-strength/results/policy_net_ppo.json
"${RUN[@]}" friday eval --agents search:prior=guided-prior:top=3 --levels 1,4 --games 100 \
  --search-sims 32 --workers 1 --no-progress --out "${EVAL}/prior-top3-l14"
"${RUN[@]}" friday eval --agents search:prior=guided-prior:top=2 --levels 1,4 --games 200 \
  --search-sims 32 --workers 1 --no-progress --out "${EVAL}/prior-top2-l14-200"
"${RUN[@]}" friday eval --agents search:prior=guided-prior:top=2 --levels 2,3 --games 100 \
  --search-sims 32 --workers 1 --no-progress --out "${EVAL}/prior-top2-l23"
"${RUN[@]}" friday eval --agents search:prior=guided-prior:top=1 --levels 1,4 --games 200 \
  --search-sims 32 --workers 1 --no-progress --out "${EVAL}/prior-top1-l14-200"
"${RUN[@]}" friday eval --agents search:prior=guided-prior:top=1:sims=64 --levels 1,4 --games 100 \
  --search-sims 32 --workers 1 --no-progress --out "${EVAL}/prior-top1-sims64-l14"
"${RUN[@]}" friday eval --agents search:prior=guided-prior:top=1 --levels 2,3 --games 100 \
  --search-sims 32 --workers 1 --no-progress --out "${EVAL}/prior-top1-l23"
# round 1: the round-0 variant's games on new training deals, the prior refitted on both
"${RUN[@]}" friday imitate collect --teacher search:prior=guided-prior:top=1 --levels 1-4 --games 100 \
  --first-index 1000 --workers 1 --no-progress --out data/prior-top1-r1.jsonl
"${RUN[@]}" friday fit policy-net \
  --data data/search32.jsonl data/prior-top1-r1.jsonl \
  --out experiments/search-strength/results/policy_net_r1.npz \
  --report experiments/search-strength/results/policy_net_r1_fit.json
R1=search:prior=experiments/search-strength/results/policy_net_r1.npz:top=1
"${RUN[@]}" friday eval --agents "${R1}" --levels 1,4 --games 200 --search-sims 32 --workers 1 \
  --no-progress --out "${EVAL}/prior-top1-r1-l14-200"
"${RUN[@]}" friday eval --agents "${R1}" --levels 2,3 --games 100 --search-sims 32 --workers 1 \
  --no-progress --out "${EVAL}/prior-top1-r1-l23"
"${RUN[@]}" friday eval --agents "${R1}:sims=64" --levels 1,4 --games 100 --search-sims 32 \
  --workers 1 --no-progress --out "${EVAL}/prior-top1-r1-sims64-l14"
# round 1 against round 0, 64 against 32 simulations, top=2 against top=1, on the same deals
python experiments/search-strength/ingredients.py "${EVAL}/prior-top1-l14-200" "${EVAL}/prior-top1-l23" \
  "${EVAL}/prior-top1-r1-l14-200" "${EVAL}/prior-top1-r1-l23" --baseline search:prior=guided-prior:top=1 \
  --out experiments/search-strength/results/expert_iteration.json
python experiments/search-strength/ingredients.py "${EVAL}/prior-top1-l14-200" \
  "${EVAL}/prior-top1-sims64-l14" --baseline search:prior=guided-prior:top=1 \
  --out experiments/search-strength/results/prior_sims64.json
python experiments/search-strength/ingredients.py "${EVAL}/prior-top1-l14-200" "${EVAL}/prior-top1-l23" \
  "${EVAL}/prior-top2-l14-200" "${EVAL}/prior-top2-l23" --baseline search:prior=guided-prior:top=1 \
  --out experiments/search-strength/results/prior_top2.json
python experiments/search-strength/timing.py search search:prior=guided-prior:top=3 search:prior=guided-prior:top=2 \
  search:prior=guided-prior:top=1 search:prior=guided-prior:top=1:sims=64 search:sims=32 --states 300 \
  --out experiments/search-strength/results/timing_prior.json
# the README's table: every variant against search (the runs of search are linear-l14/-l23)
python experiments/search-strength/ingredients.py "${EVAL}"/{value-l14,linear-l14,linear-l23,horizon-l14} \
  "${EVAL}"/{horizon12-l14,oracle-l14,oracle-l23,prior-top3-l14,prior-top2-l14-200,prior-top2-l23} \
  "${EVAL}"/{prior-top1-l14-200,prior-top1-l23,prior-top1-sims64-l14,prior-top1-r1-l14-200} \
  "${EVAL}"/{prior-top1-r1-l23,prior-top1-r1-sims64-l14} --baseline search \
  --out experiments/search-strength/results/ingredients.json
python tools/docs_sections.py
