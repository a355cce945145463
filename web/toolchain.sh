# Sourced by web/build.sh and web/check.sh: picks the wasm32 standard library and sets WASM_ARGS (extra cargo
# arguments). rustup's target where it is installed (`rustup target add wasm32-unknown-unknown`, the normal way
# on a developer's machine); otherwise Debian's rustc-web with its std sources (rust-web-src), built with
# -Zbuild-std and linked by rustup's rust-lld, as on the project's CI machines, which can't download a target.
TARGET=wasm32-unknown-unknown
WASM_ARGS=()
if rustup target list --installed 2>/dev/null | grep -qx "$TARGET"; then
  WASM_STD="rustup's"
elif [ -x /usr/bin/rustc ] && [ -d "$(/usr/bin/rustc --print sysroot)/lib/rustlib/src/rust/library" ]; then
  WASM_STD="built from Debian's rust-web-src ($(/usr/bin/rustc --version))"
  export RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1
  host="$(rustc +stable -vV 2>/dev/null | sed -n 's/^host: //p' || true)"
  lld="$(rustc +stable --print sysroot)/lib/rustlib/${host:-x86_64-unknown-linux-gnu}/bin/rust-lld"
  [ -x "$lld" ] || { echo "rust-lld not found at $lld" >&2; exit 1; }
  export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER="$lld"
  WASM_ARGS=(-Zbuild-std=std,panic_abort)
else
  echo "no wasm32 standard library: run 'rustup target add $TARGET', or on Debian 12 'apt-get install rustc-web rust-web-src'" >&2
  exit 1
fi
