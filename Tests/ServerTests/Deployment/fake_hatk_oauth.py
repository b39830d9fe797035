"""The fake hatk's state: its OAuth authorization server (PAR, approval, token, refresh, revoke) over the
store, and the report of what it saw. HTTP lives in fake_hatk_http.py."""
import hashlib
import secrets
import threading
import time
import urllib.parse

from fake_hatk_store import Store
from fake_hatk_tokens import ProofError, Signer, b64url, check_proof, unverified_parts


class Hatk:
    """The OAuth and XRPC state, independent of HTTP plumbing."""

    def __init__(self, issuer: str, clients: dict, first_token_seconds: int = 3600):
        self.issuer = issuer
        # How long the access token of a sign-in lives (refreshed ones get 3600 s): under a minute, a client's first
        # use of it needs a refresh, which the shared-sessions suite counts.
        self.first_token_seconds = first_token_seconds
        self.clients = clients  # static allowlist: client_id -> set of redirect URIs
        self.store = Store(issuer)
        self.signer = Signer(issuer)
        self.lock = threading.Lock()
        self.pending = {}  # request_uri -> authorization request
        self.codes = {}  # code -> authorization request, once approved
        self.refresh = {}  # refresh token -> {"did", "client_id", "scope", "expires", "revoked"}
        self.seen_jti = {}
        self.report = {"dpop_failures": [], "unknown_methods": [], "sign_ins": 0, "refreshes": 0, "revoked": 0}

    def metadata(self):
        i = self.issuer
        return {"issuer": i, "authorization_endpoint": f"{i}/oauth/authorize", "token_endpoint": f"{i}/oauth/token",
                "revocation_endpoint": f"{i}/oauth/revoke", "pushed_authorization_request_endpoint": f"{i}/oauth/par",
                "jwks_uri": f"{i}/oauth/jwks", "scopes_supported": ["atproto"], "subject_types_supported": ["public"],
                "response_types_supported": ["code"], "response_modes_supported": ["query", "fragment"],
                "grant_types_supported": ["authorization_code", "refresh_token"], "code_challenge_methods_supported": ["S256"],
                "token_endpoint_auth_methods_supported": ["none"], "dpop_signing_alg_values_supported": ["ES256"],
                "require_pushed_authorization_requests": False, "authorization_response_iss_parameter_supported": True,
                "client_id_metadata_document_supported": True, "protected_resources": [i]}

    def client_allowed(self, client_id: str, redirect_uri: str) -> bool:
        if redirect_uri in self.clients.get(client_id, ()):
            return True
        client, redirect = urllib.parse.urlsplit(client_id), urllib.parse.urlsplit(redirect_uri)
        return (client.scheme in ("http", "https") and client.hostname in ("localhost", "127.0.0.1", "::1")
                and (client.scheme, client.netloc) == (redirect.scheme, redirect.netloc))

    def fresh_jti(self, proof: str) -> bool:
        """hatk refuses a replayed proof at /oauth/par and /oauth/token (not on XRPC)."""
        jti = unverified_parts(proof)[1].get("jti")
        with self.lock:
            now = time.time()
            self.seen_jti = {j: t for j, t in self.seen_jti.items() if t > now}
            if jti in self.seen_jti:
                return False
            self.seen_jti[jti] = now + 300
            return True

    def par(self, form: dict, proof: str, url: str):
        try:
            jkt = check_proof(proof, "POST", url)
        except ProofError as error:
            return 400, {"error": "invalid_dpop_proof", "error_description": str(error)}
        if not self.fresh_jti(proof):
            return 400, {"error": "invalid_request", "error_description": "DPoP proof replayed"}
        client_id, redirect_uri = form.get("client_id", ""), form.get("redirect_uri", "")
        if not self.client_allowed(client_id, redirect_uri):
            return 400, {"error": "invalid_client", "error_description": f"Unknown client: {client_id}"}
        if form.get("response_type") != "code" or form.get("code_challenge_method") != "S256" or not form.get("code_challenge"):
            return 400, {"error": "invalid_request", "error_description": "response_type code with S256 PKCE is required"}
        account = self.store.account(form.get("login_hint", ""))
        if not account:
            return 400, {"error": "invalid_request", "error_description": "Authorization request missing PDS data"}
        request_uri = "urn:ietf:params:oauth:request_uri:" + secrets.token_urlsafe(16)
        with self.lock:
            self.pending[request_uri] = {**form, "did": account["did"], "jkt": jkt, "expires": time.time() + 600}
        return 201, {"request_uri": request_uri, "expires_in": 600}

    def pending_request(self, request_uri: str, client_id: str = None):
        with self.lock:
            found = self.pending.get(request_uri)
        if not found or found["expires"] < time.time() or (client_id is not None and client_id != found["client_id"]):
            return None
        return found

    def approve(self, request_uri: str, username: str, password: str):
        """The redirect for a correct password, or None."""
        found = self.pending_request(request_uri)
        account = found and self.store.accounts[found["did"]]
        if not account or username not in (account["handle"], account["handle"].split(".")[0]) or password != account["password"]:
            return None
        code = secrets.token_urlsafe(24)
        with self.lock:
            self.pending.pop(request_uri, None)
            self.codes[code] = found
        return self.redirect(found, {"code": code})

    def redirect(self, found: dict, answer: dict) -> str:
        query = {**answer, "iss": self.issuer}
        if found.get("state"):
            query["state"] = found["state"]
        return found["redirect_uri"] + "?" + urllib.parse.urlencode(query)

    def deny(self, request_uri: str):
        found = self.pending_request(request_uri)
        with self.lock:
            self.pending.pop(request_uri, None)
        return found and self.redirect(found, {"error": "access_denied"})

    def token(self, form: dict, proof: str, url: str):
        try:
            jkt = check_proof(proof, "POST", url)
        except ProofError as error:
            return 400, {"error": "invalid_dpop_proof", "error_description": str(error)}
        if not self.fresh_jti(proof):
            return 400, {"error": "invalid_request", "error_description": "DPoP proof replayed"}
        if form.get("grant_type") == "authorization_code":
            with self.lock:
                found = self.codes.pop(form.get("code", ""), None)  # single use
            # hatk throws plain Errors here, which its router answers as 500 {"error": message}.
            if not found:
                return 500, {"error": "Invalid authorization code"}
            if form.get("client_id") != found["client_id"] or form.get("redirect_uri") != found["redirect_uri"]:
                return 500, {"error": "client_id or redirect_uri mismatch"}
            challenge = b64url(hashlib.sha256(form.get("code_verifier", "").encode()).digest())
            if challenge != found["code_challenge"]:
                return 500, {"error": "PKCE verification failed"}
            if jkt != found["jkt"]:
                return 500, {"error": "DPoP key mismatch"}
            did, client_id, scope = found["did"], found["client_id"], found.get("scope", "atproto")
            self.report["sign_ins"] += 1
            lifetime = self.first_token_seconds
        elif form.get("grant_type") == "refresh_token":
            with self.lock:
                old = self.refresh.get(form.get("refresh_token", ""))
                problem = ("Invalid refresh token" if not old else "Refresh token revoked" if old["revoked"]
                           else "Refresh token expired" if old["expires"] < time.time()
                           else "client_id mismatch" if old["client_id"] != form.get("client_id") else None)
                if problem:
                    return 400, {"error": "invalid_grant", "error_description": problem}
                old["revoked"] = True  # rotation
            did, client_id, scope = old["did"], old["client_id"], old["scope"]
            self.report["refreshes"] += 1
            lifetime = 3600
        else:
            return 400, {"error": "unsupported_grant_type", "error_description": "authorization_code or refresh_token"}
        refresh = secrets.token_urlsafe(32)
        with self.lock:
            self.refresh[refresh] = {"did": did, "client_id": client_id, "scope": scope,
                                     "expires": time.time() + 14 * 86400, "revoked": False}
        return 200, {"access_token": self.signer.access_token(did, client_id, scope, jkt, lifetime), "token_type": "DPoP",
                     "expires_in": lifetime, "refresh_token": refresh, "sub": did, "handle": self.store.accounts[did]["handle"]}

    def revoke(self, form: dict):
        with self.lock:
            found = self.refresh.get(form.get("token", ""))
            if found and not found["revoked"]:
                found["revoked"] = True
                self.report["revoked"] += 1
        return 200, {}

    def viewer(self, headers, method: str, url: str, path: str):
        if not headers.get("Authorization"):
            return None
        try:
            return self.signer.viewer(headers.get("Authorization"), headers.get("DPoP"), method, url)
        except ProofError as error:
            # hatk goes on as if signed out; the suite fails on these instead.
            self.report["dpop_failures"].append({"method": method, "path": path, "error": str(error)})
            return None
