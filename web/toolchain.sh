# Sourced by web/build.sh and web/check.sh: picks the wasm32 standard library and sets WASM_ARGS (extra cargo
# arguments). rustup's target where it is installed (`rustup target add wasm32-unknown-unknown`, the normal way
# on a developer's machine); otherwise Debian's rustc-web with its std sources (rust-web-src), built with
# -Zbuild-std and linked by rustup's rust-lld, as on the project's CI machines, which can't download a target.
TARGET=wasm32-unknown-unknown
WASM_ARGS=()
# A clippy lint wrapper inherited from the caller (.ci/run lints the native build while it compiles) belongs to
# the native toolchain: never let it reach the wasm build, which may use another rustc. web_lint sets the right one.
unset RUSTC_WORKSPACE_WRAPPER CLIPPY_ARGS CLIPPY_CONF_DIR
# The clippy driver built with the rustc that compiles the page.
CLIPPY_DRIVER="$(rustc --print sysroot)/bin/clippy-driver"
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
  # Debian's clippy-driver (rust-web-clippy), built with the same rustc as the std sources.
  CLIPPY_DRIVER=/usr/bin/clippy-driver
else
  echo "no wasm32 standard library: run 'rustup target add $TARGET', or on Debian 12 'apt-get install rustc-web rust-web-src'" >&2
  exit 1
fi

# Lints the page's own crate with web/clippy/clippy.toml (what the browser can't do) and -D warnings while it
# compiles: clippy's driver, as cargo's workspace wrapper, runs clippy's lints and then compiles as rustc does,
# so a lint costs one build instead of a check build of its own (std and every crate again) beside it.
web_lint() {
  [ -x "$CLIPPY_DRIVER" ] || { echo "no clippy driver at $CLIPPY_DRIVER (Debian: apt-get install rust-web-clippy)" >&2; exit 1; }
  export RUSTC_WORKSPACE_WRAPPER="$CLIPPY_DRIVER" CLIPPY_CONF_DIR="$PWD/web/clippy"
  export CLIPPY_ARGS="-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__"
}
