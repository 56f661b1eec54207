#!/usr/bin/env python3
"""Independent verifier for zkgames non-interactive peg solitaire isomorphism proofs.

Written from docs/PROTOCOLS.md (sections 1.1-1.4, 2.1-2.3) and the file formats of
docs/GUIDE.md (then in the README) alone, without reading the Rust sources. Standard library only.

usage: python3 tools/verify_peg_iso.py PUZZLE PROOF [--security BITS] [--context STR]

PUZZLE is a raw instance (N, t, f, l | pegs lines) or a board puzzle file (geometry, start,
finish | finish-pegs), at most 1 MiB, as the Rust tools read them (PROTOCOLS.md 2.1).

Exit status: 0 accepted, 1 rejected, 2 malformed input (instance, proof file or arguments).
"""

import argparse
import hashlib
import struct
import re
import sys
import unicodedata

MAGIC = b"ZKGAMES\x00"
FORMAT_VERSION = 1
PROTOCOL_PEG_ISO = 1
MODE_NONINTERACTIVE = 0
MAX_BODY = 64 * 1024 * 1024
MAX_PUZZLE_FILE = 1 << 20
MAX_N = 1 << 14
MAX_T = 1 << 17
MAX_BOARD_DIM = 1024
MAX_CONTEXT = 4096
MAX_ROUNDS = 1 << 20
U32_MAX = (1 << 32) - 1
U64_MAX = (1 << 64) - 1

TAG_TRIPLET = b"zkg:peg:t:"
TAG_ROW = b"zkg:peg:z:"
TRANSCRIPT_DOMAIN = b"zkgames/transcript/v1"
PROTOCOL_LABEL = b"zkgames/peg-iso"
XOF_TAG = b"zkg:xof:"


# Rust's char::is_whitespace (Unicode White_Space), which the Rust parsers trim; Python's
# str.isspace also counts U+001C..U+001F.
WHITESPACE = ("\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
              "\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000")


def excerpt(s, n=40):
    """At most n characters of user input, for error messages."""
    s = str(s)
    out = s[:n].encode("unicode_escape").decode("ascii")
    return out + ("... (%d characters)" % len(s) if len(s) > n else "")


def text_lines(text):
    """Lines as the Rust tools see them: split on LF, one trailing CR removed."""
    parts = text.split("\n")
    if parts and parts[-1] == "":
        parts.pop()
    return [p[:-1] if p.endswith("\r") else p for p in parts]


class Malformed(Exception):
    """Bad input: exit 2."""


class Rejected(Exception):
    """A well-formed proof that does not verify: exit 1."""


def sha256(*parts):
    h = hashlib.sha256()
    for p in parts:
        h.update(p)
    return h.digest()


# ---------------------------------------------------------------- instance (2.1, GUIDE)

class Instance:
    def __init__(self, n, triplets, f, goal_l, goal_c):
        self.n = n
        self.triplets = triplets          # list of (a, b, c), 0-based
        self.t = len(triplets)
        self.f = f                        # list of 0/1, length n
        self.l = goal_l                   # list of 0/1 or None
        self.c = goal_c                   # int or None
        pegs_f = sum(f)
        if goal_l is not None:
            self.s = 1 + pegs_f - sum(goal_l)
        else:
            self.s = 1 + pegs_f - goal_c
        self.row_bytes = (n + 7) // 8

    def canonical_bytes(self):
        out = [b"peg-instance-v1", struct.pack("<II", self.n, self.t)]
        for tr in self.triplets:
            out.append(struct.pack("<III", *tr))
        out.append(pack_bits(self.f))
        if self.l is not None:
            out.append(b"\x00" + pack_bits(self.l))
        else:
            out.append(b"\x01" + struct.pack("<I", self.c))
        return b"".join(out)


def pack_bits(bits):
    out = bytearray((len(bits) + 7) // 8)
    for k, b in enumerate(bits):
        if b:
            out[k >> 3] |= 1 << (k & 7)
    return bytes(out)


def parse_bits(tokens, n, what, lineno):
    s = "".join(tokens).replace(",", "")
    if len(s) != n or any(ch not in "01" for ch in s):
        raise Malformed("instance line %d: %s needs %d bits 0/1" % (lineno, what, n))
    return [1 if ch == "1" else 0 for ch in s]


def parse_int(tok, lineno):
    if not (tok.isascii() and tok.isdigit()):
        raise Malformed("instance line %d: '%s' is not a non-negative integer"
                        % (lineno, excerpt(tok)))
    return int(tok)


def parse_instance(text):
    n = None
    raw_triplets = []
    f = None
    l = None
    c = None
    for lineno, line in enumerate(text_lines(text), 1):
        line = line.split("#", 1)[0].strip(WHITESPACE)
        if not line:
            continue
        toks = line.split()
        key, rest = toks[0], toks[1:]
        if key == "N":
            if n is not None or len(rest) != 1:
                raise Malformed("instance line %d: one `N count` line expected" % lineno)
            n = parse_int(rest[0], lineno)
            if n < 1 or n > MAX_N:
                raise Malformed("instance line %d: N out of [1, %d]" % (lineno, MAX_N))
        elif key == "t":
            if len(rest) != 3:
                raise Malformed("instance line %d: a triplet has three vertices" % lineno)
            if len(raw_triplets) >= MAX_T:
                raise Malformed("instance line %d: more than %d triplets" % (lineno, MAX_T))
            raw_triplets.append((tuple(parse_int(x, lineno) for x in rest), lineno))
        elif key in ("f", "l"):
            if n is None:
                raise Malformed("instance line %d: `N` must come first" % lineno)
            bits = parse_bits(rest, n, key, lineno)
            if key == "f":
                if f is not None:
                    raise Malformed("instance line %d: duplicate f" % lineno)
                f = bits
            else:
                if l is not None or c is not None:
                    raise Malformed("instance line %d: duplicate goal" % lineno)
                l = bits
        elif key == "pegs":
            if len(rest) != 1 or l is not None or c is not None:
                raise Malformed("instance line %d: one goal (`l` or `pegs K`) expected" % lineno)
            c = parse_int(rest[0], lineno)
            if c > U32_MAX:
                raise Malformed("instance line %d: peg count out of range" % lineno)
        else:
            raise Malformed("instance line %d: unknown line '%s'" % (lineno, excerpt(key)))
    if n is None or f is None or (l is None and c is None):
        raise Malformed("instance: needs N, f and l (or pegs)")
    return make_instance(n, raw_triplets, f, l, c)


def make_instance(n, raw_triplets, f, l, c):
    """Checks Definition 4 and the limits of PROTOCOLS.md 2.1; triplets are 1-based here."""
    if not 1 <= len(raw_triplets) <= MAX_T:
        raise Malformed("instance: T = %d outside [1, %d]" % (len(raw_triplets), MAX_T))
    triplets = []
    seen = set()
    for (a, b, cc), lineno in raw_triplets:
        for v in (a, b, cc):
            if v < 1 or v > n:
                raise Malformed("instance line %d: vertex %d outside [1, %d]" % (lineno, v, n))
        if len({a, b, cc}) != 3:
            raise Malformed("instance line %d: triplet vertices must be distinct" % lineno)
        key = frozenset((a, b, cc))
        if key in seen:
            raise Malformed("instance line %d: two triplets with the same set" % lineno)
        seen.add(key)
        triplets.append((a - 1, b - 1, cc - 1))
    if (sum(l) if l is not None else c) == 0:
        raise Malformed("instance: the goal leaves no peg, which no solution can reach")
    inst = Instance(n, triplets, f, l, c)
    if inst.s < 2:
        raise Malformed("instance: S = 1 + |f| - |l| must be at least 2 (got %d)" % inst.s)
    return inst


# ---------------------------------------------------------------- board files (2.1)

DIRECTIONS = {
    "square": [(0, 1), (1, 0)],
    "square-diagonal": [(0, 1), (1, 0), (1, 1), (1, -1)],
    "triangle": [(0, 2), (1, -1), (1, 1)],
}


def key_line(line):
    """(key, value) when the line is `key: value` with a key of a-z and '-', else None."""
    if ":" not in line:
        return None
    k, v = line.split(":", 1)
    k = k.strip(WHITESPACE)
    if k and all(ch == "-" or "a" <= ch <= "z" for ch in k):
        return k, v.strip(WHITESPACE)
    return None


def parse_block(rows, geometry, what):
    """Holes (y, x, peg) of one board, normalised to min y = min x = 0, in reading order."""
    if not rows:
        raise Malformed("the %s board has no rows" % what)
    if len(rows) > MAX_BOARD_DIM:
        raise Malformed("the %s board has more than %d rows" % (what, MAX_BOARD_DIM))
    indent = None
    for lineno, r in rows:
        if "\t" in r:
            raise Malformed("line %d: tabs are not allowed in boards" % lineno)
        if len(r) > MAX_BOARD_DIM:
            raise Malformed("line %d: board row longer than %d characters" % (lineno, MAX_BOARD_DIM))
        lead = len(r) - len(r.lstrip(" "))
        indent = lead if indent is None else min(indent, lead)
    rows = [(lineno, r[indent:]) for lineno, r in rows]
    spaced = geometry != "triangle" and all(
        all(ch == " " for ch in r[1::2]) for _, r in rows)
    holes = []
    for y, (lineno, r) in enumerate(rows):
        for pos, ch in enumerate(r):
            if ch in "oO":
                peg = 1
            elif ch == ".":
                peg = 0
            elif ch in " _":
                continue
            else:
                raise Malformed("line %d: unexpected character '%s' in a board"
                                % (lineno, excerpt(ch)))
            holes.append((y, pos // 2 if spaced else pos, peg))
    if not holes:
        raise Malformed("the %s board has no holes" % what)
    miny = min(h[0] for h in holes)
    minx = min(h[1] for h in holes)
    holes = sorted((y - miny, x - minx, p) for y, x, p in holes)
    if geometry == "triangle":
        parity = (holes[0][0] + holes[0][1]) & 1
        if any((y + x) & 1 != parity for y, x, _ in holes):
            raise Malformed("the %s board: a hole is off the triangular lattice" % what)
    return holes


def parse_board(text):
    geometry = None
    name = None
    start = None
    finish = None
    finish_pegs = None
    pagodas = []
    block = None
    for lineno, raw in enumerate(text_lines(text), 1):
        line = raw.split("#", 1)[0].rstrip(WHITESPACE)
        if not line.strip(WHITESPACE):
            continue
        kv = key_line(line)
        if kv is not None:
            key, value = kv
            block = None
            if key == "name":
                if name is not None:
                    raise Malformed("line %d: 'name' given twice" % lineno)
                if (not value or len(value.encode("utf-8")) > 100
                        or any(unicodedata.category(ch) == "Cc" for ch in value)):
                    raise Malformed("line %d: a name is 1 to 100 printable characters" % lineno)
                name = value
            elif key == "geometry":
                if geometry is not None:
                    raise Malformed("line %d: 'geometry' given twice" % lineno)
                if value not in DIRECTIONS:
                    raise Malformed("line %d: unknown geometry '%s'" % (lineno, excerpt(value)))
                geometry = value
            elif key in ("start", "finish"):
                if value:
                    raise Malformed("line %d: the %s board goes on the lines after it" % (lineno, key))
                if (start if key == "start" else finish) is not None:
                    raise Malformed("line %d: '%s' given twice" % (lineno, key))
                if key == "start":
                    start = []
                    block = start
                else:
                    finish = []
                    block = finish
            elif key == "pagoda":
                if len(pagodas) == 16:
                    raise Malformed("line %d: at most 16 'pagoda:' lines" % lineno)
                pagodas.append((lineno, value))
            elif key == "finish-pegs":
                if finish_pegs is not None:
                    raise Malformed("line %d: 'finish-pegs' given twice" % lineno)
                if not (value.isascii() and value.isdigit()):
                    raise Malformed("line %d: finish-pegs must be a number" % lineno)
                finish_pegs = int(value)
            else:
                raise Malformed("line %d: unknown key '%s'" % (lineno, excerpt(key)))
            continue
        if block is None:
            raise Malformed("line %d: expected 'key: value' or a board row" % lineno)
        block.append((lineno, line))
    if geometry is None:
        raise Malformed("missing 'geometry:' line")
    if start is None:
        raise Malformed("missing 'start:' board")
    holes = parse_block(start, geometry, "start")
    if len(holes) > MAX_N:
        raise Malformed("the board has more than %d holes" % MAX_N)
    cells = [(y, x) for y, x, _ in holes]
    f = [p for _, _, p in holes]
    if finish is not None and finish_pegs is not None:
        raise Malformed("give either a 'finish:' board or 'finish-pegs:', not both")
    if finish is None and finish_pegs is None:
        raise Malformed("missing 'finish:' board or 'finish-pegs:' line")
    l = c = None
    if finish is not None:
        fh = parse_block(finish, geometry, "finish")
        if [(y, x) for y, x, _ in fh] != cells:
            raise Malformed("the finish board does not have the same holes as the start board")
        l = [p for _, _, p in fh]
    else:
        c = finish_pegs
    index = {cell: k for k, cell in enumerate(cells)}
    raw_triplets = []
    for a, (y, x) in enumerate(cells):
        for dy, dx in DIRECTIONS[geometry]:
            b = index.get((y + dy, x + dx))
            cc = index.get((y + 2 * dy, x + 2 * dx))
            if b is not None and cc is not None:
                raw_triplets.append(((a + 1, b + 1, cc + 1), 0))
    if not raw_triplets:
        raise Malformed("the board has no line of three adjacent holes")
    # pagoda lines: checked as the prover checks them, then not used (they only prune its
    # count of solvable positions; the instance does not depend on them)
    for lineno, value in pagodas:
        w = []
        for t in value.split():
            if len(w) == len(cells):
                raise Malformed("line %d: a pagoda line has one weight per hole" % lineno)
            if not re.fullmatch(r"[+-]?[0-9]+", t):
                raise Malformed("line %d: a pagoda weight is a whole number" % lineno)
            if abs(int(t)) > 255:
                raise Malformed("line %d: a pagoda weight is between -255 and 255" % lineno)
            w.append(int(t))
        if len(w) != len(cells):
            raise Malformed("line %d: a pagoda line has one weight per hole" % lineno)
        for (a, b, cc), _ in raw_triplets:
            for x, y, z in ((a, b, cc), (cc, b, a)):
                if w[x - 1] + w[y - 1] < w[z - 1]:
                    raise Malformed("line %d: not a pagoda function" % lineno)
    return make_instance(len(cells), raw_triplets, f, l, c)


def parse_puzzle(text):
    """A board file when the first meaningful line is `key: value`, else a raw instance."""
    if text.startswith("\ufeff"):
        text = text[1:]
    for line in text_lines(text):
        line = line.split("#", 1)[0].strip(WHITESPACE)
        if line:
            return parse_board(text) if key_line(line) is not None else parse_instance(text)
    raise Malformed("empty puzzle file")


# ---------------------------------------------------------------- bincode reader (1.4)

class Reader:
    def __init__(self, data):
        self.data = data
        self.pos = 0

    def take(self, k):
        if k < 0 or self.pos + k > len(self.data):
            raise Malformed("body truncated at byte %d" % self.pos)
        out = self.data[self.pos:self.pos + k]
        self.pos += k
        return out

    def u8(self):
        return self.take(1)[0]

    def varint(self, limit):
        at = self.pos
        b = self.u8()
        if b < 251:
            v = b
        elif b == 251:
            v = struct.unpack("<H", self.take(2))[0]
        elif b == 252:
            v = struct.unpack("<I", self.take(4))[0]
        elif b == 253:
            v = struct.unpack("<Q", self.take(8))[0]
        else:
            raise Malformed("invalid varint marker %d at byte %d" % (b, at))
        # one encoding per value: the shortest (1.4)
        if (b == 251 and v < 251) or (b == 252 and v < 1 << 16) or (b == 253 and v < 1 << 32):
            raise Malformed("non-canonical varint at byte %d (%d written with marker %d)"
                            % (at, v, b))
        if v > limit:
            raise Malformed("integer %d too large at byte %d" % (v, self.pos))
        return v

    def u32(self):
        return self.varint(U32_MAX)

    def length(self):
        return self.varint(U64_MAX)

    def boolean(self):
        b = self.u8()
        if b > 1:
            raise Malformed("invalid bool %d at byte %d" % (b, self.pos - 1))
        return b == 1

    def bytes32(self):
        return self.take(32)

    def vec(self, elem, max_len=None):
        k = self.length()
        if max_len is not None and k > max_len:
            raise Malformed("vector of %d elements exceeds %d at byte %d" % (k, max_len, self.pos))
        # every element takes at least one byte: refuse absurd lengths before looping
        if k > len(self.data) - self.pos:
            raise Malformed("vector length %d exceeds the remaining body" % k)
        return [elem() for _ in range(k)]

    def done(self):
        if self.pos != len(self.data):
            raise Malformed("%d trailing bytes in body" % (len(self.data) - self.pos))


def read_row_opening(r):
    key = r.bytes32()
    bits = bytes(r.vec(r.u8))
    return (key, bits)


def read_round(r):
    sigma = r.u32()
    variant = r.u32()
    if variant == 0:
        phi = r.vec(r.u32)
        chi = r.vec(r.u32)
        psi_swap = r.boolean()
        triplets = r.vec(lambda: (r.u32(), r.u32(), r.u32()))
        keys = r.vec(r.bytes32)
        first = read_row_opening(r)
        tag = r.u8()
        if tag == 0:
            last = None
        elif tag == 1:
            last = read_row_opening(r)
        else:
            raise Malformed("invalid Option tag %d at byte %d" % (tag, r.pos - 1))
        opening = ("iso", phi, chi, psi_swap, triplets, keys, first, last)
    elif variant == 1:
        gamma = r.u32()
        triplet = (r.u32(), r.u32(), r.u32())
        tkey = r.bytes32()
        before = read_row_opening(r)
        after = read_row_opening(r)
        opening = ("move", gamma, triplet, tkey, before, after)
    else:
        raise Malformed("invalid Opening variant %d at byte %d" % (variant, r.pos))
    path = r.vec(r.bytes32)
    return sigma, opening, path


def parse_proof(data):
    if len(data) < 21:
        raise Malformed("proof file shorter than its 21-byte header")
    if data[0:8] != MAGIC:
        raise Malformed("not a zkgames proof file (bad magic)")
    version, protocol, mode, body_len = struct.unpack("<HHBQ", data[8:21])
    if version != FORMAT_VERSION:
        raise Malformed("unsupported format version %d" % version)
    if protocol != PROTOCOL_PEG_ISO:
        raise Malformed("protocol id %d is not 1 (peg isomorphism)" % protocol)
    if mode != MODE_NONINTERACTIVE:
        raise Malformed("mode %d is not 0 (non-interactive)" % mode)
    if body_len > MAX_BODY:
        raise Malformed("body length %d exceeds 64 MiB" % body_len)
    if len(data) - 21 != body_len:
        raise Malformed("body length %d but %d bytes follow the header" % (body_len, len(data) - 21))
    r = Reader(data[21:])
    digest = r.bytes32()
    context = bytes(r.vec(r.u8, MAX_CONTEXT))
    nrounds = r.length()
    if nrounds < 1 or nrounds > MAX_ROUNDS:
        raise Malformed("round count %d outside [1, 2^20]" % nrounds)
    if nrounds > len(data):
        raise Malformed("round count %d exceeds the body" % nrounds)
    responses = [read_round(r) for _ in range(nrounds)]
    r.done()
    return digest, context, responses


# ---------------------------------------------------------------- Merkle (1.2)

def merkle_root_from_opening(n_leaves, known, path):
    """known: dict leaf index -> hash. Returns the root or raises Rejected."""
    nodes = dict(known)
    pos = 0
    n = n_leaves
    while n > 1:
        nxt = {}
        for i in sorted(nodes):
            if i >= n:
                raise Rejected("opened leaf index out of range")
            h = nodes[i]
            if n % 2 == 1 and i == n - 1:
                nxt[i >> 1] = h               # odd last node carried up
                continue
            sib = i ^ 1
            if sib in nodes:
                if i & 1 == 0:
                    nxt[i >> 1] = sha256(b"\x01", h, nodes[sib])
                continue
            if pos >= len(path):
                raise Rejected("Merkle opening too short")
            s = path[pos]
            pos += 1
            nxt[i >> 1] = sha256(b"\x01", h, s) if i & 1 == 0 else sha256(b"\x01", s, h)
        nodes = nxt
        n = (n + 1) // 2
    if pos != len(path):
        raise Rejected("Merkle opening has %d hashes left over" % (len(path) - pos))
    return nodes[0]


# ---------------------------------------------------------------- transcript (1.3)

def frame(label, msg):
    return struct.pack("<I", len(label)) + label + struct.pack("<Q", len(msg)) + msg


class Transcript:
    def __init__(self, protocol_label):
        self.h = hashlib.sha256(TRANSCRIPT_DOMAIN)
        self.append(b"protocol", protocol_label)

    def append(self, label, msg):
        self.h.update(frame(label, msg))

    def challenge_stream(self, label):
        c = self.h.copy()
        c.update(frame(b"challenge", label))
        return ChallengeStream(c.digest())


class ChallengeStream:
    def __init__(self, seed):
        self.seed = seed
        self.block = 0
        self.buf = b""

    def read(self, k):
        while len(self.buf) < k:
            self.buf += sha256(XOF_TAG, self.seed, struct.pack("<Q", self.block))
            self.block += 1
        out, self.buf = self.buf[:k], self.buf[k:]
        return out

    def uniform(self, n):
        zone = U64_MAX - ((1 << 64) % n)
        while True:
            x = struct.unpack("<Q", self.read(8))[0]
            if x <= zone:
                return x % n


# ---------------------------------------------------------------- round checks (2.2)

def commit(tag, key, value):
    return sha256(tag, key, value)


def triplet_bytes(tr):
    return struct.pack("<III", *tr)


def row_bits(bits, n):
    """Unpack a row opening; checks length and zero padding."""
    if len(bits) != (n + 7) // 8:
        raise Rejected("row has %d bytes, expected %d" % (len(bits), (n + 7) // 8))
    if n % 8 and bits[-1] >> (n % 8):
        raise Rejected("row has non-zero padding bits")
    return [(bits[k >> 3] >> (k & 7)) & 1 for k in range(n)]


def is_permutation(p, n):
    return len(p) == n and all(0 <= x < n for x in p) and len(set(p)) == n


def check_round(inst, sigma, opening, path):
    """Checks one round; returns the recomputed Merkle root."""
    n, t, s = inst.n, inst.t, inst.s
    if sigma < 1 or sigma > s:
        raise Rejected("sigma %d outside [1, %d]" % (sigma, s))
    leaves = {}
    if sigma == s:
        if opening[0] != "iso":
            raise Rejected("sigma = S needs an isomorphism opening")
        _, phi, chi, psi_swap, triplets, keys, first, last = opening
        if not is_permutation(phi, n):
            raise Rejected("phi is not a permutation of the %d vertices" % n)
        if not is_permutation(chi, t):
            raise Rejected("chi is not a permutation of the %d triplets" % t)
        if len(triplets) != t or len(keys) != t:
            raise Rejected("expected %d triplets and keys" % t)
        lo, hi = (2, 0) if psi_swap else (0, 2)
        expected = [None] * t
        for i, tr in enumerate(inst.triplets):
            expected[chi[i]] = (phi[tr[lo]], phi[tr[1]], phi[tr[hi]])
        for i in range(t):
            if tuple(triplets[i]) != expected[i]:
                raise Rejected("t'_%d is not the image of the instance's triplet" % (i + 1))
        def image(bits):
            out = [0] * n
            for j in range(n):
                out[phi[j]] = bits[j]
            return pack_bits(out)
        if first[1] != image(inst.f):
            raise Rejected("Z'[1] is not the image of f")
        if inst.l is not None:
            if last is None:
                raise Rejected("Z'[S] is missing")
            if last[1] != image(inst.l):
                raise Rejected("Z'[S] is not the image of l")
        elif last is not None:
            raise Rejected("Z'[S] must not be opened in the peg-count variant")
        for i in range(t):
            leaves[i] = commit(TAG_TRIPLET, keys[i], triplet_bytes(triplets[i]))
        leaves[t] = commit(TAG_ROW, first[0], first[1])
        if last is not None:
            leaves[t + s - 1] = commit(TAG_ROW, last[0], last[1])
    else:
        if opening[0] != "move":
            raise Rejected("sigma < S needs a move opening")
        _, gamma, triplet, tkey, before, after = opening
        if gamma >= t:
            raise Rejected("gamma %d outside [0, %d)" % (gamma, t))
        if any(v >= n for v in triplet):
            raise Rejected("triplet vertex outside [0, %d)" % n)
        # PROTOCOLS.md 2.2: t'_gamma is a triplet of the instance Sigma' (Definition 4), so its
        # three vertices must be distinct.
        if len(set(triplet)) != 3:
            raise Rejected("the opened triplet t'_gamma repeats a vertex")
        zb = row_bits(before[1], n)
        za = row_bits(after[1], n)
        tset = set(triplet)
        for k in range(n):
            if (k in tset) != (zb[k] != za[k]):
                raise Rejected("rows %d and %d do not differ exactly on t'_gamma" % (sigma, sigma + 1))
        a, b, c = triplet
        if zb[a] == zb[c]:
            raise Rejected("move %d: the triplet's ends are equal" % sigma)
        if zb[b] != 1:
            raise Rejected("move %d: no peg in the middle" % sigma)
        leaves[gamma] = commit(TAG_TRIPLET, tkey, triplet_bytes(triplet))
        leaves[t + sigma - 1] = commit(TAG_ROW, before[0], before[1])
        leaves[t + sigma] = commit(TAG_ROW, after[0], after[1])
    return merkle_root_from_opening(t + s, leaves, path)


def enough_rounds(rounds, bits, s):
    """rounds >= ceil(bits / log2(S/(S-1)))  <=>  (S/(S-1))^rounds >= 2^bits, exactly."""
    if rounds >= bits * s:   # log2(S/(S-1)) > 1/S, so bits*S rounds always suffice
        return True
    return s ** rounds >= (1 << bits) * (s - 1) ** rounds


def required_rounds(bits, s):
    lo, hi = 1, bits * s
    while lo < hi:
        mid = (lo + hi) // 2
        if enough_rounds(mid, bits, s):
            hi = mid
        else:
            lo = mid + 1
    return lo


def verify(inst, data, security, context):
    digest, proof_context, responses = parse_proof(data)
    canonical = inst.canonical_bytes()
    if digest != sha256(canonical):
        raise Rejected("instance digest differs from this instance's")
    if proof_context != context:
        raise Rejected("context differs (proof: '%s')"
                       % excerpt(proof_context.decode("utf-8", "replace")))
    lam = len(responses)
    if not enough_rounds(lam, security, inst.s):
        raise Rejected("%d rounds, %d needed for %d bits of security (S = %d)"
                       % (lam, required_rounds(security, inst.s), security, inst.s))
    roots = []
    for k, (sigma, opening, path) in enumerate(responses, 1):
        try:
            roots.append(check_round(inst, sigma, opening, path))
        except Rejected as e:
            raise Rejected("round %d: %s" % (k, e))
    tr = Transcript(PROTOCOL_LABEL)
    tr.append(b"version", struct.pack("<Q", 1))
    tr.append(b"instance", canonical)
    tr.append(b"rounds", struct.pack("<Q", lam))
    tr.append(b"context", context)
    for root in roots:
        tr.append(b"root", root)
    stream = tr.challenge_stream(b"sigma")
    for k, (sigma, _, _) in enumerate(responses, 1):
        derived = 1 + stream.uniform(inst.s)
        if derived != sigma:
            raise Rejected("round %d: challenge %d, the proof answers %d" % (k, derived, sigma))
    return lam


class ArgParser(argparse.ArgumentParser):
    def error(self, message):
        sys.stderr.write("usage error: %s\n" % message)
        sys.exit(2)


def main(argv):
    ap = ArgParser(description="Independent verifier for zkgames peg isomorphism proofs "
                               "(protocol 1, mode 0).")
    ap.add_argument("instance", help="puzzle file: raw instance (N, t, f, l | pegs lines) "
                                     "or board (geometry, start, finish | finish-pegs)")
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
        lam = verify(inst, data, args.security, context)
    except Malformed as e:
        print("MALFORMED: %s" % e)
        return 2
    except Rejected as e:
        print("REJECTED: %s" % e)
        return 1
    except Exception as e:  # never a traceback: anything unexpected is bad input
        print("MALFORMED: unexpected error: %s: %s" % (type(e).__name__, excerpt(e, 200)))
        return 2
    print("ACCEPTED: %d rounds, N = %d, T = %d, S = %d, %d bits of security"
          % (lam, inst.n, inst.t, inst.s, args.security))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
