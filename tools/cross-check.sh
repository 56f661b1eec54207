#!/usr/bin/env bash
# tools/cross-check.sh [TARGET ...]: the library's unit tests, and the same seeded proofs of
# every engine and kind, on other processors emulated by qemu-user. The proofs must be
# byte-identical to this machine's: a proof file means the same thing wherever it was made,
# and the code paths without x86-64's AES-NI, PCLMULQDQ and AVX2 (and, on s390x, a
# big-endian byte order) are the ones exercised there.
#
# TARGET defaults to aarch64-unknown-linux-gnu (portable AES and field arithmetic) and
# s390x-unknown-linux-gnu (big-endian). Each needs, once:
#   rustup target add TARGET
#   apt-get install qemu-user gcc-ARCH-linux-gnu libc6-dev-DEBARCH-cross   (arm64, s390x)
# Exit status: 0 all identical and every test passed, 1 a difference or a failed test,
# 2 a missing tool (the line says which).
set -euo pipefail
cd "$(dirname "$0")/.."
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(aarch64-unknown-linux-gnu s390x-unknown-linux-gnu)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The seeded proofs: prover command ($1, with its emulator), output directory ($2).
proofs() {
  local p=$1 o=$2 s="--seed 7"
  mkdir -p "$o"
  $p peg solve tee -o "$o/tee.sol"
  for e in vole zkbpp kkw; do
    $p peg prove tee --solution "$o/tee.sol" $s --system $e -o "$o/peg-$e"
  done
  for v in speed size; do
    $p sha256 prove --preimage-hex 616263 $s --system vole --vole-params $v -o "$o/sha256-vole-$v"
  done
  $p sha256 prove --preimage-hex 616263 $s --system zkbpp -o "$o/sha256-zkbpp"
  for k in aes128 lowmc sha256; do
    $p auth keygen --kind $k --seed 1 -o "$o/$k.key"
    for v in speed size; do
      $p auth prove --key "$o/$k.key" --context cross --vole-params $v $s -o "$o/login-$k-$v"
    done
  done
}

cargo build --release --bin prover -q || { echo "cross-check: the native build failed" >&2; exit 1; }
proofs target/release/prover "$work/native" >/dev/null 2>&1 \
  || { echo "cross-check: the native prover failed" >&2; exit 1; }

status=0
for t in "${targets[@]}"; do
  arch=${t%%-*}
  gcc="$arch-linux-gnu-gcc"
  qemu="qemu-$arch"
  sysroot="/usr/$arch-linux-gnu"
  for tool in "$gcc" "$qemu"; do
    command -v "$tool" >/dev/null \
      || { echo "cross-check: $tool not found (apt-get install qemu-user gcc-$arch-linux-gnu)" >&2; exit 2; }
  done
  rustup target list --installed 2>/dev/null | grep -qx "$t" \
    || { echo "cross-check: the $t standard library is missing (rustup target add $t)" >&2; exit 2; }
  upper=$(echo "$t" | tr 'a-z-' 'A-Z_')
  export "CARGO_TARGET_${upper}_LINKER=$gcc" "CARGO_TARGET_${upper}_RUNNER=$qemu -L $sysroot"
  export "CC_${t//-/_}=$gcc"
  echo "== $t: unit tests under $qemu"
  if cargo test --release --lib --target "$t" -q >"$work/$t.tests" 2>&1; then
    grep "^test result" "$work/$t.tests" || true
  else
    grep -E "^test result|^---- | panicked at " "$work/$t.tests" >&2 || tail -5 "$work/$t.tests" >&2
    echo "$t: unit tests FAILED" >&2
    status=1
  fi
  if ! cargo build --release --bin prover --target "$t" -q; then
    echo "$t: the prover did not build" >&2
    status=1
    continue
  fi
  if ! proofs "$qemu -L $sysroot target/$t/release/prover" "$work/$t" >/dev/null 2>&1; then
    echo "$t: the prover failed" >&2
    status=1
    continue
  fi
  same=0 differ=0
  for f in "$work/native"/*; do
    b=$(basename "$f")
    if cmp -s "$f" "$work/$t/$b"; then
      same=$((same + 1))
    else
      differ=$((differ + 1))
      echo "$t: $b differs from this machine's" >&2
    fi
  done
  echo "== $t: $same files identical to this machine's, $differ different"
  [ "$differ" -eq 0 ] || status=1
done
exit $status
