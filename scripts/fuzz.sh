#!/usr/bin/env bash
# `make fuzz`: libFuzzer on the parsers and analysis entry points that take bytes from
# outside (Fuzz/idkiosk-fuzz; the display's commands and the configuration in
# Fuzz/idkiosk-fuzz-station). Built with coverage and AddressSanitizer in .build/fuzz;
# each target runs FUZZ_RUNS executions (default 10^6) from a corpus in .cache/fuzz/TARGET,
# seeded from the generated vision data and the repository's own examples (docs, deploy/),
# or until FUZZ_SECONDS (default 600, 1500 for config, whose YAML takes about 1 ms an input;
# a cap for the targets too slow for 10^6, see docs/fuzzing.md). Prints each target's executions, executions a second, coverage
# (libFuzzer's final cov: and ft:) and time, then a table of all. A crash, or an input that
# takes over 60 s, leaves its input in .cache/fuzz/crashes/ and fails the run;
# `idkiosk-fuzz[-station] TARGET FILE` (a normal build) replays it.
#
# `scripts/fuzz.sh --replay` (what make test runs): no AddressSanitizer build and no fuzzing.
# The normal build's idkiosk-fuzz and idkiosk-fuzz-station run every input of every target's
# corpus (the seeds below, what earlier `make fuzz` runs kept in .cache/fuzz/TARGET,
# Fuzz/regressions/TARGET-*, and .cache/fuzz/crashes/TARGET-*), each once and with
# FUZZ_MUTATIONS (default 200) deterministic mutations; a crash or a non-zero exit fails, and
# the log's last "input:" line names the input.
set -euo pipefail
cd "$(dirname "$0")/.."
replay=0
[ "${1:-}" = --replay ] && replay=1
runs=${FUZZ_RUNS:-1000000}
# The cap of one target: FUZZ_SECONDS when set, else 600 s (config 1500 s: 10^6 YAML parses).
cap() { if [ -n "${FUZZ_SECONDS:-}" ]; then echo "$FUZZ_SECONDS"; elif [ "$1" = config ]; then echo 1500; else echo 600; fi; }
targets=${FUZZ_TARGETS:-"png jpeg mjpeg y4m mrz-text aamva finder mrz-reader mrz-locator face dg2 tlv lds sod sm atr display-command config"}
if [ "$replay" = 0 ]; then
    runtime=$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")/lib/clang
    libfuzzer=$(ls "$runtime"/*/lib/linux/libclang_rt.fuzzer_no_main-x86_64.a | head -1)
    [ -f "$libfuzzer" ] || { echo "libFuzzer (libclang_rt.fuzzer_no_main) is not in the Swift toolchain" >&2; exit 1; }
    make --no-print-directory -j2 --output-sync=target vision-data vision-models face-data >/dev/null
    echo "==> building idkiosk-fuzz and idkiosk-fuzz-station with coverage and AddressSanitizer (.build/fuzz)"
    build_start=$(date +%s)
    # No index store and line tables only: nothing here reads the index, an ASan report needs
    # only lines, and the build takes about half as long (docs/fuzzing.md).
    for product in idkiosk-fuzz idkiosk-fuzz-station; do
        swift build --build-path .build/fuzz --product "$product" --disable-index-store -Xswiftc -gline-tables-only \
            -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp -Xswiftc -sanitize=address -Xswiftc -DFUZZING \
            -Xlinker "$libfuzzer" -Xlinker -lstdc++ 2>&1 | grep -v "prohibited flag(s): -pthread" | tail -3
    done
    echo "==> built in $(( $(date +%s) - build_start )) s"
fi
mkdir -p .cache/fuzz/crashes
seed() { # seed TARGET FILE...: copies the first files given into the target's corpus once
    local dir=.cache/fuzz/$1; shift
    mkdir -p "$dir"
    [ -n "$(ls -A "$dir")" ] && return 0
    for f in "$@"; do [ -f "$f" ] && cp "$f" "$dir/"; done
    return 0
}
data=.cache/vision-data
seed png $(ls $data/backgrounds/*.png | head -2)
# Small images: a decoder explores faster on them (a 720p frame takes long under ASan).
/usr/bin/python3 - "$data" <<'PY'
import glob, io, sys
from PIL import Image
scenes = sorted(glob.glob(sys.argv[1] + "/scenes/train/*.jpg"))[:3]
frames = []
for i, path in enumerate(scenes):
    small = Image.open(path).convert("RGB").resize((64, 36))
    small.save("/tmp/idkiosk-seed-%d.jpg" % i, quality=80)
    buffer = io.BytesIO(); small.save(buffer, "JPEG", quality=80); frames.append(buffer.getvalue())
open("/tmp/idkiosk-seed.mjpeg", "wb").write(b"".join(frames))
PY
seed jpeg /tmp/idkiosk-seed-0.jpg /tmp/idkiosk-seed-1.jpg /tmp/idkiosk-seed-2.jpg
seed mjpeg /tmp/idkiosk-seed.mjpeg
printf 'YUV4MPEG2 W64 H48 F15:1 Ip A1:1 C420jpeg\nFRAME\n' > /tmp/idkiosk-seed.y4m && seed y4m /tmp/idkiosk-seed.y4m
printf 'P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<L898902C36UTO7408122F1204159ZE184226B<<<<<10' > /tmp/idkiosk-seed.mrz && seed mrz-text /tmp/idkiosk-seed.mrz
# aamva: the records of the generated barcode data (one US, one Canadian at least).
/usr/bin/python3 - <<'PY'
import glob, json
for i, path in enumerate(sorted(glob.glob(".cache/barcode-data/scenes/train/*.json"))[:12]):
    card = json.load(open(path))["card"]
    if card["barcode"]:
        open("/tmp/idkiosk-seed-%d.aamva" % i, "wb").write(card["barcode"]["text"].encode("latin-1"))
PY
seed aamva $(ls /tmp/idkiosk-seed-*.aamva 2>/dev/null | head -4)
seed finder /tmp/idkiosk-seed.mrz
seed mrz-reader /tmp/idkiosk-seed.mrz
# mrz-locator: a passport page and a card's back of the generated crops, turned and laid on
# a grey platen, as the target reads them (two bytes of half size, then luma).
/usr/bin/python3 - "$data" <<'PY'
import glob, json, sys
from PIL import Image
crops = [p for p in sorted(glob.glob(sys.argv[1] + "/crops/dev/*.json")) if json.load(open(p))["mrz"]]
for i, path in enumerate(crops[:2]):
    page = Image.open(path[:-5] + ".pgm").convert("L")
    page = page.resize((page.width * 2 // 5, page.height * 2 // 5)).rotate(8 + 170 * i, expand=True, fillcolor=90)
    frame = Image.new("L", (510, 400), 90)
    frame.paste(page, ((510 - page.width) // 2, (400 - page.height) // 2))
    open("/tmp/idkiosk-seed-locator-%d.bin" % i, "wb").write(bytes([254, 199]) + frame.tobytes())
PY
seed mrz-locator /tmp/idkiosk-seed-locator-0.bin /tmp/idkiosk-seed-locator-1.bin
# A face as the face target reads it (two bytes of half size, then luma), and a DG2 of the
# virtual passport's kind (ISO/IEC 19794-5 around a small JPEG), both from the face data.
/usr/bin/python3 - <<'PY'
import glob, io, struct
from PIL import Image
photos = sorted(glob.glob(".cache/face-data/sources/*"))
if photos:
    face = Image.open(photos[0]).convert("L").resize((96, 96))
    open("/tmp/idkiosk-seed-face.bin", "wb").write(bytes([47, 47]) + face.tobytes())
    small = Image.open(photos[0]).convert("RGB").resize((60, 80))
    jpeg = io.BytesIO(); small.save(jpeg, "JPEG", quality=60); jpeg = jpeg.getvalue()
    def tlv(tag, value):
        n = len(value)
        length = bytes([n]) if n < 128 else bytes([0x81, n]) if n < 256 else bytes([0x82, n >> 8, n & 255])
        return tag + length + value
    # Facial record header (FAC, version 010), one face: the record's own length fields.
    record = b"FAC\x00" + b"010\x00" + struct.pack(">IH", 14 + 20 + 12 + len(jpeg), 1)
    record += struct.pack(">IH", 20 + 12 + len(jpeg), 0) + bytes(14) + bytes([1, 0]) + struct.pack(">HH", 60, 80) + bytes([1, 2]) + bytes(4)
    record += jpeg
    bit = tlv(b"\x7f\x61", tlv(b"\x02", b"\x01") + tlv(b"\x7f\x60", tlv(b"\xa1", tlv(b"\x80", b"\x01\x01")) + tlv(b"\x5f\x2e", record)))
    open("/tmp/idkiosk-seed-dg2.bin", "wb").write(tlv(b"\x75", bit))
PY
seed face /tmp/idkiosk-seed-face.bin
seed dg2 /tmp/idkiosk-seed-dg2.bin
# The chip's side: TLV and the LDS files as the DG2 seed's structure (the first byte picks
# the file for lds: 9 is DG2), an ATR of a contactless passport, secure messaging objects.
seed tlv /tmp/idkiosk-seed-dg2.bin
{ printf '\x09'; cat /tmp/idkiosk-seed-dg2.bin; } > /tmp/idkiosk-seed-lds.bin && seed lds /tmp/idkiosk-seed-lds.bin
printf '\x3b\x8a\x80\x01\x80\x31\xf8\x73\xf7\x41\x80\x82\x90\x00\x5d' > /tmp/idkiosk-seed.atr && seed atr /tmp/idkiosk-seed.atr
printf '\x81\x87\x11\x01\x00\x11\x22\x33\x44\x55\x66\x77\x88\x99\xaa\xbb\xcc\xdd\xee\xff\x99\x02\x90\x00' > /tmp/idkiosk-seed-sm.bin && seed sm /tmp/idkiosk-seed-sm.bin
printf '\x30\x03\x02\x01\x00' > /tmp/idkiosk-seed-sod.bin && seed sod /tmp/idkiosk-seed-sod.bin
# The display's commands: every JSON example of docs/events.md and docs/integrators.md
# (messages too: the server refuses them as commands), and each command of
# docs/events.schema.json that needs no more than its type.
mkdir -p /tmp/idkiosk-seed-display && rm -f /tmp/idkiosk-seed-display/*
/usr/bin/python3 - <<'PY'
import json, re
examples = re.findall(r"```json\n(.*?)```", open("docs/events.md").read(), re.S)
examples += re.findall(r"^\u2190 (\{.*\})$", open("docs/integrators.md").read(), re.M)
schema = json.load(open("docs/events.schema.json"))
for command in schema["$defs"]["command"]["oneOf"]:
    if command.get("required") == ["version", "type"]:
        examples.append(json.dumps({"version": 3, "type": command["properties"]["type"]["const"]}))
for i, text in enumerate(examples):
    json.loads(text)
    open("/tmp/idkiosk-seed-display/%03d.json" % i, "w").write(text.strip())
PY
seed display-command /tmp/idkiosk-seed-display/*.json
# The configuration: deploy/idkiosk.yaml whole, without its comments, each of its sections
# alone, and flow style with an anchor and an alias.
mkdir -p /tmp/idkiosk-seed-config && rm -f /tmp/idkiosk-seed-config/*
/usr/bin/python3 - <<'PY'
import re
text = open("deploy/idkiosk.yaml").read()
bare = "\n".join(line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")) + "\n"
open("/tmp/idkiosk-seed-config/idkiosk.yaml", "w").write(text)
open("/tmp/idkiosk-seed-config/bare.yaml", "w").write(bare)
for section in re.split(r"\n(?=[a-z])", bare.strip()):
    open("/tmp/idkiosk-seed-config/%s.yaml" % section.split(":")[0], "w").write(section + "\n")
open("/tmp/idkiosk-seed-config/flow.yaml", "w").write(
    "journey: {workflow: authentication, start: [reference]}\ndisplay: &d {host: 127.0.0.1, port: 8400}\nstatus: *d\n")
PY
seed config /tmp/idkiosk-seed-config/*.yaml

if [ "$replay" = 1 ]; then
    # Every input once, in the normal build (FuzzDriver replays the files it is given).
    bin_dir=$(readlink -f .build/debug)
    # Each input and FUZZ_MUTATIONS (default 200) deterministic mutations of it (FuzzDriver's Mutation).
    mutations=${FUZZ_MUTATIONS:-200}
    status=0
    total=0
    for target in $targets; do
        bin=$bin_dir/idkiosk-fuzz
        case $target in display-command | config) bin=$bin_dir/idkiosk-fuzz-station ;; esac
        [ -x "$bin" ] || { echo "$bin is not built: swift build --build-tests" >&2; exit 1; }
        inputs=()
        for f in .cache/fuzz/"$target"/* Fuzz/regressions/"$target"-* .cache/fuzz/crashes/"$target"-*; do
            [ -f "$f" ] && inputs+=("$f")
        done
        [ ${#inputs[@]} -gt 0 ] || { echo "FAILED: $target has no input to replay (its seeds above made none)"; status=1; continue; }
        log=.cache/fuzz/$target.replay.log
        if FUZZ_MUTATIONS=$mutations IDKIOSK_MODELS=.cache/models "$bin" "$target" "${inputs[@]}" > "$log" 2>&1; then
            total=$(( total + ${#inputs[@]} ))
        else
            echo "FAILED: $target on one of its ${#inputs[@]} inputs (see $log)"
            tail -20 "$log"
            status=1
        fi
    done
    echo "==> replayed $total inputs of $(echo $targets | wc -w) targets, each with $mutations mutations"
    exit "$status"
fi

# One line a target, and the table of all at the end: libFuzzer's final figures.
table="| target | executions | exec/s | coverage (cov / ft) | time | crash |"$'\n'"| --- | ---: | ---: | --- | ---: | --- |"
status=0
for target in $targets; do
    seconds=$(cap "$target")
    echo "==> $target: $runs executions or ${seconds} s"
    start=$(date +%s)
    log=.cache/fuzz/$target.log
    bin=.build/fuzz/debug/idkiosk-fuzz
    case $target in display-command | config) bin=.build/fuzz/debug/idkiosk-fuzz-station ;; esac
    crash=none
    if ! IDKIOSK_MODELS=.cache/models "$bin" "$target" -runs="$runs" -max_total_time="$seconds" -timeout=60 -rss_limit_mb=4096 -print_final_stats=1 \
        -artifact_prefix=.cache/fuzz/crashes/"$target"- .cache/fuzz/"$target" > "$log" 2>&1; then
        echo "FAILED: see $log and .cache/fuzz/crashes/"
        tail -20 "$log"
        crash=$(sed -n 's/.*Test unit written to //p' "$log" | head -1)
        crash=${crash:-yes}
        status=1
    fi
    elapsed=$(( $(date +%s) - start ))
    executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    coverage=$(grep -oE "cov: [0-9]+ ft: [0-9]+" "$log" | tail -1 | sed -E 's/cov: ([0-9]+) ft: ([0-9]+)/\1 \/ \2/')
    echo "    ${executions:-?} executions, ${speed:-?} exec/s, coverage ${coverage:-?} (cov / ft), ${elapsed} s"
    table+=$'\n'"| $target | ${executions:-?} | ${speed:-?} | ${coverage:-?} | ${elapsed} s | $crash |"
done
echo "$table"
exit "$status"
