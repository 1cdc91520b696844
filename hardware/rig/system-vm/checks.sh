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
fail() { report FAIL "$@"; failed=1; }
finish() {
    # What support would look at (the station never logs personal data; no journey ran).
    journalctl --no-pager -b -u idkiosk -u idkiosk-backend -u pcscd -u sysvm-passport > "$out/journal.txt" 2>&1
    systemctl --no-pager --failed > "$out/failed-units.txt" 2>&1
    echo "DONE failed=$failed" >> "$results"
    echo "SYSVM-DONE failed=$failed" > /dev/console
    sync
    systemctl poweroff --no-block
    exit 0
}
trap finish EXIT

apt_install() { timeout 600 apt-get install -y -q --no-download "$@" < /dev/null >> "$out/apt.log" 2>&1; }
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
setup_ok=1
timeout 60 systemctl start pcscd.service || setup_ok=0
idkiosk sim recordings --out /var/lib/sysvm/recordings --frames 20 > "$out/recordings.log" 2>&1 || setup_ok=0
chmod -R a+rX /var/lib/sysvm
systemd-run --unit=sysvm-passport -p Restart=no /usr/bin/idkiosk sim passport --slot 0 --pace --trust-out /var/lib/sysvm/trust --log-level warning >/dev/null 2>&1 || setup_ok=0
for _ in $(seq 100); do [ -f /var/lib/sysvm/trust/csca.der ] && break; sleep 0.2; done
[ -f /var/lib/sysvm/trust/csca.der ] || setup_ok=0
install -m 644 /var/lib/sysvm/trust/csca.der /etc/idkiosk-backend/csca/ 2>/dev/null || setup_ok=0
sed -i 's|^IDKIOSK_BACKEND_OPTIONS="|IDKIOSK_BACKEND_OPTIONS="--csca /etc/idkiosk-backend/csca |' /etc/default/idkiosk-backend
systemd-tmpfiles --create > /dev/null 2>&1
client=$(runuser -u idkiosk-backend -- idkiosk-backend clients add --database /var/lib/idkiosk-backend/backend.sqlite --name sysvm --json 2>> "$out/setup.log") || setup_ok=0
client_id=$(echo "$client" | sed -n 's/.*"clientId" *: *"\([^"]*\)".*/\1/p')
echo "$client" | sed -n 's/.*"clientSecret" *: *"\([^"]*\)".*/\1/p' > /etc/idkiosk/client.secret
timeout 60 systemctl start idkiosk-backend || setup_ok=0
for _ in $(seq 100); do curl -s -o /dev/null 127.0.0.1:8480/ && break; sleep 0.2; done
# The operator's change to the configuration (a conffile): an upgrade must keep it.
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
backend:
  url: http://127.0.0.1:8480
  client-id: "$client_id"
chip:
  trust: /var/lib/sysvm/trust
YAML
if [ "$setup_ok" = 1 ] && [ -n "$client_id" ]; then
    pass devices "$(since "$t")" "pcscd with vpcd, virtual passport, file camera, simulated flash, backend client"
else
    fail devices "$(since "$t")" "setting up the simulated devices or the backend failed (setup.log, journal.txt)"
fi

# 4. systemctl start returns once the station sent READY=1 (Type=notify).
t=$(now)
if timeout 120 systemctl start idkiosk && [ "$(systemctl show -p SubState --value idkiosk)" = running ]; then
    pass ready "$(since "$t")" "active (running), main PID $(station_pid)"
else
    fail ready "$(since "$t")" "systemctl start idkiosk: $(systemctl show -p ActiveState,SubState,Result --value idkiosk | tr '\n' ' ')"
fi

# 5. /health answers on the status port (8401), and says ready.
t=$(now)
code=$(curl -s -m 10 -o "$out/health.json" -w '%{http_code}' 127.0.0.1:8401/health)
if [ "$code" = 200 ] && grep -q '"ready" *: *true' "$out/health.json"; then
    pass health "$(since "$t")" "HTTP 200, ready"
else
    fail health "$(since "$t")" "HTTP $code: $(head -c 400 "$out/health.json")"
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
stopped_at=$(now)
kill -STOP "$old"
back=0
for _ in $(seq 360); do
    pid=$(station_pid)
    if [ "$pid" != "$old" ] && [ "$pid" != 0 ] && [ "$(systemctl show -p SubState --value idkiosk)" = running ]; then back=1; break; fi
    sleep 0.5
done
back_s=$(since "$stopped_at")
fired=$(journalctl -b -u idkiosk -o short-unix --no-pager | awk '/[Ww]atchdog timeout/ { print $1 }' | tail -1)
if [ -n "$fired" ]; then
    fire_s=$(awk -v a="$stopped_at" -v b="$fired" 'BEGIN { printf "%.1f", b - a }')
else
    fire_s=""
fi
detail="WatchdogSec ${watchdog_s}s; timeout after ${fire_s:-?} s, READY again after ${back_s} s, restarts $restarts -> $(systemctl show -p NRestarts --value idkiosk)"
if [ "$back" = 1 ] && [ -n "$fire_s" ] && awk -v f="$fire_s" -v w="$watchdog_s" 'BEGIN { exit !(f > 0 && f <= w + 1) }'; then
    pass watchdog "$(since "$t")" "$detail"
else
    kill -CONT "$old" 2>/dev/null
    fail watchdog "$(since "$t")" "$detail"
fi

# 9. Upgrade from A to B: the outbox (its file, its key) and the changed configuration stay.
t=$(now)
config_sha=$(sha /etc/idkiosk/idkiosk.yaml)
key_sha=$(sha /etc/idkiosk/outbox.key)
outbox=/var/lib/idkiosk/outbox.sqlite
outbox_inode=$(stat -c %i "$outbox" 2>/dev/null)
records_before=$(curl -s -m 10 127.0.0.1:8401/health | sed -n 's/.*"records" *: *\([0-9]*\).*/\1/p')
upgrade_ok=1; why=""
[ -n "$outbox_inode" ] || { upgrade_ok=0; why="version A made no outbox at $outbox; "; }
apt_install "$in/debs/idkiosk_${VERSION_B}_amd64.deb" || { upgrade_ok=0; why+="apt-get install of version B failed; "; }
[ "$(dpkg-query -W -f '${Version}' idkiosk)" = "$VERSION_B" ] || { upgrade_ok=0; why+="installed version is not $VERSION_B; "; }
[ "$(sha /etc/idkiosk/idkiosk.yaml)" = "$config_sha" ] || { upgrade_ok=0; why+="the configuration changed; "; }
[ "$(sha /etc/idkiosk/outbox.key)" = "$key_sha" ] || { upgrade_ok=0; why+="the outbox key changed; "; }
[ "$(stat -c %i "$outbox" 2>/dev/null)" = "$outbox_inode" ] || { upgrade_ok=0; why+="the outbox file was replaced or removed; "; }
# The unit was running: the package restarts it after the upgrade.
timeout 120 systemctl start idkiosk || { upgrade_ok=0; why+="version B did not start; "; }
records_after=$(curl -s -m 10 127.0.0.1:8401/health | sed -n 's/.*"records" *: *\([0-9]*\).*/\1/p')
[ "$records_after" = "$records_before" ] || { upgrade_ok=0; why+="outbox records $records_before before, ${records_after:-none} after; "; }
if [ "$upgrade_ok" = 1 ]; then
    pass upgrade "$(since "$t")" "$VERSION_A -> $VERSION_B: configuration, outbox key and outbox ($records_after records) kept, station running"
else
    fail upgrade "$(since "$t")" "$why"
fi

# 10. Removal keeps the configuration and the state; purge removes both.
t=$(now)
remove_ok=1; why=""
timeout 300 apt-get remove -y -q idkiosk < /dev/null >> "$out/apt.log" 2>&1 || { remove_ok=0; why+="apt-get remove failed; "; }
[ ! -e /usr/bin/idkiosk ] || { remove_ok=0; why+="/usr/bin/idkiosk still there; "; }
[ "$(sha /etc/idkiosk/idkiosk.yaml)" = "$config_sha" ] || { remove_ok=0; why+="the configuration is gone or changed; "; }
[ "$(sha /etc/idkiosk/outbox.key)" = "$key_sha" ] || { remove_ok=0; why+="the outbox key is gone; "; }
[ -f "$outbox" ] || { remove_ok=0; why+="the outbox is gone; "; }
if [ "$remove_ok" = 1 ]; then
    pass remove "$(since "$t")" "binary gone; configuration, outbox key and outbox kept"
else
    fail remove "$(since "$t")" "$why"
fi

t=$(now)
purge_ok=1; why=""
timeout 300 apt-get purge -y -q idkiosk < /dev/null >> "$out/apt.log" 2>&1 || { purge_ok=0; why+="apt-get purge failed; "; }
for f in /etc/idkiosk /var/lib/idkiosk; do
    [ ! -e "$f" ] || { purge_ok=0; why+="$f still there ($(find "$f" | head -5 | tr '\n' ' ')); "; }
done
dpkg-query -W -f '${Status}' idkiosk 2>/dev/null | grep -q 'not-installed' || [ -z "$(dpkg-query -W -f '${Status}' idkiosk 2>/dev/null)" ] || { purge_ok=0; why+="dpkg still knows idkiosk: $(dpkg-query -W -f '${Status}' idkiosk); "; }
if [ "$purge_ok" = 1 ]; then
    pass purge "$(since "$t")" "/etc/idkiosk and /var/lib/idkiosk removed"
else
    fail purge "$(since "$t")" "$why"
fi
