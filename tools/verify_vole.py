#!/usr/bin/env python3
"""Independent verifier for zkgames VOLE-in-the-head peg solitaire proofs (protocol 10, mode 0).

Written from docs/PROTOCOLS.md alone (1.3 transcripts, 1.4 container, 2.1 instances, 3.1
circuit IR and builder rules, 3.9 the peg statement, 7 VOLE-in-the-head), without reading
the Rust sources. Standard library only; the instance parser, the bincode reader and the
transcript are shared with tools/verify_peg_iso.py (written the same way).

usage: python3 tools/verify_vole.py PUZZLE PROOF [--security BITS] [--context STR]
       python3 tools/verify_vole.py --self-test

Exit status: 0 accepted, 1 rejected, 2 malformed input (instance, proof file or arguments).
"""

import argparse
import hashlib
import math
import os
import struct
import sys
from array import array

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from verify_peg_iso import (  # noqa: E402  (same directory, same house rules)
    MAGIC, MAX_BODY, MAX_CONTEXT, MAX_PUZZLE_FILE, Malformed, Reader, Rejected, Transcript,
    excerpt, pack_bits, parse_puzzle, sha256)
import aes128_py  # noqa: E402  (same directory: AES-128 from FIPS 197)

FORMAT_VERSION = 1
PROTOCOL_PEG_VOLE = 10
MODE_NONINTERACTIVE = 0
APP_TAG = b"zkgames/zkb++/peg-solitaire/v1"       # 3.9 (the statement's tag, all engines)
VOLE_LABEL = b"zkg:vole:v11"                       # 7.8
SHORT_HASH_BITS = 16                              # 7.5: the second hash's width
MASK128 = (1 << 128) - 1

# ---------------------------------------------------------------- GF(2^128) (7.1)


def gf_mul(a, b):
    """Carry-less product reduced by X^128 + X^7 + X^2 + X + 1."""
    r = 0
    while b:
        low = b & -b
        r ^= a << (low.bit_length() - 1)
        b ^= low
    for _ in range(2):
        hi = r >> 128
        r = (r & MASK128) ^ hi ^ (hi << 1) ^ (hi << 2) ^ (hi << 7)
    return r


def gf_mul_reference(a, b):
    """Bit-by-bit shift and add: a·X each step, reduced at once."""
    r = 0
    for i in range(128):
        if (b >> i) & 1:
            r ^= a
        a <<= 1
        if a >> 128:
            a = (a & MASK128) ^ 0x87
    return r


# ---------------------------------------------------------------- ChaCha20 (7.1, RFC 8439)

def chacha20_block(key, counter_words, nonce_words, double_rounds=10):
    """One 64-byte block: 4 constants, 8 key words, then counter and nonce words (4 in all).

    ChaCha20 by default; `double_rounds=6` is ChaCha12 (the leaves' PRG of format v3). The rounds
    of each double round are unrolled (generated text of the RFC 8439 quarter round)."""
    init = [0x61707865, 0x3320646E, 0x79622D32, 0x6B206574]
    init += list(struct.unpack("<8I", key)) + list(counter_words) + list(nonce_words)
    x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15 = init
    M = 0xFFFFFFFF
    for _ in range(double_rounds):
        x0 = (x0 + x4) & M
        x12 ^= x0
        x12 = ((x12 << 16) & M) | (x12 >> 16)
        x8 = (x8 + x12) & M
        x4 ^= x8
        x4 = ((x4 << 12) & M) | (x4 >> 20)
        x0 = (x0 + x4) & M
        x12 ^= x0
        x12 = ((x12 << 8) & M) | (x12 >> 24)
        x8 = (x8 + x12) & M
        x4 ^= x8
        x4 = ((x4 << 7) & M) | (x4 >> 25)
        x1 = (x1 + x5) & M
        x13 ^= x1
        x13 = ((x13 << 16) & M) | (x13 >> 16)
        x9 = (x9 + x13) & M
        x5 ^= x9
        x5 = ((x5 << 12) & M) | (x5 >> 20)
        x1 = (x1 + x5) & M
        x13 ^= x1
        x13 = ((x13 << 8) & M) | (x13 >> 24)
        x9 = (x9 + x13) & M
        x5 ^= x9
        x5 = ((x5 << 7) & M) | (x5 >> 25)
        x2 = (x2 + x6) & M
        x14 ^= x2
        x14 = ((x14 << 16) & M) | (x14 >> 16)
        x10 = (x10 + x14) & M
        x6 ^= x10
        x6 = ((x6 << 12) & M) | (x6 >> 20)
        x2 = (x2 + x6) & M
        x14 ^= x2
        x14 = ((x14 << 8) & M) | (x14 >> 24)
        x10 = (x10 + x14) & M
        x6 ^= x10
        x6 = ((x6 << 7) & M) | (x6 >> 25)
        x3 = (x3 + x7) & M
        x15 ^= x3
        x15 = ((x15 << 16) & M) | (x15 >> 16)
        x11 = (x11 + x15) & M
        x7 ^= x11
        x7 = ((x7 << 12) & M) | (x7 >> 20)
        x3 = (x3 + x7) & M
        x15 ^= x3
        x15 = ((x15 << 8) & M) | (x15 >> 24)
        x11 = (x11 + x15) & M
        x7 ^= x11
        x7 = ((x7 << 7) & M) | (x7 >> 25)
        x0 = (x0 + x5) & M
        x15 ^= x0
        x15 = ((x15 << 16) & M) | (x15 >> 16)
        x10 = (x10 + x15) & M
        x5 ^= x10
        x5 = ((x5 << 12) & M) | (x5 >> 20)
        x0 = (x0 + x5) & M
        x15 ^= x0
        x15 = ((x15 << 8) & M) | (x15 >> 24)
        x10 = (x10 + x15) & M
        x5 ^= x10
        x5 = ((x5 << 7) & M) | (x5 >> 25)
        x1 = (x1 + x6) & M
        x12 ^= x1
        x12 = ((x12 << 16) & M) | (x12 >> 16)
        x11 = (x11 + x12) & M
        x6 ^= x11
        x6 = ((x6 << 12) & M) | (x6 >> 20)
        x1 = (x1 + x6) & M
        x12 ^= x1
        x12 = ((x12 << 8) & M) | (x12 >> 24)
        x11 = (x11 + x12) & M
        x6 ^= x11
        x6 = ((x6 << 7) & M) | (x6 >> 25)
        x2 = (x2 + x7) & M
        x13 ^= x2
        x13 = ((x13 << 16) & M) | (x13 >> 16)
        x8 = (x8 + x13) & M
        x7 ^= x8
        x7 = ((x7 << 12) & M) | (x7 >> 20)
        x2 = (x2 + x7) & M
        x13 ^= x2
        x13 = ((x13 << 8) & M) | (x13 >> 24)
        x8 = (x8 + x13) & M
        x7 ^= x8
        x7 = ((x7 << 7) & M) | (x7 >> 25)
        x3 = (x3 + x4) & M
        x14 ^= x3
        x14 = ((x14 << 16) & M) | (x14 >> 16)
        x9 = (x9 + x14) & M
        x4 ^= x9
        x4 = ((x4 << 12) & M) | (x4 >> 20)
        x3 = (x3 + x4) & M
        x14 ^= x3
        x14 = ((x14 << 8) & M) | (x14 >> 24)
        x9 = (x9 + x14) & M
        x4 ^= x9
        x4 = ((x4 << 7) & M) | (x4 >> 25)
    out = (x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15)
    return struct.pack("<16I", *[(out[i] + init[i]) & M for i in range(16)])


def chacha20_stream(key, nbytes, double_rounds=10):
    """ChaCha20 (or ChaCha`2·double_rounds`) with a 64-bit block counter from 0 and a 64-bit
    nonce 0 (djb's layout)."""
    out = []
    for blk in range((nbytes + 63) // 64):
        out.append(chacha20_block(key, (blk & 0xFFFFFFFF, blk >> 32), (0, 0), double_rounds))
    return b"".join(out)[:nbytes]


def chacha20_many(keys, nbytes, double_rounds=10):
    """chacha20_stream(key, nbytes, double_rounds) for every key of `keys`, all blocks at once
    (ChaCha20 by default, ChaCha12 with `double_rounds=6`).

    Each of the 16 state words of all the blocks lives in one big integer, one 64-bit lane
    per block (the 32-bit word and room for a carry): an addition is one big addition and a
    mask, a rotation two shifts and a mask (the bits a right shift moves into the lane below
    land above its 32 bits, where the mask clears them). The same quarter rounds as
    chacha20_block, about a hundred times faster in CPython for thousands of leaves; the
    self-test compares the two."""
    nblocks = (nbytes + 63) // 64
    nkeys = len(keys)
    lanes = nkeys * nblocks
    if lanes == 0:
        return []
    little = sys.byteorder == "little"

    def words_array(data):
        a = array("I", data)
        if not little:
            a.byteswap()
        return a

    def pack(vals):                       # array of 'lanes' u32 -> big int of 64-bit lanes
        wide = array("I", bytes(8 * lanes))
        wide[0::2] = vals
        if not little:
            wide.byteswap()
        return int.from_bytes(wide.tobytes(), "little")

    def unpack(x):                        # big int of 64-bit lanes -> array of u32
        return words_array(x.to_bytes(8 * lanes, "little"))[0::2]

    M = pack(array("I", [0xFFFFFFFF]) * lanes)
    ones = pack(array("I", [1]) * lanes)
    kw = words_array(b"".join(keys))
    init = [c * ones for c in (0x61707865, 0x3320646E, 0x79622D32, 0x6B206574)]
    for w in range(8):
        per_key = kw[w::8]
        vals = array("I", bytes(4 * lanes))
        for blk in range(nblocks):
            vals[blk::nblocks] = per_key
        init.append(pack(vals))
    ctr = array("I", bytes(4 * lanes))
    for blk in range(nblocks):
        ctr[blk::nblocks] = array("I", [blk]) * nkeys
    init += [pack(ctr), 0, 0, 0]          # 64-bit counter (high word 0 here), nonce 0
    x = list(init)

    def qr(a, b, c, d):
        xa, xb, xc, xd = x[a], x[b], x[c], x[d]
        xa = (xa + xb) & M
        xd ^= xa
        xd = ((xd << 16) | (xd >> 16)) & M
        xc = (xc + xd) & M
        xb ^= xc
        xb = ((xb << 12) | (xb >> 20)) & M
        xa = (xa + xb) & M
        xd ^= xa
        xd = ((xd << 8) | (xd >> 24)) & M
        xc = (xc + xd) & M
        xb ^= xc
        xb = ((xb << 7) | (xb >> 25)) & M
        x[a], x[b], x[c], x[d] = xa, xb, xc, xd

    for _ in range(double_rounds):
        qr(0, 4, 8, 12)
        qr(1, 5, 9, 13)
        qr(2, 6, 10, 14)
        qr(3, 7, 11, 15)
        qr(0, 5, 10, 15)
        qr(1, 6, 11, 12)
        qr(2, 7, 8, 13)
        qr(3, 4, 9, 14)
    out = array("I", bytes(64 * lanes))
    for w in range(16):
        out[w::16] = unpack((x[w] + init[w]) & M)
    if not little:
        out.byteswap()
    stream = out.tobytes()
    per = 64 * nblocks
    return [stream[per * t:per * t + nbytes] for t in range(nkeys)]


def field_stream(key, n):
    """The first n field elements (16 bytes each, little-endian) of ChaCha20 under key:
    chacha20_stream's bytes, its blocks computed all at once (chacha20_many)."""
    data = chacha20_many([key], 16 * n)[0] if n else b""
    return [int.from_bytes(data[16 * i:16 * i + 16], "little") for i in range(n)]


# ---------------------------------------------------------------- circuit builder (3.1)

C0, C1 = -1, -2       # the constants; wires are ints >= 0
XOR, AND, NOT, INV = 0, 1, 2, 3


def is_const(a):
    return a < 0


def const_bit(a):
    return 1 if a == C1 else 0


def const(b):
    return C1 if b else C0


class Builder:
    def __init__(self, n_in):
        self.n_in = n_in
        self.gates = []          # (op, a, b); INV: (INV, byte index, bit)
        self.outputs = []        # wire >= 0, or C0 / C1
        self.inv_inputs = []     # per inverted byte: its 8 input wires, bit 0 first (3.1)
        self.inv_norm = []       # per inverted byte: committed by its norm (3.1)

    def _new(self, op, a, b):
        self.gates.append((op, a, b))
        return self.n_in + len(self.gates) - 1

    def xor(self, a, b):
        if is_const(a) and is_const(b):
            return const(const_bit(a) ^ const_bit(b))
        if a == C0:
            return b
        if b == C0:
            return a
        if a == C1:
            return self.not_(b)
        if b == C1:
            return self.not_(a)
        if a == b:
            return C0
        return self._new(XOR, a, b)

    def not_(self, a):
        if is_const(a):
            return const(1 - const_bit(a))
        if a >= self.n_in:
            op, x, _ = self.gates[a - self.n_in]
            if op == NOT:
                return x
        return self._new(NOT, a, 0)

    def and_(self, a, b):
        if is_const(a) and is_const(b):
            return const(const_bit(a) & const_bit(b))
        if a == C0 or b == C0:
            return C0
        if a == C1:
            return b
        if b == C1:
            return a
        if a == b:
            return a
        return self._new(AND, a, b)

    def gf256_inv(self, x, norm=False):
        """3.1's inverted byte: 8 gates (INV, idx, j); a byte of constants folds; a
        constant bit of a byte with secret bits becomes a wire (XOR of the byte's first
        secret wire with itself, then NOT for a 1). `norm`: committed by its norm (3.1)."""
        if all(is_const(b) for b in x):
            v = sum(const_bit(b) << i for i, b in enumerate(x))
            if v == 0:
                raise Malformed("the inverse of a public zero byte")
            y = gf256_inv(v)
            return [const((y >> j) & 1) for j in range(8)]
        ins = []
        for b in x:
            if is_const(b):
                w = next(c for c in x if not is_const(c))
                z = self._new(XOR, w, w)
                if const_bit(b):
                    z = self._new(NOT, z, 0)
                b = z
            ins.append(b)
        idx = len(self.inv_inputs)
        self.inv_inputs.append(ins)
        self.inv_norm.append(norm)
        return [self._new(INV, idx, j) for j in range(8)]

    def is_norm(self, idx):
        return self.inv_norm[idx]

    def inv_bits(self, idx):
        """7.6: the committed bits of inverted byte idx: 4 for a norm byte, else 8."""
        return 4 if self.inv_norm[idx] else 8

    def degrees(self):
        """3.1: every wire's degree: a norm byte's output bits 2, XOR the larger of its
        operands', NOT its operand's, everything else 1."""
        d = [1] * self.n_in
        for op, a, b in self.gates:
            if op == XOR:
                d.append(max(d[a], d[b]))
            elif op == NOT:
                d.append(d[a])
            elif op == INV:
                d.append(2 if self.inv_norm[a] else 1)
            else:
                d.append(1)
        return d

    def increment(self, ctr, bit):
        c = bit
        out = []
        for i, x in enumerate(ctr):
            out.append(self.xor(x, c))
            if i != len(ctr) - 1:
                c = self.and_(x, c)
        return out

    def popcount(self, bits, w):
        ctr = [C0] * w
        for b in bits:
            ctr = self.increment(ctr, b)
        return ctr

    def one_hot_check(self, bits):
        acc = C0
        errs = []
        for b in bits:
            e = self.and_(acc, b)
            if e != C0:
                errs.append(e)
            acc = self.xor(acc, b)
        return errs, acc

    def digest(self):
        """SHA-256 of the canonical bytes (3.1); remembered for the circuit as it stands
        (tools verifying many proofs of one statement build and hash it once)."""
        key = (len(self.gates), tuple(self.outputs))
        if getattr(self, "_digest", (None,))[0] != key:
            self._digest = (key, self._digest_now())
        return self._digest[1]

    def _digest_now(self):
        out = [b"zkg:circuit:v1", struct.pack("<QQ", self.n_in, len(self.gates))]
        for op, a, b in self.gates:
            out.append(struct.pack("<BII", op, a, b))
        out.append(struct.pack("<Q", len(self.outputs)))
        for o in self.outputs:
            out.append(struct.pack("<BI", 1, const_bit(o)) if is_const(o)
                       else struct.pack("<BI", 0, o))
        if self.inv_inputs:
            out.append(struct.pack("<Q", len(self.inv_inputs)))
            for ins in self.inv_inputs:
                out.append(struct.pack("<8I", *ins))
        norm = [i for i, f in enumerate(self.inv_norm) if f]
        if norm:
            out.append(b"norm" + struct.pack("<Q", len(norm)))
            for i in norm:
                out.append(struct.pack("<I", i))
        return sha256(*out)


# ---------------------------------------------------------------- GF(2^8) in GF(2^128) (7.6)

def gf256_mul(a, b):
    """AES's field: x^8 + x^4 + x^3 + x + 1."""
    r = 0
    while b:
        if b & 1:
            r ^= a
        a <<= 1
        if a & 0x100:
            a ^= 0x11B
        b >>= 1
    return r


def gf256_inv(a):
    r = 1
    for _ in range(254):
        r = gf256_mul(r, a)
    return r


NORM_BASIS = (0x01, 0xE1, 0x5C, 0x0C)   # 3.1: ω^0 … ω^3, ω = 0x03^17


def gf256_pow(a, e):
    r = 1
    for _ in range(e):
        r = gf256_mul(r, a)
    return r


def embed(b):
    """7.6: the byte b in GF(2^128), Σ_j b_j β_j."""
    beta = gf256_basis()
    v = 0
    for j in range(8):
        if (b >> j) & 1:
            v ^= beta[j]
    return v


def gf_pow(a, e):
    r = 1
    while e:
        if e & 1:
            r = gf_mul(r, a)
        a = gf_mul(a, a)
        e >>= 1
    return r


def _basis():
    """7.6: theta is the first root of x^8 + x^4 + x^3 + x + 1 among z^0, z^1, ... with
    z = X^((2^128 - 1)/255); beta_j = theta^j."""
    z = gf_pow(2, MASK128 // 255)
    t = 1
    for _ in range(255):
        t2 = gf_mul(t, t)
        t4 = gf_mul(t2, t2)
        if gf_mul(t4, t4) ^ t4 ^ gf_mul(t2, t) ^ t ^ 1 == 0:
            break
        t = gf_mul(t, z)
    b = [1]
    for _ in range(7):
        b.append(gf_mul(b[-1], t))
    return b


_BETA = []


def gf256_basis():
    if not _BETA:
        _BETA.extend(_basis())
    return _BETA


def peg_circuit(inst):
    """3.9's peg statement: (builder, expected outputs y)."""
    s, t = inst.s, inst.t
    bld = Builder((s - 1) * t)
    y = []

    def out(w, expect):
        bld.outputs.append(w)
        y.append(expect)

    row = [const(b) for b in inst.f]
    for i in range(s - 1):
        sel = [i * t + j for j in range(t)]
        errs, parity = bld.one_hot_check(sel)
        for e in errs:
            out(e, 0)
        out(parity, 1)
        bad = C0
        for j, (t1, t2, t3) in enumerate(inst.triplets):
            ends = bld.xor(row[t1], row[t3])
            ok = bld.and_(row[t2], ends)
            bad = bld.xor(bad, bld.and_(sel[j], bld.not_(ok)))
        out(bad, 0)
        for j, tr in enumerate(inst.triplets):
            for v in tr:
                row[v] = bld.xor(row[v], sel[j])
    if inst.l is not None:
        for v in range(inst.n):
            out(bld.xor(row[v], const(inst.l[v])), 0)
    else:
        w = inst.n.bit_length()
        cnt = bld.popcount(row, w)
        for i in range(w):
            out(bld.xor(cnt[i], const((inst.c >> i) & 1)), 0)
    return bld, y


# ---------------------------------------------------------------- parameters (7.2, 7.9)

def check_params(tau, dbits, grind, t_open):
    if not (1 <= dbits <= 128 and 1 <= tau <= dbits and -(-dbits // tau) <= 16 and grind <= 16
            and t_open <= 250):
        raise Rejected("parameters (tau %d, D %d, w %d, T %d) outside the allowed ranges"
                       % (tau, dbits, grind, t_open))
    ks = [dbits // tau + (1 if i < dbits % tau else 0) for i in range(tau)]
    return ks


def attack_cost_bits(dbits, grind):
    """7.9: -log2 max(e1, e2, e3), the weakest of the three Fiat-Shamir phases per query: the
    consistency check (a 128-bit and a 16-bit hash, 2^-144), QuickSilver once over
    GF(2^128) (2^-128), Delta 3 * 2^(-D-w) (three roots at most, degree 3)."""
    return -max(-144, -128, math.log2(3) - dbits - grind)


# ---------------------------------------------------------------- proof bytes (7.7)

def parse_file(data, protocol_wanted=10, what="peg VOLE", login=False):
    """The container (1.4) and a bare VOLE `Proof` body (7.7) of protocol `protocol_wanted`.

    A command (1.4) rejects a recorded session (mode 1) before it looks at the protocol; a
    login (5.3, `login`) checks the protocol first and refuses mode 1 as bad input."""
    if len(data) < 21:
        raise Malformed("proof file shorter than its 21-byte header")
    if data[0:8] != MAGIC:
        raise Malformed("not a zkgames proof file (bad magic)")
    version, protocol, mode, body_len = struct.unpack("<HHBQ", data[8:21])
    if version != FORMAT_VERSION:
        raise Malformed("unsupported format version %d" % version)
    if not 1 <= protocol <= 16:
        raise Malformed("unknown protocol id %d" % protocol)
    if mode > 1:
        raise Malformed("unknown mode byte %d" % mode)
    if body_len > MAX_BODY:
        raise Malformed("body length %d exceeds the limit" % body_len)
    if len(data) != 21 + body_len:
        raise Malformed("file is %d bytes, header says %d" % (len(data), 21 + body_len))
    # 1.4 / 1.5: a recorded session (mode 1) is not evidence: rejected, whatever the protocol
    if mode != MODE_NONINTERACTIVE and not login:
        raise Rejected("a recorded interactive session (mode 1) is not a proof")
    if protocol != protocol_wanted:
        raise Malformed("protocol %d, this tool checks only %d (%s)"
                        % (protocol, protocol_wanted, what))
    if mode != MODE_NONINTERACTIVE:
        raise Malformed("a login proof must be non-interactive (mode 0), not a recorded session")
    r = Reader(data[21:])
    p = {}
    p["tau"], p["D"], p["w"], p["T"] = r.u32(), r.u32(), r.u32(), r.u32()
    p["salt"] = r.take(16)
    p["corrections"] = r.take(r.length())     # c_1 || ... || c_{tau-1}, one length (7.7)
    p["u_hash"] = r.take(18)           # u~ (16 bytes) || u~' (2 bytes)
    p["d"] = r.take(r.length())
    p["a1"] = r.take(16)               # A1~ (one combination, v9)
    p["a2"] = r.vec(lambda: r.take(16))  # A2~ at degree 3 (norm bytes, v10), else empty
    p["delta"] = r.take(16)            # Delta: chall3's first D bits, little-endian
    p["counter"] = struct.unpack("<I", r.take(4))[0]   # fixed width (7.7)
    p["seeds"] = r.vec(lambda: r.take(16))             # opened seeds, zero-padded to T
    p["coms"] = r.vec(lambda: r.take(32))              # tau hidden-leaf commitments
    r.done()
    return p


def packed_int(b, nbits, what):
    if len(b) != (nbits + 7) // 8:
        raise Rejected("%s has %d bytes, %d expected" % (what, len(b), (nbits + 7) // 8))
    x = int.from_bytes(b, "little")
    if x >> nbits:
        raise Rejected("%s has nonzero padding bits" % what)
    return x


# ---------------------------------------------------------------- verifier (7.3-7.8)

def first32(tr, label):
    return tr.challenge_stream(label).read(32)


def u64(x):
    return struct.pack("<Q", x)


def u32(x):
    return struct.pack("<I", x)


def blk(salt, i, t, s):
    """7.3: salt XOR (u32le(i) || u32le(t) || u32le(s) || 4 zero bytes)."""
    x = struct.pack("<IIII", i, t, s, 0)
    return bytes(a ^ b for a, b in zip(salt[:16], x))


def pad32(tag):
    """A tag zero-padded to 32 bytes: with the salt, one SHA-256 block (7.3)."""
    assert len(tag) <= 32
    return tag + bytes(32 - len(tag))


MAX_FIXING_OUTPUTS = 256                           # 7.4a


def inv_starts(bld):
    """7.6: where each inverted byte's committed bits start among all of theirs."""
    starts, at = [], 0
    for i in range(len(bld.inv_inputs)):
        starts.append(at)
        at += bld.inv_bits(i)
    return starts
MAX_FIXING_WIRES = 1 << 16                         # 7.4a


def fixed_positions(bld, n_and):
    """7.4a: the witness positions the outputs fix. Returns (fixed, row_of, eqs): fixed is
    the list, from the highest position down, of (pos, S) with S the equations whose sum
    reads pos and no other fixed position; row_of maps every free position to its committed
    row; eqs lists each equation's (output index, output wire)."""
    n_in = bld.n_in
    deg = bld.degrees()
    # an output of degree 2 (it reads a norm byte's bits) is no linear equation
    eqs = [(o, w) for o, w in enumerate(bld.outputs)
           if not is_const(w) and deg[w] == 1][:MAX_FIXING_OUTPUTS]
    if n_in + len(bld.gates) > MAX_FIXING_WIRES:
        eqs = []                                 # a large circuit fixes nothing
    r = len(eqs)
    starts = inv_starts(bld)
    n_pos = n_in + n_and + sum(bld.inv_bits(i) for i in range(len(bld.inv_inputs)))
    # a norm byte's committed bits are no wire: their column is the zero at the end of coef
    n_wires = n_in + len(bld.gates)
    wire_of = list(range(n_in)) + [n_wires] * (n_pos - n_in)
    t = 0
    for g, (op, a, b) in enumerate(bld.gates):
        if op == AND:
            wire_of[n_in + t] = n_in + g
            t += 1
        elif op == INV and not bld.is_norm(a):
            wire_of[n_in + n_and + starts[a] + b] = n_in + g
    # backwards: bit k of coef[w] is wire w's coefficient in equation k
    coef = [0] * (n_wires + 1)
    for k, (_, w) in enumerate(eqs):
        coef[w] ^= 1 << k
    for g in range(len(bld.gates) - 1, -1, -1):
        op, a, b = bld.gates[g]
        v = coef[n_in + g]
        if op == XOR:
            coef[a] ^= v
            coef[b] ^= v
        elif op == NOT:
            coef[a] ^= v
    # from the highest position down: fixed when its column is independent of the fixed ones'
    basis = {}                                   # leading equation -> column
    cols = []                                    # (pos, column)
    for p in range(n_pos - 1, -1, -1):
        if len(cols) == r:
            break
        v = coef[wire_of[p]]
        while v:
            lead = v.bit_length() - 1
            if lead in basis:
                v ^= basis[lead]
            else:
                basis[lead] = v
                cols.append((p, coef[wire_of[p]]))
                break
    # Gauss-Jordan over the equations restricted to the fixed columns
    rows = []
    for k in range(r):
        row = 0
        for j, (_, col) in enumerate(cols):
            if (col >> k) & 1:
                row |= 1 << j
        rows.append([row, 1 << k])
    used = [False] * r
    fixed = []
    for j in range(len(cols)):
        k = next(k for k in range(r) if not used[k] and (rows[k][0] >> j) & 1)
        prow, ptrack = rows[k]
        for i in range(r):
            if i != k and (rows[i][0] >> j) & 1:
                rows[i][0] ^= prow
                rows[i][1] ^= ptrack
        used[k] = True
        fixed.append(k)
    fixed = [(cols[j][0], [e for e in range(r) if (rows[k][1] >> e) & 1])
             for j, k in enumerate(fixed)]
    fixed_set = {f[0] for f in fixed}
    row_of = {}
    for q in range(n_pos):
        if q not in fixed_set:
            row_of[q] = len(row_of)
    return fixed, row_of, eqs


def verify(inst, data, security, context):
    p = parse_file(data, PROTOCOL_PEG_VOLE, "peg VOLE")
    bld, y = peg_circuit(inst)
    return verify_statement(p, APP_TAG, bld, inst.canonical_bytes(), y, security, context)


def verify_statement(p, tag, bld, public, y, security, context):
    """The VOLE verifier of 7.7 for a parsed proof `p` (parse_file) of the statement with
    application tag `tag`, circuit `bld` (a Builder with its outputs), public bytes `public`,
    expected outputs `y` (list of bits) and context bytes. Returns (tau, D, w); raises
    Rejected or Malformed."""
    if len(y) != len(bld.outputs):
        raise Malformed("%d expected outputs for a circuit of %d" % (len(y), len(bld.outputs)))
    n_in = bld.n_in
    ands = [g for g in bld.gates if g[0] == AND]
    n_and, n_out = len(ands), len(bld.outputs)
    n_inv = len(bld.inv_inputs)
    starts = inv_starts(bld)
    norm = any(bld.inv_norm)
    degree = 3 if norm else 2                 # 7.6: the check's degree
    deg = bld.degrees() if norm else None
    # 7.4a: ell counts the committed positions; the outputs fix the others
    # a property of the circuit alone: computed once per circuit (a batch of proofs of one
    # statement, --each, reuses it)
    cache = getattr(bld, "_fixed_positions", None)
    key = (len(bld.gates), tuple(bld.outputs))
    if cache is None or cache[0] != key:
        cache = (key, fixed_positions(bld, n_and))
        bld._fixed_positions = cache
    fixed, row_of, eqs = cache[1]
    n_pos = n_in + n_and + sum(bld.inv_bits(i) for i in range(n_inv))
    ell = n_pos - len(fixed)
    masks = 128 * (degree - 1)        # the QuickSilver mask rows (7.6)
    ellh = ell + masks + 144          # then the two hashes' masks (7.5)
    if len(p["a2"]) != degree - 2:
        raise Rejected("%d second-degree QuickSilver values, this statement needs %d"
                       % (len(p["a2"]), degree - 2))
    tau, dbits, grind, t_open = p["tau"], p["D"], p["w"], p["T"]
    # 1. parameters
    ks = check_params(tau, dbits, grind, t_open)
    if attack_cost_bits(dbits, grind) < security:
        raise Rejected("parameters give %.2f bits, %d asked" % (attack_cost_bits(dbits, grind), security))
    offsets = [sum(ks[:i]) for i in range(tau)]
    # 2. Delta as sent (7.7): D bits, the rest zero; the hidden leaves
    delta = int.from_bytes(p["delta"], "little")
    if delta >> dbits:
        raise Rejected("Delta has bits set past its %d bits" % dbits)
    hidden = [(delta >> offsets[i]) & ((1 << ks[i]) - 1) for i in range(tau)]
    tr = Transcript(VOLE_LABEL)
    tr.append(b"tag", tag)
    tr.append(b"circuit", bld.digest())
    tr.append(b"public", public)
    tr.append(b"output", pack_bits(y))
    tr.append(b"context", context)
    tr.append(b"tau", u64(tau))
    tr.append(b"delta bits", u64(dbits))
    tr.append(b"grind", u64(grind))
    tr.append(b"open", u64(t_open))
    tr.append(b"salt", p["salt"])
    # 7.3: one tree; repetition i's leaf j is tree leaf lam(i, j), node L + lam(i, j)
    q, r_big = dbits // tau, dbits % tau
    n_tree = (tau + r_big) << q

    def leaf_node(i, j):
        if j < (1 << q):
            return n_tree + tau * j + i
        return n_tree + tau * (1 << q) + r_big * (j - (1 << q)) + i

    marked = set()
    for i in range(tau):
        c = leaf_node(i, hidden[i])
        while c >= 1 and c not in marked:
            marked.add(c)
            c //= 2
    # every node with exactly one marked child opens the other, the highest parent first
    opened = []
    for c in range(n_tree - 1, 0, -1):
        left, right = 2 * c in marked, 2 * c + 1 in marked
        if left != right:
            opened.append(2 * c + 1 if left else 2 * c)
    if t_open and len(opened) > t_open:
        raise Rejected("the challenge opens %d seeds, more than the bound %d: not a valid "
                       "challenge" % (len(opened), t_open))
    # 3. lengths
    cb = (ellh + 7) // 8
    if len(p["corrections"]) != (tau - 1) * cb:
        raise Rejected("the corrections have %d bytes, %d expected"
                       % (len(p["corrections"]), (tau - 1) * cb))
    corr = [packed_int(p["corrections"][cb * i:cb * i + cb], ellh, "a correction")
            for i in range(tau - 1)]
    d = packed_int(p["d"], ell, "the masked witness")
    want = t_open if t_open else len(opened)
    if len(p["seeds"]) != want or len(p["coms"]) != tau:
        raise Rejected("%d seeds and %d commitments, %d and %d expected"
                       % (len(p["seeds"]), len(p["coms"]), want, tau))
    if any(sd != bytes(16) for sd in p["seeds"][len(opened):]):
        raise Rejected("a padding seed is not zero")
    for o, w in enumerate(bld.outputs):
        if is_const(w) and const_bit(w) != y[o]:
            raise Rejected("a constant output differs from the statement")
    # 4. trees
    salt = p["salt"]
    nbytes = (ellh + 7) // 8
    nodes = dict(zip(opened, p["seeds"]))
    # derive top-down: node(c) = AES-128_{node(c/2)}(blk(0, c, 0)) (7.3)
    for c in range(1, n_tree):
        if c in nodes:
            kids = aes128_py.ctr(nodes[c], [blk(salt, 0, 2 * c, 0), blk(salt, 0, 2 * c + 1, 0)])
            nodes[2 * c], nodes[2 * c + 1] = kids[:16], kids[16:]
    # every opened leaf under one key expansion (7.3, v11): its commitment
    # com_{i,j} = AES-128_{sd}(blk(i, j, 2)) || AES-128_{sd}(blk(i, j, 3)), then r_{i,j}, the
    # first ℓ̂ bits of AES-128_{sd}(blk(i, t, 1)), t = 0, 1, …
    nblocks = (ellh + 127) // 128
    coms = []
    leaves = []        # per repetition: {j: r_{i,j}}
    for i in range(tau):
        ctrs = [blk(salt, i, t, 1) for t in range(nblocks)]
        rs = {}
        for j in range(1 << ks[i]):
            if j == hidden[i]:
                coms.append(p["coms"][i])
                continue
            com_blocks = [blk(salt, i, j, 2), blk(salt, i, j, 3)]
            out = aes128_py.ctr(nodes[leaf_node(i, j)], com_blocks + ctrs)
            coms.append(out[:32])
            rs[j] = int.from_bytes(out[32:], "little") & ((1 << ellh) - 1)
        leaves.append(rs)
    # h_com as an honest prover sent it (7.7: recomputed, not sent), then chall1
    tr.append(b"h_com", sha256(b"zkg:vole:vc:v1", *coms))
    tr.append(b"corrections", p["corrections"])
    chall1 = first32(tr, b"vole chall1")
    # 5. q columns (7.4)
    cols = []
    for i in range(tau):
        js = hidden[i]
        for b in range(ks[i]):
            q = 0
            for j, r in leaves[i].items():
                if ((j ^ js) >> b) & 1:
                    q ^= r
            if i >= 1 and (js >> b) & 1:
                q ^= corr[i - 1]
            cols.append(q)
    # consistency check (7.5): two universal hashes, keys r and r' from one chall1 stream;
    # both hash [0, body), body = ell + masks (the witness and QuickSilver's mask rows);
    # H_0 has 128 bits and its mask at [body, body+128), H_1 is truncated to its low 16
    # bits and has its mask at [body+128, body+144)
    body = ell + masks
    m = -(-body // 128)
    rr = field_stream(chall1, 2 * m)
    low_mask = (1 << body) - 1
    widths = (128, SHORT_HASH_BITS)

    def uhash(x, k):
        xl = x & low_mask
        acc = 0
        for j in range(m):
            acc ^= gf_mul(rr[k * m + j], (xl >> (128 * j)) & MASK128)
        wk = (1 << widths[k]) - 1
        return (acc & wk) ^ ((x >> (body + 128 * k)) & wk)

    ut = [int.from_bytes(p["u_hash"][:16], "little"), int.from_bytes(p["u_hash"][16:], "little")]
    parts = [b"zkg:vole:vhash:v11"]
    for c in range(dbits):
        for k in range(2):
            h = uhash(cols[c], k) ^ (ut[k] if (delta >> c) & 1 else 0)
            parts.append(h.to_bytes(widths[k] // 8, "little"))
    tr.append(b"u hash", p["u_hash"])
    tr.append(b"v hash", sha256(*parts))
    tr.append(b"masked witness", p["d"])
    chall2 = first32(tr, b"vole chall2")
    # QuickSilver (7.6)

    def qpos(pos):
        v = 0
        for c in range(dbits):
            v |= ((cols[c] >> pos) & 1) << c
        return v

    # one combination (v9): chi is the first n_and + n_out + n_inv elements of the chall2
    # stream; its mask is positions [ell, ell + 128)
    n_rel = n_and + n_out + n_inv
    chis = field_stream(chall2, n_rel)
    # every position's key: a committed one's from its row; a fixed one's (7.4a) the sum
    # over its equations of (the output's key with every fixed key zero + y·Δ)
    pkey = {pp: qpos(r) ^ (delta if (d >> r) & 1 else 0) for pp, r in row_of.items()}

    d2 = gf_mul(delta, delta)
    d3 = gf_mul(d2, delta)

    def lifted(wk, w, to):
        """Wire w's key as a key of degree `to` (7.6: times Delta per degree it lacks)."""
        k = wk[w]
        for _ in range((deg[w] if deg else 1), to):
            k = gf_mul(k, delta)
        return k

    # lam[bb][aa] = (2^aa)^16 · ω^bb: bit b of it says whether x_aa enters bit b of x^16 · ω^bb
    lam = [[gf256_mul(gf256_pow(1 << aa, 16), NORM_BASIS[bb]) for aa in range(8)]
           for bb in range(4)]
    e16 = [embed(gf256_pow(1 << j, 16)) for j in range(8)]
    eom = [embed(NORM_BASIS[bb]) for bb in range(4)]

    def wire_keys():
        """Every wire's key from the positions' (pkey): XOR adds (the lower degree lifted),
        NOT adds Δ (Δ² at degree 2); a norm byte's bit j is Σ_b K_{n_b} K_{λ_jb(x)} (7.6)."""
        wk = [pkey[pp] for pp in range(n_in)]
        t = 0
        for g, (op, a, b) in enumerate(bld.gates):
            w = n_in + g
            if op == XOR:
                if deg and deg[a] != deg[b]:
                    wk.append(lifted(wk, a, 2) ^ lifted(wk, b, 2))
                else:
                    wk.append(wk[a] ^ wk[b])
            elif op == NOT:
                wk.append(wk[a] ^ (d2 if deg and deg[a] == 2 else delta))
            elif op == INV and bld.is_norm(a):
                ins = bld.inv_inputs[a]
                k = 0
                for bb in range(4):
                    kn = pkey[n_in + n_and + starts[a] + bb]
                    # λ: the bits of x whose sum is bit b of x^16 · ω^bb
                    kl = 0
                    for aa in range(8):
                        if (lam[bb][aa] >> b) & 1:
                            kl ^= wk[ins[aa]]
                    k ^= gf_mul(kn, kl)
                wk.append(k)
            elif op == INV:
                wk.append(pkey[n_in + n_and + starts[a] + b])
            else:
                wk.append(pkey[n_in + t])
                t += 1
            assert len(wk) == w + 1
        return wk

    if fixed:
        for pos, _ in fixed:
            pkey[pos] = 0
        wk = wire_keys()             # the equations read degree-1 wires only (7.4a)
        eq = [wk[w] ^ (delta if y[o] else 0) for o, w in eqs]
        for pos, S in fixed:
            k = 0
            for e in S:
                k ^= eq[e]
            pkey[pos] = k
    keys = wire_keys()
    s_kk = 0
    s_kc = 0
    t = 0
    for g, (op, a, b) in enumerate(bld.gates):
        if op == AND:
            kc = keys[n_in + g]
            kk = gf_mul(keys[a], keys[b])
            s_kk ^= gf_mul(chis[t], kk)
            s_kc ^= gf_mul(chis[t], kc)
            t += 1
    # an output of degree 1: chi (K_w + y Δ), multiplied by Δ below; of degree 2 (7.6):
    # chi (K_w + y Δ²) as it stands; degree-3 relations in s_three
    s_two = s_three = 0
    for o, w in enumerate(bld.outputs):
        if is_const(w):
            continue
        if deg and deg[w] == 2:
            s_two ^= gf_mul(chis[n_and + o], keys[w] ^ (d2 if y[o] else 0))
        else:
            s_kc ^= gf_mul(chis[n_and + o], keys[w] ^ (delta if y[o] else 0))
    # inverted bytes (7.6): chi (K_x K_y) and chi Δ·Δ, K_x = Σ β_j K_{x_j}; at degree 3 a
    # norm byte's chi (K_n K_{x^16} K_x - Δ³) and a full byte of degree-2 input's
    # chi (K_x K_y - Δ³)
    beta = gf256_basis() if n_inv else []
    for i, ins in enumerate(bld.inv_inputs):
        ch = chis[n_and + n_out + i]
        kx = 0
        if bld.is_norm(i):
            kn = k16 = 0
            for j in range(8):
                kx ^= gf_mul(beta[j], keys[ins[j]])
                k16 ^= gf_mul(e16[j], keys[ins[j]])
            for bb in range(4):
                kn ^= gf_mul(eom[bb], pkey[n_in + n_and + starts[i] + bb])
            s_three ^= gf_mul(ch, gf_mul(gf_mul(kn, k16), kx) ^ d3)
            continue
        ky = 0
        for j in range(8):
            ky ^= gf_mul(beta[j], pkey[n_in + n_and + starts[i] + j])
        if deg and any(deg[w] == 2 for w in ins):
            for j in range(8):
                kx ^= gf_mul(beta[j], lifted(keys, ins[j], 2))
            s_three ^= gf_mul(ch, gf_mul(kx, ky) ^ d3)
            continue
        for j in range(8):
            kx ^= gf_mul(beta[j], keys[ins[j]])
        s_kk ^= gf_mul(ch, gf_mul(kx, ky))
        s_kc ^= gf_mul(ch, delta)
    # A0~ = L + A1~ Delta (+ A2~ Delta² at degree 3): what an honest prover sent (7.7); the
    # mask is q_A (degree 2) or q_A Δ + q_B (degree 3), rows A = [ell, ell+128), B = the next
    def mask_key(at):
        v = 0
        for j in range(128):
            v ^= gf_mul(qpos(at + j), 1 << j)
        return v
    two = s_kk ^ gf_mul(delta, s_kc) ^ s_two
    if degree == 2:
        lhs = two ^ mask_key(ell)
    else:
        lhs = gf_mul(two, delta) ^ s_three ^ gf_mul(mask_key(ell), delta) ^ mask_key(ell + 128)
    a1 = int.from_bytes(p["a1"], "little")
    a0 = lhs ^ gf_mul(a1, delta)
    if degree == 3:
        a0 ^= gf_mul(int.from_bytes(p["a2"][0], "little"), d2)
    tr.append(b"a0", a0.to_bytes(16, "little"))
    tr.append(b"a1", p["a1"])
    if degree == 3:
        tr.append(b"a2", p["a2"][0])
    # 7.8: one SHA-256 block (the padded tag, the transcript's challenge), then the counter;
    # valid if its w grinding bits are zero, and it must give the proof's Delta (the bound
    # on the opening was checked above, for this Delta)
    chall3 = int.from_bytes(sha256(pad32(b"zkg:vole:chall3:v11"), first32(tr, b"vole chall3"),
                                   u32(p["counter"])), "little")
    if (chall3 >> dbits) & ((1 << grind) - 1) or chall3 & ((1 << dbits) - 1) != delta:
        raise Rejected("the recomputed transcript does not hash to the proof's challenge "
                       "(the Fiat-Shamir check failed)")
    return tau, dbits, grind


# ---------------------------------------------------------------- self test, CLI

def self_test():
    # RFC 8439 2.3.2: key 00..1f, counter 1, nonce 00000009 0000004a 00000000
    key = bytes(range(32))
    blk = chacha20_block(key, (1,), struct.unpack("<3I", bytes.fromhex("000000090000004a00000000")))
    want = bytes.fromhex(
        "10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e"
        "d2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e")
    assert blk == want, "ChaCha20 block differs from RFC 8439 2.3.2"
    # RFC 8439 A.1 test vector 1: all-zero key and nonce, counter 0
    z = chacha20_stream(bytes(32), 64)
    assert z[:16] == bytes.fromhex("76b8e0ada0f13d90405d6ae55386bd28"), "ChaCha20 zero vector"
    # ChaCha12, all-zero 256-bit key and IV (draft-strombergson-chacha-test-vectors, TC1)
    z = chacha20_stream(bytes(32), 32, 6)
    assert z == bytes.fromhex(
        "9bf49a6a0755f953811fce125f2683d50429c3bb49e074147e0089a52eae155f"), "ChaCha12 vector"
    import random
    rnd = random.Random(1)
    for nbytes in (1, 64, 113, 200):
        keys = [bytes(rnd.getrandbits(8) for _ in range(32)) for _ in range(7)] + [bytes(32)]
        assert chacha20_many(keys, nbytes) == [chacha20_stream(k, nbytes) for k in keys], \
            "the many-block ChaCha20 differs from the one-block one"
        assert chacha20_many(keys, nbytes, 6) == [chacha20_stream(k, nbytes, 6) for k in keys], \
            "the many-block ChaCha12 differs from the one-block one"
    for _ in range(200):
        a, b = rnd.getrandbits(128), rnd.getrandbits(128)
        assert gf_mul(a, b) == gf_mul_reference(a, b) == gf_mul(b, a)
    assert gf_mul(1 << 127, 2) == 0x87
    aes128_py.self_test()
    print("self-test passed: ChaCha20 (RFC 8439), ChaCha12, AES-128 (FIPS 197), GF(2^128) against the reference")
    return 0


class ArgParser(argparse.ArgumentParser):
    def error(self, message):
        sys.stderr.write("usage error: %s\n" % message)
        sys.exit(2)


def main(argv):
    if argv == ["--self-test"]:
        return self_test()
    ap = ArgParser(description="Independent verifier for zkgames peg VOLE-in-the-head proofs "
                               "(protocol 10, mode 0).")
    ap.add_argument("instance", help="puzzle file (raw instance or board)")
    ap.add_argument("proof", help="proof file")
    ap.add_argument("--security", type=int, default=128, help="required bits (1..256)")
    ap.add_argument("--context", default="", help="context string the proof is bound to")
    args = ap.parse_args(argv)
    try:
        if not 1 <= args.security <= 256:
            raise Malformed("--security must be in [1, 256]")
        context = args.context.encode("utf-8", "surrogateescape")
        if len(context) > MAX_CONTEXT:
            raise Malformed("--context longer than 4096 bytes")
        try:
            with open(args.instance, "rb") as fh:
                raw = fh.read(MAX_PUZZLE_FILE + 1)
            if len(raw) > MAX_PUZZLE_FILE:
                raise Malformed("%s: larger than the %d-byte limit"
                                % (excerpt(args.instance, 200), MAX_PUZZLE_FILE))
            text = raw.decode("utf-8")
            with open(args.proof, "rb") as fh:
                data = fh.read(MAX_BODY + 22)
        except (OSError, UnicodeDecodeError) as e:
            raise Malformed("cannot read input: %s" % excerpt(e, 200))
        inst = parse_puzzle(text)
        tau, dbits, grind = verify(inst, data, args.security, context)
    except Malformed as e:
        print("MALFORMED: %s" % e)
        return 2
    except Rejected as e:
        print("REJECTED: %s" % e)
        return 1
    except Exception as e:  # never a traceback: anything unexpected is bad input
        print("MALFORMED: unexpected error: %s: %s" % (type(e).__name__, excerpt(e, 200)))
        return 2
    print("ACCEPTED: VOLE-in-the-head, tau = %d, D = %d, w = %d, %.2f bits (S = %d)"
          % (tau, dbits, grind, attack_cost_bits(dbits, grind), inst.s))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
