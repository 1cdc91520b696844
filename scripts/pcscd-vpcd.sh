#!/usr/bin/env bash
# Starts and stops a pcscd that serves vsmartcard's virtual reader (vpcd), without
# systemd. It stops only the pcscd it started (by the PID it recorded).
#
#   scripts/pcscd-vpcd.sh start [--readers N] [--reuse]
#                                  N vpcd entries: N*2 readers, ports 35963...;
#                                  --reuse: a pcscd already running (the system's)
#                                  is fine, use it instead of failing
#   scripts/pcscd-vpcd.sh restart [--readers N]
#   scripts/pcscd-vpcd.sh stop
#   scripts/pcscd-vpcd.sh status
#
# State (config dir, PID, log) lives in $IDKIOSK_STATE_DIR (default .state/pcscd).
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
state=${IDKIOSK_STATE_DIR:-$here/.state}/pcscd
pidfile=$state/pid
conf=$state/reader.conf.d
log=$state/pcscd.log
driver=/usr/lib/pcsc/drivers/serial/libifdvpcd.so
socket=/run/pcscd/pcscd.comm

alive() { [ -n "$1" ] && [ -d "/proc/$1" ] && ! grep -q '^State:.*Z' "/proc/$1/status" 2>/dev/null; }
ours_running() { [ -f "$pidfile" ] && alive "$(cat "$pidfile")"; }
foreign_pid() {
    local p
    for p in $(pgrep -x pcscd 2>/dev/null); do
        alive "$p" || continue
        if ! [ -f "$pidfile" ] || [ "$p" != "$(cat "$pidfile")" ]; then echo "$p"; return; fi
    done
}

write_conf() {
    local readers=$1 i port name
    rm -rf "$conf"
    mkdir -p "$conf"
    for ((i = 0; i < readers; i++)); do
        port=$((35963 + 2 * i))
        name="Virtual PCD"
        [ "$i" -gt 0 ] && name="Virtual PCD #$((i + 1))"
        printf 'FRIENDLYNAME "%s"\nDEVICENAME   /dev/null:0x%X\nLIBPATH      %s\nCHANNELID    0x%X\n' \
            "$name" "$port" "$driver" "$port" > "$conf/vpcd-$i"
    done
}

start() {
    local readers=${1:-1}
    if ours_running; then echo "pcscd (ours, PID $(cat "$pidfile")) already running"; return 0; fi
    [ -x /usr/sbin/pcscd ] || { echo "pcscd is not installed: apt-get install pcscd" >&2; exit 69; }
    [ -f "$driver" ] || { echo "vpcd driver missing: apt-get install vsmartcard-vpcd" >&2; exit 69; }
    local other
    other=$(foreign_pid || true)
    if [ -n "$other" ]; then
        if [ "$reuse" -eq 1 ]; then
            echo "using the pcscd already running (PID $other)"
            return 0
        fi
        echo "another pcscd (PID $other) is running; stop it first (systemctl stop pcscd.socket pcscd)" >&2
        exit 69
    fi
    mkdir -p "$state"
    write_conf "$readers"
    # A stale socket or PID file from a dead pcscd makes the new one refuse to start.
    # Dead includes zombies: in containers nobody may reap a daemon that exited.
    if [ -e "$socket" ] || [ -e /run/pcscd/pcscd.pid ]; then
        alive "$(tr -dc 0-9 < /run/pcscd/pcscd.pid 2>/dev/null)" || rm -f "$socket" /run/pcscd/pcscd.pid
    fi
    /usr/sbin/pcscd --foreground --debug --apdu --config "$conf" > "$log" 2>&1 &
    echo $! > "$pidfile"
    local i
    for ((i = 0; i < 100; i++)); do
        if [ -S "$socket" ] && grep -q "daemon ready" "$log" 2>/dev/null; then
            echo "pcscd started (PID $(cat "$pidfile")), $((readers * 2)) virtual reader(s), log $log"
            return 0
        fi
        ours_running || break
        sleep 0.1
    done
    echo "pcscd did not become ready; last lines of $log:" >&2
    tail -n 20 "$log" >&2 || true
    exit 69
}

stop() {
    if ! ours_running; then rm -f "$pidfile"; echo "pcscd (ours) not running"; return 0; fi
    local pid i
    pid=$(cat "$pidfile")
    kill "$pid" 2>/dev/null || true
    for ((i = 0; i < 50; i++)); do alive "$pid" || break; sleep 0.1; done
    if alive "$pid"; then
        kill -9 "$pid" 2>/dev/null || true
        for ((i = 0; i < 50; i++)); do alive "$pid" || break; sleep 0.1; done
    fi
    rm -f "$pidfile"
    echo "pcscd (PID $pid) stopped"
}

cmd=${1:-status}
shift || true
readers=1
reuse=0
while [ $# -gt 0 ]; do
    case $1 in
        --readers) readers=$2; shift 2 ;;
        --reuse) reuse=1; shift ;;
        *) echo "unknown option $1" >&2; exit 64 ;;
    esac
done

case $cmd in
    start) start "$readers" ;;
    stop) stop ;;
    restart) stop; start "$readers" ;;
    status)
        if ours_running; then echo "running (PID $(cat "$pidfile"))"; else echo "not running"; exit 3; fi ;;
    *) echo "usage: $0 start|stop|restart|status [--readers N]" >&2; exit 64 ;;
esac
