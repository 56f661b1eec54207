//! Scores that order the searches.
//!
//! - **Compactness**, the number of pairs of pegs on adjacent holes (two holes of one
//!   triplet, one of them its middle), orders the children in the depth-first search: compact
//!   positions keep moves available and leave few stranded pegs.
//! - The beam ranks positions by `4 × compactness − Σ dist(peg)`, where `dist` is the graph
//!   distance to the goal's pegs ([`super::compiled::distances`]): with compactness alone the
//!   many ties are broken arbitrarily, and on the large boards the narrow beams then fail.
//!
//! Compactness is kept incrementally: with `deg(v)` the number of pegs adjacent to `v`, a move `a` over
//! `b` into `c` changes it by `−deg(a) − deg(b) + 1 + deg'(c)` (`deg'` after removing `a` and
//! `b`; `a` and `b` are adjacent, hence the `+ 1`).

use super::compiled::Compiled;
use super::word::Word;

/// The number of adjacent peg pairs of `s`.
pub(crate) fn pairs<W: Word>(c: &Compiled<W>, s: W) -> i32 {
    (0..c.n)
        .filter(|&v| s & W::bit(v as u32) != W::ZERO)
        .map(|v| (s & c.near[v]).count() as i32)
        .sum::<i32>()
        / 2
}

/// Weight of the adjacent pairs in the beam's score; each peg costs its distance to the goal.
pub(crate) const PAIR_WEIGHT: i32 = 4;

/// The beam's score of `s`: `PAIR_WEIGHT × pairs(s) − Σ_{pegs v} dist(v)`.
pub(crate) fn beam_score<W: Word>(c: &Compiled<W>, s: W) -> i32 {
    (0..c.n)
        .filter(|&v| s & W::bit(v as u32) != W::ZERO)
        .fold(PAIR_WEIGHT * pairs(c, s), |acc, v| acc - c.dist[v])
}

/// How move `m` (legal in `s`) changes [`beam_score`].
#[inline(always)]
pub(crate) fn beam_delta<W: Word>(c: &Compiled<W>, s: W, m: usize) -> i32 {
    let [a, b, cv] = c.abc[m];
    PAIR_WEIGHT * delta(c, s, m) + c.dist[a as usize] + c.dist[b as usize] - c.dist[cv as usize]
}

/// How move `m` (legal in `s`) changes [`pairs`].
#[inline(always)]
pub(crate) fn delta<W: Word>(c: &Compiled<W>, s: W, m: usize) -> i32 {
    let [a, b, cv] = c.abc[m];
    let rest = s ^ c.need[m];
    1 + (rest & c.near[cv as usize]).count() as i32
        - (s & c.near[a as usize]).count() as i32
        - (s & c.near[b as usize]).count() as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delta_is_the_change_of_pairs() {
        let p = crate::catalog::get("english").unwrap();
        let c: Compiled<u64> = Compiled::new(p.instance(), &p.symmetries()[..1], &[]);
        // a brute-force count of adjacent pairs, from the triplets
        let brute = |s: u64| {
            let mut e = std::collections::HashSet::new();
            for t in p.instance().triplets() {
                for (x, y) in [(t[0], t[1]), (t[1], t[2])] {
                    if s >> x & 1 == 1 && s >> y & 1 == 1 {
                        e.insert((x.min(y), x.max(y)));
                    }
                }
            }
            e.len() as i32
        };
        let mut rng = 0x1234_5678_9abc_def1u64;
        for _ in 0..2000 {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let s = rng & ((1 << 33) - 1);
            assert_eq!(pairs(&c, s), brute(s));
            for m in 0..c.moves() {
                if c.legal(s, m) {
                    assert_eq!(pairs(&c, s) + delta(&c, s, m), brute(s ^ c.span[m]));
                }
            }
        }
    }
}
