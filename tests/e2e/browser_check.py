#!/usr/bin/env python3
"""browser_check.py — open a game's pages in headless Chromium and look at them.

    tests/e2e/browser_check.py [--record RECORD [--rsvg PNG]] --maps maps/standard PAGES_DIR [SHOTS_DIR]
    tests/e2e/browser_check.py --start START.svg --start-table TABLE.md [--start-cell POWER=PLACE ...] \
        [--rsvg PNG] --maps maps/muna PAGES_DIR [SHOTS_DIR]

A game without a board (the World Game's war, --maps maps/worldgame) has one
page, its public record: on the phone every event is within the screen and
readable.

For every *.html in PAGES_DIR: load it, fail on any console error, script
exception or failed load (an image that does not load, for one), check that
every image loaded and that nothing is wider than a phone's screen (390 CSS
pixels), and save a screenshot in SHOTS_DIR. On a phase page, on the phone: one
of its two maps at a time, as wide as the page (the orders first, the map
afterwards once its tab is tapped), each loaded; screenshots of both;
printed (its print style sheet), on one A4 page (the PDF kept beside the
screenshots). Then, on the index page, check
two pixels of the current map in the screenshot: inside a supply centre
that the record says a power owns, the province's fill (a light tint of
that power's colour), and at a unit the record says stands somewhere, the
unit's colour (with --rsvg, the same in rsvg-convert's PNG of the map). The places come from the map geometry and the size the page
gives the image. The record (droidippy format) is the independent truth:
its last POSITIONS are the position the index shows.

With --start, a map of a variant's starting position is checked against a
seed's table of starting positions instead (the MUNA board has no recorded
games): every home centre the table reads with confidence 0.9 or more in
its power's tint, with a unit of that power in its colour; --start-cell
adds a cell the table reads poorly and the rules decide (the United
Kingdom's Iran, whose fleets the rules say must name a coast when built).

Chromium is driven through the DevTools protocol over a pipe
(--remote-debugging-pipe): no network, no extra packages. Exit status 0
when every check passed. Standard library only.
"""

import argparse
import base64
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import unicodedata
import xml.etree.ElementTree as ET
import zlib

TINT = 0.42         # maps/render.c: a centre's province gets this much of its owner's colour
PHONE = 390         # CSS pixels
NS = {"svg": "http://www.w3.org/2000/svg"}
POUCH = "{urn:pouch:geometry}"


# --- PNG ----------------------------------------------------------------------

def png_decode(data):
    """(width, height, rows of RGB(A) bytes, channels) of an 8-bit PNG."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, w = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or ctype not in (2, 6) or interlace:
                raise ValueError("unsupported PNG (depth %d, type %d)" % (depth, ctype))
            ch = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
    raw = zlib.decompress(idat)
    stride = w * ch
    rows, prev, i = [], bytearray(stride), 0
    for _ in range(h):
        f = raw[i]
        line = bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - ch] if x >= ch else 0
            b = prev[x]
            c = prev[x - ch] if x >= ch else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return w, h, rows, ch


def pixel(img, x, y):
    w, h, rows, ch = img
    x, y = int(round(x)), int(round(y))
    if not (0 <= x < w and 0 <= y < h):
        raise ValueError("pixel %d,%d outside the %dx%d image" % (x, y, w, h))
    r = rows[y]
    return tuple(r[x * ch:x * ch + 3])


def hex_rgb(s):
    return tuple(int(s[i:i + 2], 16) for i in (1, 3, 5))


def near(a, b, tol=8):
    return all(abs(p - q) <= tol for p, q in zip(a, b))


# --- the record, the variant and the geometry -----------------------------------

def last_position(record):
    """Units and centre owners of the record's last PHASE."""
    text = open(record, encoding="utf-8").read()
    last = text[text.rindex("PHASE "):]
    pos = last.split("POSITIONS", 1)[1].split("ORDERS", 1)[0]
    units, owners = [], {}
    for line in pos.splitlines():
        m = re.match(r"(\w[\w ]*): (\w+)(/dislodged)? (\w+(?:/\w+)?)$", line.strip())
        if not m:
            continue
        power, kind, dis, place = m.groups()
        if kind == "supply":
            owners[place] = power
        elif not dis:
            units.append((power, kind, place))
    return units, owners


def read_variant(path):
    root = ET.parse(path).getroot()
    colours = {p.get("name"): p.get("colour") for p in root.iter("power")}
    return colours


def path_rings(d):
    """Rings of the path data the generator writes (M x,y l dx,dy ... z)."""
    rings = []
    for part in re.findall(r"M[^M]*", d):
        nums = [float(v) for v in re.findall(r"-?\d*\.?\d+", part)]
        x, y = nums[0], nums[1]
        ring = [(x, y)]
        rel = "l" in part
        for k in range(2, len(nums) - 1, 2):
            if rel:
                x, y = x + nums[k], y + nums[k + 1]
            else:
                x, y = nums[k], nums[k + 1]
            ring.append((x, y))
        rings.append(ring)
    return rings


def inside(rings, x, y):
    c = False
    for ring in rings:
        n = len(ring)
        for i in range(n):
            (x1, y1), (x2, y2) = ring[i], ring[(i + 1) % n]
            if (y1 > y) != (y2 > y) and x < (x2 - x1) * (y - y1) / (y2 - y1) + x1:
                c = not c
    return c


def edge_dist(rings, x, y):
    """The distance from x, y to the nearest edge of the province's outline."""
    best = float("inf")
    for ring in rings:
        n = len(ring)
        for i in range(n):
            (x1, y1), (x2, y2) = ring[i], ring[(i + 1) % n]
            dx, dy = x2 - x1, y2 - y1
            t = 0.0 if dx == dy == 0 else max(0.0, min(1.0, ((x - x1) * dx + (y - y1) * dy) /
                                                       (dx * dx + dy * dy)))
            best = min(best, ((x - x1 - t * dx) ** 2 + (y - y1 - t * dy) ** 2) ** 0.5)
    return best


def read_geometry(path):
    root = ET.parse(path).getroot()
    vb = [float(v) for v in root.get("viewBox").split()]
    provs = {}
    for el in root.iter("{http://www.w3.org/2000/svg}path"):
        pid = el.get("id")
        if not pid or el.get(POUCH + "label") is None:
            continue
        places = {k[len(POUCH):]: tuple(float(v) for v in val.replace(",", " ").split())
                  for k, val in el.attrib.items() if k.startswith(POUCH)}
        provs[pid] = dict(rings=path_rings(el.get("d")), places=places)
    return vb, provs


def clear_spot(prov, others):
    """A point well inside the province, away from every marker and name."""
    rings = prov["rings"]
    xs = [p[0] for r in rings for p in r]
    ys = [p[1] for r in rings for p in r]
    marks = [pt for p in others for pt in p["places"].values()]
    step = max(2.0, max(max(xs) - min(xs), max(ys) - min(ys)) / 40)
    cands = []
    gx = min(xs)
    while gx < max(xs):
        gy = min(ys)
        while gy < max(ys):
            if inside(rings, gx, gy):
                gap = min(((gx - a) ** 2 + (gy - b) ** 2) ** 0.5 for a, b in marks)
                cands.append((gap, gx, gy))
            gy += step
        gx += step
    # Six units from every edge: the drawing simplifies outlines (a small
    # board's to a 2-unit grid), so a spot nearer the border may fall on it.
    for gap, gx, gy in sorted(cands, reverse=True):
        if edge_dist(rings, gx, gy) >= 6:
            return (gx, gy), gap
    raise ValueError("no clear spot in the province")


def check_centre(what, img, vb, provs, colours, prov, owner, others=None):
    """A centre's province, at a spot clear of markers and names: its owner's tint."""
    sx, sy = img[0] / vb[2], img[1] / vb[3]
    spot, _ = clear_spot(provs[prov], others if others is not None else list(provs.values()))
    want = tuple(int(round(255 - (255 - c) * TINT)) for c in hex_rgb(colours[owner]))
    got = pixel(img, (spot[0] - vb[0]) * sx, (spot[1] - vb[1]) * sy)
    print("  %s: %s (owned by %s) at %d,%d: %s, want %s" % (what, prov, owner, spot[0], spot[1],
                                                          "#%02x%02x%02x" % got, "#%02x%02x%02x" % want))
    if not near(got, want):
        return ["%s: %s should show %s's colour" % (what, prov, owner)]
    return []


def check_unit(what, img, vb, provs, colours, power, kind, place):
    """A unit at its place (a fleet in its hull): its power's colour."""
    sx, sy = img[0] / vb[2], img[1] / vb[3]
    pv, _, coast = place.partition("/")
    pt = provs[pv]["places"]["unit-" + coast if coast else "unit"]
    y = pt[1] + (3 if kind == "fleet" else 0)
    got = pixel(img, (pt[0] - vb[0]) * sx, (y - vb[1]) * sy)
    want = hex_rgb(colours[power])
    print("  %s: %s %s at %s: %s, want %s" % (what, power, kind, place, "#%02x%02x%02x" % got,
                                              "#%02x%02x%02x" % want))
    if not near(got, want):
        return ["%s: the %s %s in %s is not drawn in %s's colour" % (what, power, kind, place, power)]
    return []


def check_pixels(what, img, vb, provs, colours, units, owners):
    """Look at a picture of the current map: a centre in its owner's tint, a unit in its colour."""
    # The largest centre with an owner: its tinted fill.
    cands = [(abs(sum((r[i][0] * r[i - 1][1] - r[i - 1][0] * r[i][1]) for r in provs[p]["rings"]
                      for i in range(len(r)))), p) for p in owners if p in provs]
    cands.sort(reverse=True)
    prov = cands[0][1]
    failures = check_centre(what, img, vb, provs, colours, prov, owners[prov])
    # A unit: an army if there is one, at its place.
    power, kind, place = sorted(units, key=lambda u: (u[1] != "army", u[2]))[0]
    return failures + check_unit(what, img, vb, provs, colours, power, kind, place)


# --- the MUNA start, against the seed's table of starting positions ------------

def fold(name):
    """A name compared loosely: no accents, case, dots or spaces."""
    name = unicodedata.normalize("NFKD", name)
    return "".join(c for c in name.lower() if c.isalnum())


def start_table(path, min_conf):
    """(power, place name) of the table's cells read with at least min_conf confidence."""
    cells = []
    for line in open(path, encoding="utf-8"):
        cols = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cols) < 7 or cols[0] in ("Power", "") or set(cols[0]) <= set("-"):
            continue
        for cell in cols[2:]:
            m = re.search(r"\((\d\.\d+)\)\s*$", cell)
            if m and float(m.group(1)) >= min_conf:
                cells.append((cols[0], cell.split(" (")[0].strip()))
    return cells


def check_start(b, args, shots):
    """Every home centre the seed's table names with confidence: on the start map, in its
    power's tint, with a unit of that power (Chromium, and rsvg-convert with --rsvg)."""
    failures = []
    root = ET.parse(os.path.join(args.maps, "variant.xml")).getroot()
    powers = {}
    for p in root.iter("power"):
        for n in [p.get("name"), p.get("abbr")] + [a.text for a in p.iter("alias")]:
            powers[fold(n)] = p.get("name")
    colours = read_variant(os.path.join(args.maps, "variant.xml"))
    provs_by_name = {fold(p.get("name")): p.get("abbr") for p in root.iter("province")}
    units = {u.get("at").split("/")[0]: (u.get("power"), u.get("type"), u.get("at"))
             for u in root.iter("unit")}
    abbr_power = {p.get("abbr"): p.get("name") for p in root.iter("power")}
    vb, provs = read_geometry(os.path.join(args.maps, "map.svg"))
    todo = []
    cells = start_table(args.start_table, 0.9)
    cells += [tuple(c.split("=", 1)) for c in args.start_cell or []]
    for power, place in cells:
        who, prov = powers.get(fold(power)), provs_by_name.get(fold(place))
        if who is None or prov is None:
            failures.append("the table's %s (%s) is not on the map" % (place, power))
        else:
            todo.append((who, prov))
    pictures = []
    png = photograph(b, os.path.abspath(args.start), "document.documentElement",
                     os.path.join(shots, "start-map.png"))
    pictures.append(("Chromium, " + os.path.basename(args.start), png))
    if args.rsvg:
        pictures.append(("rsvg-convert, " + os.path.basename(args.start), rsvg(args.start, args.rsvg)))
    others = list(provs.values())
    for what, img in pictures:
        for who, prov in todo:
            failures += check_centre(what, img, vb, provs, colours, prov, who, others)
            unit = units.get(prov)
            if unit is None or abbr_power.get(unit[0], unit[0]) != who:
                failures.append("%s: no %s unit starts in %s" % (what, who, prov))
            else:
                failures += check_unit(what, img, vb, provs, colours, who, unit[1], unit[2])
    print("  %d home centres of the seed's table checked in %d pictures" % (len(todo), len(pictures)))
    return failures


# --- Chromium -------------------------------------------------------------------

class Browser:
    def __init__(self, exe, workdir):
        self.cmd_r, self.cmd_w = os.pipe()     # we write commands
        self.ev_r, self.ev_w = os.pipe()       # chromium writes answers and events
        args = [exe, "--headless=new", "--no-sandbox", "--disable-gpu",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--no-first-run", "--no-default-browser-check", "--hide-scrollbars",
                "--user-data-dir=" + os.path.join(workdir, "profile"), "--remote-debugging-pipe",
                "about:blank"]

        def fds():
            os.dup2(self.cmd_r, 3)
            os.dup2(self.ev_w, 4)

        self.log = open(os.path.join(workdir, "chromium.log"), "wb")
        self.proc = subprocess.Popen(args, pass_fds=(3, 4), preexec_fn=fds, stdin=subprocess.DEVNULL,
                                     stdout=self.log, stderr=self.log)
        os.close(self.cmd_r)
        os.close(self.ev_w)
        self.buf = b""
        self.next_id = 0
        self.events = []
        self.session = None

    def send(self, method, params=None, session=True, timeout=30):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            msg["sessionId"] = self.session
        os.write(self.cmd_w, json.dumps(msg).encode() + b"\0")
        deadline = time.time() + timeout
        while True:
            m = self.read(deadline)
            if m.get("id") == self.next_id:
                if "error" in m:
                    raise RuntimeError("%s: %s" % (method, m["error"]))
                return m.get("result", {})
            self.events.append(m)

    def read(self, deadline):
        import select
        while b"\0" not in self.buf:
            left = deadline - time.time()
            if left <= 0:
                raise TimeoutError("Chromium did not answer")
            r, _, _ = select.select([self.ev_r], [], [], left)
            if r:
                chunk = os.read(self.ev_r, 1 << 20)
                if not chunk:
                    raise RuntimeError("Chromium went away")
                self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def wait_event(self, method, timeout=30):
        deadline = time.time() + timeout
        for i, e in enumerate(self.events):
            if e.get("method") == method:
                del self.events[i]
                return e
        while True:
            e = self.read(deadline)
            if e.get("method") == method:
                return e
            self.events.append(e)

    def open_tab(self):
        t = self.send("Target.createTarget", {"url": "about:blank"}, session=False)
        s = self.send("Target.attachToTarget", {"targetId": t["targetId"], "flatten": True}, session=False)
        self.session = s["sessionId"]
        for m in ("Page.enable", "Runtime.enable", "Log.enable", "Network.enable"):
            self.send(m)

    def eval(self, expr):
        r = self.send("Runtime.evaluate", {"expression": expr, "returnByValue": True})
        return r["result"].get("value")

    def close(self):
        try:
            self.send("Browser.close", session=False, timeout=5)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def problems_in(events):
    out = []
    for e in events:
        m, p = e.get("method"), e.get("params", {})
        if m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
            out.append("console %s: %s" % (p["type"], " ".join(str(a.get("value", a.get("description")))
                                                              for a in p.get("args", []))))
        elif m == "Runtime.exceptionThrown":
            out.append("exception: %s" % p.get("exceptionDetails", {}).get("text"))
        elif m == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
            out.append("log error: %s %s" % (p["entry"].get("text"), p["entry"].get("url", "")))
        elif m == "Network.loadingFailed":
            out.append("failed to load: %s" % p.get("errorText"))
    return out


def load(b, url, width, height, mobile):
    b.send("Emulation.setDeviceMetricsOverride",
           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})
    b.events = []
    b.send("Page.navigate", {"url": url})
    b.wait_event("Page.loadEventFired")
    # Let the event queue drain: anything the page logs after load counts too.
    b.eval("new Promise(r => setTimeout(r, 50))")
    return problems_in(b.events)


def photograph(b, path, element, shot):
    """Chromium's picture of an element (a JavaScript expression) of the page at path, saved in
    shot: the decoded PNG."""
    load(b, "file://" + path, 1280, 900, False)
    rect = b.eval("(() => { const r = %s.getBoundingClientRect();"
                  " return [r.left + window.scrollX, r.top + window.scrollY, r.width, r.height]; })()"
                  % element)
    data = b.send("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True,
                                             "clip": {"x": rect[0], "y": rect[1], "width": rect[2],
                                                      "height": rect[3], "scale": 1}})
    png = base64.b64decode(data["data"])
    with open(shot, "wb") as fh:
        fh.write(png)
    return png_decode(png)


def rsvg(svg, png):
    """rsvg-convert's picture of svg, written to png: the decoded PNG."""
    subprocess.run(["rsvg-convert", svg, "-o", png], check=True)
    with open(png, "rb") as fh:
        return png_decode(fh.read())


def check_index(b, args, shots):
    """Pixels of the current map on the index page (and in rsvg-convert's PNG)."""
    failures = []
    colours = read_variant(os.path.join(args.maps, "variant.xml"))
    vb, provs = read_geometry(os.path.join(args.maps, "map.svg"))
    units, owners = last_position(args.record)
    png = photograph(b, os.path.abspath(os.path.join(args.pages, "index.html")),
                     "document.querySelector('img.map')", os.path.join(shots, "index-map.png"))
    failures += check_pixels("Chromium, index.html", png, vb, provs, colours, units, owners)
    if args.rsvg:
        failures += check_pixels("rsvg-convert, current.svg",
                                 rsvg(os.path.join(args.pages, "current.svg"), args.rsvg), vb, provs,
                                 colours, units, owners)
    return failures


VIEWS_STATE = """(() => {
  const shown = Array.from(document.querySelectorAll('.views > .view'))
    .filter(v => getComputedStyle(v).display !== 'none');
  const img = shown.length === 1 ? shown[0].querySelector('img.map') : null;
  return {shown: shown.map(v => v.className), tabs: document.querySelectorAll('.views > label').length,
          width: img ? img.getBoundingClientRect().width : 0,
          room: document.querySelector('main').getBoundingClientRect().width,
          loaded: img ? img.complete && img.naturalWidth > 0 : false};
})()"""


def check_views(b, f, shots):
    """A phase page on the phone (already loaded): one map at a time, as wide as the page,
    the orders first; a tap on "Afterwards" shows the other, loaded."""
    if not b.eval("document.querySelector('.views') !== null"):
        if re.match(r"^[SFW]\d+[MRA]\.html$", f):
            return ["%s: a phase page without its two map tabs" % f]
        return []
    failures = []
    for tab, want in (("v-orders", "view vo"), ("v-after", "view va")):
        if tab != "v-orders":
            b.eval("document.querySelector('label[for=%s]').click()" % tab)
        st = b.eval(VIEWS_STATE)
        print("  %s (phone), %s: shown %s, map %d of %d CSS pixels, loaded %s"
              % (f, tab, st["shown"], st["width"], st["room"], st["loaded"]))
        if st["tabs"] != 2:
            failures.append("%s: %d tabs, want 2" % (f, st["tabs"]))
        if st["shown"] != [want]:
            failures.append("%s (phone): with %s chosen, shown %s" % (f, tab, st["shown"]))
        elif not st["loaded"]:
            failures.append("%s (phone): the map of %s did not load" % (f, tab))
        elif st["width"] < st["room"] - 4:
            failures.append("%s (phone): the map is %d CSS pixels wide, the page %d"
                            % (f, st["width"], st["room"]))
        shot = b.send("Page.captureScreenshot", {"format": "png"})
        with open(os.path.join(shots, "%s-phone-%s.png" % (f[:-5], tab)), "wb") as fh:
            fh.write(base64.b64decode(shot["data"]))
    return failures


RECORD_STATE = """(() => {
  const items = Array.from(document.querySelectorAll('ol.record > li'));
  const room = document.documentElement.clientWidth;
  return {n: items.length, wide: items.filter(li => li.getBoundingClientRect().right > room).length,
          size: items.length ? parseFloat(getComputedStyle(items[0]).fontSize) : 0};
})()"""


def check_record(b, f):
    """A page of a game without a board (the World Game's war) on the phone (already loaded):
    its public record is there, every event within the screen, in a readable size."""
    if not b.eval("document.querySelector('ol.record') !== null"):
        return []
    st = b.eval(RECORD_STATE)
    print("  %s (phone): the record, %d events, %d wider than the screen, text %g CSS pixels"
          % (f, st["n"], st["wide"], st["size"]))
    failures = []
    if st["n"] == 0:
        failures.append("%s: an empty record" % f)
    if st["wide"]:
        failures.append("%s (phone): %d events wider than the screen" % (f, st["wide"]))
    if st["size"] < 12:
        failures.append("%s (phone): the record's text is %g CSS pixels" % (f, st["size"]))
    return failures


def check_print(b, f, url, shots):
    """A phase page printed (its print style sheet, A4) fits one page: the PDF
    Chromium prints is kept beside the screenshots."""
    if not re.match(r"^[SFW]\d{4}[MRA]\.html$", f):
        return []
    load(b, url, 1280, 900, False)
    pdf = base64.b64decode(b.send("Page.printToPDF", {"preferCSSPageSize": True,
                                                     "displayHeaderFooter": False})["data"])
    with open(os.path.join(shots, f[:-5] + ".pdf"), "wb") as fh:
        fh.write(pdf)
    pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf))
    if pages != 1:
        return ["%s: printed on %d A4 pages, not one" % (f, pages)]
    return []


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    ap.add_argument("--record", help="the droidippy record the pages were made from "
                    "(without it, no pixels are checked)")
    ap.add_argument("--maps", required=True, help="the variant's directory (variant.xml, map.svg)")
    ap.add_argument("pages", help="the game's page directory (index.html ...)")
    ap.add_argument("--rsvg", metavar="PNG", help="also draw the checked map (current.svg, or the "
                    "--start map) with rsvg-convert into PNG and check it")
    ap.add_argument("--start", metavar="SVG", help="a map of the variant's starting position, "
                    "checked against --start-table")
    ap.add_argument("--start-cell", metavar="POWER=PLACE", action="append",
                    help="a home centre and its power to check on the start map besides the "
                    "table's (a cell the table reads poorly, decided by the rules)")
    ap.add_argument("--start-table", metavar="MD", help="the seed's table of starting positions "
                    "(notes/muna-starting-table.md): power, colour, then its home centres, each "
                    "with a confidence; those read with 0.9 or more are checked")
    ap.add_argument("shots", nargs="?", help="where to put the screenshots (default: a temporary directory)")
    args = ap.parse_args()

    work = tempfile.mkdtemp(prefix="pouch-browser-")
    shots = args.shots or os.path.join(work, "shots")
    os.makedirs(shots, exist_ok=True)
    pages = sorted(f for f in os.listdir(args.pages) if f.endswith(".html"))
    failures = []
    b = Browser(args.chromium, work)
    try:
        b.open_tab()
        for f in pages:
            url = "file://" + os.path.abspath(os.path.join(args.pages, f))
            probs = load(b, url, 1280, 900, False)
            ok_images = b.eval("Array.from(document.images).every(i => i.complete && i.naturalWidth > 0)")
            if not ok_images:
                probs.append("an image did not load")
            for p in probs:
                failures.append("%s: %s" % (f, p))
            shot = b.send("Page.captureScreenshot", {"format": "png"})
            with open(os.path.join(shots, f[:-5] + ".png"), "wb") as fh:
                fh.write(base64.b64decode(shot["data"]))
            # On a phone: nothing wider than the screen.
            probs = load(b, url, PHONE, 844, True)
            wide = b.eval("document.documentElement.scrollWidth")
            if wide > PHONE:
                failures.append("%s: %d CSS pixels wide on a %d pixel phone" % (f, wide, PHONE))
            for p in probs:
                failures.append("%s (phone): %s" % (f, p))
            failures += check_views(b, f, shots)
            failures += check_record(b, f)
            failures += check_print(b, f, url, shots)

        if args.record:
            failures += check_index(b, args, shots)
        if args.start and args.start_table:
            failures += check_start(b, args, shots)
    finally:
        b.close()
        if not args.shots:
            shutil.rmtree(work, ignore_errors=True)
        else:
            shutil.rmtree(os.path.join(work, "profile"), ignore_errors=True)

    for f in failures:
        print("FAILED: %s" % f)
    print("%d pages opened in Chromium, %d problems" % (len(pages), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
