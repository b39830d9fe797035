"""The fake hatk's HTTP side: routing, hatk's CORS headers, form and JSON bodies, and the authorize page."""
import html
import json
import urllib.parse
from http.server import BaseHTTPRequestHandler

from fake_hatk_xrpc import PROCEDURES, QUERIES

SPA_PAGE = b"<!doctype html><html><head><title>hatk</title></head><body><div id=app></div></body></html>"
MAX_BODY = 10_000_000

AUTHORIZE_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sign in · fake hatk</title></head>
<body><main>
<h1>Sign in to the fake hatk</h1>
<p>{client} wants to post for you.</p>
{error}
<form method="post" action="/oauth/authorize">
<input type="hidden" name="request_uri" value="{request_uri}">
<label for="username">Username</label>
<input id="username" name="username" value="{username}" autocomplete="username">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password">
<button type="submit" data-approve>Sign in</button>
<button type="submit" name="deny" value="1">Cancel</button>
</form></main></body></html>
"""


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    @property
    def hatk(self):
        return self.server.hatk

    def log_message(self, format, *args):
        pass  # the suite prints the report instead

    # Answers

    def answer(self, status: int, body: bytes, content_type: str, headers: dict = None):
        self.send_response(status)
        # hatk's response.ts: every answer allows any origin.
        for name, value in {"Access-Control-Allow-Origin": "*", "Access-Control-Allow-Headers": "*",
                            "Access-Control-Allow-Methods": "GET, POST, OPTIONS", "Content-Type": content_type,
                            "Content-Length": str(len(body)), **(headers or {})}.items():
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def json(self, status: int, value):
        self.answer(status, json.dumps(value).encode(), "application/json")

    def redirect(self, location: str):
        self.answer(302, b"", "text/plain", {"Location": location})

    # Requests

    def url(self) -> str:
        """The URL hatk checks `htu` against: forwarded proto (default http), Host and path."""
        proto = self.headers.get("X-Forwarded-Proto", "http")
        return f"{proto}://{self.headers.get('Host', '')}{self.path.split('?')[0]}"

    def query(self) -> dict:
        return dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(self.path).query))

    def body(self) -> bytes:
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_BODY:
            raise ValueError("body too large")
        return self.rfile.read(length)

    def form(self, body: bytes) -> dict:
        """hatk's OAuth endpoints take a form or JSON."""
        if (self.headers.get("Content-Type") or "").startswith("application/json"):
            return json.loads(body or b"{}")
        return dict(urllib.parse.parse_qsl(body.decode()))

    def do_OPTIONS(self):
        self.answer(200, b"", "text/plain")

    def do_GET(self):
        path = urllib.parse.urlsplit(self.path).path
        if path == "/.well-known/oauth-authorization-server":
            return self.json(200, self.hatk.metadata())
        if path == "/.well-known/oauth-protected-resource":
            i = self.hatk.issuer
            return self.json(200, {"resource": i, "authorization_servers": [i], "bearer_methods_supported": ["header"]})
        if path == "/oauth/jwks":
            return self.json(200, self.hatk.signer.public_jwks())
        if path == "/oauth/authorize":
            return self.authorize_page(self.query())
        if path == "/_health":
            return self.json(200, {"status": "ok"})
        if path == "/_fake/report":
            return self.json(200, self.hatk.report)
        if path.startswith("/xrpc/"):
            return self.xrpc(path[6:], QUERIES, b"")
        self.answer(200, SPA_PAGE, "text/html; charset=utf-8")

    def do_POST(self):
        path = urllib.parse.urlsplit(self.path).path
        try:
            body = self.body()
        except ValueError:
            return self.json(413, {"error": "PayloadTooLarge"})
        if path == "/oauth/par":
            return self.json(*self.hatk.par(self.form(body), self.headers.get("DPoP", ""), self.url()))
        if path == "/oauth/token":
            return self.json(*self.hatk.token(self.form(body), self.headers.get("DPoP", ""), self.url()))
        if path == "/oauth/revoke":
            return self.json(*self.hatk.revoke(self.form(body)))
        if path == "/oauth/authorize":
            return self.authorize(self.form(body))
        if path.startswith("/xrpc/"):
            return self.xrpc(path[6:], PROCEDURES, body)
        self.answer(200, SPA_PAGE, "text/html; charset=utf-8")

    # Pages and methods

    def authorize_page(self, query: dict, error: str = None, status: int = 200):
        found = self.hatk.pending_request(query.get("request_uri", ""), query.get("client_id"))
        if not found:
            return self.answer(400, b"<!doctype html><title>Sign-in expired</title><p>This sign-in request is unknown or expired.",
                               "text/html; charset=utf-8")
        page = AUTHORIZE_PAGE.format(
            client=html.escape(found["client_id"]), request_uri=html.escape(query["request_uri"]),
            username=html.escape(found.get("login_hint", "")),
            error=f'<p role="alert" data-error>{html.escape(error)}</p>' if error else "")
        self.answer(status, page.encode(), "text/html; charset=utf-8")

    def authorize(self, form: dict):
        request_uri = form.get("request_uri", "")
        if form.get("deny"):
            location = self.hatk.deny(request_uri)
        else:
            location = self.hatk.approve(request_uri, form.get("username", ""), form.get("password", ""))
        if location:
            return self.redirect(location)
        self.authorize_page({"request_uri": request_uri}, "Wrong username or password.", 401)

    def xrpc(self, nsid: str, methods: dict, body: bytes):
        method = methods.get(nsid)
        if not method:
            # hatk falls through to its static/SPA handler: 200 text/html, never a JSON error.
            self.hatk.report["unknown_methods"].append(f"{self.command} {nsid}")
            return self.answer(200, SPA_PAGE, "text/html; charset=utf-8")
        viewer = self.hatk.viewer(self.headers, self.command, self.url(), self.path.split("?")[0])
        try:
            result = method(self.hatk, viewer, self.query(), body, self.headers.get("Content-Type"))
        except (ValueError, KeyError, TypeError) as error:
            return self.json(500, {"error": f"{type(error).__name__}: {error}"})
        if len(result) == 3:
            return self.answer(result[0], result[2], result[1], {"Cache-Control": "public, max-age=3600"})
        self.json(*result)
