#!/usr/bin/env bash
# Stages A2 and A3 of experiments/from-nothing/PLAN.md on one level, one process (the machine's
# cores are shared), in resumable chunks:
#   A2: friday rl --method reverse, its archive seeded with stage A1's found wins
#       (results/l<level>/games.jsonl, --archive-from), reward win_loss, until k has passed the
#       longest archived win (the curve's reverse_k > reverse_longest_win) or 75 % of the budget;
#   A3: plain PPO from the deal's start on all training deals, started from A2's policy with the
#       fine-tuning recipe (--init: critic warm-up first, KL to the start), to the end of the budget.
# Usage, from the repository root:
#   bash experiments/from-nothing/learn.sh 1 [total frames, default 100000000]
# Run it again after a stop (Ctrl-C, a kill, the end of a session): it continues where the run
# folders' checkpoints are. Run folders: $RUNS/a2-l<level> and $RUNS/a3-l<level> (RUNS defaults
# to runs/, outside git). After each chunk the run's config, curve, checkpoint and policy are
# copied under results/a2-l<level>/ (a3-l<level>/); if a run folder is gone, the committed copy
# there is put back first, so a fresh clone continues the run from its last committed chunk.
# The hand-over is checked between chunks, so A2 may run up to one chunk past it.
set -euo pipefail
level=${1:?level 1-4}
total=${2:-100000000}
chunk=${CHUNK:-5000000}
runs=${RUNS:-runs}
friday=${FRIDAY:-friday}
here=$(dirname "$0")
games=$here/results/l$level/games.jsonl
a2=$runs/a2-l$level
a3=$runs/a3-l$level
a2_limit=$((total * 3 / 4))
# 64-64 networks: the plan's CPU budget (1.9 CPU-hours per 100 M) is priced at the trainer's rate
# at this size; evaluation on the plan's 500 validation deals (greedy) every 100 updates (819,200
# frames); a checkpoint at each of them (a few minutes of wall time apart on this machine)
common=(--level "$level" --reward win_loss --seed 0 --eval-deals 500 --eval-every 100
    --checkpoint-every 100 --no-progress)

last() { # the field $2 of the last curve row of run folder $1 (empty if none)
    python - "$1/curve.jsonl" "$2" <<'EOF'
import json, sys
rows = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
value = rows[-1].get(sys.argv[2]) if rows else None
print("" if value is None else value)
EOF
}

keep() { # copy run folder $1 under results/$2
    local dest=$here/results/$2
    mkdir -p "$dest"
    cp "$1/config.json" "$1/curve.jsonl" "$1/checkpoint.pt" "$1/policy.npz" "$dest/"
}

restore() { # a run folder lost with the machine: put back its last committed chunk
    local dest=$here/results/$2
    if [ ! -e "$1/checkpoint.pt" ] && [ -e "$dest/checkpoint.pt" ]; then
        mkdir -p "$1"
        cp "$dest/config.json" "$dest/curve.jsonl" "$dest/checkpoint.pt" "$dest/policy.npz" "$1/"
    fi
}

handed_over() { # true once A2's k has passed every archived win, or A2 reached 75 % of the budget
    local k longest frames
    k=$(last "$a2" reverse_k)
    longest=$(last "$a2" reverse_longest_win)
    frames=$(last "$a2" frames)
    [ "${frames:-0}" -ge "$a2_limit" ] || { [ -n "$longest" ] && [ "$k" -gt "$longest" ]; }
}

restore "$a2" "a2-l$level"
restore "$a3" "a3-l$level"
# a folder without checkpoint.pt holds a run killed before its first checkpoint: started again
if [ ! -e "$a3/checkpoint.pt" ]; then
    if [ ! -e "$a2/checkpoint.pt" ]; then
        "$friday" rl --method reverse --archive-from "$games" --hidden 64,64 "${common[@]}" \
            --frames "$chunk" --out "$a2"
        keep "$a2" "a2-l$level"
    fi
    until handed_over; do
        frames=$(last "$a2" frames)
        next=$((frames + chunk < a2_limit ? frames + chunk : a2_limit))
        "$friday" rl --resume --out "$a2" --frames "$next" --no-progress
        keep "$a2" "a2-l$level"
    done
    # A3 starts from A2's last policy (A2 is not resumed after the hand-over); its budget is
    # what A2 left of the total
    left=$((total - $(last "$a2" frames)))
    "$friday" rl --method ppo --init "$a2/policy.npz" "${common[@]}" \
        --frames "$((chunk < left ? chunk : left))" --out "$a3"
    keep "$a3" "a3-l$level"
fi
a3_budget=$((total - $(last "$a2" frames)))
while [ "$(last "$a3" frames)" -lt "$a3_budget" ]; do
    frames=$(last "$a3" frames)
    next=$((frames + chunk < a3_budget ? frames + chunk : a3_budget))
    "$friday" rl --resume --out "$a3" --frames "$next" --no-progress
    keep "$a3" "a3-l$level"
done
