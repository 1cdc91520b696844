#!/usr/bin/env bash
# `make demo`: the whole station on one machine with simulated hardware:
#   pcscd with vsmartcard's virtual reader and the virtual passport on it (idkiosk sim passport),
#   the file camera replaying the bundled recordings (idkiosk sim recordings),
#   the simulated flash, the reference backend (idkiosk-backend) as a second process,
#   and `idkiosk serve`, whose display URL it prints.
#
#   scripts/demo.sh              open the URL in a browser and go through the journey
#   scripts/demo.sh --autopilot  a scripted person runs the journey by itself and it ends
#                                with the backend's decision (also: make demo-auto)
#
# Options: --port N (display, default 8400), --keep (leave .state/demo for a look afterwards),
# --document booklet|page|idcard (what lies on the platen: a passport open at its data page, the
# default; a loose passport page; an identity card's front, then its back).
# Ctrl-C stops everything it started.
set -euo pipefail
cd "$(dirname "$0")/.."
here=$(pwd)

autopilot=0
port=8400
keep=0
document=booklet
while [ $# -gt 0 ]; do
    case "$1" in
        --autopilot) autopilot=1 ;;
        --port) port=$2; shift ;;
        --keep) keep=1 ;;
        --document) document=$2; shift ;;
        *) echo "demo: unknown option $1" >&2; exit 64 ;;
    esac
    shift
done

run_filtered() {
    "$@" 2>&1 | grep --line-buffered -v "prohibited flag(s): -pthread"
    return "${PIPESTATUS[0]}"
}

demo_start=$(date +%s)
# Only what the demo needs (no browser, VMs or packaging tools: make test installs those).
scripts/setup-debian.sh --demo
# The demo's data beside the build: the MRZ model and the face models, the document recording
# and the simulated person (make demo-data: only these, not the test data sets).
mkdir -p .cache
make --no-print-directory -j2 --output-sync=target demo-data > .cache/demo-data.log 2>&1 &
data_pid=$!
echo "==> building idkiosk and idkiosk-backend (the demo's data is made beside it: .cache/demo-data.log)"
build_status=0
run_filtered swift build --product idkiosk || build_status=$?
[ "$build_status" -ne 0 ] || run_filtered swift build --product idkiosk-backend || build_status=$?
data_status=0
wait "$data_pid" || data_status=$?
if [ "$data_status" -ne 0 ]; then
    tail -30 .cache/demo-data.log
    echo "demo: making the demo's data failed (log: .cache/demo-data.log)" >&2
    exit 1
fi
[ "$build_status" -eq 0 ] || { echo "demo: the build failed" >&2; exit 1; }
bin=$(swift build --show-bin-path)

state=$here/.state/demo
rm -rf "$state"
mkdir -p "$state/trust" "$state/recordings"
chmod 700 "$state"

pids=()
started_pcscd=0
cleanup() {
    trap - EXIT INT TERM
    for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    [ "$started_pcscd" -eq 1 ] && scripts/pcscd-vpcd.sh stop >/dev/null 2>&1 || true
    [ "$keep" -eq 1 ] || rm -rf "$state"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if ! scripts/pcscd-vpcd.sh status >/dev/null 2>&1 && ! pgrep -x pcscd >/dev/null; then
    scripts/pcscd-vpcd.sh start
    started_pcscd=1
else
    scripts/pcscd-vpcd.sh start --reuse
fi

# The camera: the generated recording of a passport open at its data page on the platen (OCR-B
# MRZ, scripts/vision-data/field, made above), from which the station reads the chip key (or,
# with --document, a loose page or an identity card), and a drawn face.
case "$document" in
    booklet) recording=.cache/vision-data/field/sequences/demo-booklet ;;
    page) recording=.cache/vision-data/sequences/demo-document ;;
    idcard) recording=.cache/vision-data/sequences/demo-idcard ;;
    *) echo "demo: --document is booklet, page or idcard" >&2; exit 64 ;;
esac
"$bin/idkiosk" sim recordings --out "$state/recordings" --frames 40 >/dev/null
cp "$recording.mjpeg" "$state/recordings/document.mjpeg"
# The face: the simulated person of scripts/face-data (Eileen Collins, NASA, public domain),
# whose frames answer the station's LED (LitFaceCamera, docs/faces.md); her portrait is the
# passport's DG2.
rm -rf "$state/recordings/face-lit"
mkdir -p "$state/recordings/face-lit"
for f in .cache/face-data/station/*; do ln -s "$here/$f" "$state/recordings/face-lit/"; done
echo '{"identity": "collins", "presentation": "genuine"}' > "$state/recordings/face-lit/person.json"
# The virtual passport's chip holds the page's MRZ (the recording's ground truth; the
# station never sees it: it reads the page).
mrz=$(python3 -c 'import json,sys; print("".join(next(f["mrz"] for f in json.load(open(sys.argv[1])) if f and f.get("mrz"))))' \
    "$recording.json")
echo "==> the virtual passport (PACE and BAC) on \"Virtual PCD 00 00\""
"$bin/idkiosk" sim passport --slot 0 --pace --mrz "$mrz" --photo .cache/face-data/station/collins-dg2.jpg --trust-out "$state/trust" --log-level warning &
pids+=($!)

echo "==> the reference backend on 127.0.0.1:8480"
db=$state/backend.sqlite
"$bin/idkiosk-backend" clients add --database "$db" --name demo-station --json > "$state/client.json"
python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["clientSecret"])' "$state/client.json" > "$state/client.secret"
chmod 600 "$state/client.secret"
client_id=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["clientId"])' "$state/client.json")
for _ in $(seq 50); do [ -f "$state/trust/csca.der" ] && break; sleep 0.1; done
"$bin/idkiosk-backend" serve --database "$db" --port 8480 --csca "$state/trust" --models "$here/.cache/models" > "$state/backend.log" 2>&1 &
pids+=($!)

cat > "$state/idkiosk.yaml" <<YAML
station:
  name: demo
log:
  level: notice
reader:
  name: "Virtual PCD 00 00"
camera:
  name: "file:$state/recordings"
vision:
  models: $here/.cache/models
  document:
    # the generated recordings' camera (docs/vision-data.md)
    field-of-view: 45
flash:
  simulated: true
journey:
  start: [touch]
  workflow: passport-chip-face
  countries: [UTO]
  result-s: 10
backend:
  url: http://127.0.0.1:8480
  client-id: "$client_id"
  client-secret-file: $state/client.secret
  outbox: $state/outbox.sqlite
  outbox-key-file: $state/outbox.key
display:
  port: $port
status:
  port: $((port + 1))
chip:
  trust: $state/trust
YAML

for _ in $(seq 50); do (exec 3<>/dev/tcp/127.0.0.1/8480) 2>/dev/null && break; sleep 0.1; done
echo "==> idkiosk serve (configuration: $state/idkiosk.yaml); make demo took $(( $(date +%s) - demo_start )) s to here"
if [ "$autopilot" -eq 1 ]; then
    echo "    a scripted person runs one journey; open the display URL to watch it"
    "$bin/idkiosk" serve --config "$state/idkiosk.yaml" --autopilot 1 --exit-after-autopilot &
    serve=$!
    pids+=($serve)
    status=0
    wait "$serve" || status=$?
    exit "$status"
fi
"$bin/idkiosk" serve --config "$state/idkiosk.yaml" &
serve=$!
pids+=($serve)
echo "    open the display URL above in a browser (Chromium: chromium --app=http://127.0.0.1:$port/)"
echo "    Ctrl-C stops the station, the backend, the virtual passport and pcscd"
wait "$serve"
