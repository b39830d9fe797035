"""The fake hatk's XRPC methods, in hatk's shapes (docs/grain-api.md §3, §5). Each takes (hatk, viewer, query,
body, content_type) and returns (status, JSON object) or (status, content type, bytes)."""
import json
import re

WRITE_NEEDS_VIEWER = (401, {"error": "Authentication required"})
ISO_Z = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$")


def get_story_authors(hatk, viewer, query, body, content_type):
    return 200, {"authors": hatk.store.story_authors()}


def get_stories(hatk, viewer, query, body, content_type):
    actor = query.get("actor")
    if not actor:
        return 200, {"stories": []}
    return 200, {"stories": [hatk.store.story_view(d, k, e) for d, k, e in hatk.store.stories(actor)]}


def get_story(hatk, viewer, query, body, content_type):
    found = hatk.store.record(query.get("story", ""))
    if not found or found[1] != "social.grain.story":
        return 200, {}  # hatk's "not found" for a permalink
    did, _, rkey, entry = found
    return 200, {"story": hatk.store.story_view(did, rkey, entry, reduced=True)}


def get_story_archive(hatk, viewer, query, body, content_type):
    limit = max(1, min(100, int(query.get("limit") or 50)))
    stories = list(reversed(hatk.store.stories(query.get("actor", ""), active=False)))
    if query.get("cursor"):
        stories = [s for s in stories if s[2]["value"]["createdAt"] < query["cursor"]]
    page = stories[:limit]
    answer = {"stories": [hatk.store.story_view(d, k, e) for d, k, e in page]}
    if len(stories) > limit:
        answer["cursor"] = page[-1][2]["value"]["createdAt"]
    return 200, answer


def get_actor_profile(hatk, viewer, query, body, content_type):
    account = hatk.store.account(query.get("actor", ""))
    if not account:
        return 400, {"error": "Actor not found"}
    view = hatk.store.profile_view(account["did"])
    galleries = len(hatk.store.stories(account["did"], active=False))
    return 200, {**view, "followersCount": 0, "followsCount": 0, "galleryCount": galleries, "viewer": {}}


def get_blob(hatk, viewer, query, body, content_type):
    found = hatk.store.blobs.get(query.get("cid", ""))
    if not found:
        return 404, {"error": "Blob not found"}
    return 200, found[0], found[1]


def upload_blob(hatk, viewer, query, body, content_type):
    if not viewer:
        return WRITE_NEEDS_VIEWER
    return 200, {"blob": hatk.store.put_blob(body, content_type or "application/octet-stream")}


def story_problem(hatk, record):
    """What hatk's lexicon validation would say about a social.grain.story record, or None."""
    media, ratio = record.get("media"), record.get("aspectRatio")
    if not isinstance(media, dict) or media.get("$type") != "blob" or media.get("ref", {}).get("$link") not in hatk.store.blobs:
        return "media: must be a blob this server holds"
    if not str(media.get("mimeType", "")).startswith("image/") or not 0 < int(media.get("size", 0)) <= 5_000_000:
        return "media: must be an image of at most 5000000 bytes"
    if not isinstance(ratio, dict) or not all(isinstance(ratio.get(k), int) and ratio[k] >= 1 for k in ("width", "height")):
        return "aspectRatio: width and height must be integers of at least 1"
    if not ISO_Z.match(str(record.get("createdAt", ""))):
        return "createdAt: must be a UTC datetime"
    return None


def create_record(hatk, viewer, query, body, content_type):
    if not viewer:
        return WRITE_NEEDS_VIEWER
    request = json.loads(body or b"{}")
    record = request.get("record")
    if not request.get("collection") or not isinstance(record, dict):
        return 400, {"error": "InvalidRequest: collection and record are required"}
    if request["collection"] == "social.grain.story" and (problem := story_problem(hatk, record)):
        return 400, {"error": f"InvalidRecord: {problem}"}
    # hatk ignores `repo` and writes to the viewer's own repo.
    return 200, hatk.store.create(viewer, request["collection"], record, request.get("rkey"))


def delete_record(hatk, viewer, query, body, content_type):
    if not viewer:
        return WRITE_NEEDS_VIEWER
    request = json.loads(body or b"{}")
    if not request.get("collection") or not request.get("rkey"):
        return 400, {"error": "InvalidRequest: collection and rkey are required"}
    hatk.store.delete(viewer, request["collection"], request["rkey"])
    return 200, {}


def get_record(hatk, viewer, query, body, content_type):
    found = hatk.store.record(query.get("uri", ""))
    if not found:
        return 404, {"error": "Record not found"}
    did, collection, rkey, entry = found
    return 200, {"record": {"uri": f"at://{did}/{collection}/{rkey}", "cid": entry["cid"], "did": did,
                            "handle": hatk.store.accounts[did]["handle"], "indexed_at": entry["indexed_at"],
                            "value": entry["value"], "labels": []}}


QUERIES = {
    "social.grain.unspecced.getStoryAuthors": get_story_authors,
    "social.grain.unspecced.getStories": get_stories,
    "social.grain.unspecced.getStory": get_story,
    "social.grain.unspecced.getStoryArchive": get_story_archive,
    "social.grain.unspecced.getActorProfile": get_actor_profile,
    "dev.hatk.getRecord": get_record,
    "com.atproto.sync.getBlob": get_blob,
}
PROCEDURES = {
    "dev.hatk.uploadBlob": upload_blob,
    "dev.hatk.createRecord": create_record,
    "dev.hatk.deleteRecord": delete_record,
}
