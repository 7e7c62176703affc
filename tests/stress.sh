#!/usr/bin/env bash
# The interface tests under load: two CPU-burning processes run beside pytest for the whole run, and the
# tests run PASSES times in a row (default 3); the first red pass ends the script, red. pytest runs its
# workers as the README's command does (-n auto: two a core), so each test shares its core three ways.
#
#   tests/stress.sh                      # tests/ui and tests/i18n, three passes
#   PASSES=1 tests/stress.sh tests/ui/test_round_flow.py   # a subset, once
#
# Arguments are pytest's (test paths, -k, -m …); without any it runs tests/ui and tests/i18n.
# PYTHON picks the interpreter (default .venv/bin/python, else python3). The burners are started here
# and always killed here (on success, failure or Ctrl-C), by their own process ids.
set -euo pipefail
cd "$(dirname "$0")/.."

passes=${PASSES:-3}
python=${PYTHON:-}
if [ -z "$python" ]; then
    if [ -x .venv/bin/python ]; then python=.venv/bin/python; else python=python3; fi
fi
if [ "$#" -eq 0 ]; then
    set -- tests/ui tests/i18n
fi

burners=()
stop_burners() {
    for pid in "${burners[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    for pid in "${burners[@]}"; do
        wait "$pid" 2>/dev/null || true
    done
    burners=()
}
trap stop_burners EXIT
trap 'stop_burners; exit 130' INT TERM

for _ in 1 2; do
    "$python" -c 'while True: pass' &
    burners+=("$!")
done
echo "stress: two CPU burners running (pids ${burners[*]}); $passes passes of: $*"

for pass in $(seq 1 "$passes"); do
    started=$SECONDS
    status=0
    "$python" -m pytest -q -n auto "$@" || status=$?
    echo "stress: pass $pass of $passes: pytest exit code $status in $((SECONDS - started)) s"
    if [ "$status" -ne 0 ]; then
        echo "stress: FAILED on pass $pass" >&2
        exit "$status"
    fi
done
echo "stress: $passes passes green under load"
