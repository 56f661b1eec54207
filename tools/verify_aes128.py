#!/usr/bin/env python3
"""Independent verifier for zkgames VOLE-in-the-head AES-128 key proofs (protocol 16, mode 0),
as `prover auth prove` writes them for an `aes128` identity (offline proofs bound to a text).

Written from docs/PROTOCOLS.md alone (1.4 container, 3.1 circuit IR with inverted bytes and
builder rules, 3.10 the AES-128 statement, 5.1 identity files, 5.4 the offline context, 7
VOLE-in-the-head with 7.6's inverted-byte relation), without reading the Rust sources.
Standard library only. The VOLE verifier itself is tools/verify_vole.py's, shared; this file
adds AES-128, its circuit, identities and the offline context.

usage: python3 tools/verify_aes128.py IDENTITY PROOF --context TEXT [--security BITS]
       python3 tools/verify_aes128.py --self-test

Exit status: 0 accepted, 1 rejected, 2 malformed input (identity, proof file or arguments);
one line of output.
"""

import argparse
import hashlib
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from verify_peg_iso import Malformed, Rejected, excerpt  # noqa: E402
from verify_vole import (  # noqa: E402  (same directory: the shared VOLE core)
    AND, C0, INV, MAX_BODY, NOT, XOR, Builder, attack_cost_bits, const, gf256_inv, gf256_mul,
    parse_file, verify_statement)

PROTOCOL_AES128_VOLE = 16                 # 1.4
APP_TAG = b"zkgames/aes-128/key/v1"       # 3.10 (the statement's tag, all engines)
PUBLIC_PREFIX = b"aes-128 plaintext"      # 3.10
OFFLINE_TAG = b"zkgames/auth/offline/v1"  # 5.4
CIRCUIT_DIGEST_TAG = b"zkg:aes128:circuit:v1"  # 3.9
MAX_TEXT = 1 << 16                        # 5.4
MAX_ID_FILE = 2 << 20                     # 5.1
HEX32 = re.compile(r"\A[0-9a-f]{32}\Z")
RCON = [0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1B, 0x36]

# ---------------------------------------------------------------- AES-128 (FIPS 197)


def sbox(x):
    b = gf256_inv(x)
    r = 0x63 ^ b
    for k in (1, 2, 3, 4):
        r ^= ((b << k) | (b >> (8 - k))) & 0xFF
    return r


def xtime(b):
    return ((b << 1) ^ (0x1B if b & 0x80 else 0)) & 0xFF


def encrypt(key, pt):
    """FIPS 197 encryption (plain): the ciphertext and whether every S-box input is non-zero."""
    nonzero = True

    def sb(x):
        nonlocal nonzero
        nonzero &= x != 0
        return sbox(x)
    w = [list(key[4 * i:4 * i + 4]) for i in range(4)]
    for i in range(4, 44):
        t = list(w[i - 1])
        if i % 4 == 0:
            t = [sb(t[1]) ^ RCON[i // 4 - 1], sb(t[2]), sb(t[3]), sb(t[0])]
        w.append([w[i - 4][k] ^ t[k] for k in range(4)])
    s = [pt[i] ^ w[i // 4][i % 4] for i in range(16)]
    for r in range(1, 11):
        sub = [sb(x) for x in s]
        sh = [sub[(i % 4) + 4 * (((i // 4) + (i % 4)) % 4)] for i in range(16)]
        if r < 10:
            s = []
            for c in range(4):
                for row in range(4):
                    a = [sh[4 * c + (row + k) % 4] for k in range(4)]
                    s.append(xtime(a[0]) ^ xtime(a[1]) ^ a[1] ^ a[2] ^ a[3])
        else:
            s = sh
        s = [s[i] ^ w[4 * r + i // 4][i % 4] for i in range(16)]
    return bytes(s), nonzero


def aes_circuit(pt):
    """3.10's circuit of plaintext `pt`: inputs the 128 key bits (byte i bit j = wire 8i + j),
    outputs the 128 ciphertext bits; the builder calls in 3.10's order."""
    bld = Builder(128)

    def xor_b(x, y):
        return [bld.xor(x[j], y[j]) for j in range(8)]

    def const_byte(v):
        return [const((v >> j) & 1) for j in range(8)]

    def sbox_c(x, norm=False):
        y = bld.gf256_inv(x, norm)
        out = []
        for i in range(8):
            acc = const((0x63 >> i) & 1)
            for k in (0, 4, 5, 6, 7):
                acc = bld.xor(acc, y[(i + k) % 8])
            out.append(acc)
        return out

    def xtime_c(x):
        out = []
        for j in range(8):
            s = C0 if j == 0 else x[j - 1]
            out.append(bld.xor(s, x[7]) if j in (0, 1, 3, 4) else s)
        return out

    key = [[8 * i + j for j in range(8)] for i in range(16)]
    w = [[key[4 * i + k] for k in range(4)] for i in range(4)]
    for i in range(4, 44):
        t = list(w[i - 1])
        if i % 4 == 0:
            s1 = sbox_c(t[1])
            s2 = sbox_c(t[2])
            s3 = sbox_c(t[3])
            s0 = sbox_c(t[0])
            t = [xor_b(s1, const_byte(RCON[i // 4 - 1])), s2, s3, s0]
        w.append([xor_b(w[i - 4][k], t[k]) for k in range(4)])

    def rk(r, i):
        return w[4 * r + i // 4][i % 4]
    s = [xor_b(const_byte(pt[i]), rk(0, i)) for i in range(16)]
    for r in range(1, 11):
        # rounds 1, 3, 5, 7, 9: norm bytes (3.10)
        sub = [sbox_c(x, r % 2 == 1) for x in s]
        sh = [sub[(i % 4) + 4 * (((i // 4) + (i % 4)) % 4)] for i in range(16)]
        if r < 10:
            s = []
            for c in range(4):
                for row in range(4):
                    a = [sh[4 * c + (row + k) % 4] for k in range(4)]
                    t0 = xtime_c(a[0])
                    t1 = xtime_c(a[1])
                    x = xor_b(t0, t1)
                    x = xor_b(x, a[1])
                    x = xor_b(x, a[2])
                    s.append(xor_b(x, a[3]))
        else:
            s = sh
        s = [xor_b(s[i], rk(r, i)) for i in range(16)]
    for x in s:
        bld.outputs.extend(x)
    return bld


def evaluate(bld, inputs):
    """Plain evaluation with inverted bytes (0^-1 = 0), for the self test."""
    v = list(inputs)
    inv = 0
    for op, a, b in bld.gates:
        if op == XOR:
            v.append(v[a] ^ v[b])
        elif op == AND:
            v.append(v[a] & v[b])
        elif op == NOT:
            v.append(v[a] ^ 1)
        else:
            if b == 0:
                x = sum(v[w] << j for j, w in enumerate(bld.inv_inputs[a]))
                inv = gf256_inv(x)
            v.append((inv >> b) & 1)
    return [(1 if o == -2 else 0) if o < 0 else v[o] for o in bld.outputs]


# ---------------------------------------------------------------- identities, context (5.1, 5.4)

def parse_identity(raw):
    """An aes128 identity line (5.1): (pt, ct) as 16-byte strings."""
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
    if fields[1] != "aes128":
        raise Malformed("a %s identity: this tool checks aes128 identities only"
                        % excerpt(fields[1], 20))
    if len(fields) != 4 or not HEX32.match(fields[2]) or not HEX32.match(fields[3]):
        raise Malformed("an aes128 identity is two 16-byte values in lowercase hex")
    return bytes.fromhex(fields[2]), bytes.fromhex(fields[3])


def offline_context(text):
    if len(text) > MAX_TEXT:
        raise Malformed("--context longer than %d bytes" % MAX_TEXT)

    def lp(x):
        return len(x).to_bytes(4, "little") + x
    return lp(OFFLINE_TAG) + lp(text)


_TEMPLATE_DIGEST = []


def circuit_digest(pt):
    """3.9: the digest an AES-128 circuit is bound by, SHA-256(tag ‖ D_T ‖ pt), D_T the
    canonical digest (3.1) of the all-ones plaintext's circuit."""
    if not _TEMPLATE_DIGEST:
        _TEMPLATE_DIGEST.append(aes_circuit(b"\xff" * 16).digest())
    return hashlib.sha256(CIRCUIT_DIGEST_TAG + _TEMPLATE_DIGEST[0] + pt).digest()


def verify(pt, ct, data, security, context):
    proof = parse_file(data, PROTOCOL_AES128_VOLE, "AES-128 key VOLE", login=True)
    bld = aes_circuit(pt)
    derived = circuit_digest(pt)
    bld.digest = lambda: derived    # 3.9: bound by the derived digest, not its gates'
    y = [(ct[i // 8] >> (i % 8)) & 1 for i in range(128)]
    return verify_statement(proof, APP_TAG, bld, PUBLIC_PREFIX + pt, y, security, context)


# ---------------------------------------------------------------- self test, CLI

FIPS = [
    ("2b7e151628aed2a6abf7158809cf4f3c", "3243f6a8885a308d313198a2e0370734",
     "3925841d02dc09fbdc118597196a0b32"),
    ("000102030405060708090a0b0c0d0e0f", "00112233445566778899aabbccddeeff",
     "69c4e0d86a7b0430d8cdb78070b4c55a"),
]


def self_test():
    for a in range(1, 256):
        assert gf256_mul(a, gf256_inv(a)) == 1
    assert (sbox(0), sbox(0x53)) == (0x63, 0xED)
    for k, p, c in FIPS:
        k, p = bytes.fromhex(k), bytes.fromhex(p)
        assert encrypt(k, p)[0].hex() == c, "FIPS 197 vector"
        bld = aes_circuit(p)
        assert len(bld.inv_inputs) == 200
        out = evaluate(bld, [(k[i // 8] >> (i % 8)) & 1 for i in range(128)])
        assert bytes(sum(out[8 * i + j] << j for j in range(8)) for i in range(16)).hex() == c
    print("self-test ok")
    return 0


class ArgParser(argparse.ArgumentParser):
    def error(self, message):
        print("MALFORMED: %s" % excerpt(message, 200))
        sys.exit(2)


def main(argv):
    if argv == ["--self-test"]:
        return self_test()
    ap = ArgParser(description="Independent verifier for zkgames AES-128 key proofs "
                               "(VOLE-in-the-head, protocol 16, mode 0), offline context.")
    ap.add_argument("identity", help="aes128 identity file (zkgames-auth-id-v1 aes128 P C)")
    ap.add_argument("proof", help="proof file")
    ap.add_argument("--context", required=True, help="the text the proof is bound to")
    ap.add_argument("--security", type=int, default=128, help="required bits (1..256)")
    args = ap.parse_args(argv)
    try:
        if not 1 <= args.security <= 256:
            raise Malformed("--security must be in [1, 256]")
        context = offline_context(args.context.encode("utf-8", "surrogateescape"))
        try:
            with open(args.identity, "rb") as fh:
                raw = fh.read(MAX_ID_FILE + 1)
            with open(args.proof, "rb") as fh:
                data = fh.read(MAX_BODY + 22)
        except OSError as e:
            raise Malformed("cannot read input: %s" % excerpt(e, 200))
        pt, ct = parse_identity(raw)
        tau, dbits, grind = verify(pt, ct, data, args.security, context)
    except Malformed as e:
        print("MALFORMED: %s" % e)
        return 2
    except Rejected as e:
        print("REJECTED: %s" % e)
        return 1
    except Exception as e:  # never a traceback: anything unexpected is bad input
        print("MALFORMED: unexpected error: %s: %s" % (type(e).__name__, excerpt(e, 200)))
        return 2
    print("ACCEPTED: AES-128 key, VOLE-in-the-head, tau = %d, D = %d, w = %d, %.2f bits"
          % (tau, dbits, grind, attack_cost_bits(dbits, grind)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
