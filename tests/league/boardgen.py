"""boardgen: orders for the board systems as pupils write them.

The simulated league (tests/league/) plays whole games by mail through the
real `pouch run`; this module is its order generator for the games with a
board: the standard game (and the multi-power delegations of games with
fewer players), MUNA and Realpolitik. Python 3 standard library only.

    board = Board.load(maps_dir, variant)        # "standard", "muna", "realpolitik" or a path
    pos = read_position(board, game_dir)         # DATA/games/NAME/ (its game.txt)
    orders = draw_orders(board, pos, powers, rng)
    text = write_order(board, order, rng)        # one line, one meaning
    matches(order, line)                         # a reply or results line is this order?

Every order drawn is one the judge accepts: holds, moves to neighbours (a
fleet names the coast where it must), supports of a neighbour's hold or
move, convoys along a chain of the army's own fleets, retreats, disbands,
builds on owned vacant home centres (never more than due), removals, and
Realpolitik's stacks, embarking and landing. A pupil sometimes forgets a
unit, builds fewer than due or waives.

write_order misspells a place only where the misspelling can mean that one
place under the parser's own rule (parser/names.c: exact names, then
beginnings of three letters or more, then the optimal-string-alignment
distance within 0/1/2/3 edits for words of under 4/4-5/6-8/9+ letters, each
against every name, alias and abbreviation of every province and power).
"""

import os
import re
import xml.etree.ElementTree as ET

__all__ = ["Board", "Position", "Unit", "Order", "read_position", "draw_orders",
           "write_order", "matches", "canonical", "results_text", "builds_due", "typo_is_safe"]

# ---------------------------------------------------------------- the board

class Province:
    def __init__(self, abbr, name, terrain):
        self.abbr = abbr
        self.name = name
        self.terrain = terrain          # land, sea, coast
        self.centre = False
        self.home = None                # power name
        self.aliases = []
        self.army = set()               # province abbrs
        self.coasts = {}                # coast abbr -> coast name ("North Coast")


class Power:
    def __init__(self, abbr, name, adjective, letter):
        self.abbr = abbr
        self.name = name
        self.adjective = adjective
        self.letter = letter
        self.aliases = []
        self.token = name.replace(" ", "_")


class Board:
    """A variant's board: provinces, coasts, adjacencies, centres, powers."""

    def __init__(self):
        self.name = ""
        self.system = "standard"
        self.options = {}
        self.start_year = 1901
        self.powers = []                # in file order
        self.provinces = {}             # abbr -> Province
        self.fleet = {}                 # location ("bul/ec", "nth") -> [locations]
        self.capitals = {}              # power name -> [province abbrs]
        self.naval_bases = {}           # power name -> [province abbrs]
        self._keys = None

    # -- loading
    @classmethod
    def load(cls, maps_dir, variant):
        """The board of a variant name or a variant.xml path (maps/FORMAT.md)."""
        path = variant
        if not variant.endswith(".xml"):
            path = os.path.join(maps_dir, variant, "variant.xml")
        b = cls()
        b._read(path, maps_dir, 0)
        b.realpolitik = b.system == "realpolitik" or "realpolitik" in b.options
        return b

    def _read(self, path, maps_dir, depth):
        root = ET.parse(path).getroot()
        geo = root.get("geography")
        if geo:
            if depth > 4:
                raise ValueError("geography too deep: " + path)
            gdir = os.path.dirname(os.path.dirname(os.path.abspath(path))) or maps_dir
            gpath = os.path.join(gdir, geo, "variant.xml")
            if not os.path.exists(gpath):
                gpath = os.path.join(maps_dir, geo, "variant.xml")
            self._read(gpath, maps_dir, depth + 1)
        self.name = root.get("name", self.name)
        if root.get("system"):
            self.system = root.get("system")
        elif not geo:
            self.system = "standard"
        if root.get("start-year"):
            self.start_year = int(root.get("start-year"))
        for o in root.findall("option"):
            self.options[o.get("name")] = o.get("value", "yes")
        if not root.get("system") and (set(self.options) & {"insurrection", "victory-points",
                                                             "control-bonus", "speech"}):
            self.system = "muna"
        for p in root.findall("power"):
            pw = Power(p.get("abbr").upper(), p.get("name"), p.get("adjective", p.get("name")),
                       p.get("letter"))
            pw.aliases = [a.text.strip() for a in p.findall("alias")]
            self.powers.append(pw)
        by_abbr = {}
        for p in self.powers:
            for k in (p.abbr, p.name.upper(), p.token.upper()):
                by_abbr.setdefault(k, p)
        for e in root.findall("province"):
            pr = Province(e.get("abbr").lower(), e.get("name"), e.get("terrain"))
            pr.centre = e.get("centre") == "yes" or e.get("home") is not None
            if e.get("home"):
                pr.home = by_abbr[e.get("home").upper()].name
            pr.aliases = [a.text.strip() for a in e.findall("alias")]
            a = e.find("army")
            if a is not None and a.text:
                pr.army = set(a.text.split())
            f = e.find("fleet")
            if f is not None and f.text:
                self.fleet[pr.abbr] = f.text.split()
            for c in e.findall("coast"):
                ca = c.get("abbr").lower()
                pr.coasts[ca] = c.get("name")
                cf = c.find("fleet")
                self.fleet[pr.abbr + "/" + ca] = cf.text.split() if cf is not None and cf.text else []
            self.provinces[pr.abbr] = pr
        for kind, table in (("capital", self.capitals), ("naval-base", self.naval_bases)):
            for e in root.findall(kind):
                table.setdefault(by_abbr[e.get("power").upper()].name, []).extend(e.get("at").split())

    # -- looking things up
    def power(self, word):
        """The Power whose name, token, abbreviation or adjective is word."""
        w = word.replace("_", " ").lower()
        for p in self.powers:
            if w in (p.name.lower(), p.abbr.lower(), p.adjective.lower()):
                return p
        raise KeyError(word)

    def home_centres(self, power):
        return [a for a, p in self.provinces.items() if p.home == power]

    def centres(self):
        return [a for a, p in self.provinces.items() if p.centre]

    def can_stand(self, utype, loc):
        prov = self.provinces[prov_of(loc)]
        if utype == "A":
            return prov.terrain != "sea" and "/" not in loc
        if prov.coasts:
            return "/" in loc
        return prov.terrain != "land"

    def moves(self, utype, loc):
        """Locations a unit of utype at loc may move to (fleets: with coasts)."""
        if utype == "A":
            return sorted(self.provinces[prov_of(loc)].army)
        return list(self.fleet.get(loc, []))

    def reaches(self, utype, loc, prov):
        """Could the unit at loc move into province prov (any coast)?"""
        return any(prov_of(l) == prov for l in self.moves(utype, loc))

    def loc_name(self, loc):
        """The full name of a location: "St Petersburg (South Coast)"."""
        prov = self.provinces[prov_of(loc)]
        if "/" not in loc:
            return prov.name
        coast = loc.split("/")[1]
        return "%s (%s)" % (prov.name, prov.coasts[coast])

    def name_keys(self):
        """Every normalised name, alias and abbreviation: [(key, kind, id)]."""
        if self._keys is None:
            keys = []
            for a, p in self.provinces.items():
                for n in [a, p.name] + p.aliases:
                    keys.append((normalise(n), "prov", a))
            for p in self.powers:
                for n in [p.name, p.adjective, p.abbr] + p.aliases + ([p.letter] if p.letter else []):
                    keys.append((normalise(n), "power", p.name))
            self._keys = [k for k in keys if k[0]]
        return self._keys


def prov_of(loc):
    return loc.split("/")[0]


def normalise(s):
    """parser/names.c's names_normalise, for ASCII: lower case, no dots or
    apostrophes, blanks, hyphens and underscores as one space."""
    out = []
    space = True
    for c in s.lower():
        if c in ".'":
            continue
        if c in " -_\t":
            if not space:
                out.append(" ")
            space = True
            continue
        out.append(c)
        space = False
    return "".join(out).strip()


def osa_distance(a, b):
    """Optimal-string-alignment distance (lib/str.c's str_edit_distance)."""
    la, lb = len(a), len(b)
    d = [[0] * (lb + 1) for _ in range(la + 1)]
    for i in range(la + 1):
        d[i][0] = i
    for j in range(lb + 1):
        d[0][j] = j
    for i in range(1, la + 1):
        for j in range(1, lb + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
    return d[la][lb]


def fuzz_limit(n):
    """parser/names.c's fuzz_limit: edits forgiven for a word of n letters."""
    return 0 if n < 4 else 1 if n <= 5 else 2 if n <= 8 else 3


def typo_is_safe(board, typo, prov):
    """Can the misspelt word typo mean province prov and nothing else?

    It must not be any name exactly, nor begin any name (the parser's
    prefix tier, three letters or more), and every name within the fuzzy
    limit must be one of prov's; and, as the parser also reads a word close
    to a place where the sender has a unit (within half its length, the
    same first letter), no other province's name may come that close."""
    key = normalise(typo)
    if " " in key or len(key) < 4:
        return False
    limit = fuzz_limit(len(key))
    hit = False
    for k, kind, ident in board.name_keys():
        if k == key:
            return False
        if len(key) >= 3 and k.startswith(key):
            return False
        d = osa_distance(key, k)
        if kind == "power" and d <= max(limit, len(key) // 2):
            return False
        if kind == "prov" and ident != prov:
            if d <= limit:
                return False
            if k[:1] == key[:1] and (d <= len(key) // 2 or k.startswith(key[:2]) and
                                     osa_distance(key, k[:len(key)]) <= len(key) // 2):
                return False
        if kind == "prov" and ident == prov and d <= limit:
            hit = True
    return hit


# ---------------------------------------------------------------- positions

class Unit:
    def __init__(self, power, utype, loc, aboard=False):
        self.power = power              # power name ("United Kingdom")
        self.type = utype               # "A" or "F"
        self.loc = loc                  # "stp/sc", "par"
        self.aboard = aboard            # Realpolitik: an army on board a fleet
        self.attacker = None            # dislodged: the province it was attacked from
        self.retreats = None            # dislodged: where it may retreat

    @property
    def prov(self):
        return prov_of(self.loc)

    def __repr__(self):
        return "%s %s %s%s" % (self.power, self.type, self.loc, " aboard" if self.aboard else "")


class Position:
    """A game's position as its game file says it."""

    def __init__(self):
        self.season = None              # "Spring", "Fall", "Winter"
        self.year = None
        self.kind = None                # "movement", "retreat", "adjustment"
        self.units = []
        self.dislodged = []
        self.contested = set()
        self.owners = {}                # centre -> power name
        self.capitals = {}              # Realpolitik: power name -> capitals now
        self.status = None
        self.game = None

    @property
    def phase(self):
        """"Spring 1901 Movement", as the game file and the reports say it."""
        return "%s %d %s" % (self.season, self.year, self.kind.capitalize())

    def units_of(self, power):
        return [u for u in self.units if u.power == power]

    def centres_of(self, power):
        return [c for c, p in self.owners.items() if p == power]

    def occupied(self):
        return {u.prov for u in self.units}


def read_position(board, game_dir):
    """The position in game_dir/game.txt (or game_dir itself, a file)."""
    path = game_dir if os.path.isfile(game_dir) else os.path.join(game_dir, "game.txt")
    pos = Position()
    moved = {}                          # Realpolitik: (power, capital) -> now or None
    with open(path, encoding="utf-8") as f:
        for line in f:
            w = line.split()
            if not w:
                continue
            key = w[0]
            if key == "game":
                pos.game = w[1]
            elif key == "status":
                pos.status = w[1]
            elif key == "phase" and len(w) >= 4:
                pos.season, pos.year, pos.kind = w[1], int(w[2]), w[3].lower()
            elif key == "unit":
                pos.units.append(Unit(board.power(w[1]).name, w[2], w[3],
                                      len(w) > 4 and w[4] == "aboard"))
            elif key == "dislodged":
                u = Unit(board.power(w[1]).name, w[2], w[3])
                if len(w) > 5 and w[4] == "from":
                    u.attacker = w[5]
                pos.dislodged.append(u)
            elif key == "contested":
                pos.contested.add(w[1])
            elif key == "owner":
                pos.owners[w[2]] = board.power(w[1]).name
            elif key == "rp-capital" and len(w) >= 4:
                moved[(board.power(w[1]).name, w[2])] = None if w[3] == "none" else w[3]
    if board.realpolitik:
        for p, caps in board.capitals.items():
            now = []
            for c in caps:
                c = moved.get((p, c), c)
                if c is not None:
                    now.append(c)
            pos.capitals[p] = now
    occupied = pos.occupied()
    for u in pos.dislodged:
        u.retreats = [l for l in board.moves(u.type, u.loc)
                      if prov_of(l) not in occupied and prov_of(l) != u.attacker
                      and prov_of(l) not in pos.contested]
    return pos


# ---------------------------------------------------------------- orders

class Order:
    """One order.

    power: the power's name; kind: hold move support convoy retreat disband
    build remove waive embark land; unit: (type "A"/"F", location) of the
    unit ordered or built; dest: where it moves or retreats, or, for a
    support or convoy, where the supported or convoyed unit goes (None: a
    support to hold); target: the supported or convoyed unit, (type,
    location, power), and for an embarking army the fleet it boards;
    canonical: the order as pouch's replies and history records print it."""

    def __init__(self, power, kind, unit=None, dest=None, target=None, target_dest=None):
        self.power = power
        self.kind = kind
        self.unit = unit                # ("A", "par")
        self.dest = dest if dest is not None else target_dest   # "bur", "bul/ec"
        self.target = target            # ("A", "par", "France")
        self.fleet = None               # embark: the fleet's location

    @property
    def target_dest(self):
        """Where the supported or convoyed unit goes (None: a support to hold)."""
        return self.dest if self.kind in ("support", "convoy") else None

    @property
    def canonical(self):
        return canonical(self)

    def __repr__(self):
        return "%s: %s" % (self.power, self.canonical)


def canonical(o):
    """The order in pouch's own notation (judge/engine/order.c, ORDER_SHORT),
    as replies and history records print it: "A par - bur"."""
    k = o.kind
    if k == "build":
        return "Build %s %s" % o.unit
    if k == "remove":
        return "Remove %s %s" % o.unit
    if k == "waive":
        return "Waive"
    u = "%s %s" % o.unit
    if k == "hold":
        return u + " H"
    if k == "move":
        return "%s - %s" % (u, o.dest)
    if k == "retreat":
        return "%s R %s" % (u, o.dest)
    if k == "disband":
        return u + " D"
    if k in ("support", "convoy"):
        t = "%s %s" % (o.target[0], o.target[1])
        s = "%s %s %s" % (u, "S" if k == "support" else "C", t)
        if o.target_dest:
            s += " - " + o.target_dest
        return s
    if k == "embark":
        s = u
        if o.dest and prov_of(o.dest) != prov_of(o.unit[1]):
            s += " - " + o.dest
        s += " embarks"
        if o.fleet:
            s += " F " + o.fleet
        return s
    if k == "land":
        return u + " lands"
    raise ValueError(k)


def results_text(board, o):
    """The order as the results print it (judge/engine/report.c), without the
    power and the closing stop: "Army Paris -> Burgundy"."""
    n = board.loc_name
    tw = {"A": "Army", "F": "Fleet"}
    k = o.kind
    if k == "build":
        return "Build %s %s" % ("fleet" if o.unit[0] == "F" else "army", n(o.unit[1]))
    if k == "remove":
        return "Remove %s %s" % ("fleet" if o.unit[0] == "F" else "army", n(o.unit[1]))
    if k == "waive":
        return "Waive a build"
    u = "%s %s" % (tw[o.unit[0]], n(o.unit[1]))
    if k == "hold":
        return u + " HOLD"
    if k in ("move", "retreat"):
        return "%s -> %s" % (u, n(o.dest))
    if k == "disband":
        return u + " DISBAND"
    if k in ("support", "convoy"):
        s = "%s %s %s %s" % (u, "SUPPORT" if k == "support" else "CONVOY",
                             tw["A" if k == "convoy" else o.target[0]], n(o.target[1]))
        if o.target_dest:
            s += " -> " + n(o.target_dest)
        return s
    if k == "embark":
        s = u
        if o.dest and prov_of(o.dest) != prov_of(o.unit[1]):
            s += " -> " + n(o.dest)
        s += " EMBARK"
        if o.fleet:
            s += " ON Fleet " + n(o.fleet)
        return s
    if k == "land":
        return u + " LAND"
    raise ValueError(k)


_ADJ = re.compile(r" ([SC]) (?:[A-Z][a-z]+ )+([AF]) ")


def _plain(s):
    s = s.strip().rstrip(".").strip()
    s = re.sub(r" via convoy$", "", s)
    return _ADJ.sub(r" \1 \2 ", s)


def matches(order, line, board=None):
    """Is this reply or results line this order? Reads "accepted: A par - bur",
    "corrected: France: A par - bur (...)", a history record's "order France A
    par - bur", a list line "  A par - bur", and, given the board, the
    results' "France: Army Paris -> Burgundy.  (*bounce*)" and "France:
    Builds an army in Paris."."""
    s = line.strip()
    want = _plain(canonical(order))
    m = re.match(r"(?:accepted|corrected|replaced|noted)\S*:\s*(.*)$", s)
    if m:
        s = m.group(1)
        s = re.sub(r"\s+\(.*$", "", s)
    if s.startswith("order "):
        s = s[6:]
    for p in [order.power, order.power.replace(" ", "_")]:
        for sep in (": ", " "):
            if s.startswith(p + sep):
                rest = s[len(p) + len(sep):]
                if _plain(rest) == want:
                    return True
    if _plain(s) == want:
        return True
    if board is not None and s.startswith(order.power + ": "):
        rest = s[len(order.power) + 2:]
        rest = re.sub(r"\s+\(\*.*\*\)$", "", rest).rstrip(".")
        want_r = results_text(board, order)
        if rest == want_r or re.sub(r" via convoy$", "", rest) == want_r:
            return True
        if order.kind == "land" and re.sub(r" LAND IN .*$", " LAND", rest) == want_r:
            return True
        # a support or convoy of another power's unit names its adjective
        if re.sub(r" (SUPPORT|CONVOY) [A-Z][a-z]+ (Army|Fleet) ", r" \1 \2 ", rest) == want_r:
            return True
        n = board.loc_name
        done = {"build": "Builds %s in %s" % ("a fleet" if order.unit and order.unit[0] == "F"
                                                else "an army", n(order.unit[1]) if order.unit else ""),
                "remove": "Removes %s in %s" % ("a fleet" if order.unit and order.unit[0] == "F"
                                                  else "an army", n(order.unit[1]) if order.unit else ""),
                "waive": "Waives a build"}.get(order.kind)
        if done and rest == done:
            return True
    return False


# ---------------------------------------------------------------- drawing

def draw_orders(board, pos, powers, rng, forget=0.06):
    """Orders for the powers a delegation holds (names), each legal and
    accepted by the judge. forget: the chance a unit gets no order."""
    powers = [board.power(p).name for p in powers]
    if pos.kind == "movement":
        return _movement(board, pos, powers, rng, forget)
    if pos.kind == "retreat":
        return _retreats(board, pos, powers, rng, forget)
    if pos.kind == "adjustment":
        return _adjustments(board, pos, powers, rng)
    return []


def _retreats(board, pos, powers, rng, forget):
    out = []
    for u in pos.dislodged:
        if u.power not in powers or rng.random() < forget:
            continue
        opts = u.retreats or []
        if opts and rng.random() < 0.85:
            out.append(Order(u.power, "retreat", (u.type, u.loc), dest=rng.choice(opts)))
        else:
            out.append(Order(u.power, "disband", (u.type, u.loc)))
    return out


def _build_sites(board, pos, power):
    """[(type, location)] where power may build now."""
    occupied = pos.occupied()
    sites = []
    if board.realpolitik:
        foreign = {u.prov for u in pos.units if u.power != power}
        for c in pos.capitals.get(power, []):
            if pos.owners.get(c) == power and c not in foreign:
                sites.append(("A", c))
        for c in board.naval_bases.get(power, []):
            if pos.owners.get(c) == power and c not in foreign:
                pr = board.provinces[c]
                if pr.coasts:
                    sites.extend(("F", c + "/" + k) for k in sorted(pr.coasts))
                else:
                    sites.append(("F", c))
        return sites
    for c in board.home_centres(power):
        if pos.owners.get(c) != power or c in occupied:
            continue
        pr = board.provinces[c]
        sites.append(("A", c))
        if pr.terrain == "coast":
            if pr.coasts:
                sites.extend(("F", c + "/" + k) for k in sorted(pr.coasts))
            else:
                sites.append(("F", c))
    return sites


def builds_due(board, pos, power):
    """Centres less units: more than 0 builds, less than 0 removals."""
    return len(pos.centres_of(power)) - len(pos.units_of(power))


def _adjustments(board, pos, powers, rng):
    out = []
    for p in powers:
        due = builds_due(board, pos, p)
        if due > 0:
            sites = _build_sites(board, pos, p)
            provs = sorted({prov_of(l) for _, l in sites})
            n = min(due, len(provs)) if not board.realpolitik else (due if sites else 0)
            allowed = n                         # the judge refuses a waive beyond these
            if n and rng.random() < 0.15:
                n = rng.randint(0, n - 1)       # a pupil builds fewer
            used = set()
            for _ in range(n):
                cand = [s for s in sites if board.realpolitik or prov_of(s[1]) not in used]
                if not cand:
                    break
                s = rng.choice(cand)
                used.add(prov_of(s[1]))
                out.append(Order(p, "build", s))
            if len([o for o in out if o.power == p]) < allowed and rng.random() < 0.5:
                out.append(Order(p, "waive"))
        elif due < 0:
            units = [u for u in pos.units_of(p) if not u.aboard] or pos.units_of(p)
            rng.shuffle(units)
            for u in units[:-due]:
                out.append(Order(p, "remove", (u.type, u.loc)))
    return out


def _convoy_routes(board, pos, army, powers):
    """{destination: [fleet locations]} an army can reach by a chain of
    fleets of its own power standing at sea."""
    fleets = {u.prov: u.loc for u in pos.units
              if u.type == "F" and u.power == army.power and board.provinces[u.prov].terrain == "sea"}
    start = army.prov
    routes = {}
    seen = {}
    frontier = []
    for l in board.fleet.get(start, []) + [x for c in board.provinces[start].coasts
                                           for x in board.fleet.get(start + "/" + c, [])]:
        if prov_of(l) in fleets and prov_of(l) not in seen:
            seen[prov_of(l)] = [prov_of(l)]
            frontier.append(prov_of(l))
    while frontier:
        sea = frontier.pop(0)
        for l in board.fleet.get(fleets[sea], []):
            q = prov_of(l)
            if q in fleets and q not in seen:
                seen[q] = seen[sea] + [q]
                frontier.append(q)
            elif board.provinces[q].terrain == "coast" and q != start and q not in routes:
                routes[q] = seen[sea]
    return routes


def _movement(board, pos, powers, rng, forget):
    rp = board.realpolitik
    mine = [u for u in pos.units if u.power in powers]
    orders = {}                         # id(unit) -> Order
    busy = set()                        # units already given their order
    unit_at = {}
    for u in pos.units:
        unit_at.setdefault(u.prov, []).append(u)
    forgotten = {id(u) for u in mine if rng.random() < forget}

    def free(u):
        return id(u) not in busy and id(u) not in forgotten

    # Realpolitik: armies on board land, or stay on board (no order).
    if rp:
        boarded = set()                 # fleets carrying or taking an army
        for u in mine:
            if not u.aboard:
                continue
            fleet = next((f for f in unit_at.get(u.prov, []) if f.type == "F" and
                          f.power == u.power and id(f) not in boarded), None)
            if fleet is None:
                busy.add(id(u))
                continue
            boarded.add(id(fleet))
            busy.add(id(u))
            pr = board.provinces[u.prov]
            away = board.moves("F", fleet.loc)
            if pr.terrain == "coast" and away and free(fleet) and rng.random() < 0.5:
                orders[id(u)] = Order(u.power, "land", ("A", u.loc))
                orders[id(fleet)] = Order(u.power, "move", ("F", fleet.loc), dest=rng.choice(away))
                busy.add(id(fleet))
        # embarking: an army beside the sea boards one of its fleets, not
        # by a move into a capital or a naval base (anyone's)
        hq = {c for caps in pos.capitals.values() for c in caps}
        hq.update(b for bases in board.naval_bases.values() for b in bases)
        for u in mine:
            if u.type != "A" or u.aboard or not free(u) or rng.random() > 0.15:
                continue
            pr = board.provinces[u.prov]
            choices = []
            if pr.terrain == "coast" and u.prov not in hq:
                # the fleet comes for the army
                for f in mine:
                    if f.type == "F" and f.power == u.power and free(f) and id(f) not in boarded \
                            and f.prov != u.prov:
                        for l in board.moves("F", f.loc):
                            if prov_of(l) == u.prov:
                                choices.append(("come", f, l))
            for q in sorted(pr.army):
                # the army goes to the fleet
                if board.provinces[q].terrain != "coast" or q in hq:
                    continue
                for f in unit_at.get(q, []):
                    if f.type == "F" and f.power == u.power and f in mine and free(f) \
                            and id(f) not in boarded and len(unit_at[q]) == 1:
                        choices.append(("go", f, q))
            if not choices:
                continue
            how, f, l = rng.choice(choices)
            o = Order(u.power, "embark", ("A", u.loc))
            o.target = ("F", f.loc, f.power)
            if how == "come":
                o.fleet = f.loc
                orders[id(f)] = Order(f.power, "move", ("F", f.loc), dest=l)
            else:
                o.dest = l
                o.fleet = f.loc
                orders[id(f)] = Order(f.power, "hold", ("F", f.loc))
            orders[id(u)] = o
            busy.update((id(u), id(f)))
            boarded.add(id(f))

    # convoys (not in Realpolitik)
    if not rp:
        for u in mine:
            if u.type != "A" or not free(u) or board.provinces[u.prov].terrain != "coast" \
                    or rng.random() > 0.5:
                continue
            routes = {d: r for d, r in _convoy_routes(board, pos, u, powers).items()
                      if d not in board.provinces[u.prov].army
                      and all(free(f) for f in unit_at_fleets(pos, r))}
            if not routes:
                continue
            d = rng.choice(sorted(routes))
            orders[id(u)] = Order(u.power, "move", ("A", u.loc), dest=d)
            busy.add(id(u))
            for f in unit_at_fleets(pos, routes[d]):
                orders[id(f)] = Order(f.power, "convoy", ("F", f.loc), target=("A", u.loc, u.power),
                                      target_dest=d)
                busy.add(id(f))

    # supported attacks on other powers' units: some dislodge them
    order_of_units = list(mine)
    rng.shuffle(order_of_units)
    for u in order_of_units:
        if not free(u) or u.aboard or rng.random() > 0.4:
            continue
        targets = [l for l in board.moves(u.type, u.loc)
                   if any(t.power != u.power and not t.aboard for t in unit_at.get(prov_of(l), []))]
        if not targets:
            continue
        dest = rng.choice(targets)
        q = prov_of(dest)
        helpers = [v for v in mine if v is not u and free(v) and not v.aboard and v.prov != q
                   and v.prov != u.prov and board.reaches(v.type, v.loc, q)]
        if not helpers:
            continue
        v = rng.choice(helpers)
        orders[id(u)] = Order(u.power, "move", (u.type, u.loc), dest=dest)
        orders[id(v)] = Order(v.power, "support", (v.type, v.loc), target=(u.type, u.loc, u.power),
                              target_dest=q)
        busy.update((id(u), id(v)))

    # moves and holds first, supports after (they look at the moves)
    supporters = []
    for u in mine:
        if not free(u):
            continue
        if u.aboard:
            continue
        r = rng.random()
        if r < 0.30:
            supporters.append(u)
            continue
        dests = board.moves(u.type, u.loc)
        if r < 0.85 and dests:
            orders[id(u)] = Order(u.power, "move", (u.type, u.loc), dest=rng.choice(dests))
        else:
            orders[id(u)] = Order(u.power, "hold", (u.type, u.loc))
        busy.add(id(u))
    for u in supporters:
        opts = []
        for t in pos.units:
            if t is u or t.prov == u.prov or t.aboard:
                continue
            o = orders.get(id(t))
            if o and o.kind in ("embark", "land"):
                continue
            if board.reaches(u.type, u.loc, t.prov) and not (o and o.kind == "move"):
                opts.append((t, None))
            if o and o.kind == "move":
                if board.reaches(u.type, u.loc, prov_of(o.dest)) and prov_of(o.dest) != u.prov:
                    opts.append((t, prov_of(o.dest)))
                    opts.append((t, prov_of(o.dest)))
                if board.reaches(u.type, u.loc, t.prov):
                    opts.append((t, None))      # support to hold a unit that moves: void
            elif t.power not in powers:
                for l in board.moves(t.type, t.loc):
                    q = prov_of(l)
                    if q != u.prov and board.reaches(u.type, u.loc, q):
                        opts.append((t, q))
        if opts:
            t, d = rng.choice(opts)
            orders[id(u)] = Order(u.power, "support", (u.type, u.loc), target=(t.type, t.loc, t.power),
                                  target_dest=d)
        else:
            orders[id(u)] = Order(u.power, "hold", (u.type, u.loc))
    # in the units' order: a stack's orders go to its units in turn
    return [orders[id(u)] for u in mine if id(u) in orders]


def unit_at_fleets(pos, seas):
    return [u for s in seas for u in pos.units if u.prov == s and u.type == "F"]


# ---------------------------------------------------------------- writing

def _place(board, loc, rng, full, typos=True, strict=False):
    """A place as a pupil names it: its abbreviation or its full name, a coast
    written one of the ways the parser reads, maybe one letter wrong."""
    prov = prov_of(loc)
    pr = board.provinces[prov]
    coast = loc.split("/")[1] if "/" in loc else None
    collide = any(k == normalise(prov) and kind == "power" for k, kind, _ in board.name_keys())
    if full or collide:
        name = pr.name
        if typos and not strict and rng.random() < 0.12:
            t = _typo(board, name, prov, rng)
            if t:
                name = t
    else:
        name = prov if rng.random() < 0.7 else prov.capitalize()
    if coast:
        cname = pr.coasts[coast]
        name += rng.choice(["/" + coast, "(%s)" % coast, " " + coast, " (%s)" % cname.lower(),
                            " (%s)" % cname])
    return name


def _typo(board, name, prov, rng):
    """One letter of a one-word name wrong, if that is still one place."""
    if " " in name or len(name) < 5:
        return None
    for _ in range(6):
        i = rng.randrange(1, len(name) - 1)
        how = rng.random()
        if how < 0.35:
            t = name[:i] + name[i + 1:]                         # a letter dropped
        elif how < 0.7 and i < len(name) - 1 and name[i] != name[i + 1]:
            t = name[:i] + name[i + 1] + name[i] + name[i + 2:]   # two swapped
        else:
            t = name[:i] + name[i] + name[i:]                   # a letter doubled
        if t != name and typo_is_safe(board, t, prov):
            return t
    return None


def _case(s, rng):
    r = rng.random()
    if r < 0.1:
        return s.upper()
    if r < 0.3:
        return s.lower()
    return s


def write_order(board, order, rng, typos=True):
    """One line as a pupil writes it, with one meaning only. typos=False
    never misspells a place (the judge reads a misspelt place of a
    delegation's second or third power as the GAME line's power's, and
    refuses it: pass False for those until it does not)."""
    o = order
    full = rng.random() < 0.4
    # a misspelt place of a second power of a delegation, or in a support's
    # or convoy's target, is left alone where the judge cannot be sure
    P = lambda loc, strict=False: _place(board, loc, rng, full, typos, strict)
    tword = (lambda t: {"A": rng.choice(["Army", "army", "A"]),
                        "F": rng.choice(["Fleet", "fleet", "F"])}[t]) if full else \
        (lambda t: rng.choice([t, t.lower()]))
    k = o.kind
    if k == "waive":
        line = "%s: %s" % (o.power, rng.choice(["Waive", "waive", "WAIVE"]))
        return line
    if k == "build":
        line = "%s %s %s" % (rng.choice(["Build", "build", "B"]) if not full else
                             rng.choice(["Build", "build"]), tword(o.unit[0]), P(o.unit[1], True))
        return _case(line, rng) if not full else line
    if k == "remove":
        line = "%s %s %s" % (rng.choice(["Remove", "remove", "Disband"]), tword(o.unit[0]),
                             P(o.unit[1], True))
        return line
    u = "%s %s" % (tword(o.unit[0]), P(o.unit[1]))
    if full and rng.random() < 0.3 and o.kind in ("move", "hold"):
        u = "%s %s in %s" % (rng.choice(["the", "my", "The"]), {"A": "army", "F": "fleet"}[o.unit[0]],
                              P(o.unit[1]))
    if k == "hold":
        v = rng.choice([" holds", " H", " hold", " stands", " stays"] if full else [" H", " h", " holds", " Hold"])
        line = u + v
    elif k == "move":
        # the Dutch school: "goes to", "go to" (gaat naar), "will go to"
        arrow = rng.choice([" moves to ", " to ", " -> ", " - ", " will move to ", " attacks ",
                            " goes to ", " go to ", " will go to ", " moves towards ",
                            " move to "]) if full \
            else rng.choice([" - ", "-", " -> ", " to ", " - ", " go to "])
        line = u + arrow + P(o.dest)
    elif k == "retreat":
        arrow = rng.choice([" retreats to ", " R ", " - ", " -> ", " retreat to ", " goes to "]) \
            if full else rng.choice([" R ", " - ", " -> ", " retreats to "])
        line = u + arrow + P(o.dest)
    elif k == "disband":
        line = u + rng.choice([" disbands", " D", " disband"])
    elif k in ("support", "convoy"):
        verb = (rng.choice([" supports ", " S ", " support "]) if k == "support" else
                rng.choice([" convoys ", " C ", " transports "]))
        t = "%s %s" % ({"A": "A", "F": "F"}[o.target[0]] if not full else
                       {"A": "army", "F": "fleet"}[o.target[0]], P(o.target[1], True))
        if o.target[2] != o.power and rng.random() < 0.5:
            adj = board.power(o.target[2]).adjective
            t = ("the %s %s in %s" % (adj, {"A": "army", "F": "fleet"}[o.target[0]],
                                      P(o.target[1], True))) if full else "%s %s" % (adj, t)
        line = u + verb + t
        if o.target_dest:
            line += rng.choice([" - ", " to ", " -> "]) + P(o.target_dest, True)
        elif k == "support" and rng.random() < 0.3:
            line += rng.choice([" H", " to hold", " holding"])
    elif k == "embark":
        if o.dest and prov_of(o.dest) != prov_of(o.unit[1]):
            line = "%s - %s on board F %s" % (u, P(o.dest, True), P(o.fleet, True))
        else:
            line = "%s %s F %s" % (u, rng.choice(["embarks", "boards"]), P(o.fleet, True))
    elif k == "land":
        line = u + rng.choice([" lands", " goes ashore"])
    else:
        raise ValueError(k)
    if rng.random() < 0.1:
        line = "%s: %s" % (o.power, line)
    return line if full else _case(line, rng)
