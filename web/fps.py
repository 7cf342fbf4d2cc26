#!/usr/bin/env python3
"""Frames per second of the browser build in headless Chromium, in real time.

Usage: web/fps.py [SCENE.ron] [--seconds N]   (after web/build.sh)

Serves web/dist on 127.0.0.1, opens it with ?test (the app reports in the
page title, including the frames drawn over the last second and the
solver's projections per second) and, with a scene, the scene in the link
(#scene=...); reads the title through the DevTools HTTP list every second
and prints the median fps and projections/s — then, beside them, the
desktop's projections/s for the same scene on one thread (`catenary bench
--scene`, from target/release/catenary when it is built).
"""
import argparse, functools, http.server, json, os, pathlib, shutil, statistics
import subprocess, tempfile, threading, time, urllib.parse, urllib.request

root = pathlib.Path(__file__).resolve().parent
parser = argparse.ArgumentParser()
parser.add_argument("scene", nargs="?")
parser.add_argument("--seconds", type=float, default=20)
args = parser.parse_args()

class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


handler = functools.partial(Quiet, directory=root / "dist")
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
threading.Thread(target=server.serve_forever, daemon=True).start()
url = f"http://127.0.0.1:{server.server_port}/?test"
if args.scene:
    url += "#scene=" + urllib.parse.quote(pathlib.Path(args.scene).read_text(), safe="")

profile = tempfile.mkdtemp(prefix="catenary-fps-")
browser = subprocess.Popen(
    ["chromium", "--headless", "--no-sandbox", "--use-angle=swiftshader",
     "--enable-unsafe-swiftshader", "--disable-background-networking",
     "--disable-component-update", "--no-first-run", "--window-size=1280,800",
     f"--user-data-dir={profile}", "--remote-debugging-port=0", url],
    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
samples, title = [], ""
try:
    start = time.time()
    while time.time() - start < args.seconds:
        time.sleep(1)
        try:
            port = int((pathlib.Path(profile) / "DevToolsActivePort").read_text().split()[0])
            pages = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list"))
        except (OSError, ValueError, IndexError):
            continue
        title = next((p["title"] for p in pages if p["title"].startswith("catenary-test")), title)
        fields = dict(w.split("=", 1) for w in title.split()[1:])
        # Skip the first seconds: the page loads and compiles.
        if float(fields.get("time", 0)) > 2 and float(fields.get("fps", 0)) > 0:
            samples.append((float(fields["fps"]), float(fields.get("projections_per_s", 0))))
finally:
    os.killpg(browser.pid, 9)
    shutil.rmtree(profile, ignore_errors=True)
print(title)
if samples:
    fps = statistics.median(s[0] for s in samples)
    rate = statistics.median(s[1] for s in samples)
    print(f"fps: {fps:.1f}, browser projections/s: {rate:.3e} "
          f"(medians of {len(samples)} one-second windows)")
else:
    print("fps: no frames measured")
desktop = root.parent / "target" / "release" / "catenary"
if desktop.exists():
    scene = args.scene or str(root.parent / "scenes" / "default.ron")
    bench = subprocess.run([str(desktop), "bench", "--scene", scene, "--threads", "1",
                            "--frames", "120"], capture_output=True, text=True)
    rate = next((l.split()[-1] for l in bench.stdout.splitlines()
                 if l.startswith("projections/s")), "?")
    print(f"desktop projections/s (one thread, target/release/catenary): {rate}")
