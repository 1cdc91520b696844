#!/usr/bin/env bash
# A private PostgreSQL cluster for the reference backend's PostgreSQL tests, without
# systemd and apart from any system cluster. It stops only the server it started
# (by the PID it recorded).
#
#   scripts/postgres.sh start    initdb on first use, start, print the URL
#   scripts/postgres.sh stop     stop it, when this script started it
#   scripts/postgres.sh status   running or not, and the URL
#   scripts/postgres.sh url      only the URL (for IDKIOSK_POSTGRES_URL)
#
# State lives in $IDKIOSK_STATE_DIR/postgres (default .state/postgres): data/ (the
# cluster), run/ (the unix socket), password, server.log, pid. The server listens on
# 127.0.0.1:$IDKIOSK_POSTGRES_PORT (default 54329, not the usual 5432; it must be free) and on the
# socket in run/. PostgreSQL refuses to run as root: as root, the cluster belongs to
# the system user `postgres` (Debian's postgresql package creates it); otherwise to
# the user running the script. When that user cannot reach .state (a checkout under
# /root, say), the state lives in /var/tmp/idkiosk-postgres-<hash of the checkout's path>
# instead. It is a test cluster: fsync is off.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
state=${IDKIOSK_STATE_DIR:-$here/.state}/postgres
# The server's user must be able to reach its data directory through every parent.
if [ "$(id -u)" -eq 0 ] && id postgres >/dev/null 2>&1; then
    probe=$state
    while [ ! -e "$probe" ]; do probe=$(dirname "$probe"); done
    if ! runuser -u postgres -- test -x "$probe" 2>/dev/null; then
        state=/var/tmp/idkiosk-postgres-$(printf '%s' "$here" | sha256sum | cut -c1-12)
    fi
fi
data=$state/data
run=$state/run
pidfile=$state/pid
log=$state/server.log
port=${IDKIOSK_POSTGRES_PORT:-54329}
superuser=idkiosk

bindir() {
    local dir
    if command -v pg_config >/dev/null && dir=$(pg_config --bindir 2>/dev/null) && [ -x "$dir/initdb" ]; then
        echo "$dir"; return
    fi
    dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
    [ -n "$dir" ] && [ -x "$dir/initdb" ] && { echo "$dir"; return; }
    echo "PostgreSQL's server is not installed: apt-get install postgresql" >&2
    exit 69
}

owner() { if [ "$(id -u)" -eq 0 ]; then echo postgres; else id -un; fi; }

# Runs a command as the cluster's owner.
as_owner() {
    if [ "$(id -u)" -eq 0 ]; then
        id postgres >/dev/null 2>&1 || { echo "no system user 'postgres' (apt-get install postgresql creates it)" >&2; exit 69; }
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

alive() { [ -n "$1" ] && [ -d "/proc/$1" ] && ! grep -q '^State:.*Z' "/proc/$1/status" 2>/dev/null; }
# The postmaster's PID as the server wrote it (first line of postmaster.pid).
server_pid() { [ -f "$data/postmaster.pid" ] && head -n 1 "$data/postmaster.pid" || true; }
ours_running() { [ -f "$pidfile" ] && [ "$(cat "$pidfile")" = "$(server_pid)" ] && alive "$(cat "$pidfile")"; }

url() { echo "postgres://$superuser:$(cat "$state/password")@127.0.0.1:$port/postgres?sslmode=disable"; }

init_cluster() {
    [ -f "$data/PG_VERSION" ] && return 0
    local bin=$1
    mkdir -p "$state"
    chmod 755 "$state"
    [ -f "$state/password" ] || { head -c 18 /dev/urandom | base64 | tr -d '/+=' > "$state/password"; chmod 600 "$state/password"; }
    mkdir -p "$data" "$run"
    chown "$(owner)" "$data" "$run"
    chmod 700 "$data" "$run"
    # initdb reads the password from a file its owner can read; removed right after.
    local pwfile=$run/initdb-password
    cp "$state/password" "$pwfile"
    chown "$(owner)" "$pwfile"
    as_owner "$bin/initdb" --pgdata="$data" --username="$superuser" --pwfile="$pwfile" \
        --auth-local=trust --auth-host=scram-sha-256 --encoding=UTF8 --locale=C.UTF-8 >"$state/initdb.log" 2>&1 || {
        rm -f "$pwfile"
        echo "initdb failed; see $state/initdb.log" >&2
        exit 1
    }
    rm -f "$pwfile"
}

start() {
    if ours_running; then echo "PostgreSQL (ours, PID $(cat "$pidfile")) already running on port $port"; url; return 0; fi
    local bin
    bin=$(bindir)
    local other
    other=$(server_pid)
    if [ -n "$other" ] && alive "$other"; then
        echo "a PostgreSQL this script did not start (PID $other) runs on $data; stop it first" >&2
        exit 69
    fi
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
        echo "port $port on 127.0.0.1 is taken by another program; choose one with IDKIOSK_POSTGRES_PORT" >&2
        exit 69
    fi
    init_cluster "$bin"
    touch "$log"
    chown "$(owner)" "$log"
    as_owner "$bin/pg_ctl" --pgdata="$data" --log="$log" --wait --timeout=60 \
        -o "-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories=$run -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
        start >/dev/null || { echo "PostgreSQL did not start; see $log" >&2; tail -n 20 "$log" >&2; exit 1; }
    server_pid > "$pidfile"
    echo "PostgreSQL (PID $(cat "$pidfile")) on 127.0.0.1:$port, socket in $run"
    url
}

stop() {
    if ! ours_running; then
        rm -f "$pidfile"
        echo "no PostgreSQL started by this script is running"
        return 0
    fi
    as_owner "$(bindir)/pg_ctl" --pgdata="$data" --mode=fast --wait --timeout=60 stop >/dev/null
    rm -f "$pidfile"
    echo "PostgreSQL stopped"
}

status() {
    if ours_running; then
        echo "running (PID $(cat "$pidfile")) on 127.0.0.1:$port"
        url
    else
        echo "not running"
        return 3
    fi
}

case "${1:-}" in
    start) start ;;
    stop) stop ;;
    status) status ;;
    url) [ -f "$state/password" ] || { echo "no cluster yet: scripts/postgres.sh start" >&2; exit 1; }; url ;;
    *) echo "usage: $0 start|stop|status|url" >&2; exit 64 ;;
esac
