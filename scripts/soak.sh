#!/usr/bin/env bash
# `make soak`: the outbox's durability figures (docs/backend.md, "Durability figures").
# 1. kill -9: OutboxCrashTests with IDKIOSK_SOAK_KILLS (SOAK_KILLS, default 200): the
#    enqueuing and the sending process each killed at random moments at least that often.
# 2. Power cuts: the rig VM stopped hard SOAK_CUTS times (default 30) while the outbox
#    writes to an ext4 disk (make rig-powercut, hardware/rig/README.md).
# Prints the figures of both and the time; exits non-zero when either lost or duplicated
# anything (or could not run).
set -euo pipefail
cd "$(dirname "$0")/.."
kills=${SOAK_KILLS:-200}
cuts=${SOAK_CUTS:-30}
log=$(mktemp /tmp/idkiosk-soak.XXXXXX)
trap 'rm -f "$log"' EXIT
# Runs a command with SwiftPM's pkg-config notice filtered out, a copy of its output in
# the log; returns the command's status.
run_logged() {
    "$@" 2>&1 | grep --line-buffered -v "prohibited flag(s): -pthread" | tee -a "$log"
    return "${PIPESTATUS[0]}"
}
start=$(date +%s)

echo "==> build (swift build --build-tests)"
run_logged swift build --build-tests >/dev/null || { tail -30 "$log"; echo "==> build FAILED"; exit 1; }

echo "==> kill -9 of the outbox's enqueuing and sending processes, each at least $kills times"
stage=$(date +%s)
status=0
IDKIOSK_SOAK_KILLS=$kills run_logged swift test --skip-build --filter OutboxCrashTests || status=$?
echo "==> kill -9 took $(( $(date +%s) - stage )) s"

echo "==> $cuts power cuts of the rig VM while the outbox writes"
stage=$(date +%s)
RIG_CUTS=$cuts run_logged make --no-print-directory rig-powercut || status=$?
echo "==> power cuts took $(( $(date +%s) - stage )) s"

echo "==> figures"
grep '^soak ' "$log" || echo "(none: see the output above)"
echo "==> make soak total $(( $(date +%s) - start )) s, exit $status"
exit "$status"
