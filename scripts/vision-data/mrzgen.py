"""Fictional holders and their machine readable zones (ICAO Doc 9303 Part 3-6 layouts).

Everything here is invented from a seeded generator: names are built from syllables,
the issuing state is ICAO's specimen code UTO or one of a few codes no state uses.
"""
import random

# The characters OCR confuses with one another; document numbers use them on purpose.
CONFUSABLE_LETTERS = "OIBSZDQG"
CONFUSABLE_DIGITS = "01852"
# Codes of no real state (UTO is the specimen state of Doc 9303).
STATES = ["UTO", "UTO", "UTO", "XQA", "XQB", "ZZQ"]
SYLLABLES = [
    "BA", "BO", "DA", "DE", "DI", "FO", "GA", "GI", "HA", "JO", "KA", "KE", "LA", "LI", "LO",
    "MA", "ME", "MI", "NA", "NE", "NO", "PA", "PE", "RA", "RE", "RI", "RO", "SA", "SE", "SO",
    "TA", "TE", "TI", "TO", "VA", "VE", "VI", "ZA", "ZE", "ZO", "BRI", "STO", "LAN", "MER",
    "VAN", "DOR", "KIN", "SEL", "TRA", "WEN", "OS", "EN", "AR", "IL", "UN",
]


def char_value(c):
    """The value of an MRZ character in a check digit: digits, A=10..Z=35, filler 0."""
    if c.isdigit():
        return ord(c) - 48
    if "A" <= c <= "Z":
        return ord(c) - 55
    if c == "<":
        return 0
    raise ValueError("not an MRZ character")


def check_digit(text):
    """ICAO 7-3-1 weighted check digit of a field, as a character."""
    weights = (7, 3, 1)
    return str(sum(char_value(c) * weights[i % 3] for i, c in enumerate(text)) % 10)


def pad(text, width):
    """The field right-padded with fillers, cut to its width."""
    return (text + "<" * width)[:width]


def name_field(surname, given, width):
    """SURNAME<<GIVEN<NAMES in a field of the given width (truncated as Doc 9303 allows)."""
    return pad(surname.replace(" ", "<") + "<<" + given.replace(" ", "<"), width)


def _word(rng, lo, hi):
    return "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(lo, hi)))


def document_number(rng):
    """Nine alphanumeric characters, often holding letters and digits that look alike."""
    kind = rng.random()
    chars = []
    for i in range(9):
        r = rng.random()
        if kind < 0.15:  # digits only
            chars.append(rng.choice(CONFUSABLE_DIGITS) if r < 0.5 else rng.choice("0123456789"))
        elif r < 0.30:
            chars.append(rng.choice(CONFUSABLE_LETTERS))
        elif r < 0.55:
            chars.append(rng.choice(CONFUSABLE_DIGITS))
        elif r < 0.75:
            chars.append(rng.choice("ABCDEFGHJKLMNPRTUVWXY"))
        else:
            chars.append(rng.choice("0123456789"))
    if kind >= 0.15 and not any(c.isalpha() for c in chars):
        chars[rng.randrange(9)] = rng.choice(CONFUSABLE_LETTERS)
    return "".join(chars)


def yymmdd(y, m, d):
    return "%02d%02d%02d" % (y % 100, m, d)


class Holder:
    """A fictional person and document: every field the pages and the MRZ show."""

    def __init__(self, rng):
        self.surname = _word(rng, 2, 4)
        if rng.random() < 0.2:
            self.surname += " " + _word(rng, 2, 3)
        self.given = " ".join(_word(rng, 2, 3) for _ in range(rng.choice((1, 1, 2, 3))))
        self.state = rng.choice(STATES)
        self.nationality = self.state if rng.random() < 0.85 else rng.choice(STATES)
        self.sex = rng.choice("MMFFX")
        self.birth = (rng.randint(1940, 2008), rng.randint(1, 12), rng.randint(1, 28))
        self.expiry = (rng.randint(2025, 2036), rng.randint(1, 12), rng.randint(1, 28))
        self.issue = (self.expiry[0] - 10, self.expiry[1], self.expiry[2])
        self.number = document_number(rng)
        self.personal = "".join(rng.choice("0123456789") for _ in range(rng.choice((0, 0, 8, 11))))
        self.optional_td1 = "".join(rng.choice("0123456789ABCDEFGHJKLMNPRSTUVWXYZ") for _ in range(rng.choice((0, 0, 6))))
        self.place = _word(rng, 2, 3)
        self.td1_code = rng.choice(("ID", "I<", "IR"))
        self.td2_code = rng.choice(("I<", "ID", "AC"))

    def sex_char(self):
        return "<" if self.sex == "X" else self.sex

    def mrz(self, cls):
        """The MRZ lines of this holder's document of class TD1, TD2 or TD3."""
        dob = yymmdd(*self.birth)
        exp = yymmdd(*self.expiry)
        num = self.number
        if cls == "TD1":
            l1 = pad(self.td1_code, 2) + self.state + num + check_digit(num) + pad(self.optional_td1, 15)
            l2 = dob + check_digit(dob) + self.sex_char() + exp + check_digit(exp) + self.nationality + pad("", 11)
            composite = l1[5:30] + l2[0:7] + l2[8:15] + l2[18:29]
            l2 += check_digit(composite)
            l3 = name_field(self.surname, self.given, 30)
            lines = [l1, l2, l3]
        elif cls == "TD2":
            l1 = pad(self.td2_code, 2) + self.state + name_field(self.surname, self.given, 31)
            l2 = num + check_digit(num) + self.nationality + dob + check_digit(dob) + self.sex_char()
            l2 += exp + check_digit(exp) + pad("", 7)
            l2 += check_digit(l2[0:10] + l2[13:20] + l2[21:35])
            lines = [l1, l2]
        else:
            l1 = "P<" + self.state + name_field(self.surname, self.given, 39)
            personal = pad(self.personal, 14)
            personal_check = check_digit(personal) if self.personal else "<"
            l2 = num + check_digit(num) + self.nationality + dob + check_digit(dob) + self.sex_char()
            l2 += exp + check_digit(exp) + personal + personal_check
            l2 += check_digit(l2[0:10] + l2[13:20] + l2[21:43])
            lines = [l1, l2]
        return lines


def visa_mrv_a(seed):
    """The two 44-character lines of a fictional MRV-A visa (Doc 9303 Part 7): V, type,
    issuing state, name; number, nationality, birth, sex, expiry with their check digits
    and 16 characters of optional data (no composite digit)."""
    rng = random.Random(seed * 104729 + 31)
    h = Holder(rng)
    dob, exp = yymmdd(*h.birth), yymmdd(*h.expiry)
    l1 = "V" + rng.choice("<CD") + rng.choice(STATES) + name_field(h.surname, h.given, 39)
    l2 = h.number + check_digit(h.number) + h.nationality + dob + check_digit(dob) + h.sex_char()
    l2 += exp + check_digit(exp) + pad("".join(rng.choice("0123456789ABCDEFGHJKLMNPRSTUVWXYZ") for _ in range(rng.choice((0, 6, 10)))), 16)
    return [l1, l2]


def holder(seed):
    """The holder of a page seed."""
    return Holder(random.Random(seed * 7919 + 17))


def verify(lines):
    """The list of check digits that fail in these MRZ lines (empty when all hold).

    Written independently of `Holder.mrz` from the Doc 9303 field positions, so the
    check script does not trust the generator.
    """
    failures = []

    def expect(name, field, digit):
        if digit == "<" and set(field) <= {"<"}:
            return
        if check_digit(field) != digit:
            failures.append(name)

    widths = [len(l) for l in lines]
    if widths == [30, 30, 30]:
        l1, l2, _ = lines
        expect("number", l1[5:14], l1[14])
        expect("birth", l2[0:6], l2[6])
        expect("expiry", l2[8:14], l2[14])
        expect("composite", l1[5:30] + l2[0:7] + l2[8:15] + l2[18:29], l2[29])
    elif widths in ([36, 36], [44, 44]):
        l2 = lines[1]
        end = 35 if widths[0] == 36 else 43
        expect("number", l2[0:9], l2[9])
        expect("birth", l2[13:19], l2[19])
        expect("expiry", l2[21:27], l2[27])
        if end == 43:
            expect("personal", l2[28:42], l2[42])
        expect("composite", l2[0:10] + l2[13:20] + l2[21:end], l2[end])
    else:
        failures.append("layout")
    for line in lines:
        if any(not (c.isdigit() or "A" <= c <= "Z" or c == "<") for c in line):
            failures.append("charset")
    return failures


class GivenTD3(Holder):
    """The holder a given TD3 MRZ describes (the demo's): the page's visual zone shows
    what the MRZ says."""

    def __init__(self, lines, rng):
        super().__init__(rng)
        l1, l2 = lines
        self.state = l1[2:5]
        names = l1[5:].split("<<", 1)
        self.surname = names[0].replace("<", " ").strip()
        self.given = names[1].replace("<", " ").strip() if len(names) > 1 else ""
        self.number = l2[0:9].replace("<", "")
        self.nationality = l2[10:13]
        self.birth = _date6(l2[13:19], past=True)
        self.sex = {"<": "X"}.get(l2[20], l2[20])
        self.expiry = _date6(l2[21:27], past=False)
        self.issue = (self.expiry[0] - 10, self.expiry[1], self.expiry[2])
        self._lines = list(lines)
        # The same person's identity card (the demo's ID card journey): no optional data.
        self.td1_code = "I<"
        self.optional_td1 = ""

    def mrz(self, cls):
        """The given lines for a passport page; the same holder's zone for a card."""
        return list(self._lines) if cls == "TD3" else Holder.mrz(self, cls)


def _date6(text, past):
    try:
        y, m, d = int(text[0:2]), int(text[2:4]), int(text[4:6])
    except ValueError:
        return (2000, 1, 1)
    year = 1900 + y if (past and y > 30) else 2000 + y
    return (year, max(1, min(12, m)), max(1, min(28, d)))


def parse_lines(text):
    """Two 44-character TD3 lines from `LINE1LINE2`, or the two lines separated by a
    newline, space or comma. Raises ValueError when that is not what it is."""
    compact = text.strip()
    for sep in ("\n", ",", " "):
        if sep in compact:
            parts = [p for p in compact.split(sep) if p]
            break
    else:
        parts = [compact[:44], compact[44:]]
    if len(parts) != 2 or any(len(p) != 44 for p in parts):
        raise ValueError("expected two TD3 lines of 44 characters")
    for p in parts:
        if any(not (c.isdigit() or "A" <= c <= "Z" or c == "<") for c in p):
            raise ValueError("an MRZ holds only A-Z, 0-9 and <")
    return parts
