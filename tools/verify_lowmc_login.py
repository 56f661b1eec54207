#!/usr/bin/env python3
"""Independent verifier for zkgames VOLE-in-the-head LowMC-key login proofs (protocol 13, mode 0).

Written from docs/PROTOCOLS.md alone (1.4 container, 3.1 circuit IR and builder rules, 3.9
the LowMC cipher, its constants and its key statement, 5.1 identity files, 5.3 the login
statement and its context bytes, 7 VOLE-in-the-head), without reading the Rust sources.
Standard library only. The VOLE verifier itself (GF(2^128), ChaCha20, GGM trees, the
consistency check, QuickSilver, the transcript) is tools/verify_vole.py's, shared; this
file adds the LowMC cipher, its circuit, identities and the login context.

usage: python3 tools/verify_lowmc_login.py IDENTITY SERVER USER NONCE PROOF [--security BITS]
       python3 tools/verify_lowmc_login.py IDENTITY SERVER USER NONCE PROOF... --each
       python3 tools/verify_lowmc_login.py --self-test

IDENTITY is a `zkgames-auth-id-v1 lowmc` identity file (5.1), SERVER and USER the names the
login was for, NONCE the server's 32-byte nonce in hex (64 lowercase digits), PROOF the
login proof file. BITS (default 128, the login level of 5.3/7.12) is the attack cost the
proof's parameters must reach.

Exit status: 0 accepted, 1 rejected, 2 malformed input (identity, names, nonce, proof file or
arguments); one line of output. With --each, one line per proof file, `CODE VERDICT: ...`
(the exit status each file would have had alone), and exit status 0.
"""

import argparse
import os
import re
import sys
from itertools import compress

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from verify_peg_iso import Malformed, Rejected, excerpt  # noqa: E402
from verify_vole import (  # noqa: E402  (same directory: the shared VOLE core)
    AND, C0, MAX_BODY, Builder, attack_cost_bits, const, parse_file, sha256,
    verify_statement)

PROTOCOL_LOWMC_VOLE = 13                              # 1.4
APP_TAG = b"zkgames/lowmc-129-129-43-4/key/v1"        # 3.9 (the statement's tag, all engines)
PUBLIC_PREFIX = b"lowmc-129-129-43-4 plaintext"       # 3.9
LOGIN_TAG = b"zkgames/auth/login/v1"                  # 5.3
MAX_ID_FILE = 2 << 20                                 # 5.1: files over 2 MiB are refused
N = 129                                               # block and key bits
SBOXES = 43
ROUNDS = 4
BLOCK_BYTES = 17

# ---------------------------------------------------------------- LowMC constants (3.9)


TAPS = (13, 23, 38, 51, 62)        # s_i is updated with s_{i+13}, ..., s_{i+62} (mod 80)
SPEEDUP = 16                        # steps of the recurrence with every lag times 16


class Grain:
    """The LowMC reference generator of 3.9: the Grain LFSR, self-shrunk.

    Raw sequence: b_0 ... b_79 is the all-ones initial state s_0 ... s_79; step n (n >= 80,
    index i = n mod 80) writes s_i ^ s_{i+13} ^ s_{i+23} ^ s_{i+38} ^ s_{i+51} ^ s_{i+62},
    i.e. b_n = b_{n-80} ^ b_{n-67} ^ b_{n-57} ^ b_{n-42} ^ b_{n-29} ^ b_{n-18}. Output: the
    steps b_80 ... b_239 are discarded, then steps go in pairs (choice, bit) from b_240 and
    the bit is kept iff the choice is 1.

    Speed: over GF(2) a recurrence with lags l also holds with lags 2l (the characteristic
    polynomial squared), so past index 16·80 the sequence obeys the lags 16l, whose smallest
    (288) lets 288 steps be computed at once on a 1,280-bit window. The first 1,280 bits come
    from the plain recurrence, 18 steps at a time (its smallest lag); the self-test compares
    both ways on the first 200,000 bits."""

    def __init__(self):
        self.raw = self.plain(80 * SPEEDUP)
        w = 80 * SPEEDUP
        self.window = int(self.raw[::-1], 2)         # bit t = b_{n-1280+t}
        self.shifts = [SPEEDUP * t for t in TAPS]
        self.step = SPEEDUP * (80 - TAPS[-1])         # 288
        self.mask = (1 << self.step) - 1
        self.w = w
        self.pos = 240                                # next raw bit to read in pairs
        self.out = ""

    @staticmethod
    def plain(n):
        """b_0 ... b_{n-1} by the plain recurrence, as a '0'/'1' string."""
        window = (1 << 80) - 1
        chunks = ["1" * 80]
        have = 80
        while have < n:
            new = window
            for t in TAPS:
                new ^= window >> t
            new &= 0x3FFFF
            window = (window >> 18) | (new << 62)
            chunks.append(format(new, "018b")[::-1])  # b_n first
            have += 18
        return "".join(chunks)[:n]

    def _more_raw(self, n):
        chunks = []
        win, w, step, mask = self.window, self.w, self.step, self.mask
        for _ in range(-(-n // step)):
            new = win
            for sh in self.shifts:
                new ^= win >> sh
            new &= mask
            win = (win >> step) | (new << (w - step))
            chunks.append(format(new, "0%db" % step)[::-1])
        self.window = win
        self.raw += "".join(chunks)

    def take(self, n):
        """The next n output bits, as a '0'/'1' string."""
        while len(self.out) < n:
            want = 4 * (n - len(self.out)) + 4096
            if len(self.raw) < self.pos + want:
                self._more_raw(self.pos + want - len(self.raw))
            seg = self.raw[self.pos:self.pos + want]
            self.raw = self.raw[self.pos + want:]
            self.pos = 0
            choice = seg[0::2].encode("ascii").translate(BITS01)
            self.out += "".join(compress(seg[1::2], choice))
        got, self.out = self.out[:n], self.out[n:]
        return got


BITS01 = bytes.maketrans(b"01", b"\x00\x01")


def gf2_rank(rows):
    """Rank over GF(2) of a list of ints (Gaussian elimination)."""
    rows = list(rows)
    rank = 0
    for col in range(N):
        bit = 1 << col
        pivot = next((r for r in range(rank, len(rows)) if rows[r] & bit), None)
        if pivot is None:
            continue
        rows[rank], rows[pivot] = rows[pivot], rows[rank]
        for r in range(len(rows)):
            if r != rank and rows[r] & bit:
                rows[r] ^= rows[rank]
        rank += 1
    return rank


class Constants:
    """L_1..L_4, C_1..C_4, K_0..K_4 from one Grain stream (3.9). A matrix is a list of 129
    row ints, bit c of row j = M[j][c]; a vector an int, bit i = x_i."""

    def __init__(self):
        g = Grain()

        def vector():
            return int(g.take(N)[::-1], 2)            # first bit read = bit 0 (x_0, column 0)

        def matrix():
            while True:                               # a singular matrix is skipped
                m = [vector() for _ in range(N)]
                if gf2_rank(m) == N:
                    return m
        self.L = [matrix() for _ in range(ROUNDS)]
        self.C = [vector() for _ in range(ROUNDS)]
        self.K = [matrix() for _ in range(ROUNDS + 1)]


_CONSTANTS = None


def constants():
    global _CONSTANTS
    if _CONSTANTS is None:
        _CONSTANTS = Constants()
    return _CONSTANTS


def mat_mul(m, x):
    return sum(((row & x).bit_count() & 1) << j for j, row in enumerate(m))


def sbox_layer(x):
    for j in range(SBOXES):
        c = (x >> (3 * j)) & 1
        b = (x >> (3 * j + 1)) & 1
        a = (x >> (3 * j + 2)) & 1
        na, nb, nc = a ^ (b & c), a ^ b ^ (c & a), a ^ b ^ c ^ (a & b)
        x &= ~(7 << (3 * j))
        x |= (nc | (nb << 1) | (na << 2)) << (3 * j)
    return x


def encrypt(k, p):
    cs = constants()
    x = p ^ mat_mul(cs.K[0], k)
    for i in range(ROUNDS):
        x = sbox_layer(x)
        x = mat_mul(cs.L[i], x)
        x ^= cs.C[i]
        x ^= mat_mul(cs.K[i + 1], k)
    return x


def block_from_bytes(b, what):
    """3.9: bit i is bit 7 - (i mod 8) of byte i // 8; the 7 low bits of byte 16 zero."""
    if len(b) != BLOCK_BYTES:
        raise Malformed("%s: %d bytes, %d expected" % (what, len(b), BLOCK_BYTES))
    if b[16] & 0x7F:
        raise Malformed("%s: the 7 low bits of its last byte are not zero" % what)
    return sum(((b[i // 8] >> (7 - i % 8)) & 1) << i for i in range(N))


def block_to_bytes(x):
    out = bytearray(BLOCK_BYTES)
    for i in range(N):
        if (x >> i) & 1:
            out[i // 8] |= 0x80 >> (i % 8)
    return bytes(out)


# ---------------------------------------------------------------- the circuit (3.9)

def mul_grouped(bld, matrices, x, g):
    """3.9's grouped product: M·x for every matrix (rows as ints, bit c = column c), the
    columns in groups of g; combination v of group q (bit i selects column g·q + i) is that
    column's wire when v has one bit, else comb(q, v & (v−1)) XOR the column of v's lowest
    bit, made on first use; each row is the XOR chain from 0 of its nonzero combinations,
    groups in order."""
    groups = (len(x) + g - 1) // g
    comb = [dict() for _ in range(groups)]

    def get(q, v):
        w = comb[q].get(v)
        if w is not None:
            return w
        low = (v & -v).bit_length() - 1
        if v & (v - 1) == 0:
            w = x[g * q + low]
        else:
            rest = get(q, v & (v - 1))
            w = bld.xor(rest, x[g * q + low])
        comb[q][v] = w
        return w

    out = []
    for rows in matrices:
        ys = []
        for row in rows:
            acc = C0
            for q in range(groups):
                v = (row >> (g * q)) & ((1 << g) - 1)
                if v:
                    acc = bld.xor(acc, get(q, v))
            ys.append(acc)
        out.append(ys)
    return out


LINEAR_GROUP = 5    # 3.9: the linear layers' column groups
KEY_GROUP = 8       # 3.9: the five round keys' column groups (one set of tables)
CIRCUIT_DIGEST_TAG = b"zkg:lowmc:circuit:v1"


def lowmc_circuit(p):
    """LowMC_k(p) with the key as the 129 inputs and p as constants: the builder (its
    outputs the 129 state bits in order)."""
    cs = constants()
    bld = Builder(N)
    k = list(range(N))
    rks = mul_grouped(bld, cs.K, k, KEY_GROUP)
    x = [bld.xor(rks[0][j], const((p >> j) & 1)) for j in range(N)]
    for i in range(ROUNDS):
        for j in range(SBOXES):
            a, b, c = x[3 * j + 2], x[3 * j + 1], x[3 * j]
            bc = bld.and_(b, c)
            ca = bld.and_(c, a)
            ab = bld.and_(a, b)
            t = bld.xor(a, b)
            x[3 * j + 2] = bld.xor(a, bc)
            x[3 * j + 1] = bld.xor(t, ca)
            x[3 * j] = bld.xor(bld.xor(t, c), ab)
        x = mul_grouped(bld, [cs.L[i]], x, LINEAR_GROUP)[0]
        x = [bld.xor(bld.xor(x[j], const((cs.C[i] >> j) & 1)), rks[i + 1][j])
             for j in range(N)]
    bld.outputs = list(x)
    n_and = sum(1 for g in bld.gates if g[0] == AND)
    if n_and != 3 * SBOXES * ROUNDS:
        raise AssertionError("%d AND gates, 516 expected" % n_and)
    return bld


_TEMPLATE_DIGEST = []


def circuit_digest(p):
    """3.9: the digest a LowMC circuit is bound by, SHA-256(tag ‖ D_T ‖ p's 17 bytes), D_T
    the canonical digest (3.1) of the all-ones plaintext's circuit."""
    if not _TEMPLATE_DIGEST:
        _TEMPLATE_DIGEST.append(lowmc_circuit((1 << N) - 1).digest())
    return sha256(CIRCUIT_DIGEST_TAG, _TEMPLATE_DIGEST[0], block_to_bytes(p))


def evaluate(bld, inputs):
    """Plain evaluation of a Builder's circuit (for the self-test)."""
    v = list(inputs)
    for op, a, b in bld.gates:
        v.append(v[a] ^ v[b] if op == 0 else v[a] & v[b] if op == AND else v[a] ^ 1)
    return [v[o] if o >= 0 else (1 if o != C0 else 0) for o in bld.outputs]


# ---------------------------------------------------------------- identity, login (5.1, 5.3)

HEX34 = re.compile(r"[0-9a-f]{34}\Z")
HEX64 = re.compile(r"[0-9a-f]{64}\Z")
USER = re.compile(r"[a-z0-9][a-z0-9_.\-]{0,31}\Z")


def parse_identity(raw):
    """A lowmc identity line (5.1): (p, c) as 129-bit ints."""
    if len(raw) > MAX_ID_FILE:
        raise Malformed("identity file larger than 2 MiB")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise Malformed("identity file is not UTF-8")
    if text.endswith("\r\n"):
        text = text[:-2]
    elif text.endswith("\n"):
        text = text[:-1]
    if "\n" in text or "\r" in text:
        raise Malformed("identity file is not one line")
    fields = text.split(" ")
    if len(fields) < 2 or fields[0] != "zkgames-auth-id-v1":
        raise Malformed("not a zkgames identity file")
    if fields[1] != "lowmc":
        raise Malformed("a %s identity: this tool checks lowmc identities only"
                        % excerpt(fields[1], 20))
    if len(fields) != 4 or not HEX34.match(fields[2]) or not HEX34.match(fields[3]):
        raise Malformed("a lowmc identity is two 17-byte values in lowercase hex")
    p = block_from_bytes(bytes.fromhex(fields[2]), "the identity's plaintext")
    c = block_from_bytes(bytes.fromhex(fields[3]), "the identity's ciphertext")
    return p, c


def login_context(server, user, nonce_hex):
    """5.3's context bytes, after checking the server name, user name and nonce."""
    s = server.encode("utf-8", "surrogateescape")
    if not 1 <= len(s) <= 255 or any(not 0x21 <= ch <= 0x7E for ch in s):
        raise Malformed("the server name must be 1 to 255 printable ASCII characters, no spaces")
    if not USER.match(user):
        raise Malformed("the user name must be 1 to 32 of a-z 0-9 _ - ., starting with a "
                        "letter or digit")
    if not HEX64.match(nonce_hex):
        raise Malformed("the nonce must be 64 lowercase hex digits (32 bytes)")
    u = user.encode("ascii")
    nonce = bytes.fromhex(nonce_hex)

    def lp(x):
        return len(x).to_bytes(4, "little") + x
    return lp(LOGIN_TAG) + lp(s) + lp(u) + lp(nonce)


_CIRCUITS = {}


def verify(p, c, data, security, context):
    proof = parse_file(data, PROTOCOL_LOWMC_VOLE, "LowMC key VOLE", login=True)
    if p not in _CIRCUITS:
        bld = lowmc_circuit(p)
        derived = circuit_digest(p)
        bld.digest = lambda: derived    # 3.9: bound by the derived digest, not its gates'
        _CIRCUITS[p] = bld
    bld = _CIRCUITS[p]
    y = [(c >> i) & 1 for i in range(N)]
    public = PUBLIC_PREFIX + block_to_bytes(p)
    return verify_statement(proof, APP_TAG, bld, public, y, security, context)


# ---------------------------------------------------------------- self test, CLI

KAT_KEY = "80" + "00" * 16
KAT_PLAIN = "abff" + "00" * 15
KAT_CIPHER = "2fd7d5425ee35e667c972f12fb153e9d80"


def self_test():
    g = Grain()
    g._more_raw(200000)
    assert g.raw[:200000] == Grain.plain(200000), "the fast LFSR differs from the plain one"
    cs = constants()
    for name, ms in (("L", cs.L), ("K", cs.K)):
        for i, m in enumerate(ms):
            assert gf2_rank(m) == N, "%s_%d singular" % (name, i)
    k = block_from_bytes(bytes.fromhex(KAT_KEY), "key")
    p = block_from_bytes(bytes.fromhex(KAT_PLAIN), "plaintext")
    c = encrypt(k, p)
    assert block_to_bytes(c).hex() == KAT_CIPHER, "LowMC known answer: %s" % block_to_bytes(c).hex()
    bld = lowmc_circuit(p)
    out = evaluate(bld, [(k >> i) & 1 for i in range(N)])
    assert out == [(c >> i) & 1 for i in range(N)], "the circuit differs from the cipher"
    import random
    rnd = random.Random(5)
    for _ in range(3):
        k2, p2 = rnd.getrandbits(N), rnd.getrandbits(N)
        b2 = lowmc_circuit(p2)
        c2 = encrypt(k2, p2)
        assert evaluate(b2, [(k2 >> i) & 1 for i in range(N)]) == [(c2 >> i) & 1 for i in range(N)]
        assert block_from_bytes(block_to_bytes(c2), "x") == c2
    print("self-test passed: LowMC-129-129-4 constants (all matrices invertible), the known "
          "answer, the circuit (%d gates, 516 AND) against the cipher" % len(bld.gates))
    return 0


class ArgParser(argparse.ArgumentParser):
    def error(self, message):
        sys.stdout.write("MALFORMED: usage: %s\n" % excerpt(message, 200))
        sys.exit(2)


def check_one(args, path):
    """(exit code, one line) for one proof file."""
    try:
        if not 1 <= args.security <= 256:
            raise Malformed("--security must be in [1, 256]")
        context = login_context(args.server, args.user, args.nonce)
        try:
            with open(args.identity, "rb") as fh:
                raw = fh.read(MAX_ID_FILE + 1)
            with open(path, "rb") as fh:
                data = fh.read(MAX_BODY + 22)
        except OSError as e:
            raise Malformed("cannot read input: %s" % excerpt(e, 200))
        p, c = parse_identity(raw)
        tau, dbits, grind = verify(p, c, data, args.security, context)
    except Malformed as e:
        return 2, "MALFORMED: %s" % e
    except Rejected as e:
        return 1, "REJECTED: %s" % e
    except Exception as e:  # never a traceback: anything unexpected is bad input
        return 2, "MALFORMED: unexpected error: %s: %s" % (type(e).__name__, excerpt(e, 200))
    return 0, ("ACCEPTED: LowMC key login of %s on %s, VOLE-in-the-head, tau = %d, D = %d, "
               "w = %d, %.2f bits" % (args.user, args.server, tau, dbits, grind,
                                    attack_cost_bits(dbits, grind)))


def main(argv):
    if argv == ["--self-test"]:
        return self_test()
    ap = ArgParser(description="Independent verifier for zkgames LowMC-key login proofs "
                               "(VOLE-in-the-head, protocol 13, mode 0).")
    ap.add_argument("identity", help="lowmc identity file (zkgames-auth-id-v1 lowmc P C)")
    ap.add_argument("server", help="the server name the login was for")
    ap.add_argument("user", help="the user name")
    ap.add_argument("nonce", help="the server's nonce, 64 lowercase hex digits")
    ap.add_argument("proof", nargs="+", help="login proof file (several with --each)")
    ap.add_argument("--security", type=int, default=128,
                    help="required attack cost in bits (default 128, the login level)")
    ap.add_argument("--each", action="store_true",
                    help="one line per proof file, prefixed by its exit code; exit 0")
    args = ap.parse_args(argv)
    if not args.each:
        if len(args.proof) != 1:
            ap.error("one proof file (several only with --each)")
        code, line = check_one(args, args.proof[0])
        print(line)
        return code
    for path in args.proof:
        code, line = check_one(args, path)
        print("%d %s" % (code, line))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
