"""The fake hatk's tokens: DPoP proofs checked as hatk checks them, and its own ES256 access tokens.

hatk (packages/hatk/src/oauth/dpop.ts, server.ts; docs/grain-api.md §6, §7.5): a proof is a `dpop+jwt` signed
ES256 with a public EC key in its header; `htm` is the method, `htu` the URL without query or trailing slash
(compared case-insensitively), `iat` within [now-300 s, now+60 s], `jti` present, and on resource requests `ath`
is base64url(SHA-256(access token)). No nonces, issued or checked. Access tokens are ES256 JWTs (`at+jwt`, kid
`appview-oauth-key`) bound to the proof key by `cnf.jkt`, valid 3600 s.
"""
import base64
import hashlib
import json
import secrets
import time

from jwcrypto import jwk, jws


class ProofError(Exception):
    """A proof or token hatk would refuse; the message says which check failed."""


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unverified_parts(compact: str):
    """The protected header and payload of a compact JWS, before any check."""
    parts = compact.split(".")
    if len(parts) != 3:
        raise ProofError("not a compact JWS")
    try:
        pad = lambda s: s + "=" * (-len(s) % 4)
        return (json.loads(base64.urlsafe_b64decode(pad(parts[0]))), json.loads(base64.urlsafe_b64decode(pad(parts[1]))))
    except ValueError as error:
        raise ProofError(f"unreadable JWS: {error}") from None


def verify_signature(compact: str, key: jwk.JWK):
    token = jws.JWS()
    try:
        token.deserialize(compact)
        token.verify(key, alg="ES256")
    except Exception as error:  # jwcrypto raises several types; all mean "refused"
        raise ProofError(f"bad signature: {error}") from None


def check_proof(proof: str, method: str, url: str, access_token: str = None, now: float = None) -> str:
    """Checks a DPoP proof for `method url`; returns the proof key's thumbprint (what `cnf.jkt` must equal)."""
    now = time.time() if now is None else now
    header, claims = unverified_parts(proof)
    if header.get("typ") != "dpop+jwt" or header.get("alg") != "ES256":
        raise ProofError(f"typ/alg must be dpop+jwt/ES256, got {header.get('typ')}/{header.get('alg')}")
    public = header.get("jwk")
    if not isinstance(public, dict) or public.get("kty") != "EC" or "d" in public:
        raise ProofError("the header must carry a public EC jwk")
    key = jwk.JWK(**public)
    verify_signature(proof, key)
    if claims.get("htm") != method:
        raise ProofError(f"htm {claims.get('htm')!r} is not {method}")
    htu = str(claims.get("htu", ""))
    if "?" in htu or "#" in htu:
        raise ProofError(f"htu {htu!r} carries a query or fragment")
    expected = url.split("?")[0].rstrip("/").lower()
    if htu.rstrip("/").lower() != expected:
        raise ProofError(f"htu {htu!r} is not {expected}")
    iat = claims.get("iat")
    if not isinstance(iat, (int, float)) or not now - 300 <= iat <= now + 60:
        raise ProofError(f"iat {iat!r} is outside [now-300, now+60]")
    if not claims.get("jti"):
        raise ProofError("jti is missing")
    if access_token is not None and claims.get("ath") != b64url(hashlib.sha256(access_token.encode()).digest()):
        raise ProofError("ath does not match the access token")
    return key.thumbprint()


class Signer:
    """hatk's access-token key: issues tokens and checks the ones presented to it."""

    def __init__(self, issuer: str):
        self.issuer = issuer
        self.key = jwk.JWK.generate(kty="EC", crv="P-256", kid="appview-oauth-key")

    def public_jwks(self):
        return {"keys": [{**json.loads(self.key.export_public()), "kid": "appview-oauth-key", "use": "sig", "alg": "ES256"}]}

    def access_token(self, did: str, client_id: str, scope: str, jkt: str, lifetime: int = 3600) -> str:
        now = int(time.time())
        claims = {"iss": self.issuer, "sub": did, "aud": self.issuer, "client_id": client_id, "scope": scope or "atproto",
                  "jti": secrets.token_urlsafe(16), "iat": now, "exp": now + lifetime, "cnf": {"jkt": jkt}}
        token = jws.JWS(json.dumps(claims).encode())
        token.add_signature(self.key, alg="ES256", protected=json.dumps({"alg": "ES256", "typ": "at+jwt", "kid": "appview-oauth-key"}))
        return token.serialize(compact=True)

    def viewer(self, authorization: str, proof: str, method: str, url: str) -> str:
        """The DID a DPoP-bound request is made as; raises ProofError for anything hatk would not accept."""
        if not authorization or not authorization.startswith("DPoP "):
            raise ProofError("Authorization is not a DPoP token")
        if not proof:
            raise ProofError("no DPoP header")
        token = authorization[5:].strip()
        verify_signature(token, self.key)
        _, claims = unverified_parts(token)
        if claims.get("exp", 0) < time.time():
            raise ProofError("the access token has expired")
        jkt = check_proof(proof, method, url, access_token=token)
        if claims.get("cnf", {}).get("jkt") != jkt:
            raise ProofError("cnf.jkt is not the proof key's thumbprint")
        return claims["sub"]
