"""holdgen.py -- the league's fallback order generator for the board systems.

The same interface as boardgen.py (Board.load, read_position, draw_orders,
write_order) with the least that is always legal: every unit holds, a
dislodged unit disbands, a power with more units than centres removes the
surplus and one with fewer waives its builds. league.py uses it only when
boardgen.py is not there.
"""
import os
import re
from collections import namedtuple

Unit = namedtuple("Unit", "type place")
Order = namedtuple("Order", "power kind unit canonical")


class Board:
    def __init__(self, variant):
        self.variant = variant

    @classmethod
    def load(cls, maps_dir, variant):
        return cls(variant)


class Position:
    def __init__(self):
        self.kind = "movement"
        self.season = ""
        self.year = 0
        self.units = []        # (power, type, place)
        self.dislodged = []    # (power, type, place)
        self.owners = {}       # place -> power


def read_position(board, game_dir):
    pos = Position()
    with open(os.path.join(game_dir, "game.txt"), encoding="utf-8") as f:
        for line in f:
            w = line.split()
            if not w:
                continue
            if w[0] == "phase" and len(w) == 4:
                pos.season, pos.year, pos.kind = w[1], int(w[2]), w[3].lower()
            elif w[0] == "unit" and len(w) == 4:
                pos.units.append((w[1].replace("_", " "), w[2], w[3]))
            elif w[0] == "dislodged" and len(w) >= 4:
                pos.dislodged.append((w[1].replace("_", " "), w[2], w[3]))
            elif w[0] == "owner" and len(w) == 3:
                pos.owners[w[2]] = w[1].replace("_", " ")
    return pos


def draw_orders(board, pos, powers, rng):
    out = []
    if pos.kind == "movement":
        for p, t, l in pos.units:
            if p in powers:
                out.append(Order(p, "hold", Unit(t, l), "%s %s H" % (t, l)))
    elif pos.kind == "retreat":
        for p, t, l in pos.dislodged:
            if p in powers:
                out.append(Order(p, "disband", Unit(t, l), "%s %s disband" % (t, l)))
    else:
        for p in powers:
            units = [u for u in pos.units if u[0] == p]
            centres = sum(1 for o in pos.owners.values() if o == p)
            if len(units) > centres:
                for _, t, l in sorted(units, key=lambda u: u[2])[: len(units) - centres]:
                    out.append(Order(p, "remove", Unit(t, l), "remove %s %s" % (t, l)))
    return out


def write_order(board, order, rng):
    t, l = order.unit
    if order.kind == "hold":
        return rng.choice(["%s %s H", "%s %s hold", "%s %s holds"]) % (t, l)
    if order.kind == "disband":
        return "%s %s disband" % (t, l)
    if order.kind == "remove":
        return "remove %s %s" % (t, l)
    return order.canonical


def canonical_key(text):
    """The order in a form to compare with the judge's: case and blanks."""
    return re.sub(r"\s+", " ", text.strip().lower())
