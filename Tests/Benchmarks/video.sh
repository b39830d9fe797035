#!/usr/bin/env bash
# Video stories (issue 27): the server's transcode of a 15 s story against the same ffmpeg command run alone.
#
# Inputs are made once into VIDEOS (default .build/bench-videos) by Debian's ffmpeg, never committed: a 20 s 4K
# (3840x2160, 30 fps) HEVC Main 10 HLG clip with sound, as a recent iPhone records, and a 20 s 1080p30 H.264 clip
# with sound at a phone's 17 Mb/s, its picture grained so it encodes like a camera's. Making the 4K clip takes a few
# minutes on two cores; later runs reuse it.
#
# For each input, ROUNDS rounds (default 3) alternate:
#   grain-stories  `$BIN video process <in> <out>`: probe, transcode under prlimit and nice, probe of the output.
#                  The command prints the ffmpeg argv it ran on stderr, one line: `ffmpeg-argv: ["/usr/bin/ffmpeg", ...]`.
#   ffmpeg alone   that argv, run directly (no prlimit, nice or probes), writing to another file.
# Both under /usr/bin/time -v. Printed: median wall seconds of each, their ratio (the server's overhead), whether the
# server's time is under the 15 s a 15 s story lasts, and the peak RSS of ffmpeg alone and of the server's run
# (which GNU time reports as the largest of the process and the children it reaped, so ffmpeg's in practice).
#
# Run: make release, then  bash Tests/Benchmarks/video.sh
# BIN=path/to/grain-stories (default .build/release/grain-stories), ROUNDS=3, VIDEOS=directory for the inputs,
# START=seconds into the clip the story starts at (default 0).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
cd "$HERE/../.."
BIN=${BIN:-.build/release/grain-stories}
ROUNDS=${ROUNDS:-3}
VIDEOS=${VIDEOS:-.build/bench-videos}
START=${START:-0}
[ -x "$BIN" ] || { echo "no grain-stories binary at $BIN (make release, or BIN=...)" >&2; exit 1; }
for tool in /usr/bin/ffmpeg /usr/bin/ffprobe /usr/bin/time python3; do
  command -v "$tool" >/dev/null || { echo "$tool is missing (apt-get install ffmpeg time python3)" >&2; exit 1; }
done
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
source "$HERE/lib.sh"

mkdir -p "$VIDEOS"
make_input() {
  local path=$1
  shift
  [ -s "$path" ] && return 0
  echo "Making $path ..."
  /usr/bin/ffmpeg -nostdin -hide_banner -v error -y "$@" "$path.part.mov" && mv "$path.part.mov" "$path"
}
HLG4K=$VIDEOS/hlg-4k-20s.mov
H264=$VIDEOS/h264-1080p-20s.mp4
make_input "$HLG4K" -f lavfi -i testsrc2=s=3840x2160:r=30:d=20 -f lavfi -i sine=f=440:d=20 \
  -c:v libx265 -preset ultrafast -crf 26 -x265-params log-level=error -pix_fmt yuv420p10le \
  -color_primaries bt2020 -color_trc arib-std-b67 -colorspace bt2020nc -tag:v hvc1 -c:a aac -b:a 128k
make_input "$H264" -f lavfi -i "testsrc2=s=1920x1080:r=30:d=20,noise=alls=8:allf=t" -f lavfi -i sine=f=440:d=20 \
  -c:v libx264 -preset ultrafast -b:v 17M -pix_fmt yuv420p -c:a aac -b:a 128k -f mp4

# Seconds, and peak RSS in MiB, from a `/usr/bin/time -v` report.
wall_seconds() { awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s}' "$1"; }
peak_mib() { awk -F': ' '/Maximum resident set size/ {printf "%d\n", $2 / 1024}' "$1"; }

# The argv on the `ffmpeg-argv:` line of $1, one argument per line (NUL-separated), with the output replaced by $2.
argv_of() {
  python3 - "$1" "$2" <<'PY'
import json, sys
line = next(l for l in open(sys.argv[1], encoding="utf-8") if l.startswith("ffmpeg-argv: "))
argv = json.loads(line[len("ffmpeg-argv: "):])
argv[-1] = "file:" + sys.argv[2]
sys.stdout.write("\0".join(argv) + "\0")
PY
}

printf '%-26s %14s %14s %9s %10s %12s %12s\n' "input" "server (s)" "ffmpeg (s)" "ratio" "< 15 s" "server MiB" "ffmpeg MiB"
for input in "$H264" "$HLG4K"; do
  server=() alone=() server_rss=() alone_rss=()
  for round in $(seq 1 "$ROUNDS"); do
    out=$WORK/server-$round.mp4
    /usr/bin/time -v -o "$WORK/server.time" "$BIN" video process "$input" "$out" --start "$START" 2>"$WORK/server.err" >/dev/null || {
      echo "grain-stories video process failed on $input:" >&2; cat "$WORK/server.err" >&2; exit 1; }
    server+=("$(wall_seconds "$WORK/server.time")")
    server_rss+=("$(peak_mib "$WORK/server.time")")
    mapfile -d '' argv < <(argv_of "$WORK/server.err" "$WORK/alone-$round.mp4")
    [ "$round" = 1 ] && echo "  argv: ${argv[*]}" >"$WORK/argv-$(basename "$input").txt"
    /usr/bin/time -v -o "$WORK/alone.time" "${argv[@]}" >/dev/null 2>"$WORK/alone.err" || {
      echo "ffmpeg alone failed on $input:" >&2; cat "$WORK/alone.err" >&2; exit 1; }
    alone+=("$(wall_seconds "$WORK/alone.time")")
    alone_rss+=("$(peak_mib "$WORK/alone.time")")
    rm -f "$out" "$WORK/alone-$round.mp4"
  done
  s=$(median "${server[@]}")
  a=$(median "${alone[@]}")
  printf '%-26s %14s %14s %9s %10s %12s %12s\n' "$(basename "$input")" "$s" "$a" "$(awk -v s="$s" -v a="$a" 'BEGIN {printf "%.2f", s / a}')" \
    "$(awk -v s="$s" 'BEGIN {print (s < 15) ? "yes" : "no"}')" "$(median "${server_rss[@]}")" "$(median "${alone_rss[@]}")"
  echo "  rounds: server ${server[*]}; ffmpeg alone ${alone[*]}"
done
for file in "$WORK"/argv-*.txt; do cat "$file"; done

# The same clips through the create form of a running server: the seconds from the POST to its answer, and the
# server's own peak memory while ffmpeg children did the work.
PORT=${PORT:-18285}
SERVER_PID=
trap 'kill $SERVER_PID 2>/dev/null || true; rm -rf "$WORK"' EXIT
PHOTOS=${PHOTOS:-.build/demo-photos}
VISIBILITY=public seed_and_serve "$WORK" "$PORT"
echo
echo "| clip | size | answer | POST to answer |"
echo "|---|---|---|---|"
python3 "$HERE/video_post.py" "http://127.0.0.1:$PORT" "$SERVER_PID" "$H264" "$HLG4K"
echo "Load average afterwards: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores."
