#!/usr/bin/env python3
"""Links a product of the debug build again, with the Swift runtime statically, into OUT.

Usage: scripts/deb/link-static.py PRODUCT OUT

`make deb` with DEB_BUILD=debug (what make test does) packs the debug build make test has
made. `swift build --static-swift-stdlib` would compile some modules of that build again
for the static runtime (their objects then name its archives) and SwiftPM would not compile
them back afterwards, so the next ordinary build fails to link. This script leaves the build
alone: it takes the product's link command from SwiftPM's plan (.build/debug.yaml, written by
the build just made), points its output elsewhere and adds the static runtime. The
Foundation archives go in one linker group: the debug objects, not dead-stripped, reach
symbols across them in an order ld would otherwise not resolve.
"""
import json
import os
import re
import subprocess
import sys

STATIC_GROUP = [
    "Foundation", "FoundationEssentials", "FoundationInternationalization", "_FoundationICU",
    "_FoundationCShims", "_FoundationCollections", "CoreFoundation", "swiftSynchronization",
    "swiftCore", "dispatch", "BlocksRuntime",
]


def link_command(plan, product):
    """The args of the plan's link command for PRODUCT (a JSON array on one line)."""
    name = re.escape(product)
    pattern = re.compile(r'^  "C\.' + name + r'-[A-Za-z0-9_]+-unknown-linux-gnu-debug\.exe":\n(?:    .*\n)*?    args: (\[.*\])$', re.M)
    match = pattern.search(plan)
    if not match:
        sys.exit(f"link-static: no link command for {product} in .build/debug.yaml: run swift build first")
    return json.loads(match.group(1))


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    product, out = sys.argv[1], os.path.abspath(sys.argv[2])
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    with open(os.path.join(root, ".build", "debug.yaml")) as f:
        args = link_command(f.read(), product)
    output = args.index("-o")
    args[output + 1] = out
    extra = ["-static-stdlib", "-Xlinker", "--start-group"]
    for lib in STATIC_GROUP:
        extra += ["-Xlinker", "-l" + lib]
    extra += ["-Xlinker", "--end-group"]
    args[1:1] = extra
    sys.exit(subprocess.call(args, cwd=root))


if __name__ == "__main__":
    main()
