#!/usr/bin/env python3
"""badserver.py -- a scripted misbehaving IMAP or SMTP server on loopback.

    badserver.py imap|smtp --dir DIR --modes MODE[,MODE...] [--cert PEM --key PEM]

Listens on 127.0.0.1 (a free port, written to DIR/port once listening) and
serves each connection in the next mode of the list; the last mode serves
every connection after that. Events go to DIR/log, one line each
("conn N MODE", "drop at WHAT", "stored FILE", ...), so a test can see
where the connection ended. TLS (STARTTLS) needs --cert and --key.

IMAP: the folder holds --messages N generated messages, then the messages
DIR/imap/*.eml (UIDs 1, 2, ... in name order, UIDVALIDITY 7); flags set by UID STORE last as long as the server.
SMTP: each message accepted is written to DIR/smtp/N.eml. With --pipelining
the EHLO reply offers PIPELINING, and a MAIL FROM that arrives together with
its DATA is logged ("pipelined").

Modes are listed in MODES below. Python's standard library only.
"""
import argparse
import base64
import os
import socket
import socketserver
import ssl
import sys
import threading
import time

IMAP_MODES = {
    "ok": "a working server",
    "close-at-greeting": "accept, then close without a word",
    "silent": "accept, then say nothing",
    "garbage-greeting": "answer with bytes that are not IMAP",
    "drop-starttls": "close on STARTTLS",
    "drop-login": "close on LOGIN",
    "drop-select": "close on SELECT",
    "drop-search": "close on UID SEARCH",
    "drop-fetch": "close on UID FETCH before any answer",
    "truncated-fetch": "close half-way through the first message's literal",
    "bad-fetch": "FETCH answers that are wrong: no UID, a UID not asked for, NIL body, "
                 "twice the same; the folder's last message is not there yet",
    "garbage-fetch": "an unparsable line in the middle of the FETCH answer",
    "huge-literal": "announce a 4 GB literal and send as fast as possible",
    "flood": "endless untagged lines as fast as possible after SELECT",
    "trickle": "the FETCH answer one byte every 0.2 seconds, forever",
    "stall-fetch": "half the FETCH answer, then silence with the connection open",
    "drop-store": "close on UID STORE (the commit)",
    "no-store": "refuse UID STORE with NO",
}
SMTP_MODES = {
    "ok": "a working server (STARTTLS, AUTH PLAIN)",
    "drop-greeting": "accept, then close without a greeting",
    "silent": "accept, then say nothing",
    "drop-ehlo": "close on EHLO",
    "drop-starttls": "close on STARTTLS",
    "drop-auth": "close on AUTH",
    "drop-mail": "close on MAIL FROM",
    "drop-rcpt": "close on RCPT TO",
    "drop-data": "close on DATA",
    "drop-eod": "read the whole message, close before answering its final dot",
    "drop-quit": "accept the message, close on QUIT",
    "stall-quit": "accept the message, never answer QUIT",
    "trickle": "the greeting one byte every 0.2 seconds, forever",
    "stall-eod": "read the whole message, never answer",
    "refuse-nobody": "refuse RCPT TO nobody@... (550); DATA with no recipient left is refused (554)",
    "close-after-one": "accept one message, then close the connection (an idle time-out)",
    "drop-fiftieth-data": "close on the 50th DATA the server gets (on whichever connection)",
}

UIDVALIDITY = 7


class Shared:
    """State that lasts across connections."""

    def __init__(self, args):
        self.args = args
        self.modes = args.modes.split(",")
        self.conns = 0
        self.lock = threading.Lock()
        self.seen = set()
        self.deleted = set()
        self.stored = 0
        self.datas = 0
        self.msgs = []
        for i in range(args.messages):
            self.msgs.append(b"From: p%d@example.test\r\nTo: judge@example.test\r\n"
                             b"Subject: backlog %d\r\nMessage-ID: <b%d@example.test>\r\n\r\nhelp\r\n"
                             % (i, i, i))
        d = os.path.join(args.dir, "imap")
        if os.path.isdir(d):
            for name in sorted(os.listdir(d)):
                with open(os.path.join(d, name), "rb") as f:
                    self.msgs.append(f.read())
        self.tls = None
        if args.cert:
            self.tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            self.tls.load_cert_chain(args.cert, args.key)

    def next_mode(self):
        with self.lock:
            m = self.modes[min(self.conns, len(self.modes) - 1)]
            self.conns += 1
            self.log("conn %d %s" % (self.conns, m))
            return m

    def log(self, line):
        with open(os.path.join(self.args.dir, "log"), "a") as f:
            f.write(line + "\n")


class Drop(Exception):
    """End the connection now."""


class Conn:
    """A line-oriented connection that can turn into TLS."""

    def __init__(self, sock, shared):
        self.sock = sock
        self.shared = shared
        self.buf = b""
        self.n = 0

    def send(self, data):
        if isinstance(data, str):
            data = data.encode()
        self.sock.sendall(data)

    def line(self):
        while b"\n" not in self.buf:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise Drop()
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return line.rstrip(b"\r").decode("utf-8", "replace")

    def starttls(self):
        self.sock = self.shared.tls.wrap_socket(self.sock, server_side=True)
        self.buf = b""

    def drop(self, what):
        self.shared.log("drop at " + what)
        raise Drop()

    def silence(self, what, seconds=3600):
        self.shared.log("silent at " + what)
        self.sock.settimeout(seconds)
        try:
            while self.sock.recv(65536):
                pass
        except OSError:
            pass
        raise Drop()

    def trickle(self, what, data):
        self.shared.log("trickle at " + what)
        while True:
            for b in data:
                self.send(bytes([b]))
                time.sleep(0.2)

    def flood(self, what, line):
        self.shared.log("flood at " + what)
        block = line * 1000
        while True:
            self.send(block)


def uid_set(spec, last):
    """The UIDs of an IMAP sequence set ("1:3,5", "4:*")."""
    out = set()
    for part in spec.split(","):
        if ":" in part:
            a, b = part.split(":", 1)
            a = last if a == "*" else int(a)
            b = last if b == "*" else int(b)
            out.update(range(min(a, b), max(a, b) + 1))
        else:
            out.add(last if part == "*" else int(part))
    return out


def imap_session(c, mode):
    st = c.shared
    if mode == "close-at-greeting":
        c.drop("greeting")
    if mode == "silent":
        c.silence("greeting")
    if mode == "garbage-greeting":
        c.send(b"\x00\xffHELLO THERE\r\n)))) {{{ \r\n")
        c.silence("after garbage", 30)
    c.send("* OK [CAPABILITY IMAP4rev1 STARTTLS AUTH=PLAIN SASL-IR UIDPLUS] badserver ready\r\n")
    n = len(st.msgs) - (1 if mode == "bad-fetch" else 0)
    c.n = n
    while True:
        words = c.line().split(" ")
        tag, cmd = words[0], " ".join(words[1:2]).upper()
        arg = words[2:]
        if cmd == "UID" and arg:
            cmd = "UID " + arg[0].upper()
            arg = arg[1:]
        if cmd == "CAPABILITY":
            c.send("* CAPABILITY IMAP4rev1 STARTTLS AUTH=PLAIN SASL-IR UIDPLUS\r\n%s OK done\r\n" % tag)
        elif cmd == "STARTTLS":
            if mode == "drop-starttls":
                c.drop("STARTTLS")
            c.send("%s OK begin TLS\r\n" % tag)
            c.starttls()
        elif cmd in ("LOGIN", "AUTHENTICATE"):
            if mode == "drop-login":
                c.drop("LOGIN")
            c.send("%s OK logged in\r\n" % tag)
        elif cmd == "SELECT":
            if mode == "drop-select":
                c.drop("SELECT")
            if mode == "flood":
                c.flood("SELECT", b"* OK " + b"x" * 200 + b"\r\n")
            c.send("* %d EXISTS\r\n* 0 RECENT\r\n* FLAGS (\\Seen \\Deleted)\r\n"
                   "* OK [UIDVALIDITY %d] ok\r\n* OK [UIDNEXT %d] ok\r\n"
                   "%s OK [READ-WRITE] selected\r\n" % (n, UIDVALIDITY, n + 1, tag))
        elif cmd == "UID SEARCH":
            if mode == "drop-search":
                c.drop("UID SEARCH")
            live = [u for u in range(1, n + 1) if u not in st.deleted]
            if arg and arg[0].upper() == "UNSEEN":
                hits = [u for u in live if u not in st.seen]
            elif len(arg) >= 2 and arg[0].upper() == "UID":
                want = uid_set(arg[1], max(live) if live else 0)
                hits = [u for u in live if u in want]
            else:
                hits = live
            c.send("* SEARCH%s\r\n%s OK searched\r\n" % ("".join(" %d" % u for u in hits), tag))
        elif cmd == "UID FETCH":
            imap_fetch(c, mode, tag, uid_set(arg[0], n))
        elif cmd == "UID STORE":
            if mode == "drop-store":
                c.drop("UID STORE")
            if mode == "no-store":
                c.send("%s NO [SERVERBUG] cannot store\r\n" % tag)
                continue
            uids = uid_set(arg[0], n)
            st.seen.update(uids)
            if "\\DELETED" in " ".join(arg).upper():
                st.deleted.update(uids)
            st.log("stored flags %s" % ",".join(str(u) for u in sorted(uids)))
            c.send("%s OK stored\r\n" % tag)
        elif cmd in ("EXPUNGE", "UID EXPUNGE", "NOOP", "CHECK"):
            c.send("%s OK done\r\n" % tag)
        elif cmd == "LOGOUT":
            c.send("* BYE bye\r\n%s OK bye\r\n" % tag)
            raise Drop()
        else:
            c.send("%s BAD unknown command\r\n" % tag)


def fetch_item(uid, body):
    return (b"* %d FETCH (UID %d INTERNALDATE \"25-Nov-2026 03:00:00 +0000\" BODY[] {%d}\r\n"
            % (uid, uid, len(body)) + body + b")\r\n")


def imap_fetch(c, mode, tag, uids):
    st = c.shared
    want = [u for u in sorted(uids) if 1 <= u <= c.n and u not in st.deleted]
    if mode == "drop-fetch":
        c.drop("UID FETCH")
    if mode == "huge-literal":
        c.send(b"* 1 FETCH (UID 1 BODY[] {4000000000}\r\n")
        c.flood("UID FETCH", b"A" * 78 + b"\r\n")
    if mode in ("truncated-fetch", "stall-fetch", "trickle"):
        first = fetch_item(want[0], st.msgs[want[0] - 1]) if want else fetch_item(1, b"x" * 100)
        half = first[: len(first) // 2]
        if mode == "trickle":
            c.trickle("UID FETCH", half * 1000)
        c.send(half)
        if mode == "stall-fetch":
            c.silence("UID FETCH")
        c.drop("UID FETCH (half a message sent)")
    out = b""
    if mode == "bad-fetch":
        out += b"* 1 FETCH (INTERNALDATE \"25-Nov-2026 03:00:00 +0000\" BODY[] {5}\r\nhello)\r\n"
        out += b"* 9 FETCH (UID 4242 BODY[] {5}\r\nhello)\r\n"
        out += b"* 2 FETCH (UID 2 BODY[] NIL)\r\n"
        out += b"* 3 FETCH (UID 0 BODY[] {3}\r\nabc)\r\n"
        out += b"* 4 FETCH (FLAGS (\\Seen))\r\n"
    for u in want:
        out += fetch_item(u, st.msgs[u - 1])
        if mode == "bad-fetch":
            out += fetch_item(u, st.msgs[u - 1])	# the same message twice
    if mode == "garbage-fetch":
        out += b"* 1 FETCH (UID \"one\" BODY[] {{{ \x00\r\n"
    c.send(out + b"%s OK fetched\r\n" % tag.encode())


def smtp_session(c, mode):
    st = c.shared
    if mode == "drop-greeting":
        c.drop("greeting")
    if mode == "silent":
        c.silence("greeting")
    if mode == "trickle":
        c.trickle("greeting", b"220-" + b"x" * 60 + b"\r\n")
    c.send("220 bad.example.test ESMTP badserver\r\n")
    tls = False
    rcpts = 0
    while True:
        line = c.line()
        verb = line.split(" ", 1)[0].upper()
        if verb in ("EHLO", "HELO"):
            if mode == "drop-ehlo":
                c.drop("EHLO")
            c.send("250-bad.example.test\r\n%s%s250-AUTH PLAIN LOGIN\r\n250 8BITMIME\r\n"
                   % ("" if tls or not st.tls else "250-STARTTLS\r\n",
                      "250-PIPELINING\r\n" if st.args.pipelining else ""))
        elif verb == "STARTTLS":
            if mode == "drop-starttls":
                c.drop("STARTTLS")
            c.send("220 go ahead\r\n")
            c.starttls()
            tls = True
        elif verb == "AUTH":
            if mode == "drop-auth":
                c.drop("AUTH")
            parts = line.split(" ")
            if len(parts) < 3:	# the credentials on a line of their own
                c.send("334 \r\n")
                c.line()
            c.send("235 2.7.0 ok\r\n")
        elif verb == "MAIL":
            if mode == "drop-mail":
                c.drop("MAIL FROM")
            if b"DATA\r\n" in c.buf:
                st.log("pipelined")
            rcpts = 0
            c.send("250 2.1.0 ok\r\n")
        elif verb == "RCPT":
            if mode == "drop-rcpt":
                c.drop("RCPT TO")
            if mode == "refuse-nobody" and "<nobody@" in line:
                c.send("550 5.1.1 <nobody@example.test>: no such user\r\n")
                continue
            rcpts += 1
            c.send("250 2.1.5 ok\r\n")
        elif verb == "DATA":
            with st.lock:
                st.datas += 1
                fiftieth = st.datas == 50
            if mode == "drop-data" or (mode == "drop-fiftieth-data" and fiftieth):
                c.drop("DATA")
            if mode == "refuse-nobody" and rcpts == 0:
                c.send("554 5.5.1 no valid recipients\r\n")
                continue
            c.send("354 go on\r\n")
            body = []
            while True:
                l = c.line()
                if l == ".":
                    break
                body.append(l[1:] if l.startswith(".") else l)
            if mode == "drop-eod":
                c.drop("the final dot")
            if mode == "stall-eod":
                c.silence("the final dot")
            with st.lock:
                st.stored += 1
                name = os.path.join(st.args.dir, "smtp", "%d.eml" % st.stored)
            os.makedirs(os.path.dirname(name), exist_ok=True)
            with open(name, "w") as f:
                f.write("\n".join(body) + "\n")
            st.log("stored " + name)
            c.send("250 2.0.0 queued\r\n")
            if mode == "close-after-one":
                c.drop("after one message")
        elif verb in ("RSET", "NOOP"):
            c.send("250 ok\r\n")
        elif verb == "QUIT":
            if mode == "drop-quit":
                c.drop("QUIT")
            if mode == "stall-quit":
                c.silence("QUIT")
            c.send("221 bye\r\n")
            raise Drop()
        else:
            c.send("502 unknown\r\n")


class Handler(socketserver.BaseRequestHandler):
    def handle(self):
        st = self.server.shared
        mode = st.next_mode()
        c = Conn(self.request, st)
        try:
            if st.args.proto == "imap":
                imap_session(c, mode)
            else:
                smtp_session(c, mode)
        except (Drop, OSError, ssl.SSLError, UnicodeError, ValueError, IndexError):
            pass
        finally:
            try:
                c.sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            c.sock.close()


class Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


def main():
    ap = argparse.ArgumentParser(description="a misbehaving IMAP or SMTP server on loopback")
    ap.add_argument("proto", choices=("imap", "smtp"))
    ap.add_argument("--dir", required=True)
    ap.add_argument("--modes", default="ok")
    ap.add_argument("--messages", type=int, default=0,
                    help="IMAP: N generated messages before those of DIR/imap")
    ap.add_argument("--pipelining", action="store_true", help="SMTP: offer PIPELINING")
    ap.add_argument("--cert")
    ap.add_argument("--key")
    ap.add_argument("--list", action="store_true", help="print the modes and exit")
    args = ap.parse_args()
    table = IMAP_MODES if args.proto == "imap" else SMTP_MODES
    if args.list:
        for k, v in table.items():
            print("%-18s %s" % (k, v))
        return 0
    for m in args.modes.split(","):
        if m not in table:
            sys.exit("badserver: no %s mode %s" % (args.proto, m))
    srv = Server(("127.0.0.1", 0), Handler)
    srv.shared = Shared(args)
    tmp = os.path.join(args.dir, "port.tmp")
    with open(tmp, "w") as f:
        f.write("%d\n" % srv.server_address[1])
    os.rename(tmp, os.path.join(args.dir, "port"))
    srv.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main())
