# Sourced by run.sh and evaluate.sh: one friday eval run of the study, kept as it is once
# finished, continued (--resume) when started, else started. Needs $friday.
finished() { # true when the friday eval run in $1 is complete
    [ -e "$1/results.json" ] && python -c "
import json, sys; sys.exit(0 if json.load(open('$1/results.json'))['complete'] else 1)"
}
play() { # out, levels, agents, games per agent and level, [friday eval options...]
    local out=$1 levels=$2 agents=$3 games=$4 resume=()
    shift 4
    finished "$out" && return
    [ -e "$out/results.json" ] && resume=(--resume)
    $friday eval --agents "$agents" --levels "$levels" --games "$games" --workers 1 \
        --no-progress --out "$out" "$@" "${resume[@]}"
}
