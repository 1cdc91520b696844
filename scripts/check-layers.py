#!/usr/bin/env python3
"""Checks that the module dependencies point down (docs/architecture.md, "Rules").

Reads the package as SwiftPM describes it (`swift package describe --type json`) and the
`import` lines of every module's sources, and fails, naming each violation, when:
- a module below Station imports ScanFlow (only Display and Capture may: they speak its vocabulary);
- Imaging or Vision imports or depends on a device, network or flow module;
- ReferenceBackend or VirtualPassport depends on Camera;
- MRTD depends on more than APDU, COpenSSL and swift-log;
- a target other than a test depends on OpenPACE (COpenPACE, OpenPACEChip), or one other
  than VirtualPassport on COpenSSLIssuer;
- a target declares a dependency it never imports, or imports a module of the package it
  does not declare.
Prints one line per rule checked; exits 1 on a violation.
"""
import json
import os
import re
import subprocess
import sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
describe = subprocess.run(
    ["swift", "package", "describe", "--type", "json"], cwd=root, check=True, capture_output=True, text=True
).stdout
package = json.loads(describe[describe.index("{"):])
targets = {t["name"]: t for t in package["targets"]}

IMPORT = re.compile(
    r"^[ \t]*(?:@\w+(?:\([^)\n]*\))?[ \t]+)*(?:(?:public|internal|package|private|fileprivate)[ \t]+)?import[ \t]+"
    r"(?:(?:struct|class|enum|protocol|func|var|let|typealias)[ \t]+)?([A-Za-z_][\w.]*)",
    re.M,
)


def imports(name):
    """Every module the sources of target `name` import."""
    target = targets[name]
    found = set()
    for relative in target.get("sources", []):
        path = os.path.join(root, target["path"], relative)
        if path.endswith(".swift"):
            with open(path, encoding="utf-8") as f:
                found.update(m.split(".")[0] for m in IMPORT.findall(f.read()))
    return found


def dependencies(name):
    """The target's declared dependencies: target names and products."""
    return set(targets[name].get("target_dependencies", [])) | set(targets[name].get("product_dependencies", []))


libraries = [n for n, t in targets.items() if t["type"] == "library" and not n.startswith("C")]
above_station = {"Station", "Capture", "Display", "KioskTestKit"}
flow = {"ScanFlow", "Station", "Capture", "Display"}
devices = {"Camera", "Flash", "SmartCard", "VirtualCard", "VirtualPassport", "MRTD"}
network = {"Backend", "ReferenceBackend", "AsyncHTTPClient", "NIOCore", "NIOPosix", "Hummingbird", "PostgresNIO"}

violations = []
checks = []

checks.append("below Station, only Display and Capture import ScanFlow")
for name in libraries:
    if name in above_station or name == "ScanFlow":
        continue
    if "ScanFlow" in imports(name) or "ScanFlow" in dependencies(name):
        violations.append(f"{name} imports ScanFlow")

checks.append("Imaging and Vision import no device, network or flow module")
for name in ("Imaging", "Vision"):
    if name not in targets:
        violations.append(f"{name} is missing")
        continue
    bad = (imports(name) | dependencies(name)) & (flow | devices | network)
    if bad:
        violations.append(f"{name} imports {', '.join(sorted(bad))}")

checks.append("ReferenceBackend and VirtualPassport do not depend on Camera")
for name in ("ReferenceBackend", "VirtualPassport"):
    if "Camera" in dependencies(name) or "Camera" in imports(name):
        violations.append(f"{name} depends on Camera")

checks.append("MRTD depends only on APDU, COpenSSL and swift-log")
extra = dependencies("MRTD") - {"APDU", "COpenSSL", "Logging"}
if extra:
    violations.append(f"MRTD depends on {', '.join(sorted(extra))}")

checks.append("only tests link OpenPACE (COpenPACE, OpenPACEChip: GPL-3+, the tests' independent chip)")
for name, target in targets.items():
    if target["type"] == "test" or name in ("COpenPACE", "OpenPACEChip"):
        continue
    linked = dependencies(name) & {"COpenPACE", "OpenPACEChip"}
    if linked:
        violations.append(f"{name} depends on {', '.join(sorted(linked))}, which only tests may link")

checks.append("only VirtualPassport links COpenSSLIssuer (the code that makes test documents)")
for name in targets:
    if name != "VirtualPassport" and "COpenSSLIssuer" in dependencies(name):
        violations.append(f"{name} depends on COpenSSLIssuer; only VirtualPassport may")

checks.append("every declared dependency is imported, and every imported module of the package declared")
for name, target in targets.items():
    if target.get("module_type") != "SwiftTarget":
        continue
    found = imports(name)
    declared = dependencies(name)
    for dependency in sorted(declared):
        # Executables are dependencies of tests that run them, not imports.
        if dependency in targets and targets[dependency]["type"] == "executable":
            continue
        if dependency not in found:
            violations.append(f"{name} declares {dependency} but imports it nowhere")
    for module in sorted(found):
        if module in targets and module != name and module not in declared:
            violations.append(f"{name} imports {module} without declaring it")

for check in checks:
    print(f"layers: {check}")
for violation in violations:
    print(f"layers: VIOLATION: {violation}", file=sys.stderr)
sys.exit(1 if violations else 0)
