#!/usr/bin/env bash
# A strip of frames and an animated GIF of a flick, for the README: the
# window's own automation (--dump-state for where the particle is on
# screen, --screenshot-every for the frames) under a private Xvfb, xdotool
# for the hand, ImageMagick to crop, scale and join.
#
#   tools/flick-strip.sh [OUT_DIR [SCENE.ron PARTICLE DX DY]]
#
# Defaults: OUT_DIR assets/; the scene below (a rope and a curtain hanging
# at rest from the start, so the particle is where the dump says), its
# rope's free end (particle 20) flicked 300 px right and 80 px up. Writes
# OUT_DIR/flick-strip.png (6 frames side by side) and OUT_DIR/flick.gif
# (every frame). Needs: xvfb, xdotool, imagemagick.
set -euo pipefail
out=${1:-assets}
cd "$(dirname "$0")/.."
cargo build --release -q
bin=target/release/catenary
tmp=$(mktemp -d)
if [ $# -ge 5 ]; then
    scene=$2; particle=$3; dx=$4; dy=$5
else
    scene=$tmp/flick.ron; particle=20; dx=300; dy=-80
    cat > "$scene" <<'RON'
Scene(
    name: "A flick",
    solver: (substeps: 20, air_drag: 0.1),
    bodies: [
        Rope(start: (-0.8, 2.6, 0.0), end: (-0.8, 0.6, 0.0), segments: 20, mass: 0.4,
             compliance: 0.00001, radius: 0.025, pins: [0]),
        Cloth(origin: (0.2, 2.6, -0.3), size: (1.2, 1.6), resolution: (24, 32), mass: 0.3,
              bend_compliance: 0.05, pins: [(0, 0), (0, 12), (0, -1)]),
    ],
    colliders: [Ground()],
    camera: (target: (0.0, 1.5, 0.0), distance: 4.0, yaw: 10.0, pitch: 8.0),
)
RON
fi
# Xvfb picks a free display and writes its number once it accepts
# connections (-displayfd), so no guessing and no fixed sleep.
exec 3< <(Xvfb -noreset -displayfd 1 -screen 0 1280x800x24 -nolisten tcp 2>/dev/null)
xvfb=$!
trap 'kill $xvfb 2>/dev/null; rm -rf "$tmp"' EXIT
read -r n <&3
disp=:$n
# The flick starts at about 2.6 s; frames from 2.4 s every 0.1 s until the
# window closes at 4.4 s.
DISPLAY=$disp "$bin" "$scene" --dump-state "$tmp/state" \
    --screenshot "$tmp/f.png" --screenshot-after 2.4 --screenshot-every 0.1 \
    --exit-after 4.4 &
app=$!
sleep 2.5
read -r sx sy < <(awk -v p="$particle" '$1 == p && NF == 8 && $8 == 0 {printf "%d %d\n", $5, $6}' "$tmp/state")
echo "flicking particle $particle from ($sx, $sy) by ($dx, $dy) px"
DISPLAY=$disp xdotool mousemove "$sx" "$sy"
sleep 0.1
DISPLAY=$disp xdotool mousedown 1
sleep 0.05
for i in 1 2 3 4 5 6; do
    DISPLAY=$disp xdotool mousemove $((sx + dx * i / 6)) $((sy + dy * i / 6))
    sleep 0.04
done
DISPLAY=$disp xdotool mouseup 1
wait "$app"
frames=("$tmp"/f-*.png)
echo "${#frames[@]} frames"
# The view is the window left of the panel (the panel takes 320 px).
for f in "${frames[@]}"; do
    convert "$f" -crop 940x640+10+0 +repage -resize 470x320 "$f"
done
mkdir -p "$out"
n=${#frames[@]}
pick=()
for k in 0 1 2 3 4 5; do pick+=("${frames[$(( k * (n - 1) / 5 ))]}"); done
convert "${pick[@]}" -bordercolor '#1e1e24' -border 2 +append -resize 1800x "$out/flick-strip.png"
convert -delay 10 -loop 0 "${frames[@]}" -layers Optimize "$out/flick.gif"
ls -la "$out/flick-strip.png" "$out/flick.gif"
