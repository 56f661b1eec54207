"""AES-128 (FIPS 197) in plain Python, standard library only, for the independent verifiers.

Written from FIPS 197 (the S-box from the GF(2^8) inverse and the affine map, the key
expansion of 5.2, the round function as the usual 32-bit table lookups) without reading any
other implementation. `expand(key)` gives the 44 round-key words; `encrypt_block(rk, block)`
one 16-byte block; `ctr(key, blocks)` the encryptions of several 16-byte blocks under one key
(the VOLE trees and leaves of docs/PROTOCOLS.md 7.3). `self_test()` checks FIPS 197's
appendix A.1 (key expansion) and C.1 (one block) vectors.
"""

import struct


def _xtime(a):
    a <<= 1
    return (a ^ 0x11B) if a & 0x100 else a


def _gmul(a, b):
    r = 0
    while b:
        if b & 1:
            r ^= a
        a = _xtime(a)
        b >>= 1
    return r


def _sbox():
    inv = [0] * 256
    for x in range(1, 256):
        for y in range(1, 256):
            if _gmul(x, y) == 1:
                inv[x] = y
                break
    s = []
    for x in range(256):
        b = inv[x]
        r = 0x63
        for i in range(8):
            bit = 0
            for k in (0, 4, 5, 6, 7):
                bit ^= (b >> ((i + k) % 8)) & 1
            r ^= bit << i
        s.append(r)
    return s


SBOX = _sbox()
# T0[x] = (2·S[x], S[x], S[x], 3·S[x]) as a big-endian word; T1..T3 its byte rotations
T0 = [(_gmul(s, 2) << 24) | (s << 16) | (s << 8) | _gmul(s, 3) for s in SBOX]
T1 = [((t >> 8) | (t << 24)) & 0xFFFFFFFF for t in T0]
T2 = [((t >> 16) | (t << 16)) & 0xFFFFFFFF for t in T0]
T3 = [((t >> 24) | (t << 8)) & 0xFFFFFFFF for t in T0]
RCON = [0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1B, 0x36]


def expand(key):
    """The 44 round-key words w[0..43] of FIPS 197 5.2 (big-endian words)."""
    w = list(struct.unpack(">4I", key))
    S = SBOX
    for i in range(4, 44):
        t = w[i - 1]
        if i % 4 == 0:
            t = ((t << 8) | (t >> 24)) & 0xFFFFFFFF
            t = (S[t >> 24] << 24) | (S[(t >> 16) & 255] << 16) | (S[(t >> 8) & 255] << 8) | S[t & 255]
            t ^= RCON[i // 4 - 1] << 24
        w.append(w[i - 4] ^ t)
    return w


def _encrypt_words(rk, s0, s1, s2, s3):
    A, B, C, D, S = T0, T1, T2, T3, SBOX
    s0 ^= rk[0]
    s1 ^= rk[1]
    s2 ^= rk[2]
    s3 ^= rk[3]
    for r in range(1, 10):
        k = 4 * r
        t0 = A[s0 >> 24] ^ B[(s1 >> 16) & 255] ^ C[(s2 >> 8) & 255] ^ D[s3 & 255] ^ rk[k]
        t1 = A[s1 >> 24] ^ B[(s2 >> 16) & 255] ^ C[(s3 >> 8) & 255] ^ D[s0 & 255] ^ rk[k + 1]
        t2 = A[s2 >> 24] ^ B[(s3 >> 16) & 255] ^ C[(s0 >> 8) & 255] ^ D[s1 & 255] ^ rk[k + 2]
        t3 = A[s3 >> 24] ^ B[(s0 >> 16) & 255] ^ C[(s1 >> 8) & 255] ^ D[s2 & 255] ^ rk[k + 3]
        s0, s1, s2, s3 = t0, t1, t2, t3
    # last round: SubBytes, ShiftRows, AddRoundKey (no MixColumns)
    o0 = ((S[s0 >> 24] << 24) | (S[(s1 >> 16) & 255] << 16) | (S[(s2 >> 8) & 255] << 8) | S[s3 & 255]) ^ rk[40]
    o1 = ((S[s1 >> 24] << 24) | (S[(s2 >> 16) & 255] << 16) | (S[(s3 >> 8) & 255] << 8) | S[s0 & 255]) ^ rk[41]
    o2 = ((S[s2 >> 24] << 24) | (S[(s3 >> 16) & 255] << 16) | (S[(s0 >> 8) & 255] << 8) | S[s1 & 255]) ^ rk[42]
    o3 = ((S[s3 >> 24] << 24) | (S[(s0 >> 16) & 255] << 16) | (S[(s1 >> 8) & 255] << 8) | S[s2 & 255]) ^ rk[43]
    return o0, o1, o2, o3


def encrypt_block(rk, block):
    return struct.pack(">4I", *_encrypt_words(rk, *struct.unpack(">4I", block)))


def ctr(key, blocks):
    """The concatenated encryptions under `key` of each 16-byte block of `blocks`."""
    rk = expand(key)
    out = []
    for b in blocks:
        out.append(struct.pack(">4I", *_encrypt_words(rk, *struct.unpack(">4I", b))))
    return b"".join(out)


def self_test():
    key = bytes(range(16))
    pt = bytes(0x11 * i for i in range(16))
    assert encrypt_block(expand(key), pt).hex() == "69c4e0d86a7b0430d8cdb78070b4c55a", \
        "AES-128 differs from FIPS 197 C.1"
    w = expand(bytes.fromhex("2b7e151628aed2a6abf7158809cf4f3c"))
    assert w[4] == 0xA0FAFE17 and w[43] == 0xB6630CA6, "AES key expansion differs from FIPS 197 A.1"
    assert encrypt_block(w, bytes.fromhex("3243f6a8885a308d313198a2e0370734")).hex() == \
        "3925841d02dc09fbdc118597196a0b32", "AES-128 differs from FIPS 197 appendix B"
