#!/usr/bin/env python3
"""Subsets egui's four bundled fonts to what catenary's browser build shows.

Usage: tools/subset_fonts.py   (needs fontTools: pip install fonttools)

egui bundles four fonts (1.4 MB of the browser's wasm). The browser build
embeds these subsets instead (assets/fonts/, src/app/shell/fonts.rs):
Latin, Greek, punctuation, super- and subscripts, arrows, mathematical
operators and geometric shapes, every character outside ASCII in the
sources and scenes, and every character in egui's, egui_plot's and the
egui bindings' string literals. The monospace font (Hack: the scene
editor, the numbers) keeps ASCII, Latin-1, Greek and the sources' and
scenes' characters; egui draws any other character in it with the next
font of the family. The desktop keeps egui's full fonts.
Run it again after adding a character none of the ranges has:
tests/fonts.rs fails until the subsets draw every character of the
sources and scenes that egui's full fonts draw.
"""
import glob, os, pathlib, re, subprocess, sys

root = pathlib.Path(__file__).resolve().parent.parent
registry = pathlib.Path(os.path.expanduser("~/.cargo/registry/src"))

RANGES = [(0x20, 0x7E), (0xA0, 0x17F), (0x370, 0x3FF), (0x2000, 0x206F),
          (0x2070, 0x209F), (0x2190, 0x21FF), (0x2200, 0x22FF), (0x25A0, 0x25FF)]

MONO_RANGES = [(0x20, 0x7E), (0xA0, 0xFF), (0x370, 0x3FF)]

sources = {ord(c) for f in [*(root / "src").rglob("*.rs"), *(root / "crates").rglob("*.rs"),
                            *(root / "scenes").glob("*.ron")]
           for c in f.read_text() if ord(c) > 126}
mono = sources | {c for lo, hi in MONO_RANGES for c in range(lo, hi + 1)}
wanted = sources | {c for lo, hi in RANGES for c in range(lo, hi + 1)}
for crate in ["egui-0.31.1", "egui_plot-0.32.1", "egui-macroquad-0.17.3", "egui-miniquad-0.16.0"]:
    for f in glob.glob(f"{registry}/*/{crate}/src/**/*.rs", recursive=True):
        for line in open(f, encoding="utf-8"):
            if line.strip().startswith("//"):
                continue
            for m in re.finditer(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)\'', line):
                wanted |= {ord(c) for c in m.group(0) if ord(c) > 126}

[fonts] = glob.glob(f"{registry}/*/epaint_default_fonts-0.31.1/fonts")
out = root / "assets" / "fonts"
out.mkdir(parents=True, exist_ok=True)
for name in ["Ubuntu-Light", "Hack-Regular", "NotoEmoji-Regular", "emoji-icon-font"]:
    unicodes = ",".join(f"U+{c:04X}" for c in sorted(mono if name == "Hack-Regular" else wanted))
    # egui lays glyphs out itself: no hinting, no layout tables.
    subprocess.run([sys.executable, "-m", "fontTools.subset", f"{fonts}/{name}.ttf",
                    f"--unicodes={unicodes}", "--no-hinting", "--layout-features=",
                    "--drop-tables+=GSUB,GPOS,GDEF,kern", "--name-IDs=*",
                    f"--output-file={out}/{name}.ttf"], check=True)
    print(f"{name}: {(out / f'{name}.ttf').stat().st_size} bytes")
