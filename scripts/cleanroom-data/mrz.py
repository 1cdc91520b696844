"""ICAO Doc 9303 machine readable zones: check digits, line builders and a validator.

Written from the field tables of Doc 9303 Part 3 (check digits), Part 4 (TD3), Part 5 (TD1),
Part 6 (TD2) and Part 7 (MRV-A). Nothing here is specific to any reader.
"""

ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ<"
WEIGHTS = (7, 3, 1)


def char_value(c):
    if c.isdigit():
        return ord(c) - 48
    if "A" <= c <= "Z":
        return ord(c) - 55
    if c == "<":
        return 0
    raise ValueError("not an MRZ character: %r" % c)


def check_digit(text):
    return str(sum(char_value(c) * WEIGHTS[i % 3] for i, c in enumerate(text)) % 10)


def field(text, length):
    """Upper-cases, replaces spaces and punctuation by the filler and pads to length."""
    out = []
    for c in text.upper():
        if c in ALPHABET:
            out.append(c)
        elif c == "'":
            continue
        else:
            out.append("<")
    s = "".join(out)
    if len(s) > length:
        raise ValueError("field too long")
    return s + "<" * (length - len(s))


def name_field(primary, secondary, length):
    """Primary and secondary identifiers (lists of components) in `length` characters,
    truncated as Doc 9303 Part 3/4 describe (the last character then is a letter)."""
    prim = "<".join(field(p, len(p)) for p in primary)
    sec = "<".join(field(s, len(s)) for s in secondary)
    full = prim + ("<<" + sec if sec else "")
    if len(full) <= length:
        return full + "<" * (length - len(full))
    # truncate: first the secondary identifier's components, keeping at least an initial
    secs = [field(s, len(s)) for s in secondary]
    while secs and len(prim + "<<" + "<".join(secs)) > length:
        longest = max(range(len(secs)), key=lambda i: len(secs[i]))
        if len(secs[longest]) > 1:
            secs[longest] = secs[longest][:-1]
        else:
            secs.pop()
    if secs:
        s = prim + "<<" + "<".join(secs)
        if len(s) <= length:
            s = s + "<" * (length - len(s))
            return s
    # then the primary identifier
    s = (prim + "<<" + (secondary[0][0] if secondary else ""))
    while len(s) > length:
        prim = prim[:-1].rstrip("<")
        s = prim + "<<" + (secondary[0][0].upper() if secondary else "")
    s = s[:length]
    return s + "<" * (length - len(s))


def td3(doc_code, state, primary, secondary, number, nationality, dob, sex, expiry, personal="",
        empty_check="<"):
    l1 = field(doc_code, 2) + field(state, 3) + name_field(primary, secondary, 39)
    num = field(number, 9)
    pers = field(personal, 14)
    pers_cd = check_digit(pers) if personal else empty_check
    l2 = num + check_digit(num) + field(nationality, 3) + dob + check_digit(dob) + sex + \
        expiry + check_digit(expiry) + pers + pers_cd
    comp = l2[0:10] + l2[13:20] + l2[21:43]
    l2 += check_digit(comp)
    return [l1, l2]


def mrva(state, primary, secondary, number, nationality, dob, sex, expiry, optional=""):
    l1 = "V<" + field(state, 3) + name_field(primary, secondary, 39)
    num = field(number, 9)
    l2 = num + check_digit(num) + field(nationality, 3) + dob + check_digit(dob) + sex + \
        expiry + check_digit(expiry) + field(optional, 16)
    return [l1, l2]


def td2(doc_code, state, primary, secondary, number, nationality, dob, sex, expiry, optional=""):
    l1 = field(doc_code, 2) + field(state, 3) + name_field(primary, secondary, 31)
    num = field(number, 9)
    l2 = num + check_digit(num) + field(nationality, 3) + dob + check_digit(dob) + sex + \
        expiry + check_digit(expiry) + field(optional, 7)
    comp = l2[0:10] + l2[13:20] + l2[21:35]
    l2 += check_digit(comp)
    return [l1, l2]


def td1(doc_code, state, primary, secondary, number, nationality, dob, sex, expiry,
        optional1="", optional2=""):
    num = field(number, 9)
    l1 = field(doc_code, 2) + field(state, 3) + num + check_digit(num) + field(optional1, 15)
    l2 = dob + check_digit(dob) + sex + expiry + check_digit(expiry) + field(nationality, 3) + \
        field(optional2, 11)
    comp = l1[5:30] + l2[0:7] + l2[8:15] + l2[18:29]
    l2 += check_digit(comp)
    l3 = name_field(primary, secondary, 30)
    return [l1, l2, l3]


def _cd_ok(data, digit, filler_ok=False):
    if filler_ok and digit == "<" and set(data) <= {"<"}:
        return True
    return digit == check_digit(data)


def validate(lines):
    """Returns a list of problems (empty when the zone is valid)."""
    problems = []
    if not lines:
        return ["no lines"]
    for l in lines:
        if any(c not in ALPHABET for c in l):
            problems.append("bad character")
    n, width = len(lines), len(lines[0])
    if any(len(l) != width for l in lines):
        return problems + ["ragged lines"]
    if n == 3 and width == 30:
        l1, l2, _ = lines
        if not _cd_ok(l1[5:14], l1[14]):
            problems.append("document number check digit")
        if not _cd_ok(l2[0:6], l2[6]):
            problems.append("birth date check digit")
        if not _cd_ok(l2[8:14], l2[14]):
            problems.append("expiry check digit")
        if not _cd_ok(l1[5:30] + l2[0:7] + l2[8:15] + l2[18:29], l2[29]):
            problems.append("composite check digit")
    elif n == 2 and width == 36:
        l2 = lines[1]
        if not _cd_ok(l2[0:9], l2[9]):
            problems.append("document number check digit")
        if not _cd_ok(l2[13:19], l2[19]):
            problems.append("birth date check digit")
        if not _cd_ok(l2[21:27], l2[27]):
            problems.append("expiry check digit")
        if not _cd_ok(l2[0:10] + l2[13:20] + l2[21:35], l2[35]):
            problems.append("composite check digit")
    elif n == 2 and width == 44:
        l1, l2 = lines
        if not _cd_ok(l2[0:9], l2[9]):
            problems.append("document number check digit")
        if not _cd_ok(l2[13:19], l2[19]):
            problems.append("birth date check digit")
        if not _cd_ok(l2[21:27], l2[27]):
            problems.append("expiry check digit")
        if l1[0] == "P":
            if not (l2[42] in "<0" and set(l2[28:42]) <= {"<"}) and not _cd_ok(l2[28:42], l2[42]):
                problems.append("personal number check digit")
            if not _cd_ok(l2[0:10] + l2[13:20] + l2[21:43], l2[43]):
                problems.append("composite check digit")
    else:
        problems.append("unknown format %dx%d" % (n, width))
    return problems
