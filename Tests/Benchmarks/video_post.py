#!/usr/bin/env python3
"""Clips posted through the create form of a running grain-stories, for video.sh.

Signs in as a demo member, opens the create form once (its first opening loads the offline place index, which is
not an upload's cost), posts a photo, then each clip (one at a time), and reports, per post, the seconds from the
POST to the server's answer (303: posted) and the server's resident memory: its peak while that post was processed
against its RSS just before (the peak mark is reset before each post; signing in, whose password hash alone takes
about 128 MiB, comes before any). The transcoding runs in ffmpeg children and the clip goes from file to file, so a
clip should cost the server no more than a photo does.

Usage: video_post.py BASE_URL SERVER_PID PHOTO CLIP [CLIP ...]
"""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from uploads import CSRF, Client, multipart, sign_in  # noqa: E402


def rss_kib(pid, key):
    with open(f"/proc/{pid}/status") as handle:
        return int(next(line.split()[1] for line in handle if line.startswith(key + ":")))


def reset_peak(pid):
    with open(f"/proc/{pid}/clear_refs", "w") as handle:
        handle.write("5")
    return rss_kib(pid, "VmRSS")


def post(client, path, mime):
    _, _, form = client.request("GET", "/create")
    body, content_type = multipart(CSRF.search(form).group(1), open(path, "rb").read(), os.path.basename(path), mime)
    started = time.monotonic()
    status, _, text = client.request("POST", "/create", body, content_type)
    elapsed = time.monotonic() - started
    print(f"| {os.path.basename(path)} | {os.path.getsize(path) / 1e6:.1f} MB | {status} | {elapsed:.2f} s |")
    if status != 303:
        print(text[:2000], file=sys.stderr)
    return status == 303


def main():
    base, pid, photo, clips = sys.argv[1].rstrip("/"), int(sys.argv[2]), sys.argv[3], sys.argv[4:]
    client = Client(base)
    sign_in(client, "maya.home.test", "maya-stories")
    client.request("GET", "/create")
    time.sleep(2)
    peaks = []
    ok = True
    for path, mime in [(photo, "image/jpeg")] + [(clip, "video/mp4") for clip in clips]:
        before = reset_peak(pid)
        ok = post(client, path, mime) and ok
        peak = rss_kib(pid, "VmHWM")
        peaks.append(f"{os.path.basename(path)}: {before / 1024:.1f} MiB before, peak {peak / 1024:.1f} MiB (+{(peak - before) / 1024:.1f} MiB)")
        time.sleep(1)
    print("Server RSS while processing " + "; ".join(peaks) + ".")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
