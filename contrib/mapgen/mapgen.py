#!/usr/bin/python3
"""mapgen.py — make a board's geometry (maps/NAME/map.svg) from real geography.

Usage (from the top of the repository; see contrib/mapgen/README.md):

    contrib/mapgen/mapgen.py standard                 # writes maps/standard/map.svg
    contrib/mapgen/mapgen.py --check standard         # compare with the committed file
    contrib/mapgen/mapgen.py --out /tmp/x.svg standard

The land comes from the Digital Chart of the World as packaged for GMT
(Debian package gmt-dcw, /usr/share/gmt-dcw/dcw-gmt.nc, LGPL-3+): country
polygons at 1:1,000,000. The provinces are our own: contrib/mapgen/NAME.py
cuts the countries with dividing lines and the water with sea boundaries.

Steps: read the countries near the board; project them (Lambert conformal
conic) into the frame; cut the provinces and seas in the order the board
file lists them; hand the pieces nobody took to a neighbour (small ones) or
to the impassable land and lakes; simplify all the borders together so
neighbours keep sharing theirs; place units, labels and centre markers;
check the drawing against the variant's adjacencies; write the SVG.

The output is deterministic: the same data and board file give the same
bytes. Needs python3-shapely, python3-netcdf4 and gmt-dcw (contrib/deps.sh
mapgen installs them).
"""

import argparse
import importlib.util
import math
import os
import sys
import time
import warnings
import xml.etree.ElementTree as ET

import netCDF4
import numpy as np
from shapely.geometry import LineString, MultiPolygon, Point, Polygon, box
from shapely.ops import linemerge, nearest_points, polygonize, polylabel, unary_union
from shapely.prepared import prep
from shapely.strtree import STRtree

warnings.filterwarnings("ignore", message="STRtree will be changed")

DCW = "/usr/share/gmt-dcw/dcw-gmt.nc"
HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))

PRESIMPLIFY_KM = 0.4       # the data's detail below this is not kept (a pixel is ~5 km)
GAP_KM = 0.5               # gaps this narrow between countries are closed
MIN_ISLAND_KM2 = 40.0       # land pieces smaller than this are left out
MERGE_KM2 = 2500.0          # unclaimed pieces up to this size join a neighbour
SIMPLIFY_PX = 0.6           # Douglas-Peucker tolerance, pixels
TOUCH_PX = 1.0              # provinces closer than this count as neighbours


T0 = None


def note(msg):
    if VERBOSE:
        sys.stderr.write("mapgen: %6.1fs %s\n" % (time.time() - T0, msg))


VERBOSE = False


def die(msg):
    sys.stderr.write("mapgen: %s\n" % msg)
    sys.exit(1)


# --- projection ---------------------------------------------------------------

class Lambert:
    """Lambert conformal conic on a sphere (kilometres, y pointing south)."""

    R = 6371.0

    def __init__(self, lon0, lat0, lat1, lat2):
        p1, p2 = math.radians(lat1), math.radians(lat2)
        t = lambda p: math.tan(math.pi / 4 + p / 2)
        self.n = math.log(math.cos(p1) / math.cos(p2)) / math.log(t(p2) / t(p1))
        self.F = math.cos(p1) * t(p1) ** self.n / self.n
        self.rho0 = self.R * self.F / t(math.radians(lat0)) ** self.n
        self.lon0 = math.radians(lon0)

    def lonlat(self, x, y):
        """Inverse of xy, for messages."""
        y = self.rho0 + y
        rho = math.copysign(math.hypot(x, y), self.n)
        th = math.atan2(x, y)
        lat = 2 * math.atan((self.R * self.F / rho) ** (1 / self.n)) - math.pi / 2
        return math.degrees(self.lon0 + th / self.n), math.degrees(lat)

    def xy(self, lon, lat):
        lon = np.radians(np.asarray(lon, dtype=float))
        lat = np.radians(np.asarray(lat, dtype=float))
        rho = self.R * self.F / np.tan(np.pi / 4 + lat / 2) ** self.n
        th = self.n * (lon - self.lon0)
        return rho * np.sin(th), -(self.rho0 - rho * np.cos(th))


# --- data ---------------------------------------------------------------------

class Countries:
    """Country polygons of DCW-GMT, projected and clipped to the frame."""

    def __init__(self, path, proj, frame_km):
        if not os.path.exists(path):
            die("%s is missing: install gmt-dcw (contrib/deps.sh mapgen)" % path)
        self.nc = netCDF4.Dataset(path)
        self.nc.set_auto_maskandscale(False)
        self.source = "%s %s" % (getattr(self.nc, "title", "DCW-GMT"), getattr(self.nc, "version", ""))
        self.proj = proj
        self.frame = box(*frame_km)
        self.cache = {}
        self.codes = sorted(v[:-4] for v in self.nc.variables if v.endswith("_lon") and len(v) == 6)

    def _raw(self, code):
        vx, vy = self.nc.variables[code + "_lon"], self.nc.variables[code + "_lat"]
        west, south = float(vx.getncattr("min")), float(vy.getncattr("min"))
        if west > 180:
            west -= 360
        return vx, vy, west, south

    def near(self, lonlat_box):
        """Codes of countries whose bounding box meets lonlat_box."""
        w, s, e, n = lonlat_box
        out = []
        for c in self.codes:
            vx, vy, west, south = self._raw(c)
            east = west + float(vx.getncattr("max")) - float(vx.getncattr("min"))
            north = float(vy.getncattr("max"))
            if east >= w and west <= e and north >= s and south <= n:
                out.append(c)
        return out

    def get(self, code):
        if code in self.cache:
            return self.cache[code]
        if code + "_lon" not in self.nc.variables:
            die("no country %s in %s" % (code, DCW))
        vx, vy, west, south = self._raw(code)
        x, y = vx[:].astype(np.int64), vy[:].astype(np.int64)
        sx, sy = float(vx.getncattr("scale")), float(vy.getncattr("scale"))
        seps = list(np.nonzero(x == 65535)[0]) + [len(x)]
        parts = []
        for a, b in zip(seps[:-1], seps[1:]):
            if y[a] == 1 or b - a < 4:      # a hole (an enclave): the other country fills it
                continue
            lon = x[a + 1:b] / sx + west
            lat = y[a + 1:b] / sy + south
            px, py = self.proj.xy(lon, lat)
            p = Polygon(zip(px.tolist(), py.tolist()))
            if not p.intersects(self.frame):
                continue
            p = p.simplify(PRESIMPLIFY_KM, preserve_topology=True)
            if not p.is_valid:
                p = p.buffer(0)
            if p.intersects(self.frame):
                parts.append(p.intersection(self.frame))
        g = unary_union(parts) if parts else Polygon()
        g = drop_small(g, MIN_ISLAND_KM2)
        self.cache[code] = g
        return g


def polys(g):
    """The polygons of a geometry, as a list."""
    if g.is_empty:
        return []
    if g.geom_type == "Polygon":
        return [g]
    if g.geom_type in ("MultiPolygon", "GeometryCollection"):
        out = []
        for h in g.geoms:
            out.extend(polys(h))
        return out
    return []


def drop_small(g, min_area):
    return unary_union([p for p in polys(g) if p.area >= min_area]) if not g.is_empty else g


# --- cutting ------------------------------------------------------------------

def load_board(name):
    path = os.path.join(HERE, name + ".py")
    if not os.path.exists(path):
        die("no board file %s" % path)
    spec = importlib.util.spec_from_file_location("board_" + name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def read_variant(path):
    """Provinces of a variant file: abbr -> dict(terrain, supply, coasts, nbrs)."""
    root = ET.parse(path).getroot()
    provs = {}
    for p in root.iter("province"):
        coasts = [c.get("abbr") for c in p.findall("coast")]
        nbrs = set()
        moves = []
        for e in p.iter():
            if e.tag in ("army", "fleet") and e.text:
                nbrs.update(w.split("/")[0] for w in e.text.split())
        for e in p:
            if e.tag in ("army", "fleet") and e.text:
                moves.extend((p.get("abbr"), w) for w in e.text.split())
        for c in p.findall("coast"):
            for e in c.findall("fleet"):
                if e.text:
                    moves.extend((p.get("abbr") + "/" + c.get("abbr"), w) for w in e.text.split())
        provs[p.get("abbr")] = dict(terrain=p.get("terrain"),
                                    supply=p.get("centre") == "yes" or p.get("home") is not None,
                                    coasts=coasts, nbrs=nbrs, moves=moves)
    return root.get("name"), provs


class Cutter:
    def __init__(self, board, countries, proj):
        self.b = board
        self.c = countries
        self.proj = proj
        self.frame = box(*board.FRAME)

    def poly(self, pts):
        x, y = self.proj.xy([p[0] for p in pts], [p[1] for p in pts])
        p = Polygon(zip(x.tolist(), y.tolist()))
        if not p.is_valid:
            die("self-intersecting polygon starting at %s" % (pts[0],))
        return p

    def run(self):
        b = self.b
        # All land near the board, so that what no province takes is drawn too.
        codes = set()
        for _, terms in b.LAND:
            for cs, _ in terms:
                codes.update(cs.split())
        codes.update(self.c.near(getattr(b, "NEAR", (-35, 20, 75, 85))))
        land = unary_union([self.c.get(c) for c in sorted(codes)])
        note("land: %d countries" % len(codes))
        # Close the hairline gaps between neighbouring countries' borders.
        land = unary_union([Polygon(p.exterior, [r for r in p.interiors if Polygon(r).area > MERGE_KM2])
                            for p in polys(land.buffer(GAP_KM).buffer(-GAP_KM))])
        land = land.intersection(self.frame)
        note("land closed")

        faces = {}
        taken = Polygon()
        for abbr, terms in b.LAND:
            parts = []
            for cs, pts in terms:
                g = unary_union([self.c.get(c) for c in cs.split()])
                if pts is not None:
                    g = g.intersection(self.poly(pts))
                parts.append(g)
            g = unary_union(parts).intersection(land).difference(taken)
            g = unary_union(polys(g))
            if g.is_empty:
                die("province %s is empty" % abbr)
            faces[abbr] = g
            taken = taken.union(g)
        rest_land = land.difference(taken)
        note("provinces cut")

        water = self.frame.difference(land)
        wtaken = Polygon()
        lakes = []
        for name, pts in b.LAKES:
            g = unary_union(polys(water.intersection(self.poly(pts))))
            lakes.append(g)
            wtaken = wtaken.union(g)
        for abbr, pts in b.SEAS:
            g = unary_union(polys(water.intersection(self.poly(pts)).difference(wtaken)))
            if g.is_empty:
                die("sea %s is empty" % abbr)
            faces[abbr] = g
            wtaken = wtaken.union(g)
        rest_water = water.difference(wtaken)
        note("seas cut")

        impassable, lake_rest = self.hand_out(faces, rest_land, rest_water)
        return faces, impassable, unary_union(lakes + [lake_rest])

    def hand_out(self, faces, rest_land, rest_water):
        """Give small unclaimed pieces to the neighbour they share most border with."""
        # Every province's outline cut into short segments, for quick lookups.
        segs, owner = [], []
        for a in sorted(faces):
            for p in polys(faces[a]):
                for ring in [p.exterior] + list(p.interiors):
                    cs = list(ring.coords)
                    for k in range(len(cs) - 1):
                        segs.append(LineString([cs[k], cs[k + 1]]))
                        owner.append(a)
        tree = STRtree(segs)
        index = {id(g): k for k, g in enumerate(segs)}
        seas = self.seas()
        gained = {}
        keep_land, keep_water = [], []
        report = []
        for kind, rest, keep in (("land", rest_land, keep_land), ("water", rest_water, keep_water)):
            for piece in polys(rest):
                if piece.area < 1e-6:
                    continue
                best = None
                if piece.area <= MERGE_KM2:
                    # Sample the piece's outline; each sample votes for the
                    # province it lies on (same kind of ground counts double).
                    ring = piece.exterior
                    n = max(8, min(200, int(ring.length / 1.0)))
                    votes = {}
                    for k in range(n):
                        pt = ring.interpolate(k * ring.length / n)
                        near = set()
                        for g in tree.query(box(pt.x - 0.6, pt.y - 0.6, pt.x + 0.6, pt.y + 0.6)):
                            if g.distance(pt) < 0.6:
                                near.add(owner[index[id(g)]])
                        for a in near:
                            votes[a] = votes.get(a, 0) + (2 if (kind == "land") == (a not in seas) else 1)
                    if votes:
                        best = max(sorted(votes), key=lambda a: votes[a])
                if best is not None:
                    gained.setdefault(best, []).append(piece)
                else:
                    keep.append(piece)
                    if piece.area > MERGE_KM2:
                        c = piece.representative_point()
                        report.append("%s left over: %.0f km2 near %s" % (kind, piece.area, self.lonlat(c)))
        for a, ps in gained.items():
            faces[a] = unary_union([faces[a]] + ps)
        self.leftovers = report
        return unary_union(keep_land), unary_union(keep_water)

    def seas(self):
        return set(a for a, _ in self.b.SEAS)

    def lonlat(self, pt):
        lon, lat = self.proj.lonlat(pt.x, pt.y)
        return "%.1fE %.1fN" % (lon, lat)


# --- topology-preserving simplification --------------------------------------------

def to_pixels(g, frame, scale):
    from shapely import affinity
    return affinity.affine_transform(g, [scale, 0, 0, scale, -frame[0] * scale, -frame[1] * scale])


def simplify_all(tagged, outline, tol):
    """Simplify every border once, so that neighbours keep sharing it.
    tagged: list of (tag, geometry). Returns dict tag -> geometry."""
    lines = [outline.boundary] + [g.boundary for _, g in tagged]
    noded = unary_union(lines)
    merged = linemerge(noded)
    segs = list(merged.geoms) if hasattr(merged, "geoms") else [merged]
    simple = []
    for s in segs:
        t = s.simplify(tol, preserve_topology=False)
        if t.length > 0:
            simple.append(t)
    faces = list(polygonize(unary_union(simple)))
    geoms = [g for _, g in tagged]
    tree = STRtree(geoms)
    index = {id(g): i for i, g in enumerate(geoms)}
    out = {}
    for f in faces:
        rp = f.representative_point()
        best, bdist = None, None
        for g in tree.query(rp.buffer(2.0)):
            d = g.distance(rp)
            if bdist is None or d < bdist:
                best, bdist = index[id(g)], d
        if best is None:
            continue
        out.setdefault(tagged[best][0], []).append(f)
    return {k: unary_union(v) for k, v in out.items()}


# --- places -------------------------------------------------------------------

def biggest(g):
    ps = polys(g)
    return max(ps, key=lambda p: p.area)


class Shape:
    """A province prepared for many point queries."""

    def __init__(self, g):
        self.g = g
        self.boundary = g.boundary
        self.prepared = prep(g)

    def margin(self, pt):
        """Distance from pt to the outside (negative when outside)."""
        p = Point(pt)
        d = self.boundary.distance(p)
        return d if self.prepared.contains(p) else -d


def inside_margin(g, pt):
    return Shape(g).margin(pt)


def best_spot(g, centre, taken, rmin, rmax, want, half, below=0.0, avoid=(), outside=50):
    """The best point within rmax of centre for a box of half-size half
    (w, h): inside g with a margin (leaving it costs outside), near
    distance want, away from taken, not overlapping the boxes in avoid
    ((x0, y0, x1, y1) each)."""
    best, bscore = None, None
    shape = Shape(g)
    cx, cy = centre
    step = 2.0
    n = int(rmax / step)
    for i in range(-n, n + 1):
        for j in range(-n, n + 1):
            x, y = cx + i * step, cy + j * step
            d = math.hypot(x - cx, y - cy)
            if d < rmin or d > rmax:
                continue
            m = min(shape.margin((x + dx, y + dy))
                    for dx, dy in ((0, 0), (-half[0], -half[1]), (half[0], -half[1]),
                                   (-half[0], half[1]), (half[0], half[1])))
            gap = min([math.hypot(x - a, y - b) for a, b in taken] or [99.0])
            score = min(m, 4.0) * 2 - abs(d - want) * 0.3 + min(gap, 20.0) * 0.2
            score += below * (1 if y > cy + 2 else 0)
            if m < 1.0:
                score -= outside
            if gap < rmin:
                score -= 50
            for x0, y0, x1, y1 in avoid:
                if x - half[0] < x1 and x + half[0] > x0 and y - half[1] < y1 and y + half[1] > y0:
                    score -= 100
            if bscore is None or score > bscore + 1e-9:
                best, bscore = (x, y), score
    return best


def nudge_inside(g, pt, margin):
    """pt, or the nearest point of g at least margin inside it."""
    shape = Shape(g)
    if shape.margin(pt) >= margin:
        return pt
    best, bd = None, None
    for r in range(1, 40):
        for k in range(8 * r):
            a = 2 * math.pi * k / (8 * r)
            q = (pt[0] + r * 0.5 * math.cos(a), pt[1] + r * 0.5 * math.sin(a))
            if shape.margin(q) >= margin:
                d = math.hypot(q[0] - pt[0], q[1] - pt[1])
                if bd is None or d < bd:
                    best, bd = q, d
        if best is not None:
            return best
    return pt


def compute_places(abbr, g, info, overrides, city, to_px):
    places = {}
    ov = {k: to_px(v) for k, v in overrides.items()}
    centre = None
    if info["supply"]:
        if "centre" in ov:
            centre = ov["centre"]
        elif city is not None:
            centre = nudge_inside(g, to_px(city), 3.0)
    if "unit" in ov:
        unit = ov["unit"]
    else:
        p = polylabel(biggest(g), tolerance=0.5)
        unit = (p.x, p.y)
        if centre is not None and math.hypot(unit[0] - centre[0], unit[1] - centre[1]) < 11:
            unit = best_spot(g, unit, [centre], 11, 30, 0, (6, 6))
    places["unit"] = unit
    for c in info["coasts"]:
        key = "unit-" + c
        if key not in ov:
            die("%s: coast %s needs a place in PLACES" % (abbr, c))
        places[key] = ov[key]
    taken = [places[k] for k in places]
    if info["supply"]:
        places["centre"] = centre or best_spot(g, unit, taken, 10, 24, 12, (3, 3))
    if "label" in ov:
        places["label"] = ov["label"]
    return places


FONT_PX = 9.0              # a name as maps/render.c draws it: 9px DejaVu Sans,
LETTER_EM = 0.72           # about this wide a letter at most,
BASELINE_PX = 3.2          # the baseline this far below the label place,
ASCENT_EM, DESCENT_EM = 0.76, 0.24
BORDER_PAD = 0.5           # a name keeps this far inside its province's border
ARROW_PAD = 1.0            # and this far from every move's line (its centre)
CLEAR_PAD = 2.5            # preferred: clear of an arrow's dark edge too,
OFF_BORDER = 3.0           # and this far from the border
GLYPH_PAD = 1.5            # preferred: this far from units and markers (the name's halo)
LABEL_REACH = 90           # how far from its unit a name may go
UNIT_STEP, UNIT_STEPS = 4, 6   # a unit may move this many steps of this many pixels each way
COVER = 1000               # what a name under a unit, a marker or another name costs,
OVERFLOW = 100             # one not inside its province, and (1) each arrow across it

# The glyphs maps/render.c draws (draw_unit, add_centres), each with half
# its 1px outline, around their places (x0, y0, x1, y1): a fleet (its
# mast above the place), an army's block, a centre marker's ring.
FLEET_BOX = (-11.5, -13.0, 11.5, 7.0)
ARMY_BOX = (-9.0, -6.5, 9.0, 6.5)
MARKER_BOX = (-4.7, -4.7, 4.7, 4.7)
DISLODGED = (11.0, -11.0)  # a dislodged unit is drawn this far from its place (render.h)
SEAT_R, SEAT_AWAY = 5.9, 10.0  # a capital's star or a naval base's diamond: its size, how
SEAT_TURNS = (0.0, 0.7, -0.7)  # far from its centre marker, away from the unit (render.c seat_at)


def label_extent(abbr):
    """The box of a province's name around its label place (x0, y0, x1, y1),
    as tests/unit/test_labels.c estimates it."""
    half = LETTER_EM * FONT_PX * len(abbr) / 2
    return (-half, BASELINE_PX - ASCENT_EM * FONT_PX, half, BASELINE_PX + DESCENT_EM * FONT_PX)


def glyph_box(info, key, pt):
    """The box of what is drawn at place key of a province: a centre
    marker, a fleet where one may stand (its box holds an army's), else an
    army."""
    if key == "centre":
        e = MARKER_BOX
    elif key != "unit" or info["terrain"] == "sea" or (info["terrain"] == "coast" and not info["coasts"]):
        e = FLEET_BOX
    else:
        e = ARMY_BOX
    return (pt[0] + e[0], pt[1] + e[1], pt[0] + e[2], pt[1] + e[3])


def glyph_boxes(variant, places, skip=None):
    """The boxes of every unit place's glyph and every centre marker, as an
    array of (x0, y0, x1, y1) (without skip's own unit)."""
    out = []
    for abbr in sorted(places):
        for key, pt in sorted(places[abbr].items()):
            if (key.startswith("unit") or key == "centre") and (abbr, key) != (skip, "unit"):
                out.append(glyph_box(variant[abbr], key, pt))
    return np.array(out, dtype=float).reshape(-1, 4)


def dislodged_boxes(variant, places):
    """The boxes of the units drawn dislodged, DISLODGED from every unit
    place, as an array."""
    out = []
    for abbr in sorted(places):
        for key, (x, y) in sorted(places[abbr].items()):
            if key.startswith("unit"):
                out.append(glyph_box(variant[abbr], key, (x + DISLODGED[0], y + DISLODGED[1])))
    return np.array(out, dtype=float).reshape(-1, 4)


def seat_boxes(places):
    """The boxes of the capital and naval base markers a Realpolitik game
    draws beside a centre marker, at each place they may take, as an array."""
    out = []
    for abbr in sorted(places):
        pl = places[abbr]
        if "centre" not in pl:
            continue
        (cx, cy), (ux, uy) = pl["centre"], pl["unit"]
        d = math.hypot(cx - ux, cy - uy)
        dx, dy = ((cx - ux) / d, (cy - uy) / d) if d >= 1 else (1.0, 0.0)
        for a in SEAT_TURNS:
            x = cx + SEAT_AWAY * (dx * math.cos(a) - dy * math.sin(a))
            y = cy + SEAT_AWAY * (dx * math.sin(a) + dy * math.cos(a))
            out.append((x - SEAT_R, y - SEAT_R, x + SEAT_R, y + SEAT_R))
    return np.array(out, dtype=float).reshape(-1, 4)


def name_boxes(places, skip=None):
    """The boxes of the names placed so far (but skip's), as an array."""
    out = []
    for abbr in sorted(places):
        if abbr != skip and "label" in places[abbr]:
            (x, y), e = places[abbr]["label"], label_extent(abbr)
            out.append((x + e[0], y + e[1], x + e[2], y + e[3]))
    return np.array(out, dtype=float).reshape(-1, 4)


def move_lines(variant, places):
    """Every move's arrow as drawn: (x0, y0, x1, y1) between two unit places."""
    def at(loc):
        prov, _, coast = loc.partition("/")
        return places[prov]["unit-" + coast if coast else "unit"]
    seen = set()
    for abbr in sorted(variant):
        for a, b in variant[abbr]["moves"]:
            if a.split("/")[0] != b.split("/")[0]:
                seen.add(tuple(sorted((a, b))))
    return np.array([at(a) + at(b) for a, b in sorted(seen)], dtype=float).reshape(-1, 4)


def ring_edges(g):
    """The edges of g's outline, (x0, y0, x1, y1) each."""
    out = []
    for p in polys(g):
        for ring in [p.exterior] + list(p.interiors):
            cs = list(ring.coords)
            out.extend(cs[k] + cs[k + 1] for k in range(len(cs) - 1))
    return np.array(out, dtype=float).reshape(-1, 4)


def segment_meets_boxes(seg, x0, y0, x1, y1):
    """Does the segment (ax, ay, bx, by) meet each of the boxes (arrays
    x0, y0, x1, y1)? (Liang-Barsky clipping, all at once.)"""
    ax, ay, bx, by = seg
    dx, dy = bx - ax, by - ay
    t0 = np.zeros(np.broadcast(x0, y0).shape)
    t1 = np.ones_like(t0)
    miss = np.zeros(t0.shape, dtype=bool)
    for p, q in ((-dx, ax - x0), (dx, x1 - ax), (-dy, ay - y0), (dy, y1 - ay)):
        if p == 0:
            miss |= q < 0
        elif p < 0:
            t0 = np.maximum(t0, q / p)
        else:
            t1 = np.minimum(t1, q / p)
    return ~miss & (t0 <= t1)


def near(lines, x0, y0, x1, y1):
    """The lines whose bounding box meets the rectangle."""
    if len(lines) == 0:
        return lines
    keep = ((np.minimum(lines[:, 0], lines[:, 2]) <= x1) & (np.maximum(lines[:, 0], lines[:, 2]) >= x0) &
            (np.minimum(lines[:, 1], lines[:, 3]) <= y1) & (np.maximum(lines[:, 1], lines[:, 3]) >= y0))
    return lines[keep]


class NameGrid:
    """The places a province's name may take: the whole pixels within
    LABEL_REACH of anywhere its unit may go, as arrays over that window
    (rows y, columns x), with what the province says of each, found once:
    whether the name's middle lies inside, whether its box fits inside
    (BORDER_PAD off the border), whether it keeps OFF_BORDER off it.
    bounds: the box of every name's box at any of them, grown by the
    largest pad asked of it."""

    def __init__(self, g, unit, ext):
        r = LABEL_REACH + UNIT_STEP * UNIT_STEPS + 1
        ux, uy = round(unit[0]), round(unit[1])
        bx0, by0, bx1, by1 = g.bounds
        x0, x1 = max(math.floor(bx0), ux - r), min(math.ceil(bx1), ux + r)
        y0, y1 = max(math.floor(by0), uy - r), min(math.ceil(by1), uy + r)
        self.ext = ext
        self.xs = np.arange(x0, max(x0, x1) + 1, dtype=float)
        self.ys = np.arange(y0, max(y0, y1) + 1, dtype=float)
        pad = max(CLEAR_PAD, OFF_BORDER, BORDER_PAD, ARROW_PAD)
        self.bounds = (x0 + ext[0] - pad, y0 + ext[1] - pad, x1 + ext[2] + pad, y1 + ext[3] + pad)
        edges = ring_edges(g)
        self.inside = self.scan_inside(edges)
        edges = near(edges, *self.bounds)
        self.fits = self.inside & (self.lines_over(edges, BORDER_PAD) == 0)
        self.off_border = self.lines_over(edges, OFF_BORDER) == 0

    def scan_inside(self, edges):
        """Even-odd rule, a row at a time: which places lie inside the edges."""
        inside = np.zeros((len(self.ys), len(self.xs)), dtype=bool)
        ax, ay, bx, by = (edges[:, i] for i in range(4))
        for j, y in enumerate(self.ys):
            k = (ay > y) != (by > y)
            cut = np.sort(ax[k] + (y - ay[k]) * (bx[k] - ax[k]) / (by[k] - ay[k]))
            inside[j] = (len(cut) - np.searchsorted(cut, self.xs, side="right")) % 2 == 1
        return inside

    def span(self, lo, hi, axis):
        """The indexes of the places along axis (0: x, 1: y) with lo <= v <= hi."""
        v = self.xs if axis == 0 else self.ys
        return int(np.searchsorted(v, lo, side="left")), int(np.searchsorted(v, hi, side="right"))

    def lines_over(self, lines, pad):
        """How many of lines meet the name's box, grown by pad, at each place."""
        e = self.ext
        out = np.zeros((len(self.ys), len(self.xs)), dtype=int)
        for seg in lines:
            i0, i1 = self.span(min(seg[0], seg[2]) - e[2] - pad, max(seg[0], seg[2]) - e[0] + pad, 0)
            j0, j1 = self.span(min(seg[1], seg[3]) - e[3] - pad, max(seg[1], seg[3]) - e[1] + pad, 1)
            if i0 >= i1 or j0 >= j1:
                continue
            x, y = self.xs[None, i0:i1], self.ys[j0:j1, None]
            out[j0:j1, i0:i1] += segment_meets_boxes(seg, x + e[0] - pad, y + e[1] - pad,
                                                     x + e[2] + pad, y + e[3] + pad)
        return out

    def boxes_over(self, boxes, pad):
        """How many of boxes the name's box, grown by pad, overlaps at each place."""
        e = self.ext
        out = np.zeros((len(self.ys), len(self.xs)), dtype=int)
        for bx0, by0, bx1, by1 in boxes:
            i0, i1 = self.span(bx0 - e[2] - pad, bx1 - e[0] + pad, 0)
            j0, j1 = self.span(by0 - e[3] - pad, by1 - e[1] + pad, 1)
            if i0 >= i1 or j0 >= j1:
                continue
            x, y = self.xs[None, i0:i1], self.ys[j0:j1, None]
            out[j0:j1, i0:i1] += ((x + e[0] - pad < bx1) & (x + e[2] + pad > bx0) &
                                  (y + e[1] - pad < by1) & (y + e[3] + pad > by0))
        return out

    def costs(self, unit, cover, crossed):
        """The cost of each place for a name whose unit is at unit (a
        cover, an overflow, a crossing: COVER, OVERFLOW, 1 each), as an
        array with None where it may not go: too far from the unit, or its
        middle outside the province."""
        ux, uy = round(unit[0]), round(unit[1])
        ok = (self.inside & (np.abs(self.xs[None, :] - ux) <= LABEL_REACH) &
              (np.abs(self.ys[:, None] - uy) <= LABEL_REACH))
        cost = cover * COVER + ~self.fits * OVERFLOW + crossed
        return np.where(ok, cost, -1)

    def least(self, unit, cover, crossed):
        """The least cost of a place for the name (None: no place)."""
        cost = self.costs(unit, cover, crossed)
        return int(cost[cost >= 0].min()) if (cost >= 0).any() else None

    def best(self, unit, want, cover, crossed, clear, close):
        """The place of least cost; among those the one nearest distance
        want from the unit, preferably below it, clear of the arrows' edges
        (clear), off the border, not close to units and markers and not
        under where dislodged units and Realpolitik's capitals and naval
        bases are drawn (close: 1 and 2 count against).
        Returns the place and its cost (None, None: no place)."""
        cost = self.costs(unit, cover, crossed)
        if not (cost >= 0).any():
            return None, None
        low = cost[cost >= 0].min()
        x, y = np.broadcast_arrays(self.xs[None, :], self.ys[:, None])
        d = np.hypot(x - unit[0], y - unit[1])
        score = -np.abs(d - want) * 0.3 + (y > unit[1] + 2) * 1.0 + clear * 4.0 + self.off_border * 4.0
        score -= close * 3.0
        score = np.where(cost == low, score, -np.inf)
        k = np.unravel_index(int(np.argmax(score)), score.shape)
        return (float(x[k]), float(y[k])), int(low)


def label_grids(faces, variant, places):
    """A NameGrid for each province whose name mapgen places."""
    return {a: NameGrid(faces[a], places[a]["unit"], label_extent(a))
            for a in sorted(places) if "label" not in places[a]}


def name_wants(variant, abbr):
    """How far from its unit a province's name would best be."""
    return 22 if variant[abbr]["terrain"] == "sea" else 14


def place_labels(faces, variant, places, grids):
    """Names, once every unit and marker has its place: each inside its
    province, covered by nothing (a unit, a centre marker, another name)
    and crossed by no move's arrow; where that cannot be, a crossing
    rather than a name overflowing its province, and either rather than a
    name covered. Smaller provinces choose first. Returns the problems
    (names that found no such place) and their costs by province."""
    glyphs = glyph_boxes(variant, places)
    aside = np.vstack([dislodged_boxes(variant, places), seat_boxes(places)])
    arrows = move_lines(variant, places)
    names = []
    failed, costs = [], {}
    for abbr in sorted(places, key=lambda a: (faces[a].area, a)):
        pl = places[abbr]
        ext = label_extent(abbr)
        if "label" not in pl:
            grid = grids[abbr]
            lines = near(arrows, *grid.bounds)
            cover = grid.boxes_over(glyphs, 0) + grid.boxes_over(names, 0)
            close = ((grid.boxes_over(glyphs, GLYPH_PAD) > 0) * 1 +
                     (grid.boxes_over(aside, 0) > 0) * 2)
            clear = grid.lines_over(lines, CLEAR_PAD) == 0
            pl["label"], cost = grid.best(pl["unit"], name_wants(variant, abbr), cover,
                                          grid.lines_over(lines, ARROW_PAD), clear, close)
            if pl["label"] is None:
                failed.append("%s: no place for the name inside the province" % abbr)
                pl["label"], cost = pl["unit"], COVER
            if cost:
                failed.append("%s: the name is %s" % (abbr, ", ".join(cost_words(cost))))
                costs[abbr] = cost
        x, y = pl["label"]
        names.append((x + ext[0], y + ext[1], x + ext[2], y + ext[3]))
    return failed, costs


def cost_words(cost):
    """What a name's cost says, in words."""
    out = []
    if cost >= COVER:
        out.append("covered %d times" % (cost // COVER))
    if cost % COVER >= OVERFLOW:
        out.append("not inside its province")
    if cost % OVERFLOW:
        out.append("crossed by %d moves' arrows" % (cost % OVERFLOW))
    return out


def unit_choices(g, unit, avoid):
    """Other places for a unit: inside g, 8 from its border, 11 from the
    points of avoid, nearest first."""
    shape = Shape(g)
    out = []
    for i in range(-UNIT_STEPS, UNIT_STEPS + 1):
        for j in range(-UNIT_STEPS, UNIT_STEPS + 1):
            q = (unit[0] + UNIT_STEP * i, unit[1] + UNIT_STEP * j)
            if min([math.hypot(q[0] - a, q[1] - b) for a, b in avoid] or [99]) < 11:
                continue
            if shape.margin(q) >= 8:
                out.append(q)
    return sorted(out, key=lambda q: (math.hypot(q[0] - unit[0], q[1] - unit[1]), q))


class UnitCost:
    """The cost of a place for a province's unit, the rest standing still:
    the least cost of its own name's place, plus the names of the others
    its arrows cross and (COVER each) its glyph covers. What does not
    depend on the unit's place is found once."""

    def __init__(self, variant, places, abbr, grid):
        self.info, self.grid, at = variant[abbr], grid, places[abbr]["unit"]
        arrows = move_lines(variant, places)
        starts = (arrows[:, 0] == at[0]) & (arrows[:, 1] == at[1])
        mine = starts | ((arrows[:, 2] == at[0]) & (arrows[:, 3] == at[1]))
        self.ends = np.where(starts[:, None], arrows[:, 2:], arrows[:, :2])[mine]
        self.crossed = grid.lines_over(near(arrows[~mine], *grid.bounds), ARROW_PAD)
        self.cover = grid.boxes_over(glyph_boxes(variant, places, skip=abbr), 0)
        self.names = name_boxes(places, skip=abbr)

    def __call__(self, u):
        """The cost with the unit at u (None: no place for its name)."""
        lines = np.hstack([np.tile(np.array(u, dtype=float), (len(self.ends), 1)), self.ends])
        glyph = glyph_box(self.info, "unit", u)
        own = self.grid.least(u, self.cover + self.grid.boxes_over([glyph], 0),
                              self.crossed + self.grid.lines_over(lines, ARROW_PAD))
        if own is None:
            return None
        n, e = self.names, ARROW_PAD
        for seg in lines:
            own += int(segment_meets_boxes(seg, n[:, 0] - e, n[:, 1] - e, n[:, 2] + e, n[:, 3] + e).sum())
        own += COVER * int(((n[:, 0] < glyph[2]) & (n[:, 2] > glyph[0]) &
                            (n[:, 1] < glyph[3]) & (n[:, 3] > glyph[1])).sum())
        return own


def move_units(faces, variant, places, fixed, grids):
    """Where a name cannot have a place of no cost, the units in its way
    (its own, those its name would cover and those at the ends of the
    arrows that cross it; not those PLACES fixes) move to the nearest place
    of least cost."""
    trial = {a: {k: v for k, v in pl.items() if k != "label"} for a, pl in places.items()}
    _, costs = place_labels(faces, variant, trial, grids)
    for abbr in sorted(costs):
        x, y = trial[abbr]["label"]
        e = label_extent(abbr)
        r = (x + e[0], y + e[1], x + e[2], y + e[3])
        movers = {abbr}
        for m in sorted(trial):
            u = trial[m]["unit"]
            g = glyph_box(variant[m], "unit", u)
            if g[0] < r[2] and g[2] > r[0] and g[1] < r[3] and g[3] > r[1]:
                movers.add(m)
        owner = {trial[a]["unit"]: a for a in trial}
        for line in move_lines(variant, trial):
            if segment_meets_boxes(line, r[0] - ARROW_PAD, r[1] - ARROW_PAD, r[2] + ARROW_PAD, r[3] + ARROW_PAD):
                movers.update(owner[q] for q in (tuple(line[:2]), tuple(line[2:])) if q in owner)
        for m in sorted(movers - fixed):
            pl = trial[m]
            cost = UnitCost(variant, trial, m, grids[m])
            best, bkey = None, cost(pl["unit"])
            for u in unit_choices(faces[m], pl["unit"], [pl["centre"]] if "centre" in pl else []):
                key = cost(u)
                if key is not None and (bkey is None or key < bkey):
                    best, bkey = u, key
                if key == 0:
                    break
            if best is not None:
                places[m]["unit"] = best
                trial[m]["unit"] = best


def unit_anywhere(g, avoid):
    """Places for a unit anywhere in g, UNIT_STEP apart: 4 from its border
    (the glyph may reach over it), 11 from the points of avoid."""
    shape = Shape(g)
    x0, y0, x1, y1 = g.bounds
    out = []
    for x in np.arange(math.ceil(x0), x1, UNIT_STEP):
        for y in np.arange(math.ceil(y0), y1, UNIT_STEP):
            q = (float(x), float(y))
            if min([math.hypot(q[0] - a, q[1] - b) for a, b in avoid] or [99]) < 11:
                continue
            if shape.margin(q) >= 4:
                out.append(q)
    return out


def free_names(faces, variant, places, fixed, grids):
    """A name that still has no place inside its province (too narrow
    beside its unit) moves its own unit (not one PLACES fixes) anywhere in
    the province where the cost is least, when that is less."""
    trial = {a: {k: v for k, v in pl.items() if k != "label"} for a, pl in places.items()}
    _, costs = place_labels(faces, variant, trial, grids)
    for abbr in sorted(a for a, c in costs.items() if c % COVER >= OVERFLOW and a not in fixed):
        pl = trial[abbr]
        cost = UnitCost(variant, trial, abbr, grids[abbr])
        best, bkey = None, cost(pl["unit"])
        for u in unit_anywhere(faces[abbr], [pl["centre"]] if "centre" in pl else []):
            key = cost(u)
            if key is not None and (bkey is None or key < bkey):
                best, bkey = u, key
        if best is not None:
            places[abbr]["unit"] = best
            trial[abbr]["unit"] = best


# --- output -------------------------------------------------------------------

def fmt(v):
    s = "%.1f" % v
    if s == "-0.0":
        s = "0.0"
    return s[:-2] if s.endswith(".0") else s


def tenths(v):
    return int(round(v * 10))


def num(t):
    """A number of tenths, written short: 12.3, -.5, 7."""
    sign = "-" if t < 0 else ""
    t = abs(t)
    whole, frac = divmod(t, 10)
    if frac == 0:
        return "%s%d" % (sign, whole)
    return "%s%s.%d" % (sign, whole if whole else "", frac)


def path_d(g):
    """Path data: absolute first point, then relative moves, in tenths of a
    pixel. Neighbours round the same points alike, so shared borders stay
    shared."""
    out = []
    for p in polys(g):
        for ring in [p.exterior] + list(p.interiors):
            pts = []
            for x, y in list(ring.coords)[:-1]:
                q = (tenths(x), tenths(y))
                if not pts or q != pts[-1]:
                    pts.append(q)
            if len(pts) >= 2 and pts[0] == pts[-1]:
                pts.pop()
            if len(pts) < 3:
                continue
            d = ["M%s,%s" % (num(pts[0][0]), num(pts[0][1])), "l"]
            prev = pts[0]
            steps = []
            for q in pts[1:]:
                steps.append("%s,%s" % (num(q[0] - prev[0]), num(q[1] - prev[1])))
                prev = q
            out.append(d[0] + d[1] + " ".join(steps) + "z")
    return "".join(out)


def xy(p):
    return "%s %s" % (fmt(p[0]), fmt(p[1]))


STYLE = """
.water{fill:#b9d3e6}.lake{fill:#b9d3e6;stroke:#5d7f99;stroke-width:.4}
.impassable{fill:#d9d4c7;stroke:#8a857a;stroke-width:.4}
.land{fill:#efe9d8;stroke:#6b6150;stroke-width:.6}.sea{fill:#b9d3e6;stroke:#5d7f99;stroke-width:.4}
.label{font:9px 'DejaVu Sans',sans-serif;fill:#222;text-anchor:middle}
.sealabel{font:italic 9px 'DejaVu Sans',sans-serif;fill:#34556e;text-anchor:middle}
.centre{fill:#fff;stroke:#222;stroke-width:1.2}
"""


def write_svg(out, name, title, width, height, source, faces, impassable, lakes, places, variant):
    ns = "http://www.w3.org/2000/svg"
    lines = []
    w = lines.append
    w('<?xml version="1.0" encoding="UTF-8"?>')
    w("<!--")
    w("  Geometry of the %s board, generated by contrib/mapgen/mapgen.py %s" % (name, name))
    w("  (do not edit by hand; change contrib/mapgen/%s.py and run it again)." % name)
    w("  Coastlines and borders: %s (LGPL-3+); provinces: pouch." % source.strip())
    w("  Format: maps/FORMAT.md, \"Map geometry\". Sources: maps/%s/SOURCES.md." % name)
    w("-->")
    w('<svg xmlns="%s" xmlns:pouch="urn:pouch:geometry" version="1.1" width="%d" height="%d" '
      'viewBox="0 0 %d %d" pouch:variant="%s" pouch:title="8 8" pouch:legend="8 %d">'
      % (ns, width, height, width, height, name, height - 8))
    w("<title>%s board</title>" % title)
    w("<style>%s</style>" % STYLE.strip().replace("\n", ""))
    w('<g id="background">')
    w('<rect class="water" x="0" y="0" width="%d" height="%d"/>' % (width, height))
    if not lakes.is_empty:
        w('<path class="lake" d="%s"/>' % path_d(lakes))
    if not impassable.is_empty:
        w('<path class="impassable" d="%s"/>' % path_d(impassable))
    w("</g>")
    w('<g id="provinces">')
    for abbr in sorted(faces):
        info = variant[abbr]
        pl = places[abbr]
        attrs = ['id="%s"' % abbr, 'class="%s"' % ("sea" if info["terrain"] == "sea" else "land")]
        attrs.append('pouch:unit="%s"' % xy(pl["unit"]))
        for c in info["coasts"]:
            attrs.append('pouch:unit-%s="%s"' % (c, xy(pl["unit-" + c])))
        attrs.append('pouch:label="%s"' % xy(pl["label"]))
        if "centre" in pl:
            attrs.append('pouch:centre="%s"' % xy(pl["centre"]))
        w("<path %s d=\"%s\"/>" % (" ".join(attrs), path_d(faces[abbr])))
    w("</g>")
    # For looking at the file by itself; pouch's renderer draws its own.
    w('<g id="labels">')
    for abbr in sorted(faces):
        pl = places[abbr]
        cls = "sealabel" if variant[abbr]["terrain"] == "sea" else "label"
        w('<text class="%s" x="%s" y="%s">%s</text>' % (cls, fmt(pl["label"][0]), fmt(pl["label"][1] + 3),
                                                         abbr.capitalize()))
    for abbr in sorted(faces):
        pl = places[abbr]
        if "centre" in pl:
            w('<circle class="centre" cx="%s" cy="%s" r="3"/>' % (fmt(pl["centre"][0]), fmt(pl["centre"][1])))
    w("</g>")
    w("</svg>")
    data = "\n".join(lines) + "\n"
    return data


# --- checks -------------------------------------------------------------------

WHERE = None    # pixel -> "lon lat" text, set by main()


def where(pt):
    return WHERE(pt) if WHERE else "%.0f,%.0f" % pt


def check_adjacency(faces, variant, board):
    """Compare which provinces touch on the drawing with the variant's edges."""
    names = sorted(faces)
    tree = STRtree([faces[a] for a in names])
    idx = {id(faces[a]): a for a in names}
    touch = set()
    for a in names:
        for g in tree.query(faces[a].buffer(TOUCH_PX)):
            b = idx[id(g)]
            if b != a and faces[a].distance(g) < TOUCH_PX:
                touch.add(tuple(sorted((a, b))))
    want = set()
    for a, info in variant.items():
        for b in info["nbrs"]:
            want.add(tuple(sorted((a, b))))
    allowed = set(tuple(sorted(p)) for p in getattr(board, "WATERWAYS", []))
    problems = []
    for a, b in sorted(want - touch):
        if (a, b) not in allowed:
            problems.append("%s and %s are neighbours but do not touch on the map" % (a, b))
    for a, b in sorted(touch - want):
        pa, pb = nearest_points(faces[a], faces[b])
        problems.append("%s and %s touch on the map but are not neighbours (at %s)"
                        % (a, b, where(((pa.x + pb.x) / 2, (pa.y + pb.y) / 2))))
    return problems


def main():
    ap = argparse.ArgumentParser(description="make maps/NAME/map.svg from real geography")
    ap.add_argument("board", help="board file contrib/mapgen/BOARD.py (e.g. standard)")
    ap.add_argument("--dcw", default=DCW, help="DCW-GMT netCDF file (default %(default)s)")
    ap.add_argument("--variant", help="variant file (default maps/BOARD/variant.xml)")
    ap.add_argument("--out", help="output (default maps/BOARD/map.svg)")
    ap.add_argument("--check", action="store_true", help="compare with the output file instead of writing it")
    ap.add_argument("-v", "--verbose", action="store_true", help="say how long each step takes")
    args = ap.parse_args()
    global VERBOSE, T0
    VERBOSE, T0 = args.verbose, time.time()

    board = load_board(args.board)
    vpath = args.variant or os.path.join(TOP, "maps", args.board, "variant.xml")
    out = args.out or os.path.join(TOP, "maps", args.board, "map.svg")
    vname, variant = read_variant(vpath)

    proj = Lambert(**board.PROJECTION)
    countries = Countries(args.dcw, proj, board.FRAME)
    cutter = Cutter(board, countries, proj)
    faces, impassable, lakes = cutter.run()

    missing = sorted(set(variant) - set(faces))
    extra = sorted(set(faces) - set(variant))
    if missing or extra:
        die("provinces missing from the board file: %s; unknown: %s" % (missing, extra))

    fr = board.FRAME
    scale = board.WIDTH / (fr[2] - fr[0])
    width = board.WIDTH
    height = int(round((fr[3] - fr[1]) * scale))
    outline = box(0, 0, width, height)
    tagged = [(a, to_pixels(faces[a], fr, scale)) for a in sorted(faces)]
    if not impassable.is_empty:
        tagged.append(("#impassable", to_pixels(impassable, fr, scale)))
    if not lakes.is_empty:
        tagged.append(("#lake", to_pixels(lakes, fr, scale)))
    note("leftovers handed out")
    simple = simplify_all(tagged, outline, SIMPLIFY_PX)
    note("simplified")
    pfaces = {a: simple[a] for a in faces if a in simple}
    lost = sorted(set(faces) - set(pfaces))
    if lost:
        die("provinces lost in simplification: %s" % lost)

    def to_px(lonlat):
        x, y = proj.xy(lonlat[0], lonlat[1])
        return ((float(x) - fr[0]) * scale, (float(y) - fr[1]) * scale)

    global WHERE
    WHERE = lambda pt: "%.1fE %.1fN" % proj.lonlat(pt[0] / scale + fr[0], pt[1] / scale + fr[1])
    places = {}
    for abbr in sorted(pfaces):
        ov = getattr(board, "PLACES", {}).get(abbr, {})
        city = getattr(board, "CITIES", {}).get(abbr)
        places[abbr] = compute_places(abbr, pfaces[abbr], variant[abbr], ov, city, to_px)
    grids = label_grids(pfaces, variant, places)
    move_units(pfaces, variant, places, set(a for a, ov in getattr(board, "PLACES", {}).items() if "unit" in ov),
               grids)
    note("units moved off the names' way")
    free_names(pfaces, variant, places, set(a for a, ov in getattr(board, "PLACES", {}).items() if "unit" in ov),
               grids)
    note("units moved out of narrow provinces' names")
    failed, _ = place_labels(pfaces, variant, places, grids)
    note("names placed")

    problems = check_adjacency(pfaces, variant, board)
    for abbr in sorted(pfaces):
        info = variant[abbr]
        for key, pt in places[abbr].items():
            if key != "label" and inside_margin(pfaces[abbr], pt) < 0:
                problems.append("%s: %s lies outside the province" % (abbr, key))
    if VERBOSE or not args.check:
        for line in cutter.leftovers + failed:
            sys.stderr.write("mapgen: note: %s\n" % line)
    for line in problems:
        sys.stderr.write("mapgen: %s\n" % line)
    if problems and getattr(board, "STRICT", False):
        die("%d problems: %s not written" % (len(problems), out))

    title = getattr(board, "TITLE", vname.capitalize())
    data = write_svg(out, board.NAME, title, width, height, countries.source, pfaces,
                     simple.get("#impassable", Polygon()), simple.get("#lake", Polygon()), places, variant)
    if args.check:
        try:
            with open(out, encoding="utf-8") as f:
                old = f.read()
        except OSError as e:
            die("%s: %s" % (out, e))
        if old != data:
            die("%s is not what contrib/mapgen/mapgen.py %s makes" % (out, args.board))
        print("%s is up to date (%d provinces)" % (out, len(pfaces)))
    else:
        tmp = out + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(data)
        os.replace(tmp, out)
        print("wrote %s: %d provinces, %d bytes, %d problems" % (out, len(pfaces), len(data), len(problems)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
