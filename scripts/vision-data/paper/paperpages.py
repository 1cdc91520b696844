"""Fictional paper documents drawn at 5 px/mm: a utility bill and a bank statement, several
pages each, on A4 (210 x 297 mm) or US Letter (215.9 x 279.4 mm).

A page is a pure function of (kind, paper, page number, page count, seed, template): the
scene generator draws the same page again for each scene it is in. Everything printed is
invented here (companies, people, addresses, amounts); no personal data of anyone real.
Templates 0-1 are for train, 2-3 for heldout (other colours, logo and layout), so the
held-out split shows documents the finder was never tuned on.
"""
import random

import numpy as np
from PIL import Image, ImageDraw, ImageFont

PX_PER_MM = 5
DEJAVU = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
DEJAVU_BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
DEJAVU_SERIF = "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"

# Portrait size in mm (width, height), and the class name the finder reports.
PAPER_MM = {"A4": (210.0, 297.0), "LETTER": (215.9, 279.4)}
TEMPLATES = {"train": (0, 1), "heldout": (2, 3)}
# (accent colour, tint of the table's header, logo shape, serif body)
STYLES = [
    ((20, 70, 140), (220, 232, 246), "circle", False),
    ((150, 40, 30), (246, 226, 222), "square", False),
    ((20, 110, 70), (222, 242, 230), "triangle", True),
    ((90, 40, 120), (236, 226, 244), "diamond", True),
]
COMPANIES = {"bill": ["Northwind Power & Light", "Lakeside Water Works", "Brightline Energy"],
             "statement": ["Harbor Mutual Bank", "Kestrel Savings", "Meadow Credit Union"]}
GIVEN = ["Anna", "Tomas", "Mira", "Jonas", "Elif", "Ravi", "Lena", "Oskar", "Noor", "Pablo"]
FAMILY = ["Lindqvist", "Moreau", "Okafor", "Brandt", "Novak", "Tanaka", "Silva", "Keller", "Haddad", "Varga"]
STREETS = ["Birch Lane", "Harbour Road", "Mill Street", "Quarry Way", "Orchard Close", "Canal Walk"]
TOWNS = ["Utopia City", "Eastbrook", "Fairhaven", "Northmere", "Westfold"]
ITEMS = {"bill": ["Standing charge", "Day units", "Night units", "Meter reading fee", "Network charge", "Green levy", "Discount"],
         "statement": ["Card payment GROCER", "Transfer to savings", "Salary ACME LTD", "Direct debit RENT", "Cash withdrawal",
                       "Card payment BAKERY", "Interest", "Standing order GYM"]}

_fonts = {}


def font(path, px):
    key = (path, px)
    if key not in _fonts:
        _fonts[key] = ImageFont.truetype(path, px)
    return _fonts[key]


def mm(v):
    return int(round(v * PX_PER_MM))


def size_px(paper):
    w, h = PAPER_MM[paper]
    return mm(w), mm(h)


def _logo(draw, shape, x, y, s, colour):
    if shape == "circle":
        draw.ellipse([x, y, x + s, y + s], fill=colour)
        draw.ellipse([x + s * 0.3, y + s * 0.3, x + s * 0.7, y + s * 0.7], fill=(255, 255, 255))
    elif shape == "square":
        draw.rectangle([x, y, x + s, y + s], fill=colour)
        draw.rectangle([x + s * 0.25, y + s * 0.25, x + s * 0.75, y + s * 0.75], outline=(255, 255, 255), width=max(2, s // 10))
    elif shape == "triangle":
        draw.polygon([(x + s / 2, y), (x + s, y + s), (x, y + s)], fill=colour)
    else:
        draw.polygon([(x + s / 2, y), (x + s, y + s / 2), (x + s / 2, y + s), (x, y + s / 2)], fill=colour)


def holder(seed):
    rng = random.Random(seed)
    return {"name": "%s %s" % (rng.choice(GIVEN), rng.choice(FAMILY)),
            "street": "%d %s" % (rng.randint(1, 180), rng.choice(STREETS)),
            "town": "%05d %s" % (rng.randint(10000, 99999), rng.choice(TOWNS)),
            "account": "%04d %04d %02d" % (rng.randint(0, 9999), rng.randint(0, 9999), rng.randint(0, 99))}


def render(kind, paper, number, count, seed, template):
    """Page `number` (1-based) of `count` of a document: RGB uint8 at 5 px/mm, portrait."""
    accent, header_tint, shape, serif = STYLES[template]
    body = DEJAVU_SERIF if serif else DEJAVU
    rng = random.Random(seed * 31 + number)
    person = holder(seed)
    company = random.Random(seed).choice(COMPANIES[kind])
    w, h = size_px(paper)
    paper_tone = 250 - rng.randint(0, 8)
    img = Image.new("RGB", (w, h), (paper_tone, paper_tone, paper_tone - rng.randint(0, 6)))
    d = ImageDraw.Draw(img)
    left, right = mm(18), w - mm(18)
    # Header: the logo and company on every page; a coloured rule below.
    logo_s = mm(16)
    logo_x = left if template % 2 == 0 else right - logo_s
    _logo(d, shape, logo_x, mm(14), logo_s, accent)
    name_x = left + logo_s + mm(5) if template % 2 == 0 else left
    d.text((name_x, mm(15)), company, font=font(DEJAVU_BOLD, mm(6)), fill=accent)
    d.text((name_x, mm(23)), "Customer service 0800 000 000 - www.example.invalid", font=font(body, mm(2.8)), fill=(90, 90, 90))
    d.rectangle([left, mm(34), right, mm(35.2)], fill=accent)
    y = mm(42)
    if number == 1:
        for line in (person["name"], person["street"], person["town"]):
            d.text((left, y), line, font=font(body, mm(4)), fill=(20, 20, 20))
            y += mm(5.5)
        title = "Electricity bill" if kind == "bill" else "Account statement"
        d.text((left + mm(105), mm(42)), title, font=font(DEJAVU_BOLD, mm(5.5)), fill=(20, 20, 20))
        d.text((left + mm(105), mm(50)), "Account %s" % person["account"], font=font(body, mm(3.4)), fill=(40, 40, 40))
        d.text((left + mm(105), mm(55)), "Date 2%03d-%02d-%02d" % (rng.randint(20, 29), rng.randint(1, 12), rng.randint(1, 28)),
               font=font(body, mm(3.4)), fill=(40, 40, 40))
        y += mm(10)
    # A table: header band, rows of text and amounts.
    d.rectangle([left, y, right, y + mm(8)], fill=header_tint)
    cols = (left + mm(2), left + mm(30), right - mm(30))
    for x, label in zip(cols, ("Date", "Description", "Amount")):
        d.text((x, y + mm(1.6)), label, font=font(DEJAVU_BOLD, mm(3.6)), fill=(30, 30, 30))
    y += mm(10)
    rows = rng.randint(14, 22) if number > 1 else rng.randint(8, 14)
    total = 0.0
    for r in range(rows):
        if y > h - mm(40):
            break
        amount = rng.uniform(-250, 400)
        total += amount
        d.text((cols[0], y), "%02d.%02d." % (rng.randint(1, 28), rng.randint(1, 12)), font=font(body, mm(3.2)), fill=(35, 35, 35))
        d.text((cols[1], y), rng.choice(ITEMS[kind]), font=font(body, mm(3.2)), fill=(35, 35, 35))
        d.text((cols[2], y), "%10.2f" % amount, font=font(body, mm(3.2)), fill=(35, 35, 35))
        if r % 2 == 1:
            d.line([left, y + mm(5.2), right, y + mm(5.2)], fill=(205, 205, 205), width=1)
        y += mm(6)
    y += mm(4)
    d.text((cols[1], y), "Total this page", font=font(DEJAVU_BOLD, mm(3.6)), fill=(20, 20, 20))
    d.text((cols[2], y), "%10.2f" % total, font=font(DEJAVU_BOLD, mm(3.6)), fill=(20, 20, 20))
    # A paragraph of small print.
    y += mm(12)
    words = "payments are due within fourteen days of the date of this document please quote your account number".split()
    for _ in range(3):
        if y > h - mm(30):
            break
        line = " ".join(rng.choice(words) for _ in range(14)).capitalize() + "."
        d.text((left, y), line, font=font(body, mm(2.6)), fill=(70, 70, 70))
        y += mm(4)
    # Footer: page n of N.
    d.rectangle([left, h - mm(20), right, h - mm(19.4)], fill=accent)
    d.text((left, h - mm(16)), "%s - %s" % (company, person["account"]), font=font(body, mm(2.8)), fill=(90, 90, 90))
    d.text((right - mm(28), h - mm(16)), "Page %d of %d" % (number, count), font=font(body, mm(2.8)), fill=(90, 90, 90))
    return np.asarray(img).copy()
