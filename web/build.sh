#!/usr/bin/env bash
# Builds catenary for the browser into web/dist/: index.html, catenary.js,
# catenary.wasm and macroquad's JS loader, taken from the macroquad crate's
# own sources in the cargo registry (the version in Cargo.lock).
# Serve it with:  python3 -m http.server --bind 127.0.0.1 -d web/dist
set -euo pipefail
cd "$(dirname "$0")/.."

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    rustup target add wasm32-unknown-unknown
fi
cargo build --locked --profile web --target wasm32-unknown-unknown

target_dir=${CARGO_TARGET_DIR:-target}
macroquad_dir=$(cargo metadata --locked --format-version 1 --filter-platform wasm32-unknown-unknown |
    python3 -c 'import json, os, sys
meta = json.load(sys.stdin)
[path] = [p["manifest_path"] for p in meta["packages"] if p["name"] == "macroquad"]
print(os.path.dirname(path))')

dist=web/dist
rm -rf "$dist"
mkdir -p "$dist"
cp web/index.html web/catenary.js "$dist/"
cp "$macroquad_dir/js/mq_js_bundle.js" "$dist/"
wasm="$target_dir/wasm32-unknown-unknown/web/catenary.wasm"
# binaryen's wasm-opt, when present (npm's `binaryen` package, which
# .ci/run installs into target/npm), shrinks the wasm by a tenth (-Oz,
# about a minute); without it the wasm is copied as cargo built it.
# --low-memory-unused lets it fold constant address offsets into the
# loads and stores (14 KB): it assumes nothing reads or writes the first
# 1 KB of memory, which in Rust's layout (the stack from 1 MB down to 0,
# then the data) only the last KB of a full 1 MB stack would, already an
# overflow.
wasm_opt=$(command -v wasm-opt || true)
if [ -z "$wasm_opt" ] && [ -x target/npm/node_modules/.bin/wasm-opt ]; then
    wasm_opt=target/npm/node_modules/.bin/wasm-opt
fi
if [ -n "$wasm_opt" ]; then
    echo "wasm-opt -Oz: $(du -b "$wasm" | cut -f1) bytes in"
    "$wasm_opt" -Oz --low-memory-unused --enable-simd --enable-bulk-memory --enable-nontrapping-float-to-int \
        --enable-sign-ext --enable-mutable-globals "$wasm" -o "$dist/catenary.wasm"
else
    cp "$wasm" "$dist/"
fi
echo "web/dist: $(du -b "$dist/catenary.wasm" | cut -f1) bytes of wasm; serve with: python3 -m http.server --bind 127.0.0.1 -d web/dist"
