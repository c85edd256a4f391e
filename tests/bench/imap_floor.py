#!/usr/bin/env python3
"""imap_floor.py -- the IMAP server's own fetch rate, the floor of pouch's fetch.

    imap_floor.py HOST PORT USER PASSWORD_FILE CAFILE [FOLDER]

Signs in as pouch does (STARTTLS, the certificate verified, LOGIN), selects
the folder and times one UID FETCH 1:* (UID INTERNALDATE BODY.PEEK[]) --
every message, nothing marked -- read to its end and dropped, parsing
nothing. Prints "N messages in T ms, R messages/s, B MB". Python's
standard library only.
"""
import socket
import ssl
import sys
import time


def main():
    host, port, user, pwfile, cafile = sys.argv[1:6]
    folder = sys.argv[6] if len(sys.argv) > 6 else "INBOX"
    with open(pwfile) as f:
        password = f.read().strip()
    sock = socket.create_connection((host, int(port)), timeout=600)
    buf = bytearray()

    def until(tag):
        # the answer up to and with the tagged reply of tag, the last line
        # received (nothing else is asked for meanwhile)
        while True:
            if buf.endswith(b"\r\n"):
                i = buf.rfind(b"\r\n", 0, len(buf) - 2)
                if buf.startswith(tag + b" ", i + 2 if i >= 0 else 0):
                    out = bytes(buf)
                    del buf[:]
                    return out
            chunk = sock.recv(1 << 20)
            if not chunk:
                sys.exit("imap_floor: the server closed the connection")
            buf.extend(chunk)

    def line():
        while b"\r\n" not in buf:
            chunk = sock.recv(65536)
            if not chunk:
                sys.exit("imap_floor: the server closed the connection")
            buf.extend(chunk)
        i = buf.index(b"\r\n")
        out = bytes(buf[:i])
        del buf[:i + 2]
        return out

    line()  # greeting
    sock.sendall(b"a1 STARTTLS\r\n")
    until(b"a1")
    ctx = ssl.create_default_context(cafile=cafile)
    sock = ctx.wrap_socket(sock, server_hostname=host)
    quoted = '"%s"' % password.replace("\\", "\\\\").replace('"', '\\"')
    sock.sendall(b"a2 LOGIN %s %s\r\n" % (user.encode(), quoted.encode()))
    if b"a2 OK" not in until(b"a2"):
        sys.exit("imap_floor: login refused")
    sock.sendall(b"a3 SELECT %s\r\n" % folder.encode())
    if b"a3 OK" not in until(b"a3"):
        sys.exit("imap_floor: cannot select " + folder)
    t0 = time.monotonic()
    sock.sendall(b"a4 UID FETCH 1:* (UID INTERNALDATE BODY.PEEK[])\r\n")
    answer = until(b"a4")
    t1 = time.monotonic()
    n = answer.count(b"\r\n* ") + (1 if answer.startswith(b"* ") else 0)
    ms = (t1 - t0) * 1000
    print("%d messages in %.0f ms, %.0f messages/s, %.1f MB"
          % (n, ms, n * 1000 / ms if ms > 0 else 0, len(answer) / 1e6))
    sock.sendall(b"a5 LOGOUT\r\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
