#!/usr/bin/env bash
# `make bench`: build the benchmarks in release mode and run them against the real
# PC/SC stack. They print figures and compare with a baseline measured in the same
# run; nothing here passes or fails on speed.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-debian.sh
swift build -c release --product PCSCBenchmark 2>&1 | grep -v "prohibited flag(s): -pthread" || true
test "${PIPESTATUS[0]}" -eq 0
started=0
if ! scripts/pcscd-vpcd.sh status >/dev/null 2>&1 && ! pgrep -x pcscd >/dev/null; then
    scripts/pcscd-vpcd.sh start >/dev/null
    started=1
else
    scripts/pcscd-vpcd.sh start --reuse
fi
trap '[ "$started" -eq 1 ] && scripts/pcscd-vpcd.sh stop >/dev/null || true' EXIT
echo "==> PC/SC round trips"
"$(swift build -c release --show-bin-path)/PCSCBenchmark"
