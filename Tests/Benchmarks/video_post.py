#!/usr/bin/env python3
"""Clips posted through the create form of a running grain-stories, for video.sh.

Signs in as a demo member, then posts each clip (one at a time) and reports, per clip, the seconds from the POST to
the server's answer (303: posted) and the server's resident memory: its peak while the clips were processed (the
peak mark is reset after signing in, whose password hash alone takes about 128 MiB) against its RSS just before.
The transcoding itself runs in ffmpeg children, so the server's own figures should not move with the clip's size.

Usage: video_post.py BASE_URL SERVER_PID CLIP [CLIP ...]
"""
import os
import sys
import time
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from uploads import CSRF, Client, sign_in  # noqa: E402


def rss_kib(pid, key):
    with open(f"/proc/{pid}/status") as handle:
        return int(next(line.split()[1] for line in handle if line.startswith(key + ":")))


def multipart(csrf, clip, filename):
    boundary = "----bench" + uuid.uuid4().hex
    body = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="csrf"\r\n\r\n{csrf}\r\n'
        f'--{boundary}\r\nContent-Disposition: form-data; name="photo"; filename="{filename}"\r\n'
        f"Content-Type: video/mp4\r\n\r\n"
    ).encode() + clip + f"\r\n--{boundary}--\r\n".encode()
    return body, f"multipart/form-data; boundary={boundary}"


def main():
    base, pid, clips = sys.argv[1].rstrip("/"), int(sys.argv[2]), sys.argv[3:]
    client = Client(base)
    sign_in(client, "maya.home.test", "maya-stories")
    time.sleep(1)
    with open(f"/proc/{pid}/clear_refs", "w") as handle:
        handle.write("5")
    before = rss_kib(pid, "VmRSS")
    failed = False
    for path in clips:
        _, _, form = client.request("GET", "/create")
        body, content_type = multipart(CSRF.search(form).group(1), open(path, "rb").read(), os.path.basename(path))
        started = time.monotonic()
        status, _, text = client.request("POST", "/create", body, content_type)
        elapsed = time.monotonic() - started
        print(f"| {os.path.basename(path)} | {os.path.getsize(path) / 1e6:.1f} MB | {status} | {elapsed:.2f} s |")
        if status != 303:
            failed = True
            print(text[:2000], file=sys.stderr)
    peak = rss_kib(pid, "VmHWM")
    print(f"Server RSS before the clips {before / 1024:.1f} MiB, peak while they were processed {peak / 1024:.1f} MiB "
          f"(+{(peak - before) / 1024:.1f} MiB).")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
