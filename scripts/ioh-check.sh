#!/usr/bin/env bash
# Check a `sudoku-lab export --format ioh` folder with the maintained IOHprofiler tools:
# iohinspector (the reader) and ioh (IOHexperimenter, the writer), pinned, in a venv under
# target/ioh-venv (made on first use; needs python3 and PyPI).
#
#   scripts/ioh-check.sh RESULTS_DIR [IOH_DIR]      (IOH_DIR defaults to exports/<id>/ioh)
#
# Exit 0 when the export loads and matches RESULTS_DIR/runs.csv, 1 when not (see ioh-check.py).
set -euo pipefail

IOHINSPECTOR_VERSION=0.0.8
IOH_VERSION=0.3.22

root="$(cd "$(dirname "$0")/.." && pwd)"
venv="$root/target/ioh-venv"
py="$venv/bin/python"

have_pins() {
    "$py" - "$IOHINSPECTOR_VERSION" "$IOH_VERSION" <<'EOF' 2>/dev/null
import sys, importlib.metadata as md
sys.exit(0 if (md.version("iohinspector"), md.version("ioh")) == tuple(sys.argv[1:3]) else 1)
EOF
}

if [ ! -x "$py" ] || ! have_pins; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check \
        "iohinspector==$IOHINSPECTOR_VERSION" "ioh==$IOH_VERSION"
fi
exec "$py" "$root/scripts/ioh-check.py" "$@"
