#!/usr/bin/env bash
# Lints the web page's code as it is built for the browser: clippy for wasm32 with web/clippy/clippy.toml,
# which forbids what a browser can't do (std::time::Instant::now, threads, std::fs, blocking), with the
# standard library web/toolchain.sh picks (Debian's needs rust-web-clippy).
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}" CLIPPY_CONF_DIR="$PWD/web/clippy"
source web/toolchain.sh
if [ "${#WASM_ARGS[@]}" -eq 0 ]; then
  exec cargo clippy --locked --lib --target "$TARGET" -- -D warnings
fi
# Debian's cargo-clippy runs Debian's clippy-driver, built with the same rustc as the std sources.
exec /usr/bin/cargo-clippy clippy --locked --lib --target "$TARGET" "${WASM_ARGS[@]}" -- -D warnings
