#!/usr/bin/env bash
# Builds the web page into target/web/: index.html, rigscope.js and rigscope_bg.wasm (wasm-bindgen's glue and
# module), and fonts/cjk-fallback.ttf for Japanese names. Nothing is fetched from outside at run time.
# Serve it with: python3 -m http.server --bind 127.0.0.1 8000 --directory target/web
# The wasm32 standard library: web/toolchain.sh. See ARCHITECTURE.md, "The web page".
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"
OUT=target/web
TARGET_DIR="${CARGO_TARGET_DIR:-target}"
# web-release by default; the tests build with web-test (Cargo.toml says why).
PROFILE="${RIGSCOPE_WEB_PROFILE:-web-release}"
source web/toolchain.sh
echo "== wasm32 standard library: $WASM_STD"
# RIGSCOPE_WEB_LINT=1 (tests/web_page.rs): clippy's lints for the browser (web/check.sh's) fail the build.
if [ "${RIGSCOPE_WEB_LINT:-0}" = 1 ]; then
  web_lint
  echo "== linting with $RUSTC_WORKSPACE_WRAPPER and web/clippy/clippy.toml"
fi

# wasm-bindgen's CLI must be exactly the version of the wasm-bindgen crate in Cargo.lock.
want="$(grep -A1 '^name = "wasm-bindgen"$' Cargo.lock | sed -n 's/^version = "\(.*\)"/\1/p')"
have="$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)"
if [ "$have" != "$want" ]; then
  echo "== installing wasm-bindgen-cli $want (found: ${have:-none})"
  cargo install wasm-bindgen-cli --version "$want"
  export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
fi

echo "== cargo rustc --profile $PROFILE --target $TARGET"
cargo rustc --locked --profile "$PROFILE" --lib --target "$TARGET" --crate-type cdylib "${WASM_ARGS[@]}"

echo "== wasm-bindgen"
rm -rf "$OUT"
mkdir -p "$OUT/fonts"
wasm-bindgen "$TARGET_DIR/$TARGET/$PROFILE/rigscope.wasm" --out-dir "$OUT" --target web --no-typescript \
  --remove-name-section --remove-producers-section
cp web/index.html "$OUT/"
# Japanese (and Chinese) bone and morph names need a CJK font: Droid Sans Fallback (Apache-2.0), cut by fontTools
# (apt-get install python3-fonttools) to what model names use: Latin, general punctuation, arrows, enclosed
# numbers, box drawing, shapes and symbols, CJK punctuation, kana, enclosed CJK, every CJK Unified Ideograph, and
# full- and half-width forms (4.0 MB whole, 2.8 MB cut; it leaves out CJK Extension A and the compatibility
# ideographs). tests/web_page.rs checks that the cut draws every character of the corpus names the whole font does.
font=""
for f in /usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf /usr/share/fonts/google-droid-sans-fonts/DroidSansFallbackFull.ttf; do
  [ -f "$f" ] && font="$f" && break
done
CJK_UNICODES="U+0020-007E,U+00A0-00FF,U+2000-206F,U+2190-21FF,U+2460-24FF,U+2500-27BF,U+3000-30FF,U+31F0-31FF,U+3200-32FF,U+4E00-9FFF,U+FF00-FFEF"
python=""
for p in /usr/bin/python3 python3; do
  "$p" -c 'import fontTools.subset' 2>/dev/null && python="$p" && break
done
if [ -z "$font" ]; then
  echo "warning: no Droid Sans Fallback found (apt-get install fonts-droid-fallback): Japanese names draw as boxes" >&2
elif [ -n "$python" ]; then
  "$python" -m fontTools.subset "$font" --unicodes="$CJK_UNICODES" --layout-features='*' --no-hinting \
    --output-file="$OUT/fonts/cjk-fallback.ttf"
else
  echo "warning: no fontTools (apt-get install python3-fonttools): the whole CJK font (4 MB) is shipped" >&2
  cp "$font" "$OUT/fonts/cjk-fallback.ttf"
fi
wasm="$OUT/rigscope_bg.wasm"
echo "== built $OUT: $(stat -c %s "$wasm") bytes of wasm, $(gzip -9 -c "$wasm" | wc -c) gzipped; CJK font $(stat -c %s "$OUT/fonts/cjk-fallback.ttf" 2>/dev/null || echo 0) bytes"
