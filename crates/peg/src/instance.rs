//! Peg solitaire instances and solutions, exactly as Definitions 4 and 6 of Bultel
//! (FUN 2022) define them.
//!
//! Indices are 0-based in memory and 1-based in every text the user sees (the paper's
//! convention). An instance is `(t, f, l)`: `T` triplets of distinct vertex indices in
//! `[1, N]`, no two with the same set; a first position `f` and a final position `l`, both
//! `N`-bit vectors; `S = 1 + Σ (f_i − l_i) ≥ 2` rows in a solution. The Section 5 variant
//! replaces `l` by a peg count ([`Goal::PegCount`]).

use serde::{Deserialize, Serialize};
use sha2::{Digest as _, Sha256};

use zkgames_core::commit::Digest;
use zkgames_core::Error;
use zkgames_core::Result;

/// Largest number of vertices accepted from untrusted input.
pub const MAX_N: usize = 1 << 14;
/// Largest number of triplets accepted from untrusted input.
pub const MAX_T: usize = 1 << 17;

/// What the solution must reach.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Goal {
    /// A fixed final position `l` (Definition 4).
    Position(Vec<bool>),
    /// Only the number of pegs left (the variant of Section 5).
    PegCount(usize),
}

/// A validated `(N, T, S)`-peg solitaire instance.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Instance {
    n: usize,
    triplets: Vec<[u32; 3]>,
    first: Vec<bool>,
    goal: Goal,
}

fn goal_pegs(goal: &Goal) -> usize {
    match goal {
        Goal::Position(l) => count(l),
        Goal::PegCount(c) => *c,
    }
}

/// A solution matrix `Z`: `S` rows of `N` bits (Definition 6).
pub type Matrix = Vec<Vec<bool>>;

fn count(v: &[bool]) -> usize {
    v.iter().filter(|&&b| b).count()
}

impl Instance {
    /// Builds an instance, checking every condition of Definition 4.
    pub fn new(n: usize, triplets: Vec<[u32; 3]>, first: Vec<bool>, goal: Goal) -> Result<Self> {
        if n == 0 || n > MAX_N {
            return Err(Error::bad(format!(
                "N = {n}: the number of vertices must be in [1, {MAX_N}]"
            )));
        }
        if triplets.is_empty() || triplets.len() > MAX_T {
            return Err(Error::bad(format!(
                "T = {}: the number of triplets must be in [1, {MAX_T}]",
                triplets.len()
            )));
        }
        if first.len() != n {
            return Err(Error::bad(format!(
                "f has {} bits, expected N = {n}",
                first.len()
            )));
        }
        let mut seen = std::collections::HashSet::with_capacity(triplets.len());
        for (i, t) in triplets.iter().enumerate() {
            if t.iter().any(|&x| x as usize >= n) {
                return Err(Error::bad(format!(
                    "triplet {} = ({}, {}, {}) has a vertex outside [1, {n}]",
                    i + 1,
                    t[0] as u64 + 1,
                    t[1] as u64 + 1,
                    t[2] as u64 + 1
                )));
            }
            if t[0] == t[1] || t[1] == t[2] || t[0] == t[2] {
                return Err(Error::bad(format!(
                    "triplet {} = ({}, {}, {}) repeats a vertex",
                    i + 1,
                    t[0] + 1,
                    t[1] + 1,
                    t[2] + 1
                )));
            }
            let mut s = *t;
            s.sort_unstable();
            if !seen.insert(s) {
                return Err(Error::bad(format!(
                    "triplet {} = ({}, {}, {}) has the same set of vertices as an earlier triplet",
                    i + 1,
                    t[0] + 1,
                    t[1] + 1,
                    t[2] + 1
                )));
            }
        }
        let pegs = count(&first);
        if goal_pegs(&goal) == 0 {
            return Err(Error::bad(
                "the goal leaves no peg, which no solution can reach: a jump needs two pegs and leaves one",
            ));
        }
        match &goal {
            Goal::Position(l) => {
                if l.len() != n {
                    return Err(Error::bad(format!(
                        "l has {} bits, expected N = {n}",
                        l.len()
                    )));
                }
                if count(l) >= pegs {
                    return Err(Error::bad(format!(
                        "S = 1 + {pegs} - {} < 2: the final position must have fewer pegs than the first",
                        count(l)
                    )));
                }
            }
            Goal::PegCount(c) => {
                if *c >= pegs {
                    return Err(Error::bad(format!(
                        "the goal of {c} pegs must be fewer than the {pegs} pegs of the first position"
                    )));
                }
            }
        }
        Ok(Instance {
            n,
            triplets,
            first,
            goal,
        })
    }

    /// Number of vertices `N`.
    pub fn n(&self) -> usize {
        self.n
    }
    /// Number of triplets `T`.
    pub fn t(&self) -> usize {
        self.triplets.len()
    }
    /// Number of rows of a solution, `S = 1 + (pegs in f) − (pegs at the end)`.
    pub fn s(&self) -> usize {
        1 + count(&self.first) - self.final_pegs()
    }
    /// Number of pegs the solution ends with.
    pub fn final_pegs(&self) -> usize {
        match &self.goal {
            Goal::Position(l) => count(l),
            Goal::PegCount(c) => *c,
        }
    }
    /// The triplets (0-based vertex indices).
    pub fn triplets(&self) -> &[[u32; 3]] {
        &self.triplets
    }
    /// The first position `f`.
    pub fn first(&self) -> &[bool] {
        &self.first
    }
    /// The goal.
    pub fn goal(&self) -> &Goal {
        &self.goal
    }
    /// The final position `l`, when the goal is a position.
    pub fn last(&self) -> Option<&[bool]> {
        match &self.goal {
            Goal::Position(l) => Some(l),
            Goal::PegCount(_) => None,
        }
    }

    /// The canonical byte encoding hashed into transcripts and digests:
    /// `"peg-instance-v1" ‖ u32 N ‖ u32 T ‖ T × (3 × u32) ‖ packed f ‖ goal`, where the goal is
    /// `0x00 ‖ packed l` or `0x01 ‖ u32 count`; integers little-endian, 0-based indices.
    pub fn canonical_bytes(&self) -> Vec<u8> {
        let mut out = b"peg-instance-v1".to_vec();
        out.extend_from_slice(&(self.n as u32).to_le_bytes());
        out.extend_from_slice(&(self.t() as u32).to_le_bytes());
        for t in &self.triplets {
            for x in t {
                out.extend_from_slice(&x.to_le_bytes());
            }
        }
        out.extend_from_slice(&pack_bits(&self.first));
        match &self.goal {
            Goal::Position(l) => {
                out.push(0);
                out.extend_from_slice(&pack_bits(l));
            }
            Goal::PegCount(c) => {
                out.push(1);
                out.extend_from_slice(&(*c as u32).to_le_bytes());
            }
        }
        out
    }

    /// SHA-256 of the canonical encoding: the instance's public fingerprint.
    pub fn digest(&self) -> Digest {
        Sha256::digest(self.canonical_bytes()).into()
    }

    /// Checks a solution matrix against Definition 6 (or its peg-count variant).
    /// The error names the first offending step (1-based, as in the paper).
    pub fn check_solution(&self, z: &Matrix) -> Result<()> {
        let s = self.s();
        if z.len() != s {
            return Err(Error::bad(format!(
                "the solution has {} rows, expected S = {s}",
                z.len()
            )));
        }
        if let Some(i) = z.iter().position(|r| r.len() != self.n) {
            return Err(Error::bad(format!(
                "row {} has {} bits, expected N = {}",
                i + 1,
                z[i].len(),
                self.n
            )));
        }
        if z[0] != self.first {
            return Err(Error::bad(
                "row 1 of the solution is not the first position f",
            ));
        }
        match &self.goal {
            Goal::Position(l) => {
                if &z[s - 1] != l {
                    return Err(Error::bad(format!(
                        "row S = {s} of the solution is not the final position l"
                    )));
                }
            }
            Goal::PegCount(c) => {
                if count(&z[s - 1]) != *c {
                    return Err(Error::bad(format!("the last row does not have {c} pegs")));
                }
            }
        }
        for i in 0..s - 1 {
            if self.step_triplet(&z[i], &z[i + 1]).is_none() {
                return Err(Error::bad(format!(
                    "step {} (row {} to row {}) is not a legal jump along any triplet",
                    i + 1,
                    i + 1,
                    i + 2
                )));
            }
        }
        Ok(())
    }

    /// The index of a triplet that makes `a → b` a legal move, if any.
    pub fn step_triplet(&self, a: &[bool], b: &[bool]) -> Option<usize> {
        let diff: Vec<u32> = (0..self.n as u32)
            .filter(|&k| a[k as usize] != b[k as usize])
            .collect();
        if diff.len() != 3 {
            return None;
        }
        self.triplets.iter().position(|t| is_legal_step(t, a, b))
    }
}

/// The move check of Definition 6 for one triplet `t` and two successive rows:
/// the rows differ exactly on `{t1, t2, t3}`, and before the move `a[t1] ≠ a[t3]`, `a[t2] = 1`.
pub fn is_legal_step(t: &[u32; 3], a: &[bool], b: &[bool]) -> bool {
    let n = a.len();
    if b.len() != n || t.iter().any(|&x| x as usize >= n) {
        return false;
    }
    let in_t = |k: usize| t.iter().any(|&x| x as usize == k);
    for k in 0..n {
        if in_t(k) != (a[k] != b[k]) {
            return false;
        }
    }
    a[t[0] as usize] != a[t[2] as usize] && a[t[1] as usize]
}

/// Packs bits LSB-first into `ceil(len/8)` bytes; padding bits are zero.
pub fn pack_bits(bits: &[bool]) -> Vec<u8> {
    bits.chunks(8)
        .map(|c| {
            c.iter()
                .enumerate()
                .fold(0u8, |acc, (i, &b)| acc | ((b as u8) << i))
        })
        .collect()
}

/// Unpacks `n` bits; refuses a wrong byte count or non-zero padding bits.
pub fn unpack_bits(bytes: &[u8], n: usize) -> Option<Vec<bool>> {
    if bytes.len() != n.div_ceil(8) {
        return None;
    }
    if !n.is_multiple_of(8) && bytes[n / 8] >> (n % 8) != 0 {
        return None;
    }
    Some((0..n).map(|i| bytes[i / 8] >> (i % 8) & 1 == 1).collect())
}

/// Parses a row written as `0`/`1` characters (spaces allowed).
pub fn parse_bits(s: &str) -> Result<Vec<bool>> {
    s.chars()
        .filter(|c| !c.is_whitespace() && *c != ',')
        .map(|c| match c {
            '0' => Ok(false),
            '1' => Ok(true),
            _ => Err(Error::bad(format!(
                "expected 0 or 1, found {}",
                zkgames_core::files::quote_char(c)
            ))),
        })
        .collect()
}

/// Formats a row as space-separated `0`/`1`.
pub fn format_bits(b: &[bool]) -> String {
    b.iter()
        .map(|&x| if x { "1" } else { "0" })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The raw text format for instances that are not boards:
///
/// ```text
/// # comment
/// N 5
/// t 1 2 3
/// t 2 4 5
/// f 1 1 0 1 1
/// l 1 0 0 0 0      (or: pegs 1)
/// ```
///
/// Each of `N`, `f` and the goal (`l` or `pegs`, not both) appears exactly once. A leading
/// UTF-8 byte-order mark is ignored.
pub fn parse_raw(text: &str) -> Result<Instance> {
    use zkgames_core::files::excerpt;
    let text = zkgames_core::files::strip_bom(text);
    let mut n = None;
    let mut ts = Vec::new();
    let mut f = None;
    let mut goal = None;
    // the line of each key seen so far, to refuse a second one
    let (mut n_line, mut f_line, mut goal_line) = (0usize, 0usize, 0usize);
    for (ln, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let (key, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let err = |m: String| Error::bad(format!("line {}: {m}", ln + 1));
        let once = |seen: &mut usize, what: &str| {
            if *seen != 0 {
                return Err(err(format!("{what} was already given on line {}", *seen)));
            }
            *seen = ln + 1;
            Ok(())
        };
        match key {
            "N" => {
                once(&mut n_line, "N")?;
                let v: usize = rest
                    .trim()
                    .parse()
                    .map_err(|_| err(format!("bad N '{}'", excerpt(rest.trim()))))?;
                if v == 0 || v > MAX_N {
                    return Err(err(format!("N must be in [1, {MAX_N}]")));
                }
                n = Some(v);
            }
            "t" => {
                let v: Vec<u64> = rest
                    .split_whitespace()
                    .map(|x| x.parse::<u64>())
                    .collect::<std::result::Result<_, _>>()
                    .map_err(|_| err("a triplet is three integers".into()))?;
                if v.len() != 3 || v.iter().any(|&x| x == 0 || x > MAX_N as u64) {
                    return Err(err(format!("a triplet is three integers in [1, {MAX_N}]")));
                }
                if ts.len() >= MAX_T {
                    return Err(err(format!("more than {MAX_T} triplets")));
                }
                ts.push([v[0] as u32 - 1, v[1] as u32 - 1, v[2] as u32 - 1]);
            }
            "f" => {
                once(&mut f_line, "f")?;
                f = Some(parse_bits(rest).map_err(|e| err(e.to_string()))?)
            }
            "l" => {
                once(&mut goal_line, "the goal (l or pegs)")?;
                goal = Some(Goal::Position(
                    parse_bits(rest).map_err(|e| err(e.to_string()))?,
                ))
            }
            "pegs" => {
                once(&mut goal_line, "the goal (l or pegs)")?;
                let c: usize = rest
                    .trim()
                    .parse()
                    .map_err(|_| err("bad peg count".into()))?;
                goal = Some(Goal::PegCount(c));
            }
            _ => {
                return Err(err(format!(
                    "unknown key '{}' (expected N, t, f, l or pegs)",
                    excerpt(key)
                )))
            }
        }
    }
    let n = n.ok_or_else(|| Error::bad("raw instance: missing 'N' line"))?;
    let f = f.ok_or_else(|| Error::bad("raw instance: missing 'f' line"))?;
    let goal = goal.ok_or_else(|| Error::bad("raw instance: missing 'l' or 'pegs' line"))?;
    Instance::new(n, ts, f, goal)
}

/// Writes an instance in the raw text format.
pub fn to_raw(inst: &Instance) -> String {
    let mut s = format!("N {}\n", inst.n());
    for t in inst.triplets() {
        s += &format!("t {} {} {}\n", t[0] + 1, t[1] + 1, t[2] + 1);
    }
    s += &format!("f {}\n", format_bits(inst.first()));
    match inst.goal() {
        Goal::Position(l) => s += &format!("l {}\n", format_bits(l)),
        Goal::PegCount(c) => s += &format!("pegs {c}\n"),
    }
    s
}

/// Parses a solution matrix: one row of `0`/`1` per line (a leading byte-order mark is
/// ignored).
pub fn parse_matrix(text: &str) -> Result<Matrix> {
    zkgames_core::files::strip_bom(text)
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .map(parse_bits)
        .collect()
}

/// The tee instance of Example 5.
pub fn tee() -> Instance {
    Instance::new(
        5,
        vec![[0, 1, 2], [1, 3, 4]],
        vec![true, true, false, true, true],
        Goal::Position(vec![true, false, false, false, false]),
    )
    .expect("the paper's tee instance is valid")
}

/// The solution matrix of Example 7 for [`tee`].
pub fn tee_solution() -> Matrix {
    [
        [1, 1, 0, 1, 1],
        [0, 0, 1, 1, 1],
        [0, 1, 1, 0, 0],
        [1, 0, 0, 0, 0],
    ]
    .iter()
    .map(|r| r.iter().map(|&x| x == 1).collect())
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(rows: &[[u8; 5]]) -> Matrix {
        rows.iter()
            .map(|r| r.iter().map(|&x| x == 1).collect())
            .collect()
    }

    #[test]
    fn example_5_and_7() {
        let i = tee();
        assert_eq!((i.n(), i.t(), i.s()), (5, 2, 4));
        let z = m(&[
            [1, 1, 0, 1, 1],
            [0, 0, 1, 1, 1],
            [0, 1, 1, 0, 0],
            [1, 0, 0, 0, 0],
        ]);
        i.check_solution(&z).unwrap();
        // every single bit flip breaks it
        for r in 0..4 {
            for c in 0..5 {
                let mut bad = z.clone();
                bad[r][c] = !bad[r][c];
                assert!(i.check_solution(&bad).is_err(), "flip {r},{c}");
            }
        }
    }

    #[test]
    fn definition_4_conditions() {
        let f = vec![true, true, false, true, true];
        let l = Goal::Position(vec![true, false, false, false, false]);
        assert!(Instance::new(5, vec![[0, 1, 1]], f.clone(), l.clone()).is_err());
        assert!(Instance::new(5, vec![[0, 1, 2], [2, 1, 0]], f.clone(), l.clone()).is_err());
        assert!(Instance::new(5, vec![[0, 1, 5]], f.clone(), l.clone()).is_err());
        assert!(Instance::new(5, vec![[0, 1, 2]], f.clone(), Goal::Position(f.clone())).is_err());
        assert!(Instance::new(5, vec![[0, 1, 2]], f.clone(), Goal::PegCount(4)).is_err());
        assert!(Instance::new(5, vec![[0, 1, 2]], f.clone(), Goal::PegCount(3)).is_ok());
        // no move sequence ends with an empty board
        assert!(Instance::new(5, vec![[0, 1, 2]], f.clone(), Goal::PegCount(0)).is_err());
        assert!(Instance::new(
            5,
            vec![[0, 1, 2]],
            f.clone(),
            Goal::Position(vec![false; 5])
        )
        .is_err());
    }

    #[test]
    fn raw_round_trip_and_bits() {
        let i = tee();
        assert_eq!(parse_raw(&to_raw(&i)).unwrap(), i);
        for n in 0..20 {
            let bits: Vec<bool> = (0..n).map(|k| k % 3 == 0).collect();
            assert_eq!(unpack_bits(&pack_bits(&bits), n).unwrap(), bits);
        }
        assert!(unpack_bits(&[0b1110_0000], 5).is_none());
        assert!(parse_raw("N 5\nt 1 2\n").is_err());
        assert!(parse_raw("N 99999999999\n").is_err());
        // a byte-order mark is ignored; every key but t appears once, one goal only
        assert_eq!(parse_raw(&format!("\u{feff}{}", to_raw(&i))).unwrap(), i);
        for dup in [
            "N 5\nN 5\nt 1 2 3\nf 1 1 0 1 1\npegs 1\n",
            "N 5\nt 1 2 3\nf 1 1 0 1 1\nf 1 1 0 1 1\npegs 1\n",
            "N 5\nt 1 2 3\nf 1 1 0 1 1\nl 1 0 0 0 0\npegs 1\n",
            "N 5\nt 1 2 3\nf 1 1 0 1 1\npegs 1\npegs 2\n",
        ] {
            let e = parse_raw(dup).unwrap_err().to_string();
            assert!(e.contains("already given on line"), "{e}");
        }
    }
}
