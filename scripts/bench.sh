#!/usr/bin/env bash
# `make bench`: build the benchmarks in release mode and run them. They print figures
# and compare with a baseline measured in the same run; nothing here passes or fails
# on speed. (The first release build of the backend's dependencies takes minutes.)
set -euo pipefail
cd "$(dirname "$0")/.."
# Runs a command with SwiftPM's pkg-config notice filtered out; returns the command's status.
run_filtered() {
    "$@" 2>&1 | grep --line-buffered -v "prohibited flag(s): -pthread"
    return "${PIPESTATUS[0]}"
}
scripts/setup-debian.sh
make --no-print-directory -j2 --output-sync=target vision-data vision-models face-data
for product in PCSCBenchmark MRTDBenchmark BackendBenchmark CameraBenchmark VisionBenchmark StationBenchmark idkiosk idkiosk-backend; do
    run_filtered swift build -c release --product "$product"
done
bin=$(swift build -c release --show-bin-path)
started=0
if ! scripts/pcscd-vpcd.sh status >/dev/null 2>&1 && ! pgrep -x pcscd >/dev/null; then
    scripts/pcscd-vpcd.sh start >/dev/null
    started=1
else
    scripts/pcscd-vpcd.sh start --reuse
fi
trap '[ "$started" -eq 1 ] && scripts/pcscd-vpcd.sh stop >/dev/null || true' EXIT
echo "==> PC/SC round trips (pcscd + vpcd)"
"$bin/PCSCBenchmark"
echo
echo "==> Reading a passport chip (ChipReader against the virtual passport, in memory)"
"$bin/MRTDBenchmark"
echo
echo "==> Backend uploads and outbox (reference backend on loopback)"
"$bin/BackendBenchmark"
echo
echo "==> Camera frame conversion (ours against libv4lconvert, synthetic frames)"
"$bin/CameraBenchmark"
echo
echo "==> Vision: the document in a frame (ours against OpenCV's usual finder, held-out scenes), faces (against OpenCV's Haar cascade), liveness, match"
"$bin/VisionBenchmark"
echo
echo "==> Vision: the PDF417 on a card's back (ours: finder + corrected crop, against ZXing-C++ on the whole frame, same frames)"
"$bin/VisionBenchmark" barcode
echo
echo "==> Vision: the MRZ found first on the field scenes' heldout and sealed splits (scripts/vision-data/field) and on the clean-room stills (scripts/cleanroom-data, measurement only: docs/cleanroom-data.md)"
make --no-print-directory field-data-all
"$bin/VisionBenchmark" field heldout sealed
make --no-print-directory cleanroom-data
"$bin/VisionBenchmark" cleanroom
echo
echo "==> Vision: time from a document lying still to its chip key on the field scenes' and the clean-room's recordings (DocumentAnalyzer and MRZConsensus at the recording's frame rate, one core)"
"$bin/VisionBenchmark" recordings
echo
echo "==> The station: start to READY, memory, action to the display's WebSocket"
"$bin/StationBenchmark"
