#!/usr/bin/env bash
# `make demo`: the station on simulated hardware, as far as it exists today: pcscd
# with the vsmartcard virtual reader, a virtual card and a virtual passport on it,
# `idkiosk diag nfc` against them and `idkiosk read-chip` reading and verifying the
# passport. Stops what it started when it ends (or on Ctrl-C).
set -euo pipefail
cd "$(dirname "$0")/.."
# Runs a command with SwiftPM's pkg-config notice filtered out; returns the command's status.
run_filtered() {
    "$@" 2>&1 | grep --line-buffered -v "prohibited flag(s): -pthread"
    return "${PIPESTATUS[0]}"
}

scripts/setup-debian.sh
run_filtered swift build --product idkiosk
bin=$(swift build --show-bin-path)/idkiosk

started_pcscd=0
if ! scripts/pcscd-vpcd.sh status >/dev/null 2>&1 && ! pgrep -x pcscd >/dev/null; then
    scripts/pcscd-vpcd.sh start
    started_pcscd=1
else
    scripts/pcscd-vpcd.sh start --reuse   # a pcscd is running: use it, leave it running
fi
card_pid=""
passport_pid=""
trust=$(mktemp -d)
cleanup() {
    [ -n "$card_pid" ] && kill "$card_pid" 2>/dev/null && wait "$card_pid" 2>/dev/null || true
    [ -n "$passport_pid" ] && kill "$passport_pid" 2>/dev/null && wait "$passport_pid" 2>/dev/null || true
    rm -rf "$trust"
    [ "$started_pcscd" -eq 1 ] && scripts/pcscd-vpcd.sh stop || true
}
trap cleanup EXIT INT TERM

"$bin" sim card --slot 0 &
card_pid=$!
"$bin" sim passport --slot 1 --trust-out "$trust" &
passport_pid=$!
sleep 2  # pcscd polls the virtual reader for the cards

echo
echo "--- idkiosk diag nfc ---"
"$bin" diag nfc
echo
echo "--- idkiosk diag nfc --json (first reader) ---"
"$bin" diag nfc --json --reader "Virtual PCD 00 00"
echo
echo "--- idkiosk read-chip (the ICAO specimen passport on \"Virtual PCD 00 01\") ---"
"$bin" read-chip --reader "Virtual PCD 00 01" --trust "$trust" \
    --mrz "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<L898902C36UTO7408122F1204159ZE184226B<<<<<10"

if [ -t 0 ]; then
    echo
    echo "The virtual card stays on \"Virtual PCD 00 00\" and the passport on \"Virtual PCD 00 01\""
    echo "until you press Ctrl-C; try \`$bin diag nfc\` or \`$bin read-chip --help\` in another terminal."
    wait "$card_pid" || true
fi
