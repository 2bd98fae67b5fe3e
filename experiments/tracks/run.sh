#!/usr/bin/env bash
# The track runs of issue #32 item 6 (experiments/from-nothing/PLAN.md, "Tracks" and amendment 3),
# every command in this one file. From the repository root:
#   bash experiments/tracks/run.sh train NAME   # one track-(a) run (names below), then its files
#                                               # are copied under experiments/tracks/runs/NAME
#   bash experiments/tracks/run.sh eval entries   # the friday rl policies (tracks a and b) on the
#                                                 # 1,000 evaluation deals of levels 1-4 (eval/entries.json)
#   bash experiments/tracks/run.sh eval sb3       # the SB3 policy, the same way (eval/sb3.json)
#   bash experiments/tracks/run.sh eval family-a  # family A's latest committed policy, the same way
#   bash experiments/tracks/run.sh scratch      # retired: played the earlier from-nothing study's
#                                               # scratch (eval/scratch*.json, its record); scratch is
#                                               # now the no-teacher study's policy, played by
#                                               # bash experiments/no-teacher/run.sh eval-scratch
# Runs go to $RUNS/NAME (default runs/tracks, outside git), one process each, at nice 5 (the
# machine's cores are shared). Each command's user + system CPU is measured by /usr/bin/time into
# the run folder's time.txt (friday train records no CPU time of its own).
set -euo pipefail
runs=${RUNS:-runs/tracks}
read -r -a friday <<<"${FRIDAY:-friday}"
here=experiments/tracks
# 999,424 frames: the whole rollouts within 1 M (amendment 3)
one_m=999424
# the 50 M runs' settings (experiments/rl/PLAN-scratch.md), the curve every 10 updates
rl_common=(--level 1 --method ppo --hidden 64,64 --num-envs 128 --num-steps 128
    --num-minibatches 4 --update-epochs 2 --eval-deals 500 --checkpoint-every 30 --seed 1
    --no-progress)

timed() { # run "$@" at nice 5, its CPU time into $out/time.txt
    mkdir -p "$out"
    /usr/bin/time -f '{"user_s": %U, "system_s": %S, "wall_s": %e}' -o "$out/time.txt" \
        nice -n 5 "$@"
}

train() {
    out=$runs/$1
    case $1 in
        ppo-score-1m)
            timed "${friday[@]}" rl --out "$out" --reward score --frames $one_m \
                --eval-every 10 "${rl_common[@]}" ;;
        ppo-counts-1m)
            timed "${friday[@]}" rl --out "$out" --reward win_loss --bonus counts --bonus-coef 0.1 \
                --frames $one_m --eval-every 10 "${rl_common[@]}" ;;
        sb3-1m) # the bench's settings, the user's default reward (amendment 4). The committed
            # run was made before the trainers shared one vocabulary, as --total-timesteps
            # --n-envs 64 --n-steps 128 --batch-size 2048 --n-epochs 4 --eval-freq 102400
            # --checkpoint-freq 0 with the reward "progress" and its held-out games on 100
            # deals from evaluation index 500,000; below, the same settings in today's names
            # (held-out games now on validation deals, every 12 updates instead of 12.5; the
            # reward now the env's progress reward, which also pays 0.1 per pirate beaten)
            timed "${friday[@]}" train --out "$out" --level 1 --frames $one_m \
                --reward progress --num-envs 64 --num-steps 128 \
                --minibatches 4 --epochs 4 --seed 0 --eval-every 12 --eval-deals 100 \
                --checkpoint-every 0 --no-progress ;;
        *) echo "unknown run $1: ppo-score-1m, ppo-counts-1m or sb3-1m" >&2 && exit 2 ;;
    esac
    mkdir -p "$here/runs/$1"
    for file in config.json curve.jsonl curve.csv curve.png progress.csv policy.npz policy.zip \
        time.txt; do
        if [ -e "$out/$file" ]; then cp "$out/$file" "$here/runs/$1/"; fi
    done
}

# the policies each evaluation plays, by the agent spec that plays them
agents_of() {
    local rl=experiments/rl mine=$here/runs
    case $1 in
        entries)
            echo "net:model=$mine/ppo-score-1m/policy.npz,net:model=$mine/ppo-counts-1m/policy.npz"
            echo "net:model=$rl/scratch-ppo-l1/policy.npz,net:model=$rl/scratch-reverse-l1/policy.npz"
            echo "net:model=$rl/scratch50m-shaped-l1/policy.npz"
            echo "net:model=$rl/scratch50m-ppo-l1/policy.npz,net:model=$rl/scratch50m-counts-l1/policy.npz"
            ;;
        sb3) echo "ppo:model=$mine/sb3-1m/policy.zip" ;;
        # family A's latest committed policy (A3's once it has started): rerun after a new
        # chunk of A2/A3 is committed
        family-a)
            local study=experiments/from-nothing/results
            if [ -e "$study/a3-l1/policy.npz" ]; then
                echo "net:model=$study/a3-l1/policy.npz"
            else
                echo "net:model=$study/a2-l1/policy.npz"
            fi
            ;;
        *) echo "unknown evaluation $1: entries, sb3 or family-a" >&2 && exit 2 ;;
    esac
}

evaluate() { # eval/NAME.json, and the hash of each policy it played in eval/NAME.sha256
    local agents
    agents=$(agents_of "$1" | paste -sd, -)
    rm -rf "$runs/eval-$1" # a fresh evaluation each time (the policies may have changed)
    nice -n 5 "${friday[@]}" eval --agents "$agents" --levels 1-4 --games 1000 --no-progress \
        --out "$runs/eval-$1"
    mkdir -p "$here/eval"
    cp "$runs/eval-$1/results.json" "$here/eval/$1.json"
    tr , '\n' <<<"$agents" | sed 's/^[a-z]*:model=//' | xargs sha256sum >"$here/eval/$1.sha256"
}

# The step that played the earlier study's scratch (friday eval --agents heuristic,scratch
# --levels 1-4 --games 1000 into eval/scratch.json with its hash in eval/scratch.sha256, then
# experiments/rl/behaviour.py --agents scratch heuristic --deals 500 into
# eval/scratch_behaviour.json) is retired: the role scratch now loads the no-teacher study's
# policy, so rerunning it would overwrite that study's record with another policy's games.
scratch() {
    echo "run.sh scratch is retired: eval/scratch*.json record the earlier from-nothing study's" \
        "scratch; today's scratch plays by bash experiments/no-teacher/run.sh eval-scratch" >&2
    exit 2
}

case ${1:-} in
    train) train "${2:?run name}" ;;
    eval) evaluate "${2:?entries, sb3 or family-a}" ;;
    scratch) scratch ;;
    *) echo "usage: run.sh train NAME | eval entries|sb3|family-a | scratch" >&2 && exit 2 ;;
esac
