#!/usr/bin/env bash
# Power cuts of the rig VM while the outbox writes (rig.sh powercut; README.md, "Power
# cuts"). Usage: powercut.sh KERNEL INITRAMFS WORKDIR CUTS
#
# Boots the VM CUTS + 1 times on one disk image, WORKDIR/outbox.ext4 (ext4, made afresh
# per run, kept between the boots). Each boot checks what the last cut left (init runs
# `outbox-drain-child list` and writes the keys to the 9p share) and, all but the last,
# then writes (`outbox-drain-child fill`, each acknowledged enqueue a line on the serial
# console) until this script kills QEMU with SIGKILL at a random moment: no shutdown, no
# flush, the guest's page cache and unwritten journal gone. Every enqueue acknowledged
# before a cut must be in the outbox at every later boot. Prints the figures; exits 1 when
# one was lost or the outbox did not open, 2 when the rig itself failed.
set -euo pipefail
# One compound command: bash reads it whole before running it (see rig.sh).
{

kernel=$1 initrd=$2 work=$3 cuts=$4
window_ms=${RIG_CUT_WINDOW_MS:-3000}
boot_limit=${RIG_BOOT_TIMEOUT:-240}
say() { echo "powercut: $*" >&2; }
command -v mkfs.ext4 >/dev/null || { say "mkfs.ext4 missing: apt-get install e2fsprogs"; exit 2; }

mkdir -p "$work"
rm -f "$work"/console-*.log
disk=$work/outbox.ext4
rm -f "$disk"
truncate -s 256M "$disk"
mkfs.ext4 -q -F "$disk"
acknowledged=$work/acknowledged.txt lost=$work/lost.txt
: > "$acknowledged"; : > "$lost"
results=$work/results
start=$(date +%s)
cut=0 unopened=0 replayed=0 present=0
qemu_pid=
# Only the QEMU this script started, by its pid.
trap '[ -z "$qemu_pid" ] || kill -KILL "$qemu_pid" 2>/dev/null || true' EXIT

# wait_for LOG PATTERN SECONDS: until the console shows PATTERN (status 0), QEMU ends or
# the time is up (status 1).
wait_for() {
    local deadline=$(( $(date +%s) + $3 ))
    while [ "$(date +%s)" -lt "$deadline" ]; do
        grep -aq "$2" "$1" && return 0
        kill -0 "$qemu_pid" 2>/dev/null || { grep -aq "$2" "$1"; return; }
        sleep 0.1
    done
    return 1
}

# wait_exit SECONDS: until QEMU ends by itself (status 0) or the time is up (status 1).
wait_exit() {
    local deadline=$(( $(date +%s) + $1 ))
    while [ "$(date +%s)" -lt "$deadline" ]; do
        kill -0 "$qemu_pid" 2>/dev/null || return 0
        sleep 0.1
    done
    return 1
}

for cycle in $(seq 1 $((cuts + 1))); do
    write=1
    [ "$cycle" -le "$cuts" ] || write=0
    rm -rf "$results"; mkdir -p "$results"
    log=$work/console-$cycle.log
    # The disk: cache=writeback (QEMU's default, named here) tells the guest the disk has a
    # volatile write cache, as SATA and NVMe disks do, so ext4 and SQLite must send flushes;
    # QEMU makes each flush an fdatasync of the image. cache=unsafe would drop the flushes.
    qemu-system-x86_64 -accel tcg,thread=multi -cpu max -smp 2 -m 1024 -no-reboot -nographic \
        -kernel "$kernel" -initrd "$initrd" \
        -append "console=ttyS0 panic=-1 loglevel=4 rdinit=/init rig.cycle=$cycle rig.write=$write" \
        -virtfs "local,path=$results,mount_tag=results,security_model=none,id=results" \
        -drive "file=$disk,if=virtio,format=raw,cache=writeback" </dev/null >"$log" 2>&1 &
    qemu_pid=$!

    # What the last cut left.
    if ! wait_for "$log" '^POWERCUT-CHECKED' "$boot_limit"; then
        tail -30 "$log"; say "boot $cycle: no check of the outbox within ${boot_limit}s ($log)"; exit 2
    fi
    grep -aq '^POWERCUT-JOURNAL-RECOVERED: [1-9]' "$log" && replayed=$((replayed + 1))
    if ! grep -aq '^POWERCUT-CHECKED: 0' "$log"; then
        unopened=$((unopened + 1))
        say "boot $cycle: the outbox did not open: $(head -3 "$results/present.txt")"
    fi
    missing=$(comm -23 <(sort "$acknowledged") <(sed -n 's/^present //p' "$results/present.txt" | sort))
    if [ -n "$missing" ]; then
        echo "$missing" >> "$lost"
        say "boot $cycle: $(wc -l <<<"$missing") acknowledged enqueues missing ($(head -1 <<<"$missing") ... $(tail -1 <<<"$missing"))"
    fi
    present=$(grep -c '^present ' "$results/present.txt" || true)

    if [ "$write" = 0 ]; then
        wait_exit 60 || kill -KILL "$qemu_pid" 2>/dev/null || true
        wait "$qemu_pid" 2>/dev/null || true
        break
    fi
    if ! wait_for "$log" '^POWERCUT-WRITING' 60; then
        tail -30 "$log"; say "boot $cycle: the writer did not start ($log)"; exit 2
    fi
    delay=$(( (RANDOM * 32768 + RANDOM) % window_ms ))
    sleep "$(printf '%d.%03d' $((delay / 1000)) $((delay % 1000)))"
    if kill -KILL "$qemu_pid" 2>/dev/null; then
        cut=$((cut + 1))
    fi
    wait "$qemu_pid" 2>/dev/null || true
    grep -aq '^POWERCUT-WRITER-ENDED' "$log" && say "boot $cycle: the writer ended before the cut"
    # Complete lines only: a line cut short has no carriage return yet.
    sed -n 's/^enqueued \(crash-test-[0-9]*\)\r$/\1/p' "$log" >> "$acknowledged"
    say "cut $cut after ${delay} ms of writing: $(wc -l < "$acknowledged") enqueues acknowledged so far"
done
qemu_pid=

acked=$(wc -l < "$acknowledged")
lost=$(sort -u "$lost" | wc -l)
echo "soak power cut: $cut cuts, $acked enqueues acknowledged, $lost lost, the outbox failed to open $unopened times;" \
    "ext4 replayed its journal at $replayed boots; $((present - acked + lost)) committed without their acknowledgement reaching the host; $(( $(date +%s) - start )) s"
[ "$lost" = 0 ] && [ "$unopened" = 0 ] && [ "$cut" = "$cuts" ]
}
