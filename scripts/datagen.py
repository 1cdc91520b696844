"""What the generators and checkers under scripts/ share (vision-data, face-data,
vision-models): the hash of a generator's sources that its stamp holds, a checker's
verdict, and a model folder's manifest. Run with Debian's /usr/bin/python3.
"""
import hashlib
import os


def source_hash(folder, exclude=()):
    """SHA-256 over the names and contents of the .py files in `folder`, in name order
    (but the names in `exclude`)."""
    h = hashlib.sha256()
    for name in sorted(os.listdir(folder)):
        if name.endswith(".py") and name not in exclude:
            h.update(name.encode())
            with open(os.path.join(folder, name), "rb") as f:
                h.update(f.read())
    return h.hexdigest()


def verdict(problems):
    """Prints the problems found (the first 40) or that all is good; the exit status."""
    if problems:
        print("check: %d problems" % len(problems))
        for p in problems[:40]:
            print("  " + p)
        return 1
    print("check: all good")
    return 0


def update_manifest(folder, digests):
    """Adds or replaces `{name: sha256}` in folder/MANIFEST (`<sha256>  <name>` lines, as
    sha256sum prints them), keeping the other entries; written atomically."""
    manifest = os.path.join(folder, "MANIFEST")
    entries = {}
    if os.path.exists(manifest):
        with open(manifest) as handle:
            for line in handle:
                parts = line.split()
                if len(parts) == 2:
                    entries[parts[1]] = parts[0]
    entries.update(digests)
    with open(manifest + ".tmp", "w") as handle:
        for name in sorted(entries):
            handle.write(f"{entries[name]}  {name}\n")
    os.replace(manifest + ".tmp", manifest)


def sha256_file(path):
    """The SHA-256 of a file, read in blocks (a fetched archive, a photograph, a model)."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()
