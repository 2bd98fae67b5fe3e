#!/usr/bin/env bash
# Commit the policy of study row NAME as the learned agent `friday eval --agents ppo` plays on
# every level (agents/friday_agents/models/ppo_all_levels.zip; the per-level PPO-from-scratch
# policies it replaces stay in git history and in experiments/imitation/results/ppo-scratch.json)
# and measure it through the `ppo` agent itself: the study row "committed".
# Usage: bash experiments/imitation/commit_agent.sh NAME
set -euo pipefail
cd "$(dirname "$0")/../.."
NAME="$1"
# re-saved so that the archive names its observation encoder (policies fitted before the
# encoder was recorded are read by their observation space)
python - "runs/${NAME}/policy.zip" agents/friday_agents/models/ppo_all_levels.zip <<'PY'
import sys
from pathlib import Path
from friday_agents.players.ppo.checkpoint import encoder_of, export_policy, load_model, record_encoder
model = load_model(sys.argv[1])
record_encoder(model, encoder_of(model, sys.argv[1]))
export_policy(model, Path(sys.argv[2]))
PY
rm -f agents/friday_agents/models/ppo_level[1-4].zip
python experiments/imitation/study.py evaluate committed \
  --title "committed learned agent (friday eval --agents ppo)" \
  --note "agents/friday_agents/models/ppo_all_levels.zip = the policy of ${NAME}; CPU is ${NAME}'s recipe" \
  --agent ppo --base "${NAME}"
