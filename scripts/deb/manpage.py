#!/usr/bin/python3
"""Writes a man page (section 1) for a command built with swift-argument-parser.

Reads what the binary says about itself (`BINARY --experimental-dump-help`, the JSON that
swift-argument-parser's own generate-manual tool reads), so the page is generated from the
command line and cannot drift from it. One page per binary: the root command's options, then
every subcommand (nested ones too) with its abstract, discussion and options.

Used by scripts/deb.sh: manpage.py BINARY DATE OUT (DATE as YYYY-MM-DD, the package's date,
so the same build makes the same page). Fails with a message when the binary gives no JSON
of the version this script knows (serializationVersion 0).
"""
import json
import subprocess
import sys


def roff(text):
    """Escapes text for roff: backslashes, and a leading dot or quote would start a request."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    lines = []
    for line in text.splitlines():
        if line.startswith((".", "'")):
            line = "\\&" + line
        lines.append(line)
    return "\n".join(lines)


def synopsis_name(argument):
    names = argument.get("names") or []
    preferred = argument.get("preferredName") or (names[0] if names else None)
    if argument["kind"] == "positional" or preferred is None:
        return "<" + (argument.get("valueName") or "value") + ">"
    prefix = "--" if preferred["kind"] == "long" else "-"
    return prefix + preferred["name"]


def option_label(argument):
    """`-o, --output <file>` as the help shows it."""
    if argument["kind"] == "positional":
        return "<" + (argument.get("valueName") or "value") + ">"
    parts = []
    for name in argument.get("names") or []:
        parts.append(("--" if name["kind"] == "long" else "-") + name["name"])
    label = ", ".join(parts)
    if argument["kind"] == "option":
        label += " <" + (argument.get("valueName") or "value") + ">"
    if argument.get("isRepeating"):
        label += " ..."
    return label


COMMON = {"help", "version"}


def visible(arguments, common=True):
    """The arguments help shows; without --help and --version (common=False) under a subcommand,
    where the root command's section already lists them."""
    return [a for a in arguments or [] if a.get("shouldDisplay", True)
            and (common or not {n["name"] for n in a.get("names") or []} & COMMON)]


def describe_arguments(arguments, out, common=True):
    for argument in visible(arguments, common):
        out.append(".TP")
        out.append("\\fB" + roff(option_label(argument)) + "\\fR")
        text = argument.get("abstract") or ""
        values = argument.get("allValues")
        if values:
            text += (" " if text else "") + "(values: " + ", ".join(values) + ")"
        default = argument.get("defaultValue")
        if default not in (None, "") and argument["kind"] != "flag":
            text += (" " if text else "") + "(default: " + default + ")"
        out.append(roff(text) if text else "")
        if argument.get("discussion"):
            out.append(".IP")
            out.append(roff(argument["discussion"]))


def synopsis(path, command, common=True):
    words = ["\\fB" + roff(" ".join(path)) + "\\fR"]
    for argument in visible(command.get("arguments"), common):
        word = roff(synopsis_name(argument))
        if argument["kind"] == "option":
            word += " <" + roff(argument.get("valueName") or "value") + ">"
        if argument.get("isRepeating"):
            word += " ..."
        words.append("[" + word + "]" if argument.get("isOptional") else word)
    if command.get("subcommands"):
        words.append("<subcommand>")
    return " ".join(words)


def subcommand_sections(path, command, out):
    for sub in command.get("subcommands") or []:
        if not sub.get("shouldDisplay", True) or sub["commandName"] == "help":
            continue
        sub_path = path + [sub["commandName"]]
        out.append(".SS " + roff(" ".join(sub_path[1:])))
        out.append(synopsis(sub_path, sub, common=False))
        out.append(".PP")
        if sub.get("abstract"):
            out.append(roff(sub["abstract"]))
        if sub.get("discussion"):
            out.append(".PP")
            out.append(roff(sub["discussion"]))
        describe_arguments(sub.get("arguments"), out, common=False)
        subcommand_sections(sub_path, sub, out)


def page(info, date):
    command = info["command"]
    name = command["commandName"]
    out = [
        '.TH "%s" "1" "%s" "" "User Commands"' % (roff(name.upper()), date),
        ".SH NAME",
        roff(name) + " \\- " + roff(command.get("abstract") or ""),
        ".SH SYNOPSIS",
        synopsis([name], command),
    ]
    if command.get("discussion"):
        out += [".SH DESCRIPTION", roff(command["discussion"])]
    if visible(command.get("arguments")):
        out.append(".SH OPTIONS")
        describe_arguments(command.get("arguments"), out)
    if command.get("subcommands"):
        out.append(".SH SUBCOMMANDS")
        subcommand_sections([name], command, out)
    out += [".SH SEE ALSO", "The documentation in /usr/share/doc/%s." % roff(name), ""]
    return "\n".join(out)


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: manpage.py BINARY DATE OUT")
    binary, date, target = sys.argv[1:]
    result = subprocess.run([binary, "--experimental-dump-help"], capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"{binary} --experimental-dump-help failed ({result.returncode}): {result.stderr.strip()}")
    try:
        info = json.loads(result.stdout)
    except json.JSONDecodeError as error:
        sys.exit(f"{binary} --experimental-dump-help gave no JSON: {error}")
    if info.get("serializationVersion") != 0:
        sys.exit(f"{binary}: dump-help version {info.get('serializationVersion')}, this script knows 0")
    with open(target, "w", encoding="utf-8") as file:
        file.write(page(info, date))


if __name__ == "__main__":
    main()
