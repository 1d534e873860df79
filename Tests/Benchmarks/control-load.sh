#!/usr/bin/env bash
# The control API under load (issue 35): `recorder replay` serving Recordings/github takes wrk's 256
# connections for 20 s while the journal page (headless Chromium) and a curl client of the event stream are
# attached. It passes when the server loses no request (wrk sees no socket error and no status but 200, and
# the journal numbered at least every answer wrk counted), the page and the stream are still connected and
# follow the next request, and the server's memory stays flat (see control-load.py).
#
#   Tests/Benchmarks/control-load.sh [SECONDS]     default 20; RECORDER=path uses that binary, else a release build
# Needs wrk and Debian's chromium (skips with a sentence without them). Every wait is bounded.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-20}
for tool in wrk curl python3; do
    command -v "$tool" >/dev/null || { echo "control-load: skipped, $tool is not installed"; exit 0; }
done
chromium=$(command -v chromium || true)
[[ -n "$chromium" ]] || { echo "control-load: skipped, Debian's chromium is not installed (.ci/journal-page installs it)"; exit 0; }
recorder=${RECORDER:-}
if [[ -z "$recorder" ]]; then
    swift build -c release --product recorder >/dev/null
    recorder="$(swift build -c release --show-bin-path)/recorder"
fi
exec python3 Tests/Benchmarks/control-load.py "$recorder" "$chromium" "$seconds"
