"""A fake hatk on its own origin, for the deployment suite's `--appview` topology: a separate process that behaves
as hatk does towards a client like grain-stories (docs/grain-api.md §5-7, docs/grain-updates.md "hatk behaviour a
client must respect"), with its own sign-in page standing in for the PDS's.

- OAuth: AS metadata, PAR (DPoP, PKCE S256, login_hint), an HTML authorize page with a password form, token with
  DPoP-bound ES256 tokens, refresh with rotation, revoke. No DPoP nonces. Clients: a static allowlist (--client),
  or hatk's loopback rule (client_id on localhost/127.0.0.1/[::1], redirect_uri on the same origin).
- XRPC: social.grain.unspecced.getStoryAuthors/getStories/getStory/getStoryArchive/getActorProfile,
  dev.hatk.uploadBlob/createRecord/deleteRecord/getRecord, images at com.atproto.sync.getBlob. A method it does
  not know answers 200 text/html, as hatk's SPA fallback does. A DPoP failure on XRPC is silent, as in hatk, but
  recorded: GET /_fake/report lists every one, so the suite can fail on what hatk would hide.

Usage: fake_hatk.py --account HANDLE:PASSWORD[:NAME] [--seed-photo FILE] [--scenario FILE] [--client ID=REDIRECT_URI]
       [--port N] [--first-token-seconds N]
--scenario takes the contract suite's household as JSON: [{"handle", "name", "stories": [{"rkey", "hoursAgo",
"width", "height"}]}], each story's photo the --seed-photo.
Prints "fake hatk listening on http://127.0.0.1:PORT" once it accepts connections.
"""
import argparse
import os
import secrets
import struct
import sys
import time
from http.server import ThreadingHTTPServer

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from fake_hatk_http import Handler  # noqa: E402
from fake_hatk_oauth import Hatk  # noqa: E402


def seed(hatk: Hatk, photo: str):
    """One other member with a story from an hour ago, so the strip is not empty before anyone posts."""
    did = hatk.store.add_account("nora.fake.test", secrets.token_urlsafe(12), "Nora")
    data = open(photo, "rb").read()
    mime = "image/png" if data.startswith(b"\x89PNG") else "image/jpeg"
    width, height = struct.unpack(">II", data[16:24]) if mime == "image/png" else (4, 3)
    blob = hatk.store.put_blob(data, mime)
    hatk.store.accounts[did]["avatar"] = blob["ref"]["$link"]
    created = time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime(time.time() - 3600))
    hatk.store.create(did, "social.grain.story", {"media": blob, "aspectRatio": {"width": width, "height": height}, "createdAt": created})


def seed_scenario(hatk: Hatk, path: str, photo: str):
    """The contract suite's household: members with stories made the given hours ago, under the given record keys."""
    import json
    data = open(photo, "rb").read()
    mime = "image/png" if data.startswith(b"\x89PNG") else "image/jpeg"
    for member in json.load(open(path)):
        did = hatk.store.add_account(member["handle"], secrets.token_urlsafe(12), member["name"])
        for story in member["stories"]:
            blob = hatk.store.put_blob(data, mime)
            created = time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime(time.time() - story["hoursAgo"] * 3600))
            record = {"media": blob, "aspectRatio": {"width": story["width"], "height": story["height"]}, "createdAt": created}
            hatk.store.create(did, "social.grain.story", record, rkey=story["rkey"])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--account", action="append", default=[], help="HANDLE:PASSWORD[:DISPLAY NAME]")
    parser.add_argument("--client", action="append", default=[], help="CLIENT_ID=REDIRECT_URI (the static allowlist)")
    parser.add_argument("--seed-photo")
    parser.add_argument("--scenario")
    parser.add_argument("--first-token-seconds", type=int, default=3600, help="lifetime of a sign-in's access token")
    options = parser.parse_args()

    server = ThreadingHTTPServer(("127.0.0.1", options.port), Handler)
    server.daemon_threads = True
    clients = {}
    for entry in options.client:
        client_id, redirect = entry.split("=", 1)
        clients.setdefault(client_id, set()).add(redirect)
    hatk = Hatk(f"http://127.0.0.1:{server.server_address[1]}", clients, options.first_token_seconds)
    for entry in options.account:
        handle, password, *name = entry.split(":", 2)
        hatk.store.add_account(handle, password, name[0] if name else None)
    if options.scenario:
        seed_scenario(hatk, options.scenario, options.seed_photo)
    elif options.seed_photo:
        seed(hatk, options.seed_photo)
    server.hatk = hatk
    print(f"fake hatk listening on {hatk.issuer}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
