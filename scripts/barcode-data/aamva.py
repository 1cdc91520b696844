"""AAMVA DL/ID records (the AAMVA DL/ID Card Design Standard, Annex D) for fictional holders.

Written from the standard, apart from the station's Swift parser: the header (compliance
indicator '@', LF, RS, CR, 'ANSI ', issuer identification number, AAMVA version,
jurisdiction version, number of entries), one subfile designator per subfile (type,
offset, length counted from the '@'), the DL or ID subfile of data elements (identifier +
value, LF-separated, CR-terminated), and a jurisdiction subfile 'Z?'.
"""
import random

# Fictional jurisdictions: (IIN, country, jurisdiction code, cities).
JURISDICTIONS = [
    ("636900", "USA", "UT", ("LAKEVIEW", "SPRINGDALE", "MILLBROOK")),
    ("636901", "USA", "VT", ("HARBOR CITY", "OAKFIELD")),
    ("636902", "USA", "WY", ("RIVERTON", "PINE BLUFF")),
    ("636903", "CAN", "NU", ("IQALUK", "NORTHVALE")),
    ("636904", "CAN", "YT", ("WHITEFORD", "CARMACKTON")),
]
STREETS = ("MAIN", "OAK", "MAPLE", "CEDAR", "LAKE", "HILL", "PARK", "RIVER", "WEST BROAD", "ELM")
SUFFIXES = ("STREET", "AVE", "ROAD", "DR", "LANE")


def us_date(y, m, d):
    return "%02d%02d%04d" % (m, d, y)


def ca_date(y, m, d):
    return "%04d%02d%02d" % (y, m, d)


def build(iin, version, jurisdiction_version, subfiles):
    """The record's bytes from (type, [(id, value)]) subfiles; offsets and lengths computed."""
    bodies = []
    for kind, elements in subfiles:
        body = kind + "\n".join(i + v for i, v in elements) + "\r"
        bodies.append((kind, body.encode("latin-1")))
    header = "@\n\x1e\rANSI " + iin + "%02d" % version
    if version >= 2:
        header += "%02d" % jurisdiction_version
    header += "%02d" % len(bodies)
    offset = len(header) + 10 * len(bodies)
    designators = ""
    for kind, body in bodies:
        designators += "%s%04d%04d" % (kind, offset, len(body))
        offset += len(body)
    return header.encode("latin-1") + designators.encode("latin-1") + b"".join(b for _, b in bodies)


def record(holder, rng, with_address=None):
    """(bytes, fields) for a holder of scripts/vision-data/mrzgen.py; fields are the ground
    truth a parser must find (ISO dates, sex M/F/X, address parts, or None)."""
    iin, country, state, cities = rng.choice(JURISDICTIONS)
    version = rng.choice((8, 9, 10, 10))
    kind = "DL" if rng.random() < 0.8 else "ID"
    date = us_date if country == "USA" else ca_date
    given = holder.given.split(" ")
    first, middle = given[0], " ".join(given[1:])
    number = "%s%08d" % (rng.choice("ABDFHKMRST"), rng.randrange(10 ** 8))
    birth, expiry, issue = holder.birth, holder.expiry, holder.issue
    sex_code = {"M": "1", "F": "2", "X": "9"}[holder.sex]
    if with_address is None:
        with_address = rng.random() >= 0.08
    street = "%d %s %s" % (rng.randint(1, 9999), rng.choice(STREETS), rng.choice(SUFFIXES))
    city = rng.choice(cities)
    if country == "USA":
        zip9 = "%05d%04d" % (rng.randrange(10000, 99999), rng.choice((0, rng.randrange(1, 9999))))
        postal = zip9 + "  "
        postal_out = zip9[:5] if zip9.endswith("0000") else zip9[:5] + "-" + zip9[5:]
    else:
        postal = "%s%d%s %d%s%d" % (rng.choice("ABCEGHJKLMNPRSTVXY"), rng.randrange(10), rng.choice("ABCEGHJKLMNPRSTVWXYZ"),
                                     rng.randrange(10), rng.choice("ABCEGHJKLMNPRSTVWXYZ"), rng.randrange(10))
        postal_out = postal
    elements = [
        ("DCA", "D" if kind == "DL" else "NONE"), ("DCB", "NONE"), ("DCD", "NONE"),
        ("DBA", date(*expiry)), ("DCS", holder.surname), ("DAC", first), ("DAD", middle or "NONE"),
        ("DBD", date(*issue)), ("DBB", date(*birth)), ("DBC", sex_code), ("DAY", rng.choice(("BRO", "BLU", "GRN", "HAZ"))),
        ("DAU", "%03d in" % rng.randint(58, 78)),
    ]
    if with_address:
        elements += [("DAG", street), ("DAI", city), ("DAJ", state), ("DAK", postal)]
    elements += [
        ("DAQ", number), ("DCF", "".join(rng.choice("0123456789ABCDEF") for _ in range(20))), ("DCG", country),
        ("DDE", "N"), ("DDF", "N"), ("DDG", "N"),
    ]
    subfiles = [(kind, elements)]
    if rng.random() < 0.6:
        subfiles.append(("Z" + state[0], [("Z" + state[0] + "A", "%02d" % rng.randint(1, 99))]))
    data = build(iin, version, rng.randint(0, 9), subfiles)
    iso = lambda t: "%04d-%02d-%02d" % t  # noqa: E731
    fields = {
        "iin": iin, "version": version, "kind": kind, "country": country,
        "documentNumber": number, "familyName": holder.surname, "firstName": first, "middleNames": middle or None,
        "dateOfBirth": iso(birth), "expiryDate": iso(expiry), "issuingDate": iso(issue), "sex": holder.sex,
        "street": street if with_address else None, "city": city if with_address else None,
        "jurisdiction": state if with_address else None, "postalCode": postal_out if with_address else None,
    }
    return data, fields


# The example of the AAMVA DL/ID Card Design Standard (2020), Annex D: a check of build().
STANDARD_EXAMPLE = (
    b"@\n\x1e\rANSI 636000100002DL00410278ZV03190008DLDAQT64235789\nDCSSAMPLE\nDDEN\nDACMICHAEL\nDDFN\nDADJOHN\n"
    b"DDGN\nDCUJR\nDCAD\nDCBK\nDCDPH\nDBD06062019\nDBB06061986\nDBA12102024\nDBC1\nDAU068 in\nDAYBRO\n"
    b"DAG2300 WEST BROAD STREET\nDAIRICHMOND\nDAJVA\nDAK232690000  \nDCF2424244747474786102204\nDCGUSA\n"
    b"DCK123456789\nDDAF\nDDB06062018\nDDC06062020\nDDD1\rZVZVA01\r"
)


def _self_check():
    elements = [tuple((line[:3], line[3:])) for line in STANDARD_EXAMPLE[43:STANDARD_EXAMPLE.index(b"\r", 43)].decode().split("\n")]
    built = build("636000", 10, 0, [("DL", elements), ("ZV", [("ZVA", "01")])])
    assert built == STANDARD_EXAMPLE, "build() does not reproduce the standard's example"


_self_check()
