#!/usr/bin/env bash
# Rebuilds the seed corpora fuzz/corpus/<target>/ from real files: the catalog's puzzles and
# positions, and what the release binaries make from them (solutions, proofs of every kind
# at low security, seals and openings, records, keys and identities, session transcripts).
# The wire-message seeds (session frames, login requests and replies) come from
# examples/fuzz_seeds.rs, which runs real sessions between the fuzz fixtures.
#
# Usage: fuzz/seed.sh        (from anywhere; builds the binaries and the example first)
set -euo pipefail
# Every proving command names its --system: the commands' default engine (VOLE since issue 22)
# is not what the ZKB++/isomorphism targets below expect.
cd "$(dirname "$0")/.."
ROOT=$PWD
C=$ROOT/fuzz/corpus
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cargo build --release --bins --example fuzz_seeds -q
P=$ROOT/target/release/prover
V=$ROOT/target/release/verifier
rm -rf "$C"
mkdir -p "$C"
put() { # put TARGET NAME FILE [PREFIX-BYTE]: copies FILE into the corpus, optionally prefixed
  mkdir -p "$C/$1"
  if [ $# -ge 4 ]; then
    { printf "\\x$4"; cat "$3"; } >"$C/$1/$2"
  else
    cp "$3" "$C/$1/$2"
  fi
}

# --- peg puzzles and solutions
for f in puzzles/peg/*.txt; do put peg_puzzle "$(basename "$f")" "$f"; done
put peg_puzzle raw-tee.txt puzzles/raw/tee.txt
put peg_puzzle raw-english.txt puzzles/raw/english.txt
$P peg solve tee -o "$T/tee.sol" 2>/dev/null
$P peg solve english -o "$T/english.sol" 2>/dev/null
put peg_solution tee-moves "$T/tee.sol" 00
put peg_solution english-moves "$T/english.sol" 01
put peg_solution tee-matrix puzzles/raw/tee.solution 02
put peg_solution tee-matrix-on-board puzzles/raw/tee.solution 00

# --- proofs of every kind on the fixtures (tee, SHA-256 of "zk", the 4x4 wall game), 8 bits
S="--security 8 --seed 1"
$P peg prove tee --solution "$T/tee.sol" $S --system iso -o "$T/iso" 2>/dev/null
put proof_peg_iso fs-proof "$T/iso"
$P peg simulate tee --security 8 --seed 1 --system iso -o "$T/iso-sim" 2>/dev/null
put proof_peg_iso simulated-session "$T/iso-sim"
$P peg prove tee --solution "$T/tee.sol" $S --system zkbpp -o "$T/zkbpp" 2>/dev/null
put proof_peg_mpc fs-proof "$T/zkbpp"
$P peg prove tee --solution "$T/tee.sol" $S --system kkw -o "$T/kkw" 2>/dev/null
put proof_peg_kkw fs-proof "$T/kkw"
$P sha256 prove --preimage-hex 7a6b $S --system zkbpp -o "$T/sha" 2>/dev/null
put proof_sha256_mpc fs-proof "$T/sha"
$P sha256 prove --preimage-hex 7a6b $S --system kkw -o "$T/shakkw" 2>/dev/null
put proof_sha256_kkw fs-proof "$T/shakkw"
$P peg prove tee --solution "$T/tee.sol" $S --system vole -o "$T/vole" 2>/dev/null
put proof_peg_vole fs-proof "$T/vole"
$P peg simulate tee --security 8 --seed 1 --system vole -o "$T/vole-sim" 2>/dev/null
put proof_peg_vole simulated-session "$T/vole-sim"
$P sha256 prove --preimage-hex 7a6b $S --system vole -o "$T/shavole" 2>/dev/null
put proof_sha256_vole fs-proof "$T/shavole"
# --- Bristol circuits: the fixture of the circuit-proof target, an exported circuit of ours,
# and proofs about the fixture on every engine
printf '6 15\n2 4 4\n1 5\n\n4 2 0 1 4 5 8 9 MAND\n2 1 2 6 10 AND\n2 1 3 7 11 XOR\n1 1 11 12 INV\n1 1 1 13 EQ\n1 1 8 14 EQW\n' >"$T/fixture.txt"
put circuit_bristol fixture.txt "$T/fixture.txt"
printf '3 6\n2 2 1\n1 1\n\n2 1 0 1 3 AND\n2 1 3 2 4 AND\n1 1 4 5 INV\n' >"$T/small.txt"
put circuit_bristol small.txt "$T/small.txt"
$P circuit export lowmc --plaintext 0000000000000000000000000000000000 -o "$T/lowmc.txt"
head -c 60000 "$T/lowmc.txt" >"$T/lowmc-cut.txt"
put circuit_bristol lowmc-truncated.txt "$T/lowmc-cut.txt"
for e in vole zkbpp kkw; do
  $P circuit prove "$T/fixture.txt" --secret 0=0d --public 1=0b --security 8 --seed 1 --system $e -o "$T/circ-$e" >/dev/null 2>&1
  put proof_circuit "fs-proof-$e" "$T/circ-$e"
done
printf 'zkgames-auth-key-v1 aes128 0e1b2835424f5c697683909daab7c4d1 1734516e8ba8c5e2ff1c39567390adca\n' >"$T/aes.key"
$P auth prove --key "$T/aes.key" --context fuzz --vole-params speed --seed 1 -o "$T/aes" 2>/dev/null
put proof_aes128_vole fs-proof "$T/aes"
# a live ZKB++ session's transcript (interactive mode), recorded by the verifier
rm -f "$T/p2v" "$T/v2p" && mkfifo "$T/p2v" "$T/v2p"
$V peg serve tee --system mpc --security 8 --stdio --transcript "$T/zkbpp-session" <"$T/p2v" >"$T/v2p" 2>/dev/null &
$P peg connect tee --solution "$T/tee.sol" --system mpc --security 8 - >"$T/p2v" <"$T/v2p" 2>/dev/null
wait
put proof_peg_mpc session-transcript "$T/zkbpp-session"
# every proof also goes to the other proof targets (wrong kind: the dispatch and refusals)
for f in iso zkbpp kkw sha shakkw vole shavole; do put proof_wall_move "other-$f" "$T/$f"; done

# --- Wall Game positions, records, moves
cat >"$T/g4.txt" <<'EOF'
variant: cat-and-mouse
+---+---+---+---+
| C1  .   .   C2|
+   +   +   +   +
| .   .   .   . |
+   +   +   +   +
| .   .   .   . |
+   +   +   +   +
| M1  .   .   M2|
+---+---+---+---+
EOF
for f in puzzles/wall/*; do
  b=$(basename "$f")
  case "$b" in
    *.json) put wall_json "$b" "$f"; $V wall convert "$f" --to ascii >"$T/a" && put wall_ascii "$b.txt" "$T/a" ;;
    *game*) put wall_record "$b" "$f"
            $V wall convert "$f" --to ascii >"$T/a" && put wall_ascii "$b-final.txt" "$T/a"
            $V wall convert "$f" --to json >"$T/j" && put wall_json "$b-final.json" "$T/j" ;;
    *) put wall_ascii "$b" "$f"; $V wall convert "$f" --to json >"$T/j" && put wall_json "$b.json" "$T/j"
       $V wall convert "$f" --to pairs-json >"$T/j" && put wall_json "$b-pairs.json" "$T/j" ;;
  esac
done
put wall_ascii g4.txt "$T/g4.txt"
$V wall convert "$T/g4.txt" --to json >"$T/g4.json" && put wall_json g4.json "$T/g4.json"
$V wall convert "$T/g4.txt" --to record >"$T/g4.rec" && put wall_record g4-empty.rec "$T/g4.rec"
# a short record: the 4x4 game after a few plies, rewritten by the binary
printf '[Board "4x4"]\n[Variant "CatAndMouse"]\n\n1. Cb4.>a3 Cc4\n2. Cc3.^a2 Mc1\n' >"$T/g4-moves.rec"
$V wall convert "$T/g4-moves.rec" --to record >"$T/r" 2>/dev/null && put wall_record g4-moves.rec "$T/r" || put wall_record g4-moves.rec "$T/g4-moves.rec"
# small positions for the differential target (<= 42 cells)
put wall_oracle_diff g4.txt "$T/g4.txt"
put wall_oracle_diff g4.json "$T/g4.json"
put wall_oracle_diff pairs-5x6.json puzzles/wall/pairs-5x6.json
$V wall convert puzzles/wall/pairs-5x6.json --to ascii >"$T/a" && put wall_oracle_diff pairs-5x6.txt "$T/a"
mkdir -p "$C/wall_move"
mv_name() { printf '%s' "$1" | tr -c 'A-Za-z0-9' '_'; }
for m in 'Cb4.>a3' 'Cb4' 'Mb1.^a2.^b2' '---' '>a3.>a2' 'Cc4.Ma2'; do
  printf '\x00%s' "$m" >"$C/wall_move/4x4-$(mv_name "$m")"
done
for m in 'Cg8.^c4' 'Cg7' '>e5.^d6'; do
  printf '\x01%s' "$m" >"$C/wall_move/8x8-$(mv_name "$m")"
done
$V wall notation "$T/g4.txt" 'Cb4.>a3' >"$T/mj" 2>/dev/null && { printf '\x00'; grep -o '{.*}' "$T/mj" | head -1; } >"$C/wall_move/4x4-json" || true

# --- sealed moves and openings (the fixture game, 8 bits)
$P wall seal "$T/g4.txt" --move 'Cb4.>a3' $S --system zkbpp -o "$T/seal" --opening "$T/open" 2>/dev/null
put proof_wall_move seal-Cb4 "$T/seal"
put seal_open opening-Cb4-other-seal "$T/open"
$P wall seal "$T/g4.txt" --move '---' $S --system zkbpp -o "$T/seal2" --opening "$T/open2" 2>/dev/null
put proof_wall_move seal-none "$T/seal2"
put seal_open opening-none "$T/open2"
$P sha256 seal --help >/dev/null 2>&1 && $P sha256 seal --preimage-hex 7a6b $S --system zkbpp -o "$T/sseal" --opening "$T/sopen" 2>/dev/null &&
  { put seal_open sha256-opening "$T/sopen"; put proof_sha256_mpc sha256-seal "$T/sseal"; } || true

# --- authentication keys and identities
$P auth keygen --kind sha256 --seed 1 -o "$T/k1" >/dev/null 2>&1
put auth_keys sha256.key "$T/k1"
put auth_keys sha256.pub "$T/k1.pub"
$P auth keygen --kind peg --seed 1 -o "$T/k2" >/dev/null 2>&1
put auth_keys peg.key "$T/k2"
put auth_keys peg.pub "$T/k2.pub"
$P auth keygen --kind lowmc --seed 1 -o "$T/k3" >/dev/null 2>&1
put auth_keys lowmc.key "$T/k3"
put auth_keys lowmc.pub "$T/k3.pub"

# --- live exchanges (library-made, see examples/fuzz_seeds.rs)
"$ROOT/target/release/examples/fuzz_seeds" "$C"

# --- the HTTP service's two sides: raw client bytes for the server (in process), raw server
# answers for the ureq-based client (a fake server on loopback); issue 41, §5
hs() { mkdir -p "$C/http_server"; printf "$2" >"$C/http_server/$1"; }
hc() { mkdir -p "$C/http_client"; printf "$2" >"$C/http_client/$1"; }
J='Content-Type: application/json\r\n'
hs get-page 'GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n'
hs openapi 'GET /openapi.yaml HTTP/1.1\r\nHost: a\r\n\r\n'
hs whoami 'GET /v1/whoami HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer abababababababababababababababababababababababababababababababab\r\n\r\n'
hs challenge "POST /v1/challenge HTTP/1.1\r\nHost: a\r\n${J}Content-Length: 16\r\n\r\n{\"name\":\"alice\"}"
hs register "POST /v1/register HTTP/1.1\r\nHost: a\r\n${J}Content-Length: 43\r\n\r\n{\"name\":\"bob\",\"identity\":\"not an identity\"}"
hs login-code "POST /v1/login HTTP/1.1\r\nHost: a\r\n${J}Content-Length: 129\r\n\r\n{\"name\":\"alice\",\"challenge\":\"0000000000000000000000000000000000000000000000000000000000000000\",\"proof\":\"AAAA\",\"code\":\"BCDF-GHJK\"}"
hs device "POST /v1/device HTTP/1.1\r\nHost: a\r\n${J}Content-Length: 16\r\n\r\n{\"name\":\"alice\"}"
hs device-lookup "POST /v1/device/lookup HTTP/1.1\r\nHost: a\r\n${J}Content-Length: 35\r\n\r\n{\"name\":\"alice\",\"code\":\"BCDF-GHJK\"}"
hs poll-bad-wait 'GET /v1/device/abc?wait=banana HTTP/1.1\r\nHost: a\r\n\r\n'
hs chunked-broken "POST /v1/challenge HTTP/1.1\r\nHost: a\r\n${J}Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n"
hs chunked-huge "POST /v1/challenge HTTP/1.1\r\nHost: a\r\n${J}Transfer-Encoding: chunked\r\n\r\nfffffffffffffff0\r\n{}\r\n0\r\n\r\n"
hs text-plain 'POST /v1/challenge HTTP/1.1\r\nHost: a\r\nContent-Type: text/plain\r\nContent-Length: 16\r\n\r\n{"name":"alice"}'
hs other-origin "POST /v1/challenge HTTP/1.1\r\nHost: a\r\nOrigin: http://evil.example\r\n${J}Content-Length: 16\r\n\r\n{\"name\":\"alice\"}"
hs preflight 'OPTIONS /v1/login HTTP/1.1\r\nHost: a\r\nOrigin: http://fuzz.example\r\nAccess-Control-Request-Method: POST\r\n\r\n'
hs keepalive-two "GET /v1/whoami HTTP/1.1\r\nHost: a\r\n\r\nPOST /v1/challenge HTTP/1.1\r\nHost: a\r\n${J}Content-Length: 16\r\n\r\n{\"name\":\"alice\"}"
hs head 'HEAD / HTTP/1.1\r\nHost: a\r\n\r\n'
hs garbage '\x00\x00\x00\x05hello'
# the issue's 72 bytes: a chunk size near 2^64 (the hand-written client added it unchecked)
hc the-issue-72-bytes 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nfffffffffffffff0\r\n{}\r\n0\r\n'
hc huge-chunk-size-ended 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nfffffffffffffff0\r\n{}\r\n0\r\n\r\n'
hc chunk-not-hex 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n'
hc length-20-digits 'HTTP/1.1 200 OK\r\ncontent-length: 99999999999999999999\r\n\r\n{}'
hc length-short 'HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\n{}'
hc http-9 'HTTP/9 200\r\n\r\n'
hc framed-tcp '\x00\x00\x00\x05hello'
hc not-json 'HTTP/1.1 200 OK\r\n\r\nnot json'
hc json-array 'HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n[]'
hc redirect 'HTTP/1.1 302 Found\r\nlocation: http://127.0.0.1:1/\r\ncontent-length: 0\r\n\r\n'
hc whoami-ok 'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 16\r\n\r\n{"name":"alice"}'
hc challenge-ok 'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 111\r\n\r\n{"challenge":"abababababababababababababababababababababababababababababababab","server":"fuzz","expires_at":1}'
hc lookup-ok 'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 122\r\n\r\n{"name":"alice","grants":"browser-session","server":"fuzz","requested_at":1,"requested_from":"127.0.0.1","expires_at":301}'
hc retry-later 'HTTP/1.1 429 Too Many Requests\r\nretry-after: 18446744073709551615\r\ncontent-length: 20\r\n\r\n{"error":"too many"}'
hc chunked-ok 'HTTP/1.1 201 Created\r\ntransfer-encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n'

chmod -R u=rwX,go=rX "$C"
du -sh "$C"
for d in "$C"/*; do printf '%-20s %3d files\n' "$(basename "$d")" "$(ls "$d" | wc -l)"; done
