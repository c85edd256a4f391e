"""wargen.py -- the World Game's war for the league: countries and their
Phase-I points, alliances before the war, and in the war the commands a
delegation may give as the game file stands (attacks, counters, yields,
passes, loans, points offered without an alliance and withdrawals),
written as pupils write them.

The war's state is read from DATA/games/NAME/game.txt (the war-* lines,
judge/systems/war.c's war_write). Every command drawn is one the rules
accept at that moment (judge/systems/WORLDGAME.md).
"""
import os
from collections import namedtuple

Command = namedtuple("Command", "country kind canonical")

NAMES = ["Arden", "Belmar", "Cressy", "Dunmore", "Elgin", "Fenwick", "Galloway",
         "Hartland", "Islay", "Jarrow", "Kestrel", "Lindow"]


def countries(rng, n):
    """n countries with their Phase-I points and whether they have a fort."""
    out = []
    for name in sorted(rng.sample(NAMES, n)):
        out.append((name, rng.randrange(8, 40) * 100, rng.random() < 0.25))
    return out


class War:
    def __init__(self):
        self.points = {}        # country -> total
        self.alive = {}
        self.allies = {}        # country -> {ally: (repay, per)}
        self.offers = set()     # (from, to)
        self.stage = "setup"
        self.call = None
        self.answers = None     # who must answer in the battle
        self.sides = []         # [(country, figure, own)]
        self.loans = []         # (lender, borrower, amount)
        self.events = 0
        self.status = ""


def read_war(game_dir):
    w = War()
    with open(os.path.join(game_dir, "game.txt"), encoding="utf-8") as f:
        for line in f:
            t = line.split()
            if not t:
                continue
            k = t[0]
            if k == "status":
                w.status = t[1]
            elif k == "war-country":
                w.points[t[1]] = int(t[2])
                w.alive[t[1]] = True
            elif k == "war-taken":
                w.alive[t[1]] = False
            elif k == "war-ally":
                w.allies.setdefault(t[1], {})[t[2]] = (int(t[3]), int(t[4]))
                w.allies.setdefault(t[2], {})[t[1]] = (int(t[3]), int(t[4]))
            elif k == "war-offer":
                w.offers.add((t[1], t[2]))
            elif k == "war-stage":
                w.stage = t[1]
                w.call = None if t[7] == "-" else t[7]
            elif k == "war-battle":
                w.answers = t[1]
            elif k == "war-side":
                w.sides.append((t[1], int(t[2]), int(t[3])))
            elif k == "war-loan":
                w.loans.append((t[1], t[2], int(t[3])))
            elif k == "war-events":
                w.events = int(t[1])
    return w


def waiting(w):
    """The country the war waits for, or None."""
    if w.stage != "on":
        return None
    return w.answers if w.answers else w.call


def draw_alliances(rng, names):
    """Pairs that sign before the war, with their terms."""
    out = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            if rng.random() < 0.3:
                out.append((a, b, rng.choice([(1, 1), (2, 1), (3, 2)])))
    return out


def draw_commands(w, country, rng):
    """The commands country's delegation gives now: every one accepted."""
    if w.stage != "on" or not w.alive.get(country):
        return []
    me = w.points[country]
    if w.answers is None and w.call == country:
        targets = [c for c in sorted(w.points) if c != country and w.alive[c]
                   and w.points[c] < me]
        if targets and rng.random() < 0.8:
            t = rng.choice(targets)
            amount = rng.randint(w.points[t] + 1, me)
            return [Command(country, "attack", "ATTACK %s WITH %d" % (t, amount))]
        return [Command(country, "pass", "PASS")]
    if w.answers == country:
        mine = [s for s in w.sides if s[0] == country]
        theirs = [s for s in w.sides if s[0] != country]
        if not mine or not theirs:
            return [Command(country, "yield", "YIELD")]
        lent = sum(a for _, b, a in w.loans if b == country)
        most = mine[0][2] + me + lent
        need = theirs[0][1] + 1
        if most >= need and rng.random() < 0.7:
            return [Command(country, "counter",
                            "COUNTER %d" % rng.randint(need, min(most, need + 500)))]
        return [Command(country, "yield", "YIELD")]
    if w.answers is not None and w.sides:
        fighting = [s[0] for s in w.sides]
        if country in fighting:
            return []
        mine = [l for l in w.loans if l[0] == country]
        if mine and rng.random() < 0.3:
            return [Command(country, "withdraw", "WITHDRAW LOAN")]
        friends = [c for c in fighting if c in w.allies.get(country, {})]
        enemies = [c for c in fighting if c not in friends]
        if not mine and friends and len(enemies) == 1 and me > 100 and rng.random() < 0.5:
            t = rng.choice(friends)
            return [Command(country, "lend",
                            "LEND %d TO %s" % (rng.randint(1, me // 100) * 100 // 2 or 50, t))]
        # Without a written alliance with a side: an offer, not binding.
        strangers = [c for c in fighting if c not in w.allies.get(country, {})]
        if not mine and strangers and me > 100 and rng.random() < 0.2:
            t = rng.choice(strangers)
            return [Command(country, "offer",
                            "OFFER %d TO %s" % (rng.randint(1, me // 100) * 100 // 2 or 50, t))]
    return []


def _figure(n, rng):
    if n >= 1000 and rng.random() < 0.3:
        return "{:,}".format(n)
    return str(n)


def _name(name, rng):
    r = rng.random()
    if r < 0.4:
        return name.lower()
    if r < 0.5:
        return name.upper()
    return name


def write_command(cmd, rng):
    """One command line as a pupil writes it; one meaning only."""
    w = cmd.canonical.split()
    k = cmd.kind
    if k == "attack":
        verb = rng.choice(["ATTACK", "attack", "Attack", "we attack", "atack"])
        unit = rng.choice(["", "", " points", " pts"])
        return "%s %s with %s%s" % (verb, _name(w[1], rng), _figure(int(w[3]), rng), unit)
    if k == "counter":
        return "%s %s" % (rng.choice(["COUNTER", "counter", "Counter"]), _figure(int(w[1]), rng))
    if k == "lend":
        return "%s %s to %s" % (rng.choice(["LEND", "lend", "Lend"]), w[1], _name(w[3], rng))
    if k == "offer":
        return "%s %s to %s" % (rng.choice(["OFFER", "offer", "Offer", "we offer"]), w[1],
                                _name(w[3], rng))
    if k == "ally":
        terms = "" if w[3:] == ["TERMS", "1", "FOR", "1"] and rng.random() < 0.5 else \
            " " + " ".join(w[2:]).lower() if rng.random() < 0.3 else " " + " ".join(w[2:])
        return "%s %s%s" % (rng.choice(["ALLY", "ally", "Ally"]), _name(w[1], rng), terms)
    return rng.choice([cmd.canonical, cmd.canonical.lower(), cmd.canonical.title()])
