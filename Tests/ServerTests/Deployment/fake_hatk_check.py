"""The fake hatk refuses what hatk refuses, so the --appview topology passing means something: proofs with a
wrong htm, htu, iat, ath or key, replayed proofs, unknown clients, a wrong PKCE verifier, writes without a viewer.
Run by DeploymentSuiteTests; prints OK when every check holds."""
import hashlib
import json
import os
import secrets
import sys
import threading
import time
import unittest
import urllib.error
import urllib.parse
import urllib.request
from http.server import ThreadingHTTPServer

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from jwcrypto import jwk, jws  # noqa: E402

from fake_hatk_http import Handler  # noqa: E402
from fake_hatk_oauth import Hatk  # noqa: E402
from fake_hatk_tokens import b64url  # noqa: E402

LOOPBACK_CLIENT = ("http://127.0.0.1:9/oauth-client-metadata.json", "http://127.0.0.1:9/auth/callback")
LISTED_CLIENT = ("https://stories.example/oauth-client-metadata.json", "https://stories.example/auth/callback")


class Client:
    """A DPoP client of the fake: one key, proofs made to order."""

    def __init__(self, base):
        self.base = base
        self.key = jwk.JWK.generate(kty="EC", crv="P-256")

    def proof(self, method, path, access_token=None, **changes):
        claims = {"jti": secrets.token_hex(8), "htm": method, "htu": self.base + path, "iat": int(time.time())}
        if access_token:
            claims["ath"] = b64url(hashlib.sha256(access_token.encode()).digest())
        claims.update(changes)
        token = jws.JWS(json.dumps(claims).encode())
        header = {"alg": "ES256", "typ": "dpop+jwt", "jwk": json.loads(self.key.export_public())}
        token.add_signature(self.key, alg="ES256", protected=json.dumps(header))
        return token.serialize(compact=True)

    def send(self, method, path, body=None, headers=None):
        request = urllib.request.Request(self.base + path, data=body, method=method, headers=headers or {})
        try:
            with urllib.request.urlopen(request, timeout=5) as answer:
                return answer.status, answer.headers, answer.read()
        except urllib.error.HTTPError as error:
            return error.code, error.headers, error.read()

    def par(self, client=LOOPBACK_CLIENT, proof=None, verifier="v" * 43):
        form = {"client_id": client[0], "redirect_uri": client[1], "response_type": "code", "code_challenge_method": "S256",
                "code_challenge": b64url(hashlib.sha256(verifier.encode()).digest()), "login_hint": "ada.fake.test"}
        return self.send("POST", "/oauth/par", urllib.parse.urlencode(form).encode(),
                         {"DPoP": proof or self.proof("POST", "/oauth/par")})


class FakeHatkRefuses(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        base = f"http://127.0.0.1:{cls.server.server_address[1]}"
        cls.server.hatk = Hatk(base, {LISTED_CLIENT[0]: {LISTED_CLIENT[1]}})
        cls.server.hatk.store.add_account("ada.fake.test", "ada-password")
        threading.Thread(target=cls.server.serve_forever, daemon=True).start()
        cls.base = base

    @classmethod
    def tearDownClass(cls):
        cls.server.shutdown()

    def code(self, client):
        """A code for ada through PAR and the password form."""
        status, _, body = client.par()
        location = self.server.hatk.approve(json.loads(body)["request_uri"], "ada", "ada-password")
        return dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(location).query))["code"]

    def exchange(self, client, code, verifier="v" * 43):
        form = {"grant_type": "authorization_code", "code": code, "client_id": LOOPBACK_CLIENT[0],
                "redirect_uri": LOOPBACK_CLIENT[1], "code_verifier": verifier}
        return client.send("POST", "/oauth/token", urllib.parse.urlencode(form).encode(),
                           {"DPoP": client.proof("POST", "/oauth/token")})

    def signed_in(self, client):
        status, _, body = self.exchange(client, self.code(client))
        self.assertEqual(status, 200, body)
        return json.loads(body)

    def test_par_checks_the_proof(self):
        client = Client(self.base)
        for changes in [{"htm": "GET"}, {"htu": self.base + "/oauth/par?x=1"}, {"htu": "http://other.example/oauth/par"},
                        {"iat": int(time.time()) - 400}, {"jti": ""}]:
            status, _, body = client.par(proof=client.proof("POST", "/oauth/par", **changes))
            self.assertEqual(status, 400, f"{changes}: {body}")
        proof = client.proof("POST", "/oauth/par")
        self.assertEqual(client.par(proof=proof)[0], 201)
        self.assertEqual(client.par(proof=proof)[0], 400, "a replayed proof")

    def test_clients_are_the_allowlist_and_loopback_ones(self):
        client = Client(self.base)
        self.assertEqual(client.par(LISTED_CLIENT)[0], 201)
        self.assertEqual(client.par(LOOPBACK_CLIENT)[0], 201)
        for refused in [("https://unknown.example/oauth-client-metadata.json", "https://unknown.example/auth/callback"),
                        (LOOPBACK_CLIENT[0], "http://127.0.0.1:10/auth/callback"),
                        (LISTED_CLIENT[0], "https://stories.example/elsewhere")]:
            status, _, body = client.par(refused)
            self.assertEqual((status, json.loads(body)["error"]), (400, "invalid_client"), refused)

    def test_codes_are_bound_to_the_key_and_the_verifier_and_used_once(self):
        client = Client(self.base)
        self.assertEqual(self.exchange(client, self.code(client), verifier="w" * 43)[:3:2], (500, b'{"error": "PKCE verification failed"}'))
        self.assertEqual(self.exchange(Client(self.base), self.code(client))[:3:2], (500, b'{"error": "DPoP key mismatch"}'))
        code = self.code(client)
        self.assertEqual(self.exchange(client, code)[0], 200)
        self.assertEqual(self.exchange(client, code)[0], 500, "a code used twice")
        self.assertIsNone(self.server.hatk.approve("urn:unknown", "ada", "ada-password"))

    def test_xrpc_writes_need_a_valid_bound_proof(self):
        client = Client(self.base)
        tokens = self.signed_in(client)
        token = tokens["access_token"]
        path = "/xrpc/dev.hatk.uploadBlob"
        good = {"Authorization": "DPoP " + token, "Content-Type": "image/jpeg"}
        before = len(self.server.hatk.report["dpop_failures"])
        for proof in [client.proof("POST", path), client.proof("POST", path, access_token=token, htu=self.base + "/xrpc/x"),
                      Client(self.base).proof("POST", path, access_token=token)]:
            status, _, body = client.send("POST", path, b"\xff\xd8", {**good, "DPoP": proof})
            self.assertEqual((status, json.loads(body)), (401, {"error": "Authentication required"}))
        self.assertEqual(len(self.server.hatk.report["dpop_failures"]), before + 3)
        status, _, body = client.send("POST", path, b"\xff\xd8", {**good, "DPoP": client.proof("POST", path, access_token=token)})
        self.assertEqual(status, 200, body)
        self.assertEqual(json.loads(body)["blob"]["mimeType"], "image/jpeg")

    def test_refresh_rotates_and_revoke_ends_it(self):
        client = Client(self.base)
        tokens = self.signed_in(client)
        refresh = lambda token: client.send("POST", "/oauth/token", urllib.parse.urlencode(
            {"grant_type": "refresh_token", "refresh_token": token, "client_id": LOOPBACK_CLIENT[0]}).encode(),
            {"DPoP": client.proof("POST", "/oauth/token")})
        status, _, body = refresh(tokens["refresh_token"])
        self.assertEqual(status, 200, body)
        self.assertEqual(refresh(tokens["refresh_token"])[0], 400, "a rotated refresh token")
        newer = json.loads(body)["refresh_token"]
        client.send("POST", "/oauth/revoke", urllib.parse.urlencode({"token": newer}).encode())
        self.assertEqual(refresh(newer)[0], 400, "a revoked refresh token")

    def test_an_unknown_method_answers_html(self):
        status, headers, body = Client(self.base).send("GET", "/xrpc/social.grain.unspecced.noSuchMethod")
        self.assertEqual((status, headers["Content-Type"].split(";")[0]), (200, "text/html"))


if __name__ == "__main__":
    program = unittest.main(exit=False, verbosity=2)
    print("OK" if program.result.wasSuccessful() else "FAILED")
    raise SystemExit(0 if program.result.wasSuccessful() else 1)
