#!/usr/bin/env python3
"""oauthserver.py -- a small OAuth 2.0 authorization server for the mail tests.

    oauthserver.py --port PORT --cert CERT --key KEY --client-id ID
                   [--client-secret-file FILE] [--log FILE] [--rotate]

HTTPS on 127.0.0.1 (the mail stack's certificate). It plays the provider
(Google, Microsoft) for pouch and the token introspection service for
Dovecot's oauth2 passdb:

  POST /device      device authorization (RFC 8628 3.1): device_code, user_code,
                    verification_uri (/verify), interval 1 s
  POST /verify      user_code=..&user=..: the teacher signs in and approves
  POST /token       grant_type=urn:ietf:params:oauth:grant-type:device_code
                    (authorization_pending until approved) or refresh_token
                    (invalid_grant when unknown or revoked); client_id and,
                    when configured, client_secret checked (invalid_client)
  POST /introspect  token=.. (RFC 7662, Dovecot's introspection_mode = post):
                    {"active": true, "username": USER} or {"active": false}

Test controls (loopback only, like the rest):

  POST /admin/expire          every access token issued so far stops working
  POST /admin/revoke          every refresh token (and access token) is revoked
  POST /admin/lifetime?s=N    access tokens issued from now on say expires_in N
  POST /admin/rotate?on=1|0   refresh answers carry a new refresh token, or not
  GET  /admin/stats           counts, as JSON
  GET  /admin/tokens          every token ever issued, one a line (for the
                              test that greps logs and pages for them)

With --rotate (or rotate?on=1) each refresh answer carries a new refresh token (the old one
stays valid), as Microsoft's endpoint does. The log (--log) names requests
and outcomes, never a token.
"""
import argparse
import json
import os
import secrets
import ssl
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOCK = threading.Lock()
STATE = {
    "access": {},       # token -> {"user", "exp", "valid"}
    "refresh": {},      # token -> {"user", "valid"}
    "device": {},       # device_code -> {"user_code", "user", "used"}
    "lifetime": 3600,
    "rotate": False,
    "stats": {"device": 0, "device_ok": 0, "refresh": 0, "refresh_refused": 0,
              "introspect_ok": 0, "introspect_refused": 0, "bad_client": 0},
    "issued": [],
}
ARGS = None


def log(msg):
    if ARGS.log:
        with open(ARGS.log, "a") as f:
            f.write("%s %s\n" % (time.strftime("%H:%M:%S"), msg))


def issue_access(user):
    tok = "at-" + secrets.token_urlsafe(24)
    STATE["access"][tok] = {"user": user, "exp": time.time() + STATE["lifetime"], "valid": True}
    STATE["issued"].append(tok)
    return tok


def issue_refresh(user):
    tok = "rt-" + secrets.token_urlsafe(32)
    STATE["refresh"][tok] = {"user": user, "valid": True}
    STATE["issued"].append(tok)
    return tok


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):  # the default logs request lines: none here
        pass

    def reply(self, status, obj):
        body = json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def form(self):
        n = int(self.headers.get("Content-Length") or 0)
        data = self.rfile.read(n).decode() if n else ""
        return {k: v[0] for k, v in urllib.parse.parse_qs(data, keep_blank_values=True).items()}

    def client_ok(self, f):
        if f.get("client_id") != ARGS.client_id or (SECRET is not None and f.get("client_secret") != SECRET):
            STATE["stats"]["bad_client"] += 1
            log("%s: invalid_client" % self.path)
            self.reply(401, {"error": "invalid_client", "error_description": "unknown client"})
            return False
        return True

    def do_GET(self):
        path = urllib.parse.urlparse(self.path).path
        with LOCK:
            if path == "/admin/stats":
                self.reply(200, STATE["stats"])
            elif path == "/admin/tokens":
                body = "".join(t + "\n" for t in STATE["issued"]).encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/plain")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            else:
                self.reply(404, {"error": "not_found"})

    def do_POST(self):
        url = urllib.parse.urlparse(self.path)
        f = self.form()
        with LOCK:
            handler = {
                "/device": self.device, "/verify": self.verify, "/token": self.token,
                "/introspect": self.introspect, "/admin/expire": self.expire,
                "/admin/revoke": self.revoke, "/admin/lifetime": self.lifetime,
                "/admin/rotate": self.rotate,
            }.get(url.path)
            if handler is None:
                self.reply(404, {"error": "not_found"})
            else:
                handler(f, urllib.parse.parse_qs(url.query))

    def device(self, f, q):
        if not self.client_ok(f):
            return
        code = secrets.token_urlsafe(24)
        user_code = "%04d-%04d" % (secrets.randbelow(10000), secrets.randbelow(10000))
        STATE["device"][code] = {"user_code": user_code, "user": None, "used": False,
                                 "scope": f.get("scope", "")}
        STATE["stats"]["device"] += 1
        log("device authorization started (scope %s)" % f.get("scope", ""))
        self.reply(200, {"device_code": code, "user_code": user_code,
                         "verification_uri": "https://127.0.0.1:%d/verify" % ARGS.port,
                         "expires_in": 600, "interval": 1})

    def verify(self, f, q):
        for d in STATE["device"].values():
            if d["user_code"] == f.get("user_code") and not d["used"]:
                d["user"] = f.get("user")
                log("device code approved for %s" % d["user"])
                self.reply(200, {"approved": True})
                return
        self.reply(400, {"error": "unknown user code"})

    def token(self, f, q):
        if not self.client_ok(f):
            return
        grant = f.get("grant_type")
        if grant == "urn:ietf:params:oauth:grant-type:device_code":
            d = STATE["device"].get(f.get("device_code", ""))
            if d is None or d["used"]:
                self.reply(400, {"error": "invalid_grant"})
            elif d["user"] is None:
                self.reply(400, {"error": "authorization_pending"})
            else:
                d["used"] = True
                STATE["stats"]["device_ok"] += 1
                log("device grant: tokens issued for %s" % d["user"])
                self.reply(200, {"access_token": issue_access(d["user"]), "token_type": "Bearer",
                                 "expires_in": STATE["lifetime"],
                                 "refresh_token": issue_refresh(d["user"])})
        elif grant == "refresh_token":
            r = STATE["refresh"].get(f.get("refresh_token", ""))
            if r is None or not r["valid"]:
                STATE["stats"]["refresh_refused"] += 1
                log("refresh refused: invalid_grant")
                self.reply(400, {"error": "invalid_grant",
                                 "error_description": "Token has been expired or revoked."})
                return
            STATE["stats"]["refresh"] += 1
            log("refresh: access token issued for %s, expires_in %d" % (r["user"], STATE["lifetime"]))
            ans = {"access_token": issue_access(r["user"]), "token_type": "Bearer",
                   "expires_in": STATE["lifetime"]}
            if STATE["rotate"]:
                ans["refresh_token"] = issue_refresh(r["user"])
            self.reply(200, ans)
        else:
            self.reply(400, {"error": "unsupported_grant_type"})

    def introspect(self, f, q):
        a = STATE["access"].get(f.get("token", ""))
        if a is None or not a["valid"] or a["exp"] < time.time():
            STATE["stats"]["introspect_refused"] += 1
            log("introspection: inactive token")
            self.reply(200, {"active": False})
            return
        STATE["stats"]["introspect_ok"] += 1
        log("introspection: active token of %s" % a["user"])
        self.reply(200, {"active": True, "username": a["user"], "exp": int(a["exp"])})

    def expire(self, f, q):
        for a in STATE["access"].values():
            a["valid"] = False
        log("admin: every access token expired")
        self.reply(200, {})

    def revoke(self, f, q):
        for r in STATE["refresh"].values():
            r["valid"] = False
        for a in STATE["access"].values():
            a["valid"] = False
        log("admin: every refresh token revoked")
        self.reply(200, {})

    def lifetime(self, f, q):
        STATE["lifetime"] = int(q.get("s", ["3600"])[0])
        log("admin: access tokens now live %d s" % STATE["lifetime"])
        self.reply(200, {})

    def rotate(self, f, q):
        STATE["rotate"] = q.get("on", ["0"])[0] == "1"
        log("admin: refresh tokens rotate: %s" % STATE["rotate"])
        self.reply(200, {})


def main():
    global ARGS, SECRET
    # started in the background by start.sh: hold none of its caller's pipes open
    os.closerange(3, 1024)
    p = argparse.ArgumentParser()
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--cert", required=True)
    p.add_argument("--key", required=True)
    p.add_argument("--client-id", required=True)
    p.add_argument("--client-secret-file")
    p.add_argument("--log")
    p.add_argument("--rotate", action="store_true")
    ARGS = p.parse_args()
    STATE["rotate"] = ARGS.rotate
    SECRET = None
    if ARGS.client_secret_file:
        with open(ARGS.client_secret_file) as f:
            SECRET = f.readline().rstrip("\r\n")
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(ARGS.cert, ARGS.key)
    srv = ThreadingHTTPServer(("127.0.0.1", ARGS.port), Handler)
    srv.socket = ctx.wrap_socket(srv.socket, server_side=True)
    log("listening on %d" % ARGS.port)
    sys.stdout.flush()
    srv.serve_forever()


SECRET = None
if __name__ == "__main__":
    main()
