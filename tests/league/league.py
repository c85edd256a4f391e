#!/usr/bin/env python3
"""league.py -- a simulated league: schools play whole games by mail through
the real `pouch run` on the embedded default (Maildir in, Maildir out), in
all four rule systems, with a simulated clock, and the judge's invariants
checked after every run.

	tests/league/league.py --seed N --games N [--bin build/pouch]
	    [--san-bin build/san/pouch --san-games N] [--keep DIR] [--known KIND,...]

The same seed plays the same league, byte for byte. What it plays and what
it checks: tests/README.md, "The simulated league". Python 3's standard
library only.
"""
import argparse
import email
import email.policy
import email.utils
import multiprocessing
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from datetime import datetime, timezone
from zoneinfo import ZoneInfo

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import boardgen as gen
import wargen

JUDGE = "judge@league.example"
T0 = 1798794000          # Wed 1 Jan 2027 09:00 UTC: the league's first morning
ZONES = ["UTC", "Europe/Amsterdam", "Europe/London", "America/New_York", "Asia/Tokyo"]
SYSTEMS = ["standard", "muna", "realpolitik", "worldgame"]
POWERS = {
    "standard": ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"],
    "realpolitik": ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"],
    "muna": ["France", "Germany", "Italy", "Poland", "Spain", "Turkey", "United Kingdom",
             "USSR", "Yugoslavia"],
}
# The rulebook's arrangements for fewer than seven (pouch(1)).
ARRANGE = {
    3: [["England", "Germany", "Austria"], ["Russia", "Italy"], ["France", "Turkey"]],
    4: [["England"], ["Austria", "France"], ["Germany", "Turkey"], ["Italy", "Russia"]],
    5: [["England"], ["France"], ["Austria"], ["Russia"], ["Turkey"]],
    6: [["England"], ["France"], ["Austria"], ["Russia"], ["Turkey"], ["Germany"]],
}
FIRST = ["anna", "bram", "chloe", "daan", "emma", "finn", "gijs", "hanna", "ilse", "joost",
         "kim", "lars", "mila", "noah", "olaf", "pien", "quinn", "rosa", "sem", "tess"]
SEASON = {"Spring": "S", "Summer": "U", "Fall": "F", "Autumn": "F", "Winter": "W"}
KIND = {"Movement": "M", "Retreat": "R", "Adjustment": "A"}

# Failure kinds of the defects known on main (printed, never silently skipped).
KNOWN_HELP = ("results-rollback (results lost after a ROLLBACK), date-grace (a phase "
              "decided in the grace period dated back to its deadline), noise-refused, "
              "noise-order (signatures and reply headers refused or read as orders), "
              "order-refused (pupils' "
              "wording refused), order-replaced (an order silently replacing another), "
              "war-leak (loans in the public record)")


def time_span(s):
    """lib/tz.c's time_span, as the judge writes "in X"."""
    d, h, m = s // 86400, (s % 86400) // 3600, (s % 3600) // 60
    if s < 0:
        return "passed"
    pl = lambda n: "" if n == 1 else "s"
    if d > 0:
        return "%d day%s %d hour%s" % (d, pl(d), h, pl(h))
    if h > 0:
        return "%d hour%s %d minute%s" % (h, pl(h), m, pl(m))
    return "%d minute%s" % (m, pl(m))


def iso(t):
    return datetime.fromtimestamp(t, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_iso(s):
    return int(datetime.strptime(s, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc).timestamp())


def human(t, zone):
    """judge_time_human: "Thursday 19 November 2026, 11:06 UTC"."""
    d = datetime.fromtimestamp(t, ZoneInfo(zone))
    return "%s %d %s %d, %s %s" % (d.strftime("%A"), d.day, d.strftime("%B"), d.year,
                                   d.strftime("%H:%M"), d.strftime("%Z"))


def phase_code(label):
    s, y, k = label.split()
    return "%s%s%s" % (SEASON.get(s, s[0]), y, KIND.get(k, k[0]))


def norm(text):
    """An order in a form to compare: case, blanks, and the nationality the
    judge names in a support or convoy of another power's unit."""
    t = re.sub(r"\s+", " ", text.strip().lower())
    return re.sub(r" ([sc]) [a-z]+ ([af]) ", r" \1 \2 ", t)


class Stats:
    def __init__(self):
        self.c = Counter()
        self.games = Counter()
        self.orders = Counter()
        self.failures = []
        self.known = Counter()

    def merge(self, other):
        """Add other's counts and failures to these."""
        for mine, theirs in ((self.c, other.c), (self.games, other.games),
                             (self.orders, other.orders), (self.known, other.known)):
            mine.update(theirs)
        self.failures += other.failures


class Failure(Exception):
    pass


# ------------------------------------------------------------------ game file --

def read_game(gdir):
    g = {"members": defaultdict(list), "observers": [], "gm": [], "deadline": 0,
         "status": "", "phase": "", "grace": 0, "zone": "UTC", "nmr": "", "seq": 0,
         "durations": {}}
    try:
        f = open(os.path.join(gdir, "game.txt"), encoding="utf-8")
    except FileNotFoundError:
        return None
    with f:
        for line in f:
            w = line.rstrip("\n").split(" ")
            k = w[0]
            if k == "member":
                g["members"][w[1].replace("_", " ")].append(w[2])
            elif k == "observer":
                g["observers"].append(w[1])
            elif k == "gm":
                g["gm"].append(w[1])
            elif k == "deadline":
                g["deadline"] = parse_iso(w[1])
            elif k == "status":
                g["status"] = w[1]
            elif k == "phase":
                g["phase"] = " ".join(w[1:])
            elif k == "grace":
                g["grace"] = span_seconds(w[1])
            elif k == "zone":
                g["zone"] = w[1]
            elif k == "nmr":
                g["nmr"] = w[1]
            elif k == "seq":
                g["seq"] = int(w[1])
            elif k == "paused-left":
                g["paused_left"] = int(w[1])
            elif k == "duration" and len(w) == 3:
                g["durations"][w[1]] = span_seconds(w[2])
    return g


def span_seconds(s):
    total = 0
    for n, u in re.findall(r"(\d+)([dhms]?)", s):
        total += int(n) * {"d": 86400, "h": 3600, "m": 60, "s": 1, "": 3600}[u]
    return total


def read_history(gdir):
    """{file name: (phase label, processed time, orders text, whole text)}"""
    out = {}
    h = os.path.join(gdir, "history")
    if not os.path.isdir(h):
        return out
    for n in sorted(os.listdir(h)):
        if not re.match(r"^\d+\.txt$", n):
            continue
        with open(os.path.join(h, n), encoding="utf-8") as f:
            text = f.read()
        m = re.search(r"^phase (.+)$", text, re.M)
        p = re.search(r"^processed (\S+)$", text, re.M)
        orders = defaultdict(list)
        body = text.split("\norders\n", 1)
        if len(body) == 2:
            for line in body[1].split("\n"):
                if line.startswith("order "):
                    w = line.split(" ", 2)
                    rest = w[2]
                    # "order United_Kingdom F lon - nth"
                    orders[w[1].replace("_", " ")].append(norm(rest))
                elif line and not line.startswith("order"):
                    break
        out[n] = (m.group(1) if m else "", parse_iso(p.group(1)) if p else 0, orders, text)
    return out


# ---------------------------------------------------------------- the envelope --

class Pupil:
    """How one member writes mail: the habits are drawn once."""

    def __init__(self, rng, address, name):
        self.address = address
        self.name = name
        self.greet = rng.random() < 0.4
        self.sign = rng.choice(["none", "dash", "plain", "plain"])
        self.quote = rng.random() < 0.25
        self.fmt = rng.choice(["plain"] * 6 + ["html", "alt"])
        self.case = rng.choice(["as", "as", "lower", "upper"])


def html_of(lines):
    esc = lambda s: s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return "<html><body>\n" + "".join("<div>%s</div>\n" % (esc(l) if l else "<br>")
                                      for l in lines) + "</body></html>\n"


def compose(rng, pupil, subject, date, msgid, lines, quoted=None, tags=None):
    """A pupil's message: greeting, the lines, signature, a quoted reply."""
    body = []
    if pupil.greet:
        body += [rng.choice(["Hi judge,", "Hello,", "Dear judge", "Good morning!"]), ""]
        tags and tags.add("greeting")
    body += lines
    if pupil.sign == "dash":
        body += ["", "-- ", pupil.name.title(), "Class 4B"]
        tags and tags.add("signature")
    elif pupil.sign == "plain":
        body += ["", rng.choice(["Thanks,", "Cheers,", "Regards,", "Best wishes,"]),
                 pupil.name.title()]
        tags and tags.add("signature")
    if quoted is not None and pupil.quote:
        qdate, qtext = quoted
        body += ["", "On %s, pouch judge <%s> wrote:" % (qdate, JUDGE)]
        body += ["> " + l if l else ">" for l in qtext.split("\n")[:40]]
        tags and tags.add("quoted")
    hdr = ("From: %s <%s>\nTo: %s\nSubject: %s\nDate: %s\nMessage-ID: <%s>\nMIME-Version: 1.0\n"
           % (pupil.name.title(), pupil.address, JUDGE, subject,
              email.utils.formatdate(date, localtime=False), msgid))
    text = "\n".join(body) + "\n"
    if pupil.fmt == "plain":
        return hdr + "Content-Type: text/plain; charset=utf-8\n\n" + text
    if pupil.fmt == "html":
        tags and tags.add("html")
        return hdr + "Content-Type: text/html; charset=utf-8\n\n" + html_of(body)
    tags and tags.add("multipart")
    b = "=_b%d" % rng.randrange(10 ** 6)
    return (hdr + 'Content-Type: multipart/alternative; boundary="%s"\n\n' % b +
            "--%s\nContent-Type: text/plain; charset=utf-8\n\n%s" % (b, text) +
            "--%s\nContent-Type: text/html; charset=utf-8\n\n%s" % (b, html_of(body)) +
            "--%s--\n" % b)


def cased(pupil, s):
    if pupil.case == "lower":
        return s.lower()
    if pupil.case == "upper":
        return s.upper()
    return s


# ----------------------------------------------------------------- the mail out --

class Mail:
    def __init__(self, path, recipient):
        self.path = path
        self.recipient = recipient
        with open(path, "rb") as f:
            m = email.message_from_binary_file(f, policy=email.policy.default)
        self.subject = str(m["Subject"] or "")
        self.date = int(email.utils.parsedate_to_datetime(str(m["Date"])).timestamp())
        self.in_reply_to = str(m["In-Reply-To"] or "").strip("<> ")
        self.msgid = str(m["Message-ID"] or "")
        part = m.get_body(("plain",))
        self.body = part.get_content() if part is not None else ""


def out_files(data):
    out = os.path.join(data, "mail", "out")
    files = set()
    if not os.path.isdir(out):
        return files
    for r in os.listdir(out):
        d = os.path.join(out, r, "new")
        if os.path.isdir(d):
            for n in os.listdir(d):
                files.add((r, n))
    return files


# --------------------------------------------------------------------- a game --

class Delegation:
    def __init__(self, powers, members, password):
        self.powers = powers
        self.members = members      # [Pupil]
        self.password = password
        self.last_reply = None      # (date text, body)


class Game:
    def __init__(self, host, name, system, rng):
        self.host = host
        self.name = name
        self.system = system
        self.rng = rng
        self.dels = []
        self.gm = None
        self.gm_password = ""
        self.observers = []
        self.budget = rng.randint(3, 9)        # decided phases before the ending
        self.decided = 0
        self.planned_for = None                # (phase, seq) the plan was made for
        self.plan = []                         # [(time, kind, delegation or None, data)]
        self.paused_until = None
        self.rollbacks = 0
        self.ending = None
        self.ended = False
        self.started = False
        self.board = None
        self.expected = defaultdict(dict)      # phase label -> power -> [orders]
        self.sent_phases = set()

    @property
    def gdir(self):
        return os.path.join(self.host.data, "games", self.name)


class Host:
    """One school host's data directory and its clock."""

    def __init__(self, league, index, binary, rng):
        self.league = league
        self.index = index
        self.bin = binary
        self.rng = rng
        self.data = os.path.join(league.keep, "host%02d" % index)
        self.now = T0 + rng.randrange(0, 86400 * 30)
        self.games = []
        self.runs = 0
        self.inbox_n = 0
        self.pending = []          # messages written, not yet delivered: (arrival, seq, text, meta)
        self.sent = {}             # our Message-ID -> meta
        self.arrivals = set()      # arrival times of the messages of this run
        os.makedirs(os.path.join(self.data, "mail", "inbox", "new"), exist_ok=True)
        with open(os.path.join(self.data, "pouch.conf"), "w") as f:
            f.write("judge.address = %s\n" % JUDGE)

    # --------------------------------------------------------- invocations --
    def pouch(self, args, what, stdin=None):
        """Run pouch at self.now and check every invariant on what it did."""
        L = self.league
        before_out = out_files(self.data)
        before_hist = {g.name: read_history(g.gdir) for g in self.games}
        before_game = {g.name: read_game(g.gdir) for g in self.games}
        self.runs += 1
        env = dict(os.environ)
        env["ASAN_OPTIONS"] = "detect_leaks=1:abort_on_error=1"
        env["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1"
        cmd = [self.bin, "--data", self.data] + args
        p = subprocess.run(cmd, input=stdin, capture_output=True, text=True, env=env)
        L.stats.c["pouch invocations"] += 1
        ctx = "host%02d run %d (%s at %s)" % (self.index, self.runs, what, iso(self.now))
        err = p.stderr
        if "Sanitizer" in err or "runtime error" in err or p.returncode not in (0, 1) or \
                (p.returncode == 1 and args[0] == "run"):
            L.fail("crash", ctx, None, "%s exited %d:\n%s" % (" ".join(cmd), p.returncode,
                                                               err[-3000:]))
        new = sorted(out_files(self.data) - before_out)
        mails = [Mail(os.path.join(self.data, "mail", "out", r, "new", n), r) for r, n in new]
        L.stats.c["mails out"] += len(mails)
        self.check(ctx, mails, before_hist, before_game)
        return p, mails

    def run(self):
        self.deliver()
        self.pouch(["run", "--now", str(self.now)], "run")

    def host_cmd(self, args, what):
        self.arrivals = set()
        return self.pouch(["game", "--now", str(self.now)] + args, what)

    # -------------------------------------------------------------- checks --
    def check(self, ctx, mails, before_hist, before_game):
        L = self.league
        by_game = defaultdict(list)
        replies = defaultdict(list)
        for m in mails:
            g = re.match(r"\[([^\]]+)\]", m.subject)
            if g:
                by_game[g.group(1)].append(m)
            elif m.in_reply_to in self.sent:
                replies[self.sent[m.in_reply_to]["game"]].append(m)
        for g in self.games:
            after = read_game(g.gdir)
            if after is None:
                continue
            bg = before_game.get(g.name)
            hist = read_history(g.gdir)
            decided = [(n, hist[n]) for n in hist
                       if n not in before_hist.get(g.name, {}) or before_hist[g.name][n] != hist[n]]
            recipients = set()
            for ms in after["members"].values():
                recipients.update(ms)
            recipients.update(after["gm"])
            recipients.update(after["observers"])
            gm = by_game.get(g.name, [])
            rolled = any(m.subject.endswith("rolled back") for m in gm)
            rb = None
            if rolled:
                g.expected.clear()
                # Orders read before the ROLLBACK in this run stood for the
                # timeline it undid.
                rbs = [self.sent[m]["order"] for m in self.sent
                       if self.sent[m].get("rollback") and self.sent[m].get("arrival") in self.arrivals
                       and self.sent[m]["game"] == g.name]
                rb = min(rbs) if rbs else None
            self.check_replies(ctx, g, replies.get(g.name, []), rb)
            for n, (label, processed, orders, text) in decided:
                L.stats.c["phases decided"] += 1
                g.decided += 1
                subj = "[%s] %s results" % (g.name, label)
                got = Counter(m.recipient for m in gm if m.subject == subj)
                # Any phase after a ROLLBACK: the known defect of its results' Message-ID.
                rolled_back = any("rolled-back" in f for f in os.listdir(os.path.join(g.gdir, "history")))
                kind = "results-rollback" if rolled_back else "results"
                for r in sorted(recipients):
                    L.stats.c["checks: results reach a recipient once"] += 1
                    if got[r] != 1:
                        L.fail(kind, ctx, g, "%s reached %s %d times (history/%s)" %
                               (subj, r, got[r], n), os.path.join(self.data, "mail", "out", r))
                g.sent_phases.add(label)
                # The results' Date is the moment of the decision.
                for m in gm:
                    if m.subject == subj:
                        L.stats.c["checks: results dated as decided"] += 1
                        if m.date != processed:
                            L.fail("date", ctx, g, "results dated %s, the phase processed %s" %
                                   (iso(m.date), iso(processed)), m.path)
                L.stats.c["checks: decision time"] += 1
                if bg and processed != self.now and processed not in self.arrivals:
                    ok = bg["deadline"] and processed in (bg["deadline"], bg["deadline"] + bg["grace"])
                    if not ok or processed > self.now:
                        L.fail("date", ctx, g, "%s processed at %s, neither the run's clock %s nor "
                               "its deadline %s" % (label, iso(processed), iso(self.now),
                                                    iso(bg["deadline"])), os.path.join(g.gdir, "history", n))
                    elif processed == bg["deadline"] and bg["grace"] and self.late_in_grace(g, bg):
                        L.fail("date-grace", ctx, g, "%s decided in its grace period by the run "
                               "at %s but dated %s, its deadline" % (label, iso(self.now),
                                                                    iso(processed)),
                               os.path.join(g.gdir, "history", n))
                self.check_adjudicated(ctx, g, label, orders, n)
            self.check_dates(ctx, g, gm + replies.get(g.name, []), bg, after)
            if g.system == "worldgame":
                self.check_war(ctx, g, gm, recipients, bg, after)
            if after["status"] == "ended" and bg and bg["status"] != "ended":
                over = Counter(m.recipient for m in gm if m.subject.endswith("game over") or
                               m.subject.endswith("the war: over"))
                for r in sorted(recipients):
                    L.stats.c["checks: the end reaches a recipient once"] += 1
                    if over[r] != 1:
                        L.fail("results", ctx, g, "the end of the game reached %s %d times" %
                               (r, over[r]), os.path.join(self.data, "mail", "out", r))

    def late_in_grace(self, g, bg):
        """Was the run after the deadline, inside the grace period?"""
        return bg["deadline"] < self.now < bg["deadline"] + bg["grace"] and \
            self.prev_now is not None and self.prev_now >= bg["deadline"]

    def check_adjudicated(self, ctx, g, label, orders, n):
        L = self.league
        exp = g.expected.pop(label, {})
        for power, want in sorted(exp.items()):
            L.stats.c["checks: accepted orders adjudicated"] += 1
            have = Counter(orders.get(power, []))
            want_c = Counter(norm(o) for o in want)
            missing = want_c - have
            extra = have - want_c
            if label.endswith("Adjustment"):
                extra = Counter()
            if missing or extra:
                L.fail("order-replaced", ctx, g, "%s %s: accepted %s, adjudicated %s" %
                       (label, power, sorted(want_c.elements()), sorted(have.elements())),
                       os.path.join(g.gdir, "history", n))

    def check_replies(self, ctx, g, replies, rollback=None):
        """Each order meant as legal accepted, as meant; what stands for each power."""
        L = self.league
        # In the order the judge read their messages.
        for m in sorted(replies, key=lambda m: self.sent[m.in_reply_to]["order"]):
            meta = self.sent[m.in_reply_to]
            meta["answered"] = meta.get("answered", 0) + 1
            if meta["answered"] > 1:
                continue
            # Orders read before a ROLLBACK in the same run are wiped by it:
            # not expected in the results, but still the pupil's orders,
            # not words read as orders.
            given = meta
            if rollback is not None and meta["order"] < rollback:
                meta = dict(meta, orders=[], noise=[])
            body = m.body
            if meta.get("delegation") is not None:
                meta["delegation"].last_reply = (
                    email.utils.format_datetime(datetime.fromtimestamp(m.date, timezone.utc)), body)
            verdicts = parse_reply(body)
            read_for = re.search(r"^Your orders for (.+?):$", body, re.M)
            phase_ok = meta.get("phase") is None or (read_for and read_for.group(1) == meta["phase"]) \
                or (meta.get("kind") == "war")
            late = "before your mail arrived" in body
            meant = set(norm(o[0]) for o in given.get("orders", []))
            # A command the league sent may be refused (PROCESS to a game a
            # vote ended in the same run): an answer, not a misreading.
            meant |= set(norm(c) for c in meta.get("commands", []))
            for line, (verdict, text) in sorted(verdicts.items()):
                if line in meant or line.startswith("game "):
                    continue
                L.stats.c["checks: words that are no orders not read as orders"] += 1
                if verdict == "refused" and re.match(r"(spring|summer|fall|autumn|winter) \d{4}:?$",
                                                     line) and ("not " in text or "ended" in text):
                    # A date heading the pupil wrote for a phase the game
                    # left (or ended) before the mail came: its orders are
                    # refused on purpose, the answer says why.
                    continue
                if verdict == "refused":
                    L.fail("noise-refused", ctx, g, "%r, which is no order, refused: %s" %
                           (line, text), meta["path"])
                elif verdict in ("accepted", "corrected"):
                    L.fail("noise-order", ctx, g, "%r, which is no order, read as %s" %
                           (line, text), meta["path"])
                    # It stands as an order now: what is adjudicated must say so.
                    if read_for and phase_ok:
                        meta.setdefault("noise", []).append(text)
            for line, canonical, okind, power, tags in meta.get("orders", []):
                got = verdicts.get(norm(line))
                if got is None:
                    if phase_ok and not late:
                        L.fail("order-refused", ctx, g, "the reply does not answer %r (tags %s)" %
                               (line, ",".join(sorted(tags))), meta["path"])
                    continue
                verdict, text = got
                L.stats.c["checks: legal order accepted as meant"] += 1
                if not phase_ok or late:
                    # Read for the next phase: not checked as meant, but an
                    # order accepted there is one to be adjudicated there.
                    L.stats.c["orders read for another phase"] += 1
                    if verdict in ("accepted", "corrected") and read_for and \
                            meta.get("kind") == "orders":
                        self.expect(g, read_for.group(1), power, text, meta)
                    continue
                if verdict == "refused":
                    L.fail("order-refused", ctx, g, "%r (%s) refused: %s (tags %s)" %
                           (line, canonical, text, ",".join(sorted(tags))), meta["path"])
                    continue
                if canonical is not None and (verdict not in ("accepted", "corrected") or
                                              norm(text) != norm(canonical)):
                    L.fail("order-misread", ctx, g, "%r meant %s, read as %s" %
                           (line, canonical, text), meta["path"])
                    continue
                if canonical is not None and read_for:
                    self.expect(g, read_for.group(1), power, text, meta)
            for text in meta.get("noise", []):
                power = self.owner(g, meta, text)
                if power:
                    self.expect(g, read_for.group(1), power, text, meta)

    def owner(self, g, meta, order):
        """The power of the delegation whose unit order names, or None."""
        key = unit_key(norm(order))
        d = meta.get("delegation")
        if d is not None and len(d.powers) == 1:
            return d.powers[0]
        with open(os.path.join(g.gdir, "game.txt"), encoding="utf-8") as f:
            for line in f:
                w = line.split()
                if len(w) == 4 and w[0] == "unit" and key and \
                        w[2].lower() + " " + w[3].split("/")[0] == key:
                    return w[1].replace("_", " ")
        return None

    def expect(self, g, phase, power, text, meta):
        """An order accepted for power: it replaces the unit's earlier one;
        a stack of n units keeps the latest n orders given to it (pouch(1):
        once each unit has one, a new order replaces the oldest)."""
        lst = g.expected[phase].setdefault(power, [])
        key = unit_key(norm(text))
        n = meta.get("stack", {}).get(key, 1) if key is not None else 1
        lst.append(norm(text))
        if key is not None:
            mine = [i for i, o in enumerate(lst) if unit_key(norm(o)) == key]
            for i in reversed(mine[:max(0, len(mine) - n)]):
                del lst[i]

    def check_dates(self, ctx, g, gm, bg, after):
        L = self.league
        deadlines = set()
        for st in (bg, after):
            if st and st["deadline"]:
                deadlines.add(st["deadline"])
                deadlines.add(st["deadline"] + st["grace"])
        # A phase begun in this run and over before its end (a draw, a
        # second decision): its deadline, a phase's length from a moment
        # the judge acted at.
        if after:
            moments = self.arrivals | {self.now}
            if bg and bg["deadline"]:
                moments |= {bg["deadline"], bg["deadline"] + bg["grace"]}
            # RESUME: the time that was left when the game was paused.
            if bg and bg.get("paused_left"):
                deadlines |= {t + bg["paused_left"] for t in moments}
            for t in moments:
                for dur in after["durations"].values():
                    deadlines.add(t + dur)
        for m in gm:
            L.stats.c["checks: Date is the run's clock"] += 1
            meta = self.sent.get(m.in_reply_to)
            if meta is not None and not m.subject.startswith("["):
                # A reply: the judge reads each message at its arrival.
                if m.date != meta["arrival"]:
                    L.fail("date", ctx, g, "%r dated %s, its message arrived %s" %
                           (m.subject, iso(m.date), iso(meta["arrival"])), m.path)
            elif not m.subject.endswith(" results") and m.date != self.now and \
                    m.date not in self.arrivals:
                # What a message made is dated at its arrival, as the judge
                # reads it then; the rest at the run's clock.
                L.fail("date", ctx, g, "%r dated %s, neither the run's clock %s nor a "
                       "message's arrival" % (m.subject, iso(m.date), iso(self.now)), m.path)
            flat = m.body.replace("\n", " ")
            for d_text, span in re.findall(r"(?:Deadline:|Grace period until) ([^.()]+?)"
                                           r"(?: \([^)]*\))?, in ([^.]+)\.", flat):
                L.stats.c["checks: deadline and time left"] += 1
                ok = False
                for d in deadlines:
                    for z in set([after["zone"], "UTC"] + ZONES):
                        if human(d, z) == d_text and time_span(d - m.date) == span:
                            ok = True
                if not ok:
                    L.fail("date", ctx, g, "%r says the deadline is %s, in %s; the game's: %s "
                           "(Date %s)" % (m.subject, d_text, span,
                                          ", ".join(iso(d) for d in sorted(deadlines)),
                                          iso(m.date)), m.path)

    def check_war(self, ctx, g, gm, recipients, bg, after):
        L = self.league
        gms = set(after["gm"])
        for m in gm:
            if m.recipient in gms or "the war" not in m.subject:
                continue
            # The public record names no loan, offer or alliance (judge/systems/WORLDGAME.md).
            rec = m.body.split("The war so far:\n", 1)
            if len(rec) == 2:
                L.stats.c["checks: the public record names no loan"] += 1
                for line in rec[1].split("\n\n", 1)[0].split("\n"):
                    if re.search(r"\b(loan|lend|lends|lent|offer|offers|ally|allied|alliance)\b", line,
                                 re.I):
                        L.fail("war-leak", ctx, g, "the public record sent to %s: %r" %
                               (m.recipient, line), m.path)
                        break
        news = Counter(m.recipient for m in gm if m.subject == "[%s] the war: news" % g.name)
        if news:
            n = max(news.values())
            for r in sorted(recipients):
                L.stats.c["checks: war news reaches a recipient once"] += 1
                if news[r] != n:
                    L.fail("results", ctx, g, "the war's news reached %s %d times, others %d" %
                           (r, news[r], n), os.path.join(self.data, "mail", "out", r))


def gen_token(board, power):
    """A power as the game file writes it ("United_Kingdom")."""
    return board.power(power).token


def unit_key(canonical):
    """The unit an order is for (its type and province), or None (builds,
    waives). An army aboard a fleet shares the fleet's province."""
    w = canonical.split()
    if len(w) >= 2 and w[0] in ("a", "f"):
        return w[0] + " " + w[1].split("/")[0]
    return None


def parse_reply(body):
    """{normalized line: (verdict, text)} from a reply's "> line" blocks."""
    out = {}
    cur = None
    for line in body.split("\n"):
        if line.startswith("> "):
            cur = norm(line[2:])
            continue
        if cur is None:
            continue
        if line.startswith("  ") and cur not in out:
            t = line.strip()
            m = re.match(r"(accepted|corrected|REFUSED):\s*(.*?)(?:\s\s\(.*\))?$", t)
            if m:
                out[cur] = (m.group(1).lower(), m.group(2))
            else:
                out[cur] = ("other", t)
        elif not line.startswith("  "):
            cur = None
    return out


# ------------------------------------------------------------ the simulation --

def words(rng):
    return "%s-%s-%d" % (rng.choice(["amber", "birch", "cedar", "delta", "ember", "flint"]),
                         rng.choice(["otter", "heron", "maple", "quartz", "raven"]),
                         rng.randrange(100, 1000))


class School:
    """The simulation of one host's games: setup, the pupils' mail, the GM."""

    def __init__(self, host):
        self.h = host

    # ----------------------------------------------------------- setup --
    def setup(self, g):
        h, rng = self.h, g.rng
        school = "school%d-%d.example" % (h.index, len(h.games))
        g.gm = Pupil(rng, "teacher@%s" % school, "teacher")
        g.gm.quote = False
        g.gm_password = words(rng)
        g.zone = rng.choice(ZONES)
        g.grace = rng.choice([0, 6, 12])
        args = ["new", g.name, "--gm", g.gm.address, "--password", g.gm_password,
                "--variant", g.system, "--zone", g.zone,
                "--movement", rng.choice(["24h", "48h"]), "--remind", "12h"]
        if g.system != "worldgame":
            args += ["--retreat", "12h", "--adjustment", "12h", "--grace", "%dh" % g.grace]
        h.host_cmd(args, "game new " + g.name)
        if g.system == "worldgame":
            self.setup_war(g)
            return
        g.board = gen.Board.load(os.path.join(ROOT, "maps"), g.system)
        powers = POWERS[g.system]
        if g.system == "standard" and rng.random() < 0.5:
            arrangement = ARRANGE[rng.choice([3, 4, 5, 6])]
        else:
            arrangement = [[p] for p in powers]
        lines = []
        for k, ps in enumerate(arrangement):
            n = 2 if g.system == "muna" else rng.choice([1, 1, 2, 3])
            names = rng.sample(FIRST, n)
            members = [Pupil(rng, "%s.%s@%s" % (nm, ps[0].lower().replace(" ", ""), school), nm)
                       for nm in names]
            d = Delegation(ps, members, words(rng))
            g.dels.append(d)
            lines.append("DELEGATION %s %s PASSWORD %s" % (",".join(ps),
                                                            ",".join(m.address for m in members),
                                                            d.password))
        if rng.random() < 0.3:
            g.observers.append("head@%s" % school)
            lines.append("ADD OBSERVER %s" % g.observers[0])
        for l in lines:
            h.host_cmd([g.name] + l.split(" ") if " Kingdom" not in l else
                       [g.name] + l.split(" ", 3)[:1] + l.split(" ")[1:], "setup " + g.name)
        h.host_cmd([g.name, "START"], "START " + g.name)
        g.started = True

    def setup_war(self, g):
        h, rng = self.h, g.rng
        cs = wargen.countries(rng, rng.randint(3, 7))
        for name, pts, fort in cs:
            h.host_cmd([g.name, "COUNTRY", name, str(pts)] + (["FORT"] if fort else []),
                       "COUNTRY " + g.name)
        school = g.gm.address.split("@")[1]
        for name, _, _ in cs:
            n = rng.choice([1, 2, 2, 3])
            members = [Pupil(rng, "%s.%s@%s" % (nm, name.lower(), school), nm)
                       for nm in rng.sample(FIRST, n)]
            d = Delegation([name], members, words(rng))
            g.dels.append(d)
            h.host_cmd([g.name, "DELEGATION", name, ",".join(m.address for m in members),
                        "PASSWORD", d.password], "DELEGATION " + g.name)
        names = [c[0] for c in cs]
        for a, b, (rp, per) in wargen.draw_alliances(rng, names):
            for x, y in ((a, b), (b, a)):
                d = self.delegation(g, x)
                cmd = wargen.Command(x, "ally", "ALLY %s TERMS %d FOR %d" % (y, rp, per))
                at = h.now + rng.randrange(10, 90) * 60
                h.write_later(at, lambda t, d=d, cmd=cmd: self.war_mail(g, d, [cmd], t, key=None))
        at = h.now + rng.randrange(100, 180) * 60
        h.write_later(at, lambda t: self.gm_mail(g, ["START"], t))
        g.started = True

    def delegation(self, g, power):
        for d in g.dels:
            if power in d.powers:
                return d
        return None

    # ------------------------------------------------------------ mail --
    def gm_mail(self, g, commands, t, subject=None):
        rng = self.h.rng
        msgid = "gm%d.%s@%s" % (self.h.next_id(), g.name, g.gm.address.split("@")[1])
        lines = ["GAME %s GM %s" % (g.name, g.gm_password)] + commands
        text = compose(rng, g.gm, subject or commands[0].split()[0].lower(), t - 60, msgid, lines)
        self.h.league.stats.c["GM mails"] += 1
        return text, {"msgid": msgid, "game": g.name, "kind": "gm",
                      "rollback": commands[0].startswith("ROLLBACK"), "commands": commands}

    def player_mail(self, g, d, commands, t, subject):
        rng = self.h.rng
        pupil = rng.choice(d.members)
        msgid = "c%d.%s@%s" % (self.h.next_id(), g.name, pupil.address.split("@")[1])
        lines = ["GAME %s %s %s" % (g.name, rng.choice(d.powers), d.password)] + commands
        text = compose(rng, pupil, subject, t - 120, msgid, lines, d.last_reply)
        return text, {"msgid": msgid, "game": g.name, "kind": "command", "delegation": d,
                      "commands": commands}

    def order_mail(self, g, d, t, key, change):
        h, rng = self.h, g.rng
        st = read_game(g.gdir)
        if st is None or st["status"] != "active" or self.phase_key(g) != key:
            return None
        pos = gen.read_position(g.board, g.gdir)
        if pos.kind == "adjustment" and self.has_orders(g, d):
            # A second plan for the phase (after PAUSE and RESUME): builds
            # and removals beyond those due are refused by design (pouch(1)),
            # so the delegation leaves the ones it gave.
            return None
        orders = gen.draw_orders(g.board, pos, d.powers, rng)
        if not orders:
            return None
        # A Realpolitik stack: two units of one type in one province (on
        # the board, whether or not each has an order here).
        places = Counter((u.type.lower(), u.prov) for u in pos.units
                         if u.power in [g.board.power(p).name for p in d.powers])
        stack = {"%s %s" % k: n for k, n in places.items() if n > 1}
        if change:
            if pos.kind != "movement" or stack:
                return None
            orders = rng.sample(orders, min(len(orders), rng.randint(1, 2)))
        pupil = rng.choice(d.members[1:] if change and len(d.members) > 1 else d.members)
        msgid = "o%d.%s@%s" % (h.next_id(), g.name, pupil.address.split("@")[1])
        named = rng.choice(d.powers)
        lines = ["GAME %s %s %s" % (g.name, cased(pupil, named) if pupil.case != "upper" else named,
                                    d.password)]
        if rng.random() < 0.15:
            lines.append("%s %d" % (pos.season, pos.year))
        meta_orders = []
        tags = set()
        for o in orders:
            text = cased(pupil, gen.write_order(g.board, o, rng))
            otags = set()
            if o.power != named:
                otags.add("second-power")
            if change:
                otags.add("change")
            lines.append(text)
            meta_orders.append([text, o.canonical, o.kind, o.power, otags])
            h.league.stats.orders[o.kind] += 1
        subject = rng.choice(["orders", "Orders %s %d" % (pos.season, pos.year), "moves",
                              "our orders", "%s" % g.name])
        text = compose(rng, pupil, subject, t - rng.randrange(60, 1800), msgid, lines,
                       d.last_reply, tags)
        for mo in meta_orders:
            mo[4] |= tags
        h.league.stats.c["order mails"] += 1
        return text, {"msgid": msgid, "game": g.name, "kind": "orders", "delegation": d,
                      "orders": [tuple(m) for m in meta_orders], "phase": st["phase"],
                      "stack": stack}

    def has_orders(self, g, d):
        """Has one of d's powers orders in g's game file?"""
        tokens = set(gen_token(g.board, p) for p in d.powers)
        with open(os.path.join(g.gdir, "game.txt"), encoding="utf-8") as f:
            return any(len(w) > 1 and w[0] == "order" and w[1] in tokens
                       for w in (line.split() for line in f))

    def war_mail(self, g, d, cmds, t, key):
        h, rng = self.h, g.rng
        if key is not None:
            w = wargen.read_war(g.gdir)
            if w.events != key or w.status != "active":
                return None
            cmds = cmds(w)
            if not cmds:
                return None
        pupil = rng.choice(d.members)
        msgid = "w%d.%s@%s" % (h.next_id(), g.name, pupil.address.split("@")[1])
        lines = ["GAME %s %s %s" % (g.name, d.powers[0], d.password)]
        meta_orders = []
        for c in cmds:
            text = wargen.write_command(c, rng)
            lines.append(text)
            meta_orders.append((text, None, c.kind, c.country,
                                set(["pronoun"]) if text.startswith("we ") else set()))
            h.league.stats.orders["war " + c.kind] += 1
        text = compose(rng, pupil, rng.choice(["war", "our move", cmds[0].kind]), t - 300, msgid,
                       lines, d.last_reply)
        h.league.stats.c["order mails"] += 1
        return text, {"msgid": msgid, "game": g.name, "kind": "war", "delegation": d,
                      "orders": meta_orders}

    # ------------------------------------------------------------ ticks --
    def phase_key(self, g):
        st = read_game(g.gdir)
        n = len(os.listdir(os.path.join(g.gdir, "history"))) \
            if os.path.isdir(os.path.join(g.gdir, "history")) else 0
        return (st["phase"], st["deadline"], n, st["status"])

    def tick(self, g, nxt):
        """Plan what happens to game g before the host's next run at nxt."""
        h, rng = self.h, g.rng
        st = read_game(g.gdir)
        if st is None or st["status"] == "ended":
            g.ended = True
            return
        if g.paused_until is not None:
            if h.now >= g.paused_until:
                g.paused_until = None
                h.write_later(rng.randrange(h.now + 60, nxt), lambda t: self.gm_mail(
                    g, ["RESUME"], t))
            return
        if st["status"] != "active":
            return
        if g.system == "worldgame":
            return self.tick_war(g, nxt, st)
        key = self.phase_key(g)
        if g.decided >= g.budget and g.ending is None:
            return self.end_game(g, nxt)
        if key != g.planned_for:
            g.planned_for = key
            dl = st["deadline"]
            for d in g.dels:
                r = rng.random()
                if r < 0.08:
                    h.league.stats.c["delegations silent for a phase"] += 1
                    continue
                if r < 0.2 and st["grace"] and dl:
                    at = rng.randrange(dl + 60, dl + max(120, st["grace"] * 3 // 4))
                    h.league.stats.c["mails late, in the grace period"] += 1
                else:
                    at = rng.randrange(h.now + 60, max(h.now + 120, dl - 600)) if dl else h.now + 600
                h.write_later(at, lambda t, d=d: self.order_mail(g, d, t, key, False))
                if rng.random() < 0.2 and len(d.members) > 1:
                    at2 = rng.randrange(at + 60, at + 4 * 3600)
                    h.write_later(at2, lambda t, d=d: self.order_mail(g, d, t, key, True))
            # The game master, now and then.
            r = rng.random()
            hist = sorted(read_history(g.gdir).values(), key=lambda x: x[1])
            if r < 0.05:
                h.write_later(rng.randrange(h.now + 60, nxt + 1),
                              lambda t: self.gm_mail(g, ["PROCESS"], t))
            elif r < 0.08:
                g.host_process = True
            elif r < 0.13 and g.rollbacks < 2 and len(hist) >= 2:
                g.rollbacks += 1
                target = phase_code(rng.choice(hist[:-1])[0])
                if rng.random() < 0.5:
                    h.write_later(rng.randrange(h.now + 60, nxt + 1),
                                  lambda t: self.gm_mail(g, ["ROLLBACK " + target], t))
                else:
                    g.host_rollback = target
                h.league.stats.c["rollbacks"] += 1
            elif r < 0.16:
                h.write_later(rng.randrange(h.now + 60, nxt + 1),
                              lambda t: self.gm_mail(g, ["PAUSE"], t))
                g.paused_until = nxt + rng.randrange(1, 12) * 3600
                h.league.stats.c["pauses"] += 1

    def end_game(self, g, nxt):
        h, rng = self.h, g.rng
        g.ending = rng.choice(["draw", "concede", "end"])
        h.league.stats.c["endings: " + g.ending] += 1
        at = rng.randrange(h.now + 60, nxt + 1)
        if g.ending == "end":
            cmd = "END" if g.system == "realpolitik" else "END DRAW"
            h.write_later(at, lambda t: self.gm_mail(g, [cmd], t))
            return
        winner = rng.choice(g.dels).powers[0]
        for d in g.dels:
            if g.ending == "draw":
                cmd = "VOTE DRAW"
            elif winner in d.powers:
                continue
            else:
                cmd = "VOTE CONCEDE %s" % winner
            h.write_later(at, lambda t, d=d, cmd=cmd: self.player_mail(
                g, d, [rng.choice([cmd, cmd.lower()])], t, "vote"))
            at += rng.randrange(60, 600)

    def tick_war(self, g, nxt, st):
        h, rng = self.h, g.rng
        w = wargen.read_war(g.gdir)
        if w.stage != "on" or g.planned_for == w.events:
            return
        g.planned_for = w.events
        who = wargen.waiting(w)
        dl = st["deadline"] or nxt
        at = rng.randrange(h.now + 60, max(h.now + 120, min(dl - 60, nxt)))
        for d in g.dels:
            c = d.powers[0]
            if c != who and rng.random() < 0.4:
                h.write_later(at - rng.randrange(1, 59), lambda t, d=d, c=c: self.war_mail(
                    g, d, lambda w: [x for x in wargen.draw_commands(w, c, rng)
                                     if x.kind in ("lend", "offer")], t, w.events))
        if who and rng.random() < 0.92:
            d = self.delegation(g, who)
            h.write_later(at, lambda t: self.war_mail(
                g, d, lambda w: wargen.draw_commands(w, who, rng), t, w.events))
        elif who:
            h.league.stats.c["delegations silent for a phase"] += 1
        if g.decided >= g.budget * 2 and g.ending is None and rng.random() < 0.2:
            g.ending = "end"
            h.league.stats.c["endings: end"] += 1
            h.write_later(nxt, lambda t: self.gm_mail(g, ["END"], t))


def play_host(league, index, binary, specs, rng):
    """Play the games specs [(name, system)] on one data directory."""
    h = Host(league, index, binary, rng)
    h.prev_now = None
    s = School(h)
    starts = []
    for name, system in specs:
        g = Game(h, name, system, random.Random(rng.random()))
        g.host_process = False
        g.host_rollback = None
        starts.append((h.now + rng.randrange(0, 3 * 86400), g))
    starts.sort(key=lambda x: x[0])
    steps = 0
    while steps < league.args.max_runs:
        steps += 1
        while starts and starts[0][0] <= h.now:
            _, g = starts.pop(0)
            h.games.append(g)
            s.setup(g)
        if not starts and h.games and all(g.ended for g in h.games) and not h.pending:
            break
        nxt = h.now + rng.choice([20, 30, 60, 60, 90, 120, 180, 240]) * 60
        for g in h.games:
            if not g.ended:
                s.tick(g, nxt)
        h.prev_now, h.now = h.now, nxt
        h.run()
        league.stats.c["runs"] += 1
        for g in h.games:
            if g.host_process:
                g.host_process = False
                h.now += 1
                h.host_cmd(["process", g.name], "game process " + g.name)
                league.stats.c["host PROCESS"] += 1
            if g.host_rollback:
                h.now += 1
                h.host_cmd(["rollback", g.name, g.host_rollback], "game rollback " + g.name)
                g.host_rollback = None
        if steps % league.args.verify_every == 0:
            league.verify(h, "every %d runs" % league.args.verify_every)
    for g in h.games:
        league.stats.games[g.system] += 1
        st = read_game(g.gdir)
        if st and st["status"] == "ended":
            league.stats.c["games ended"] += 1
    league.verify(h, "the end")
    return h


def write_later(self, at, builder):
    """A message written at `at`: composed when it is delivered."""
    self.inbox_n += 1
    self.pending.append((at, self.inbox_n, builder))


def deliver(self):
    due = sorted((m for m in self.pending if m[0] <= self.now), key=lambda m: (m[0], m[1]))
    self.pending = [m for m in self.pending if m[0] > self.now]
    self.arrivals = set()
    for arrival, n, builder in due:
        made = builder(arrival)
        if made is None:
            continue
        text, meta = made
        name = "%d.M%06dP1.league" % (arrival, n)
        tmp = os.path.join(self.data, "mail", "inbox", "tmp")
        os.makedirs(tmp, exist_ok=True)
        path = os.path.join(tmp, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        os.utime(path, (arrival, arrival))
        final = os.path.join(self.data, "mail", "inbox", "new", name)
        os.rename(path, final)
        meta["path"] = os.path.join("spool (arrived %s)" % iso(arrival), name)
        meta["arrival"] = arrival
        meta["order"] = (arrival, n)
        self.arrivals.add(arrival)
        self.sent[meta["msgid"]] = meta
        self.league.stats.c["mails in"] += 1


def next_id(self):
    self.msg_n = getattr(self, "msg_n", 0) + 1
    return self.msg_n


Host.next_id = next_id
Host.write_later = write_later
Host.deliver = deliver


class League:
    def __init__(self, args):
        self.args = args
        self.keep = args.keep
        self.stats = Stats()
        self.known = set(k for k in (args.known or "").split(",") if k)
        self.printed = Counter()

    def fail(self, kind, ctx, game, msg, path=None):
        line = "seed %d, %s, game %s: %s%s" % (self.args.seed, ctx, game.name if game else "-",
                                               msg, " [%s]" % path if path else "")
        if kind in self.known:
            self.stats.known[kind] += 1
            tag = "KNOWN"
        else:
            self.stats.failures.append((kind, line))
            tag = "FAIL"
        self.printed[kind] += 1
        if self.printed[kind] <= self.args.show:
            print("%s %s: %s" % (tag, kind, line), flush=True)

    def verify(self, h, why):
        self.stats.c["checks: replay --verify"] += 1
        p = subprocess.run([h.bin, "--data", h.data, "replay", "--verify"], capture_output=True,
                           text=True)
        if p.returncode != 0 or ", 0 differences" not in p.stdout:
            self.fail("replay", "host%02d replay --verify (%s) at %s" % (h.index, why, iso(h.now)),
                      None, (p.stdout + p.stderr)[-2000:], h.data)


_HOST_JOB = None


def _host_job(i):
    """A worker's data directory (the pool sends the index; the work is
    inherited from main)."""
    return _HOST_JOB(i)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--bin", default=os.path.join(ROOT, "build", "pouch"))
    ap.add_argument("--san-bin", default=None, help="the sanitized pouch (build/san/pouch)")
    ap.add_argument("--san-games", type=int, default=0, help="games played by --san-bin")
    ap.add_argument("--per-host", type=int, default=8, help="games sharing one data directory")
    ap.add_argument("--keep", default=None, help="keep the data directories here")
    ap.add_argument("--known", default="", help="failure kinds reported but not failing: " +
                    KNOWN_HELP)
    ap.add_argument("--max-runs", type=int, default=400, help="runs per data directory at most")
    ap.add_argument("--verify-every", type=int, default=40)
    ap.add_argument("--show", type=int, default=5, help="failures printed per kind")
    ap.add_argument("--host", type=int, default=None,
                    help="play only data directory N (hostNN) of the league, as in the whole")
    ap.add_argument("--jobs", type=int, default=1,
                    help="data directories played at once (each in a process of its own)")
    args = ap.parse_args()
    tmp = None
    if args.keep is None:
        tmp = args.keep = tempfile.mkdtemp(prefix="pouch-league.")
    elif os.path.exists(args.keep):
        shutil.rmtree(args.keep)
    os.makedirs(args.keep, exist_ok=True)
    L = League(args)
    rng = random.Random(args.seed)
    specs = [("g%03d%s" % (i, SYSTEMS[i % 4][0]), SYSTEMS[i % 4]) for i in range(args.games)]
    rest = specs[args.san_games:] if args.san_bin else specs
    rng.shuffle(rest)
    specs = specs[:len(specs) - len(rest)] + rest
    # The sanitized pouch plays the first san_games games, on data
    # directories of their own.
    san = min(args.san_games, len(specs)) if args.san_bin else 0
    hosts = [specs[i:min(i + args.per_host, san)] for i in range(0, san, args.per_host)]
    san_hosts = len(hosts)
    hosts += [specs[i:i + args.per_host] for i in range(san, len(specs), args.per_host)]
    print("league: seed %d, %d games on %d data directories (%d under %s), generator %s" %
          (args.seed, args.games, len(hosts), san_hosts, args.san_bin or "-", "boardgen"), flush=True)
    if L.known:
        print("league: NOTE: failures of the kinds %s are reported as KNOWN and do not fail "
              "the league" % ", ".join(sorted(L.known)), flush=True)
    seeds = [rng.random() for _ in hosts]

    def one_host(i):
        """Play data directory i (in a worker process); its statistics."""
        L.stats, L.printed = Stats(), Counter()     # this worker's alone
        binary = args.san_bin if i < san_hosts else args.bin
        play_host(L, i, os.path.abspath(binary), hosts[i], random.Random(seeds[i]))
        return L.stats

    # Data directories are independent: each is played in a process of its
    # own, forked before any was played, so the league is the same at any
    # --jobs.
    global _HOST_JOB
    _HOST_JOB = one_host
    s = Stats()
    with multiprocessing.get_context("fork").Pool(max(1, args.jobs), maxtasksperchild=1) as pool:
        only = range(len(hosts)) if args.host is None else [args.host]
        for st in pool.imap(_host_job, only):
            s.merge(st)
    L.stats = s
    print("league: games per system: %s" % ", ".join("%s %d" % (k, s.games[k]) for k in SYSTEMS))
    for k in sorted(s.c):
        if not k.startswith("checks"):
            print("league: %s: %d" % (k, s.c[k]))
    print("league: orders by kind: %s" % ", ".join("%s %d" % kv for kv in sorted(s.orders.items())))
    checks = sum(v for k, v in s.c.items() if k.startswith("checks"))
    for k in sorted(s.c):
        if k.startswith("checks"):
            print("league: %s: %d" % (k, s.c[k]))
    print("league: invariant checks made: %d" % checks)
    if s.known:
        print("league: KNOWN defects seen (not failing): %s" %
              ", ".join("%s %d" % kv for kv in sorted(s.known.items())))
    kinds = Counter(k for k, _ in s.failures)
    print("league: failures: %d%s" % (len(s.failures), (" (%s)" % ", ".join(
        "%s %d" % kv for kv in sorted(kinds.items()))) if kinds else ""))
    if s.failures:
        print("league: to reproduce: %s --seed %d --games %d%s --keep DIR "
              "(--host N: data directory N alone)" % (
            os.path.relpath(__file__, ROOT), args.seed, args.games,
            " --san-bin %s --san-games %d" % (args.san_bin, args.san_games) if args.san_bin else ""))
    if tmp and not s.failures:
        shutil.rmtree(tmp)
    elif tmp:
        print("league: data directories kept in %s" % tmp)
    return 1 if s.failures else 0


if __name__ == "__main__":
    sys.exit(main())
