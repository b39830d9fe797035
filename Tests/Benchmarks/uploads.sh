#!/usr/bin/env bash
# `make bench` (second part): 50 concurrent uploads through the create form of a release server with the
# default image pool (one worker per core, 16 waiting). Every answer must be 303 or 503 with Retry-After.
# The per-client rate limit is raised for this run: 50 uploads from one address would otherwise meet it.
#
# Two rounds: a real photo (the demo's Hubble deep field, 872×1000 JPEG) and a made-up 2000×1500 PNG of
# photo-like noise, which the pipeline cannot pass through quickly.
# BIN=path/to/grain-stories, UPLOADS=50, UPLOAD_PHOTOS="<file or synthetic:WxH> ..." to choose others.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
cd "$HERE/../.."
BIN=${BIN:-.build/release/grain-stories}
PHOTOS=${PHOTOS:-.build/demo-photos}
UPLOAD_PHOTOS=${UPLOAD_PHOTOS:-$PHOTOS/hubble_deep_field.jpg synthetic:2000x1500}
UPLOADS=${UPLOADS:-50}
PORT=${PORT:-18283}
WORK=$(mktemp -d)
SERVER_PID=
trap 'kill $SERVER_PID 2>/dev/null || true; rm -rf "$WORK"' EXIT
source "$HERE/lib.sh"

VISIBILITY=public seed_and_serve "$WORK" "$PORT" --uploads-per-minute 1000
failed=0
header=
for photo in $UPLOAD_PHOTOS; do
  UPLOADS_NO_HEADER=$header python3 "$HERE/uploads.py" "http://127.0.0.1:$PORT" "$photo" "$UPLOADS" || failed=1
  header=no
done
status=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/")
echo "Afterwards / answers $status; peak RSS $(( $(awk '/VmHWM/ {print $2}' /proc/$SERVER_PID/status) / 1024 )) MiB."
[ "$status" = 200 ] && [ "$failed" = 0 ]
