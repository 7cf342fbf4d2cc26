#!/usr/bin/env bash
# Frame rate and CPU cost per drawn frame of the window, under a private
# Xvfb (software OpenGL: llvmpipe), for comparing builds.
#
#   tools/frame-time.sh [BINARY] [SCENE.ron and other window options]
#
# Defaults: BINARY target/release/catenary, the built-in scene. Prints the
# mean of --dump-state's `fps` (frames drawn in the last second) sampled
# every 0.5 s over seconds 3-9 (after the anti-aliasing trial), its range,
# and the process's CPU time per drawn frame: all threads (the solver's
# and llvmpipe's rasterizers included) and the main thread alone.
#
# This machine's speed varies by up to 2x from one hour to the next, so
# compare two builds by alternating runs of each, never against a number
# from another day. Needs: xvfb, python3.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-target/release/catenary}
shift || true
tmp=$(mktemp -d)
disp=:$((100 + RANDOM % 400))
Xvfb "$disp" -screen 0 1280x800x24 -noreset >/dev/null 2>&1 &
xvfb=$!
trap 'kill $app $xvfb 2>/dev/null; rm -rf "$tmp"' EXIT
sleep 1
DISPLAY=$disp "$bin" "$@" --dump-state "$tmp/state" --exit-after 12 >/dev/null 2>&1 &
app=$!
# utime + stime in clock ticks (100 per second), of the process and of its main thread.
ticks() { awk '{print $14 + $15}' "$1"; }
sleep 3
c1=$(ticks /proc/$app/stat); m1=$(ticks /proc/$app/task/$app/stat); t1=$(date +%s.%N)
fps=""
for _ in $(seq 12); do
  sleep 0.5
  fps="$fps $(grep '^fps ' "$tmp/state" | cut -d' ' -f2)"
done
c2=$(ticks /proc/$app/stat); m2=$(ticks /proc/$app/task/$app/stat); t2=$(date +%s.%N)
python3 - "$fps" "$c1" "$c2" "$m1" "$m2" "$t1" "$t2" <<'EOF'
import sys
fps = [float(x) for x in sys.argv[1].split()]
c1, c2, m1, m2 = (float(x) for x in sys.argv[2:6])
t1, t2 = float(sys.argv[6]), float(sys.argv[7])
mean = sum(fps) / len(fps)
frames = mean * (t2 - t1)
print(f"fps {mean:.1f} ({min(fps):.0f}-{max(fps):.0f}), {1000 / mean:.1f} ms/frame; "
      f"CPU per frame {(c2 - c1) * 10 / frames:.1f} ms, main thread {(m2 - m1) * 10 / frames:.1f} ms")
EOF
