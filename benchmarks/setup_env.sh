#!/usr/bin/env bash
# Create benchmarks/.venv: plies (editable, from this repo) beside the libraries it is
# compared with.  Safe to run again: it only installs what is missing.
#
#   easyAI       pip install easyAI
#   aima3        pip install --no-deps aima3 (its declared dependencies pull in Jupyter and
#                other heavy packages that games.py does not need; games.py imports only
#                numpy and tqdm, installed here by hand)
#   open_spiel   pip install open_spiel (a binary wheel; if none installs, the runner
#                reports OpenSpiel as "not available: <reason>" and goes on)
set -u
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(dirname "$here")"
venv="$here/.venv"
python="${PYTHON:-python3}"

if [ ! -x "$venv/bin/python" ]; then
    "$python" -m venv "$venv" || exit 1
fi
pip=("$venv/bin/python" -m pip --disable-pip-version-check --quiet)
"${pip[@]}" install --upgrade pip || true
"${pip[@]}" install -e "$repo[fast]" rich || exit 1
"${pip[@]}" install easyAI || echo "setup_env: easyAI did not install" >&2
"${pip[@]}" install numpy tqdm && "${pip[@]}" install --no-deps aima3 \
    || echo "setup_env: aima3 did not install" >&2
# OpenSpiel is optional: its failure is recorded for the runner to report.
rm -f "$venv/open_spiel.failed"
if ! "${pip[@]}" install open_spiel 2>"$venv/open_spiel.log"; then
    tail -n 5 "$venv/open_spiel.log" >"$venv/open_spiel.failed"
    echo "setup_env: open_spiel did not install (see $venv/open_spiel.failed)" >&2
fi
touch "$venv/.installed"
