#!/bin/bash
# The system test's checks, run inside the VM by sysvm-checks.service (systemd is PID 1).
# The host (run.sh) put the packages and this script into /sysvm/in; the results go to
# /sysvm/out/results.txt, one line a check ("PASS|FAIL name seconds detail"), and onto the
# console as "SYSVM: ..." lines, in case the share fails. Every wait is bounded; the host
# bounds the whole VM as well. Ends with a power-off.
set -uo pipefail

in=/sysvm/in
out=/sysvm/out
results=$out/results.txt
: > "$results"
export DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8
. "$in/versions"            # VERSION_A, VERSION_B: the two builds of the upgrade check

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
report() {  # report PASS|FAIL|TIME name seconds detail...
    local line="$1 $2 $3 ${*:4}"
    echo "$line" >> "$results"
    echo "SYSVM: $line" > /dev/console
}
failed=0
pass() { report PASS "$@"; }
units=(-u idkiosk -u idkiosk-backend -u pcscd -u sysvm-passport)
# A failed check leaves the journal as it was then: the VM may not get to the end.
fail() {
    report FAIL "$@"; failed=1
    journalctl --no-pager -b -n 300 "${units[@]}" > "$out/journal-$1.txt" 2>&1
}
finish() {
    # What support would look at (the station never logs personal data; no journey ran).
    journalctl --no-pager -b "${units[@]}" > "$out/journal.txt" 2>&1
    systemctl --no-pager --failed > "$out/failed-units.txt" 2>&1
    systemd-analyze blame --no-pager 2>/dev/null | head -20 > "$out/boot-blame.txt"
    echo "DONE failed=$failed" >> "$results"
    echo "SYSVM-DONE failed=$failed" > /dev/console
    sync
    systemctl poweroff --no-block
    exit 0
}
trap finish EXIT

apt_get() { timeout 600 apt-get -y -q "$@" < /dev/null >> "$out/apt.log" 2>&1; }
apt_install() { apt_get install "$@"; }   # offline: the image has no package lists
# Purged: dpkg keeps nothing of it, not even its conffiles ("config-files").
purged() { local s; s=$(dpkg-query -W -f '${Status}' "$1" 2>/dev/null); [ -z "$s" ] || [[ "$s" == *not-installed ]]; }
outbox_records() { curl -s -m 10 127.0.0.1:8401/health | sed -n 's/.*"records" *: *\([0-9]*\).*/\1/p'; }
same() { [ "$1" = "$2" ]; }
# A check of several conditions: `expect WHY COMMAND...` notes WHY when COMMAND fails, and
# `verdict NAME START DETAIL` reports PASS with DETAIL, or FAIL with every WHY.
why=""
expect() { local reason=$1; shift; "$@" || why+="$reason; "; }
verdict() {
    if [ -z "$why" ]; then pass "$1" "$(since "$2")" "$3"; else fail "$1" "$(since "$2")" "$why"; fi
    why=""
}
# wait_for SECONDS COMMAND...: until COMMAND succeeds, at most SECONDS (by the clock: each
# try of a command is slow under emulation, so a count of tries says little).
wait_for() {
    local end=$(( $(date +%s) + $1 )); shift
    until "$@"; do [ "$(date +%s)" -lt "$end" ] || return 1; sleep 0.2; done
}
station_pid() { systemctl show -p MainPID --value idkiosk; }
sha() { sha256sum "$1" 2>/dev/null | cut -d' ' -f1; }

# 1. Boot: the host started QEMU; systemd reports how long the kernel and userspace took.
t=$(now)
state=$(timeout 300 systemctl is-system-running --wait 2>&1)
if [ "$state" = running ]; then
    pass boot "$(since "$t")" "$(systemd-analyze time 2>/dev/null | head -1)"
else
    # Not fatal for the station's checks: name the units that failed.
    fail boot "$(since "$t")" "system $state; failed units: $(systemctl --failed --plain --no-legend | cut -d' ' -f1 | tr '\n' ' ')"
fi

# 2. Version A of the station and the reference backend, from their packages, offline.
t=$(now)
if apt_install "$in/debs/idkiosk-backend.deb" "$in/debs/idkiosk_${VERSION_A}_amd64.deb"; then
    pass install-a "$(since "$t")" "idkiosk $(dpkg-query -W -f '${Version}' idkiosk), idkiosk-backend $(dpkg-query -W -f '${Version}' idkiosk-backend)"
else
    fail install-a "$(since "$t")" "apt-get install of the packages failed: $(tail -3 "$out/apt.log" | tr '\n' ' ')"
    exit 1
fi

# 3. The simulated devices and the backend: pcscd with vpcd (kept running: Debian's unit
#    exits when idle, and the virtual passport needs vpcd listening), the virtual passport,
#    the file camera's recordings, the simulated flash, a client of the reference backend.
t=$(now)
mkdir -p /etc/systemd/system/pcscd.service.d /var/lib/sysvm
printf '[Service]\nExecStart=\nExecStart=/usr/sbin/pcscd --foreground\n' > /etc/systemd/system/pcscd.service.d/sysvm.conf
systemctl daemon-reload
expect "pcscd did not start" timeout 60 systemctl start pcscd.service
expect "idkiosk sim recordings failed (recordings.log)" \
    timeout 300 idkiosk sim recordings --out /var/lib/sysvm/recordings --frames 20 > "$out/recordings.log" 2>&1
chmod -R a+rX /var/lib/sysvm
expect "the virtual passport did not start" \
    systemd-run --quiet --unit=sysvm-passport -p Restart=no /usr/bin/idkiosk sim passport --slot 0 --pace --trust-out /var/lib/sysvm/trust --log-level warning
wait_for 30 test -f /var/lib/sysvm/trust/csca.der
expect "the virtual passport wrote no CSCA certificate" install -m 644 /var/lib/sysvm/trust/csca.der /etc/idkiosk-backend/csca/
sed -i 's|^IDKIOSK_BACKEND_OPTIONS="|IDKIOSK_BACKEND_OPTIONS="--csca /etc/idkiosk-backend/csca |' /etc/default/idkiosk-backend
# The backend's state directory comes from its tmpfiles.d entry; the client is made as its user.
systemd-tmpfiles --create > /dev/null 2>&1
client=$(runuser -u idkiosk-backend -- idkiosk-backend clients add --database /var/lib/idkiosk-backend/backend.sqlite --name sysvm --json 2>> "$out/setup.log")
client_id=$(echo "$client" | sed -n 's/.*"clientId" *: *"\([^"]*\)".*/\1/p')
echo "$client" | sed -n 's/.*"clientSecret" *: *"\([^"]*\)".*/\1/p' > /etc/idkiosk/client.secret
expect "idkiosk-backend clients add gave no client (setup.log)" test -n "$client_id"
expect "idkiosk-backend did not start" timeout 60 systemctl start idkiosk-backend
expect "idkiosk-backend does not answer on 127.0.0.1:8480" wait_for 30 curl -s -o /dev/null 127.0.0.1:8480/
# The operator's change to the configuration (a conffile): an upgrade must keep it. Journeys
# start on a touch only, so the passport on the reader starts none.
cat > /etc/idkiosk/idkiosk.yaml <<YAML
# changed by the system test (an operator's configuration)
station:
  name: system-vm
reader:
  name: "Virtual PCD 00 00"
camera:
  name: "file:/var/lib/sysvm/recordings"
flash:
  simulated: true
journey:
  start: [touch]
backend:
  url: http://127.0.0.1:8480
  client-id: "$client_id"
chip:
  trust: /var/lib/sysvm/trust
YAML
verdict devices "$t" "pcscd with vpcd, virtual passport, file camera, simulated flash, backend and its client"

# 4. systemctl start returns once the station sent READY=1 (Type=notify).
t=$(now)
if timeout 120 systemctl start idkiosk && [ "$(systemctl show -p SubState --value idkiosk)" = running ]; then
    pass ready "$(since "$t")" "active (running), main PID $(station_pid)"
else
    fail ready "$(since "$t")" "systemctl start idkiosk: $(systemctl show -p ActiveState,SubState,Result --value idkiosk | tr '\n' ' ')"
fi

# 5. /health answers on the status port (8401), and says ready once every device was seen.
t=$(now)
health_ok() { code=$(curl -s -m 10 -o "$out/health.json" -w '%{http_code}' 127.0.0.1:8401/health); [ "$code" = 200 ]; }
code=""
wait_for 30 health_ok
if [ "$code" = 200 ] && grep -q '"ready" *: *true' "$out/health.json"; then
    pass health "$(since "$t")" "HTTP 200, ready"
else
    fail health "$(since "$t")" "HTTP ${code:-none}: $(head -c 400 "$out/health.json" 2>/dev/null)"
fi

# 6. systemctl status shows the station's STATUS= line.
t=$(now)
status_line=$(systemctl status --no-pager idkiosk 2>&1 | sed -n 's/^ *Status: //p')
if [ -n "$status_line" ]; then
    pass status "$(since "$t")" "Status: $status_line"
else
    fail status "$(since "$t")" "no Status: line in systemctl status idkiosk"
fi

# 7. systemd's own exposure score of the installed unit.
t=$(now)
score=$(systemd-analyze security --no-pager idkiosk.service 2>&1 | sed -n 's/.*Overall exposure level for idkiosk.service: \([0-9.]*\).*/\1/p')
if [ -n "$score" ] && awk -v s="$score" 'BEGIN { exit !(s <= 2.0) }'; then
    pass security "$(since "$t")" "exposure $score (at most 2.0)"
else
    systemd-analyze security --no-pager idkiosk.service > "$out/security.txt" 2>&1
    fail security "$(since "$t")" "exposure ${score:-unknown}, more than 2.0 (security.txt)"
fi

# 8. The watchdog: a stopped station stops feeding it; systemd must notice within WatchdogSec
#    and restart the service. The time comes from the journal's own timestamps.
t=$(now)
# WatchdogUSec is shown formatted ("30s"); systemd-analyze turns it into microseconds.
watchdog_s=$(systemd-analyze timespan "$(systemctl show -p WatchdogUSec --value idkiosk)" 2>/dev/null | awk '/μs:/ { print $2 / 1000000 }')
old=$(station_pid)
restarts=$(systemctl show -p NRestarts --value idkiosk)
if [ -z "$old" ] || [ "$old" = 0 ]; then
    fail watchdog "$(since "$t")" "the station is not running, so there is nothing to stop"
else
    stopped_at=$(now)
    kill -STOP "$old"
    restarted() {
        local pid; pid=$(station_pid)
        [ "$pid" != "$old" ] && [ "$pid" != 0 ] && [ "$(systemctl show -p SubState --value idkiosk)" = running ]
    }
    # At most 180 s: WatchdogSec, the abort, RestartSec and the start to READY again.
    back=0
    wait_for 180 restarted && back=1
    back_s=$(since "$stopped_at")
    fired=$(journalctl -b -u idkiosk -o short-unix --no-pager | awk '/[Ww]atchdog timeout/ { print $1 }' | tail -1)
    fire_s=""
    [ -z "$fired" ] || fire_s=$(awk -v a="$stopped_at" -v b="$fired" 'BEGIN { printf "%.1f", b - a }')
    expect "no watchdog timeout in the journal" test -n "$fire_s"
    expect "the watchdog fired ${fire_s:-?} s after the stop, WatchdogSec is ${watchdog_s} s" \
        awk -v f="${fire_s:-0}" -v w="$watchdog_s" 'BEGIN { exit !(f > 0 && f <= w + 1) }'
    expect "the station did not run again within ${back_s} s" test "$back" = 1
    [ "$back" = 1 ] || kill -CONT "$old" 2>/dev/null
    verdict watchdog "$t" "WatchdogSec ${watchdog_s} s: timeout ${fire_s} s after SIGSTOP, READY again after ${back_s} s, restarts $restarts -> $(systemctl show -p NRestarts --value idkiosk)"
fi

# 9. Upgrade from A to B: the outbox (its file, its key) and the changed configuration stay.
t=$(now)
config_sha=$(sha /etc/idkiosk/idkiosk.yaml)
key_sha=$(sha /etc/idkiosk/outbox.key)
outbox=/var/lib/idkiosk/outbox.sqlite
outbox_inode=$(stat -c %i "$outbox" 2>/dev/null)
records_before=$(outbox_records)
pid_before=$(station_pid)
expect "version A made no outbox at $outbox" test -n "$outbox_inode"
expect "apt-get install of version B failed" apt_install "$in/debs/idkiosk_${VERSION_B}_amd64.deb"
expect "the installed version is not $VERSION_B" same "$(dpkg-query -W -f '${Version}' idkiosk)" "$VERSION_B"
expect "the configuration changed" same "$(sha /etc/idkiosk/idkiosk.yaml)" "$config_sha"
expect "the outbox key changed" same "$(sha /etc/idkiosk/outbox.key)" "$key_sha"
expect "the outbox file was replaced or removed" same "$(stat -c %i "$outbox" 2>/dev/null)" "$outbox_inode"
# The unit was running: the package restarts it after the upgrade, on the same outbox.
expect "version B is not running" same "$(systemctl show -p SubState --value idkiosk)" running
expect "the package did not restart the running station" test "$(station_pid)" != "$pid_before"
records_after=$(outbox_records)
expect "outbox records $records_before before, ${records_after:-none} after" same "$records_after" "$records_before"
verdict upgrade "$t" "$VERSION_A -> $VERSION_B: configuration, outbox key and outbox (${records_after} records) kept, station restarted"

# 10. Removal keeps the configuration and the state; purge removes both.
t=$(now)
expect "apt-get remove failed" apt_get remove idkiosk
expect "/usr/bin/idkiosk is still there" test ! -e /usr/bin/idkiosk
expect "the configuration is gone or changed" same "$(sha /etc/idkiosk/idkiosk.yaml)" "$config_sha"
expect "the outbox key is gone" same "$(sha /etc/idkiosk/outbox.key)" "$key_sha"
expect "the outbox is gone" test -f "$outbox"
verdict remove "$t" "binary gone; configuration, outbox key and outbox kept"

t=$(now)
expect "apt-get purge failed" apt_get purge idkiosk
expect "/etc/idkiosk is still there ($(find /etc/idkiosk 2>/dev/null | head -5 | tr '\n' ' '))" test ! -e /etc/idkiosk
expect "/var/lib/idkiosk is still there" test ! -e /var/lib/idkiosk
expect "dpkg still lists idkiosk ($(dpkg-query -W -f '${Status}' idkiosk 2>/dev/null))" purged idkiosk
verdict purge "$t" "/etc/idkiosk and /var/lib/idkiosk removed"
