#!/usr/bin/env python3
"""50 concurrent uploads through the create form of a running grain-stories.

Signs in as a demo member through the front (the OAuth flow a browser follows), then posts the same photo
UPLOADS times at once. Each answer must be 303 (posted) or 503 with Retry-After (the image pool is full);
anything else is a failure and the script exits 1. Prints one Markdown table row and a summary.

Usage: uploads.py BASE_URL PHOTO [UPLOADS]   (the server needs --uploads-per-minute above UPLOADS, else 429s)
PHOTO is a JPEG or PNG file, synthetic:WIDTHxHEIGHT for a made-up PNG with photo-like noise that the
pipeline must really work on (it cannot pass it through), or synthetic-jpeg:WIDTHxHEIGHT for such a JPEG (Pillow).
"""
import concurrent.futures
import http.client
import os
import random
import re
import statistics
import sys
import time
import urllib.parse
import uuid
import zlib

CSRF = re.compile(r'name="csrf" value="([^"]+)"')
REQUEST_URI = re.compile(r'name="request_uri" value="([^"]+)"')


class Client:
    """One browser: a cookie jar, Origin on POSTs, redirects not followed."""

    def __init__(self, base):
        self.base = base
        parts = urllib.parse.urlsplit(base)
        self.host, self.port = parts.hostname, parts.port
        self.cookies = {}

    def request(self, method, target, body=None, content_type=None):
        target = target[len(self.base):] if target.startswith(self.base) else target
        headers = {}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if method == "POST":
            headers["Origin"] = self.base
            headers["Content-Type"] = content_type
        connection = http.client.HTTPConnection(self.host, self.port, timeout=120)
        try:
            connection.request(method, target, body=body, headers=headers)
            response = connection.getresponse()
            text = response.read().decode("utf-8", "replace")
            for header in response.headers.get_all("Set-Cookie") or []:
                name, _, rest = header.partition("=")
                value = rest.split(";", 1)[0]
                if value and "Max-Age=0" not in header:
                    self.cookies[name.strip()] = value
                else:
                    self.cookies.pop(name.strip(), None)
            return response.status, response.headers, text
        finally:
            connection.close()

    def post_form(self, target, fields):
        return self.request("POST", target, urllib.parse.urlencode(fields), "application/x-www-form-urlencoded")


def unescape(value):
    return value.replace("&amp;", "&").replace("&#39;", "'").replace("&quot;", '"').replace("&#x27;", "'")


def sign_in(client, handle, password):
    _, _, page = client.request("GET", "/login?next=/create")
    status, headers, _ = client.post_form("/login", {"csrf": CSRF.search(page).group(1), "handle": handle, "next": "/create"})
    assert status == 303, f"starting sign-in answered {status}"
    _, _, page = client.request("GET", headers["Location"])
    fields = {
        "request_uri": unescape(REQUEST_URI.search(page).group(1)),
        "csrf": unescape(CSRF.search(page).group(1)),
        "username": handle.split(".")[0],
        "password": password,
    }
    status, headers, _ = client.post_form("/oauth/authorize", fields)
    assert status == 303, f"the sign-in form answered {status}"
    status, _, _ = client.request("GET", headers["Location"])
    assert status == 303, f"the callback answered {status}"


def synthetic_png(width, height):
    """A PNG of noise over a vertical gradient: about 5 bits of entropy a channel, like a busy photo."""
    rng = random.Random(7)
    tables = [bytes((b >> 3) + base for b in range(256)) for base in range(0, 224)]
    rows = b"".join(b"\0" + rng.randbytes(width * 3).translate(tables[y * 223 // height]) for y in range(height))
    def chunk(kind, data):
        return len(data).to_bytes(4, "big") + kind + data + zlib.crc32(kind + data).to_bytes(4, "big")
    header = width.to_bytes(4, "big") + height.to_bytes(4, "big") + bytes([8, 2, 0, 0, 0])
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 6)) + chunk(b"IEND", b"")


def synthetic_jpeg(width, height, quality=86):
    """A baseline JPEG of noise blended with a gradient (Pillow), as big as a phone's detailed photo: 4000×3000 at
    quality 86 is about 6 MB."""
    import io
    from PIL import Image

    rng = random.Random(7)
    noise = Image.frombytes("RGB", (width, height), rng.randbytes(width * height * 3))
    gradient = Image.linear_gradient("L").resize((width, height)).convert("RGB")
    out = io.BytesIO()
    Image.blend(noise, gradient, 0.6).save(out, "JPEG", quality=quality)
    return out.getvalue()


def multipart(csrf, photo, filename, mime=None):
    boundary = "----bench" + uuid.uuid4().hex
    mime = mime or ("image/png" if filename.endswith(".png") else "image/jpeg")
    body = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="csrf"\r\n\r\n{csrf}\r\n'
        f'--{boundary}\r\nContent-Disposition: form-data; name="photo"; filename="{filename}"\r\n'
        f"Content-Type: {mime}\r\n\r\n"
    ).encode() + photo + f"\r\n--{boundary}--\r\n".encode()
    return body, f"multipart/form-data; boundary={boundary}"


def main():
    base, photo_path = sys.argv[1].rstrip("/"), sys.argv[2]
    uploads = int(sys.argv[3]) if len(sys.argv) > 3 else 50
    client = Client(base)
    sign_in(client, "maya.home.test", "maya-stories")
    _, _, form = client.request("GET", "/create")
    csrf = CSRF.search(form).group(1)
    if photo_path.startswith("synthetic:"):
        width, height = (int(n) for n in photo_path.split(":", 1)[1].split("x"))
        photo, photo_name, filename = synthetic_png(width, height), f"synthetic {width}×{height} PNG", "photo.png"
    elif photo_path.startswith("synthetic-jpeg:"):
        width, height = (int(n) for n in photo_path.split(":", 1)[1].split("x"))
        photo, photo_name, filename = synthetic_jpeg(width, height), f"synthetic {width}×{height} JPEG", "photo.jpg"
    else:
        photo, photo_name = open(photo_path, "rb").read(), photo_path.rsplit("/", 1)[-1]
        filename = photo_name
    body, content_type = multipart(csrf, photo, filename)
    # memory.sh: the peak mark is reset here, after signing in (the password hash alone takes about 128 MiB, which
    # is not the uploads'), and the RSS just before the uploads is written for it.
    peak_pid = os.environ.get("UPLOADS_RESET_PEAK_PID")
    if peak_pid:
        time.sleep(1)
        with open(f"/proc/{peak_pid}/clear_refs", "w") as handle:
            handle.write("5")
        with open(f"/proc/{peak_pid}/status") as handle:
            rss = next(line.split()[1] for line in handle if line.startswith("VmRSS:"))
        with open(os.environ["UPLOADS_RSS_BEFORE_FILE"], "w") as handle:
            handle.write(rss)

    def upload(_):
        started = time.monotonic()
        status, headers, _ = client.request("POST", "/create", body, content_type)
        return status, headers.get("Retry-After"), time.monotonic() - started

    started = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=uploads) as pool:
        results = list(pool.map(upload, range(uploads)))
    elapsed = time.monotonic() - started

    posted = [r for r in results if r[0] == 303]
    shed = [r for r in results if r[0] == 503 and r[1]]
    other = [r for r in results if not (r[0] == 303 or (r[0] == 503 and r[1]))]
    posted_times = sorted(r[2] for r in posted) or [0]
    if not os.environ.get("UPLOADS_NO_HEADER"):
        print("| Uploads at once | posted (303) | 503 + Retry-After | other | wall time | posted: median / max latency |")
        print("|---|---|---|---|---|---|")
    print(
        f"| {uploads} × {len(photo):,} B, {photo_name} | {len(posted)} | {len(shed)} | {len(other)} "
        f"| {elapsed:.2f} s | {statistics.median(posted_times):.2f} s / {max(posted_times):.2f} s |"
    )
    if other:
        print("FAILED: unexpected answers: " + ", ".join(f"{r[0]} (Retry-After {r[1]})" for r in other), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
