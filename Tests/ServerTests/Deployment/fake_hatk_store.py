"""The fake hatk's data: accounts, blobs and story records in memory, and the views hatk builds from them.

Shapes follow docs/grain-api.md: storyView (§3.1) without `$type`, profileView with cid/did/handle/displayName/
avatar (§3.2), blob refs `{"$type":"blob","ref":{"$link"},"mimeType","size"}` (§5.2), records indexed at once
after createRecord, `getRecord`'s envelope (§5.2). Image URLs are hatk's local-development getBlob URLs on the
fake's own origin (§3.8), so a front that shows them needs that origin in its CSP's img-src.
"""
import base64
import datetime
import hashlib
import json
import threading
import time
import urllib.parse


def cid(data: bytes, codec: int) -> str:
    """A CIDv1 (sha2-256) in base32: codec 0x55 (raw) for blobs, 0x71 (dag-cbor) for records."""
    binary = bytes([0x01, codec, 0x12, 0x20]) + hashlib.sha256(data).digest()
    return "b" + base64.b32encode(binary).decode().lower().rstrip("=")


def tid() -> str:
    """A record key as atproto's TID: microseconds and a clock id, base32-sortable."""
    value = (int(time.time() * 1_000_000) << 10) | 7
    alphabet = "234567abcdefghijklmnopqrstuvwxyz"
    return "".join(alphabet[(value >> (5 * i)) & 31] for i in reversed(range(13)))


def utc_now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


class Store:
    def __init__(self, origin: str):
        self.origin = origin
        self.lock = threading.Lock()
        self.accounts = {}  # did -> {"did", "handle", "password", "displayName", "avatar": cid or None}
        self.blobs = {}  # cid -> (mime, bytes)
        self.records = {}  # (did, collection, rkey) -> {"value", "cid", "indexed_at"}

    def add_account(self, handle: str, password: str, display_name: str = None) -> str:
        did = "did:plc:" + base64.b32encode(hashlib.sha256(handle.encode()).digest()).decode().lower()[:24]
        self.accounts[did] = {"did": did, "handle": handle, "password": password, "displayName": display_name, "avatar": None}
        return did

    def account(self, actor: str):
        """An account by DID or handle, as hatk's getActorProfile looks it up."""
        return self.accounts.get(actor) or next((a for a in self.accounts.values() if a["handle"] == actor), None)

    def put_blob(self, data: bytes, mime: str) -> dict:
        ref = cid(data, 0x55)
        with self.lock:
            self.blobs[ref] = (mime, data)
        return {"$type": "blob", "ref": {"$link": ref}, "mimeType": mime, "size": len(data)}

    def create(self, did: str, collection: str, record: dict, rkey: str = None) -> dict:
        rkey = rkey or tid()
        record_cid = cid(json.dumps(record, sort_keys=True).encode(), 0x71)
        with self.lock:
            self.records[(did, collection, rkey)] = {"value": record, "cid": record_cid, "indexed_at": utc_now()}
        return {"uri": f"at://{did}/{collection}/{rkey}", "cid": record_cid,
                "commit": {"cid": cid(record_cid.encode(), 0x71), "rev": tid()}, "validationStatus": "valid"}

    def delete(self, did: str, collection: str, rkey: str):
        with self.lock:
            self.records.pop((did, collection, rkey), None)

    def record(self, uri: str):
        parts = uri.removeprefix("at://").split("/")
        if len(parts) != 3:
            return None
        did = parts[0] if parts[0].startswith("did:") else (self.account(parts[0]) or {}).get("did")
        with self.lock:
            found = self.records.get((did, parts[1], parts[2]))
        return (did, parts[1], parts[2], found) if found else None

    # Views

    def blob_url(self, did: str, ref: str) -> str:
        return f"{self.origin}/xrpc/com.atproto.sync.getBlob?" + urllib.parse.urlencode({"did": did, "cid": ref})

    def profile_view(self, did: str) -> dict:
        account = self.accounts[did]
        view = {"cid": cid(did.encode(), 0x71), "did": did, "handle": account["handle"]}
        if account["displayName"]:
            view["displayName"] = account["displayName"]
        if account["avatar"]:
            view["avatar"] = self.blob_url(did, account["avatar"])
        return view

    def story_view(self, did: str, rkey: str, entry: dict, reduced: bool = False) -> dict:
        value = entry["value"]
        ref = value["media"]["ref"]["$link"]
        view = {"uri": f"at://{did}/social.grain.story/{rkey}", "cid": entry["cid"], "creator": self.profile_view(did),
                "thumb": self.blob_url(did, ref), "fullsize": self.blob_url(did, ref),
                "aspectRatio": value.get("aspectRatio") or {"width": 4, "height": 3}, "createdAt": value["createdAt"],
                "labels": []}
        if not reduced:  # getStory's view leaves these out
            view.update({"expired": self.age(value["createdAt"]) > 86400, "commentCount": 0})
        return view

    @staticmethod
    def age(created_at: str) -> float:
        created = datetime.datetime.strptime(created_at[:19], "%Y-%m-%dT%H:%M:%S").replace(tzinfo=datetime.timezone.utc)
        return time.time() - created.timestamp()

    def stories(self, did: str = None, active: bool = True):
        """(did, rkey, entry) of stories, oldest first: the 24-hour window at query time, as hatk computes it."""
        with self.lock:
            found = [(d, k, e) for (d, c, k), e in self.records.items()
                     if c == "social.grain.story" and (did is None or d == did)]
        found = [s for s in found if not active or self.age(s[2]["value"]["createdAt"]) < 86400]
        return sorted(found, key=lambda s: s[2]["value"]["createdAt"])

    def story_authors(self) -> list:
        latest = {}
        for did, _, entry in self.stories():
            count, at = latest.get(did, (0, ""))
            latest[did] = (count + 1, max(at, entry["value"]["createdAt"]))
        ordered = sorted(latest.items(), key=lambda item: item[1][1], reverse=True)
        return [{"profile": self.profile_view(did), "storyCount": count, "latestAt": at} for did, (count, at) in ordered]
