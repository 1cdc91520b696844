"""Fictional holders, issuing states and document numbers.

The state codes are ICAO's own fictional UTO and codes from ISO 3166's user-assigned range
(QM-QZ), which no real country has. Names are made from invented syllables.
"""

import mrz

STATES = {
    # code: (name in the header, adjective, authority)
    "UTO": ("REPUBLIC OF UTOPIA", "UTOPIAN", "MINISTRY OF THE INTERIOR"),
    "QZV": ("FEDERATION OF QORVANIA", "QORVANIAN", "FEDERAL CIVIL REGISTRY"),
    "QRT": ("KINGDOM OF RETHALIA", "RETHALIAN", "ROYAL PASSPORT OFFICE"),
    "QMN": ("UNITED PROVINCES OF MONDELA", "MONDELAN", "DEPARTMENT OF IDENTITY"),
    "QPX": ("COMMONWEALTH OF PAXORIA", "PAXORIAN", "STATE DOCUMENT AGENCY"),
    "QWL": ("ISLAND REPUBLIC OF WELANO", "WELANESE", "OFFICE OF CITIZENSHIP"),
}

_ONSETS = ["B", "D", "F", "G", "K", "L", "M", "N", "P", "R", "S", "T", "V", "Z", "BR", "DR",
           "KL", "ST", "TR", "SH", "CH", "J", "H", "W", "Y", "GR", "FL"]
_VOWELS = ["A", "E", "I", "O", "U", "AI", "EA", "OU", "IO", "Y"]
_CODAS = ["", "", "", "N", "R", "L", "S", "M", "K", "ND", "RT", "LT", "SK", "NT"]
MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"]
MONTHS_ALT = ["JANV", "FEVR", "MARS", "AVR", "MAI", "JUIN", "JUIL", "AOUT", "SEPT", "OCT",
              "NOV", "DEC"]
CITIES = ["PORT ALVEN", "NOVA TERESK", "MIRADOR", "KALISTO", "BRENHAVEN", "OSTRAVEL",
          "LUMENTIA", "VARDO NORTE", "SELINGRAD", "TORRE ALMA", "ESKELUND", "FARROW BAY"]


def word(rng, syll_lo=2, syll_hi=3):
    n = int(rng.integers(syll_lo, syll_hi + 1))
    s = ""
    for i in range(n):
        s += _ONSETS[int(rng.integers(len(_ONSETS)))] + _VOWELS[int(rng.integers(len(_VOWELS)))]
        if i == n - 1 or rng.random() < 0.3:
            s += _CODAS[int(rng.integers(len(_CODAS)))]
    return s


def date(rng, y0, y1):
    y = int(rng.integers(y0, y1 + 1))
    m = int(rng.integers(1, 13))
    d = int(rng.integers(1, 29))
    return y, m, d


def yymmdd(t):
    return "%02d%02d%02d" % (t[0] % 100, t[1], t[2])


def viz_date(t, style):
    y, m, d = t
    if style == 0:
        return "%02d %s %04d" % (d, MONTHS[m - 1], y)
    if style == 1:
        return "%02d %s/%s %02d" % (d, MONTHS[m - 1], MONTHS_ALT[m - 1], y % 100)
    if style == 2:
        return "%02d.%02d.%04d" % (d, m, y)
    return "%02d %s %04d" % (d, MONTHS[m - 1].title(), y)


def doc_number(rng):
    kind = int(rng.integers(4))
    L = "ABCDEFGHJKLMNPRSTUVWXYZ"
    if kind == 0:
        return "".join(L[int(rng.integers(len(L)))] for _ in range(2)) + \
            "".join(str(int(rng.integers(10))) for _ in range(7))
    if kind == 1:
        return L[int(rng.integers(len(L)))] + "".join(str(int(rng.integers(10))) for _ in range(8))
    if kind == 2:
        return "".join(str(int(rng.integers(10))) for _ in range(8))  # 8 chars: filler in MRZ
    return "".join((L + "0123456789")[int(rng.integers(33))] for _ in range(9))


class Holder:
    """One fictional person holding one document."""

    def __init__(self, rng, doc_kind):
        self.state = list(STATES)[int(rng.integers(len(STATES)))]
        self.nationality = self.state if rng.random() < 0.85 else list(STATES)[int(rng.integers(len(STATES)))]
        n_prim = 1 if rng.random() < 0.85 else 2
        n_sec = 1 if rng.random() < 0.55 else 2
        self.primary = [word(rng, 2, 3) for _ in range(n_prim)]
        self.secondary = [word(rng, 1, 3) for _ in range(n_sec)]
        self.sex = ["M", "F", "<"][int(rng.choice(3, p=[0.48, 0.48, 0.04]))]
        self.dob = date(rng, 1940, 2012)
        self.issue = date(rng, 2016, 2024)
        years = 10 if doc_kind != "TD1" else int(rng.choice([5, 10]))
        self.expiry = (self.issue[0] + years, self.issue[1], max(1, self.issue[2] - 1))
        self.number = doc_number(rng)
        self.place = CITIES[int(rng.integers(len(CITIES)))]
        self.date_style = int(rng.integers(4))
        self.personal = "".join(str(int(rng.integers(10))) for _ in range(int(rng.choice([0, 10, 11, 12])))) \
            if rng.random() < 0.5 else ""
        self.kind = doc_kind
        if doc_kind == "TD3":
            code = "P<" if rng.random() < 0.8 else ["PD", "PS", "PO"][int(rng.integers(3))]
            self.doc_code = code
            self.mrz = mrz.td3(code, self.state, self.primary, self.secondary, self.number,
                               self.nationality, yymmdd(self.dob), self.sex, yymmdd(self.expiry),
                               self.personal, "<" if rng.random() < 0.6 else "0")
        elif doc_kind == "TD2":
            code = ["I<", "ID", "IR", "A<"][int(rng.integers(4))]
            self.doc_code = code
            self.mrz = mrz.td2(code, self.state, self.primary, self.secondary, self.number,
                               self.nationality, yymmdd(self.dob), self.sex, yymmdd(self.expiry),
                               self.personal[:7])
        elif doc_kind == "TD1":
            code = ["I<", "ID", "IR", "C<"][int(rng.integers(4))]
            self.doc_code = code
            opt1 = self.personal[:15]
            opt2 = word(rng, 1, 2)[:6] if rng.random() < 0.3 else ""
            self.mrz = mrz.td1(code, self.state, self.primary, self.secondary, self.number,
                               self.nationality, yymmdd(self.dob), self.sex, yymmdd(self.expiry),
                               opt1, opt2)
        elif doc_kind == "MRVA":
            self.doc_code = "V<"
            self.mrz = mrz.mrva(self.state, self.primary, self.secondary, self.number,
                                self.nationality, yymmdd(self.dob), self.sex, yymmdd(self.expiry),
                                word(rng, 1, 2) if rng.random() < 0.4 else "")
        else:
            raise ValueError(doc_kind)
        assert not mrz.validate(self.mrz), self.mrz

    # the visual zone's strings, which agree with the MRZ
    def viz(self):
        sexv = {"M": "M", "F": "F", "<": "X"}[self.sex]
        return {
            "surname": " ".join(self.primary),
            "given": " ".join(self.secondary),
            "nationality": STATES[self.nationality][1],
            "nat_code": self.nationality,
            "dob": viz_date(self.dob, self.date_style),
            "sex": sexv,
            "place": self.place,
            "issue": viz_date(self.issue, self.date_style),
            "expiry": viz_date(self.expiry, self.date_style),
            "number": self.number,
            "code": self.doc_code.replace("<", ""),
            "state": self.state,
            "state_name": STATES[self.state][0],
            "authority": STATES[self.state][2],
            "personal": self.personal,
        }
