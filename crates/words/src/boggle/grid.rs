//! Grids, dice forms, the trie and the solvers (the trie walk and its two references).

#[allow(unused_imports)]
use super::*;

/// A square grid of faces (`a` = 0 … `z` = 25, `q` the `Qu` face), row by row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    pub(crate) side: usize,
    pub(crate) faces: Vec<u8>,
}

impl Grid {
    /// A grid of any side from 1 to 5 (tests; text grids are 4×4 or 5×5).
    pub fn new(side: usize, faces: Vec<u8>) -> Self {
        assert!((1..=5).contains(&side) && faces.len() == side * side);
        assert!(faces.iter().all(|&f| f < 26));
        Grid { side, faces }
    }

    /// A grid from text: rows separated by `/` (`abcd/efgh/ijkl/mnop`) or one a line; letters
    /// `a`–`z` in either case, `q` meaning `Qu`; 4×4 or 5×5.
    pub fn parse(text: &str, what: &str) -> Result<Self> {
        let text = zkgames_core::files::strip_bom(text);
        let rows: Vec<&str> = if text.contains('/') {
            text.trim_end_matches(['\n', '\r']).split('/').collect()
        } else {
            text.lines()
                .map(|l| l.strip_suffix('\r').unwrap_or(l))
                .filter(|l| !l.is_empty())
                .collect()
        };
        let side = rows.len();
        let bad = |why: String| {
            Error::bad(format!(
                "{what}: {why} (give 4 or 5 rows of as many letters, separated by / or one a line, e.g. abcd/efgh/ijkl/mnop; q is the Qu face)"
            ))
        };
        if side != 4 && side != 5 {
            return Err(bad(format!("{side} rows")));
        }
        let mut faces = Vec::with_capacity(side * side);
        for (i, r) in rows.iter().enumerate() {
            let Some(l) = dict::letters_of(r) else {
                return Err(bad(format!(
                    "row {} {} is not letters a-z",
                    i + 1,
                    zkgames_core::files::quote(&zkgames_core::files::excerpt(r))
                )));
            };
            if l.len() != side {
                return Err(bad(format!(
                    "row {} has {} letters, not {side}",
                    i + 1,
                    l.len()
                )));
            }
            faces.extend(l);
        }
        Ok(Grid { side, faces })
    }

    pub fn side(&self) -> usize {
        self.side
    }

    /// Dice on the grid.
    pub fn cells(&self) -> usize {
        self.faces.len()
    }

    /// The faces, row by row.
    pub fn faces(&self) -> &[u8] {
        &self.faces
    }

    /// Whether dice `a` and `b` touch (a side or a corner; a die does not touch itself).
    pub fn adjacent(&self, a: usize, b: usize) -> bool {
        let (ra, ca) = (a / self.side, a % self.side);
        let (rb, cb) = (b / self.side, b % self.side);
        a != b && ra.abs_diff(rb) <= 1 && ca.abs_diff(cb) <= 1
    }

    /// The dice touching `c`.
    pub fn neighbours(&self, c: usize) -> impl Iterator<Item = usize> + '_ {
        (0..self.cells()).filter(move |&d| self.adjacent(c, d))
    }

    /// The grid as text, rows separated by `/`.
    pub fn text(&self) -> String {
        self.faces
            .chunks(self.side)
            .map(dict::word_of)
            .collect::<Vec<_>>()
            .join("/")
    }

    /// `SHA-256(GRID_TAG ‖ u8 side ‖ faces as bytes 0..=25)`.
    pub fn digest(&self) -> Digest {
        let mut h = Sha256::new();
        h.update(GRID_TAG);
        h.update([self.side as u8]);
        h.update(&self.faces);
        h.finalize().into()
    }
}

/// The dice form of a word (`qu` as the one symbol `q`), or `None` if a `q` is not followed
/// by `u` (no die shows a lone `q`).
pub fn dice_of(letters: &[u8]) -> Option<Vec<u8>> {
    const Q: u8 = b'q' - b'a';
    const U: u8 = b'u' - b'a';
    let mut out = Vec::with_capacity(letters.len());
    let mut i = 0;
    while i < letters.len() {
        out.push(letters[i]);
        if letters[i] == Q {
            if letters.get(i + 1) != Some(&U) {
                return None;
            }
            i += 1;
        }
        i += 1;
    }
    Some(out)
}

/// The letters of a dice form (`q` as `qu`).
pub fn letters_of_dice(dice: &[u8]) -> Letters {
    let mut out = Vec::with_capacity(dice.len() + 2);
    for &s in dice {
        out.push(s);
        if s == b'q' - b'a' {
            out.push(b'u' - b'a');
        }
    }
    out
}

/// A trie over dice forms: nodes with their children contiguous in one edge array.
pub struct Trie {
    /// Per node: first edge, edge count, whether a word ends here.
    nodes: Vec<(u32, u8, bool)>,
    edges: Vec<(u8, u32)>,
}

impl Trie {
    /// The trie of `words` (dice forms, any order, repeats ignored).
    pub fn new(words: &[Vec<u8>]) -> Self {
        let mut w: Vec<&[u8]> = words.iter().map(|x| &x[..]).collect();
        w.sort_unstable();
        w.dedup();
        let mut t = Trie {
            nodes: Vec::new(),
            edges: Vec::new(),
        };
        t.build(&w, 0);
        t
    }

    fn build(&mut self, words: &[&[u8]], depth: usize) -> u32 {
        let id = self.nodes.len() as u32;
        let word = words.first().is_some_and(|w| w.len() == depth);
        let rest = &words[word as usize..];
        let mut groups = Vec::new();
        let mut i = 0;
        while i < rest.len() {
            let c = rest[i][depth];
            let j = i + rest[i..].partition_point(|w| w[depth] == c);
            groups.push((c, i, j));
            i = j;
        }
        let first = self.edges.len() as u32;
        self.nodes.push((first, groups.len() as u8, word));
        self.edges.extend(groups.iter().map(|&(c, _, _)| (c, 0)));
        for (k, &(_, i, j)) in groups.iter().enumerate() {
            let child = self.build(&rest[i..j], depth + 1);
            self.edges[first as usize + k].1 = child;
        }
        id
    }

    /// The root.
    pub const ROOT: u32 = 0;

    /// The child of `node` along symbol `s`.
    pub fn child(&self, node: u32, s: u8) -> Option<u32> {
        let (first, n, _) = self.nodes[node as usize];
        self.edges[first as usize..first as usize + n as usize]
            .iter()
            .find(|e| e.0 == s)
            .map(|e| e.1)
    }

    /// Whether a word ends at `node`.
    pub fn is_word(&self, node: u32) -> bool {
        self.nodes[node as usize].2
    }

    /// Nodes in the trie.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.len() <= 1
    }
}

/// The dice forms of a list's words that some grid of `cells` dice could hold.
pub fn dice_forms(list: &WordList, cells: usize) -> Vec<Vec<u8>> {
    list.words()
        .iter()
        .filter_map(|w| dice_of(w))
        .filter(|d| !d.is_empty() && d.len() <= cells)
        .collect()
}

/// Every word of the trie on the grid with at least `min_letters` letters (`Qu` counts two),
/// as letters, sorted, each once: the trie walk.
pub fn solve(grid: &Grid, trie: &Trie, min_letters: usize) -> Vec<Letters> {
    fn walk(
        grid: &Grid,
        trie: &Trie,
        node: u32,
        cell: usize,
        used: u32,
        path: &mut Vec<u8>,
        found: &mut HashSet<Vec<u8>>,
    ) {
        let Some(next) = trie.child(node, grid.faces[cell]) else {
            return;
        };
        path.push(grid.faces[cell]);
        let used = used | 1 << cell;
        if trie.is_word(next) {
            found.insert(path.clone());
        }
        for d in grid.neighbours(cell) {
            if used >> d & 1 == 0 {
                walk(grid, trie, next, d, used, path, found);
            }
        }
        path.pop();
    }
    let mut found = HashSet::new();
    let mut path = Vec::new();
    for c in 0..grid.cells() {
        walk(grid, trie, Trie::ROOT, c, 0, &mut path, &mut found);
    }
    finish(found, min_letters)
}

pub(crate) fn finish(found: HashSet<Vec<u8>>, min_letters: usize) -> Vec<Letters> {
    let mut out: Vec<Letters> = found
        .into_iter()
        .map(|d| letters_of_dice(&d))
        .filter(|w| w.len() >= min_letters)
        .collect();
    out.sort();
    out
}

/// A path of dice spelling `dice` on the grid, if there is one (a search from every die).
pub fn trace(grid: &Grid, dice: &[u8]) -> Option<Vec<usize>> {
    fn rec(grid: &Grid, dice: &[u8], path: &mut Vec<usize>, used: u32) -> bool {
        if path.len() == dice.len() {
            return true;
        }
        let want = dice[path.len()];
        let last = path.last().copied();
        for c in 0..grid.cells() {
            if used >> c & 1 == 1
                || grid.faces[c] != want
                || last.is_some_and(|l| !grid.adjacent(l, c))
            {
                continue;
            }
            path.push(c);
            if rec(grid, dice, path, used | 1 << c) {
                return true;
            }
            path.pop();
        }
        false
    }
    let mut path = Vec::with_capacity(dice.len());
    (!dice.is_empty() && rec(grid, dice, &mut path, 0)).then_some(path)
}

/// The reference solver: one [`trace`] per dictionary word.
pub fn solve_by_words(grid: &Grid, words: &[Vec<u8>], min_letters: usize) -> Vec<Letters> {
    let found = words
        .iter()
        .filter(|d| trace(grid, d).is_some())
        .cloned()
        .collect();
    finish(found, min_letters)
}

/// The second reference, for small grids: the dice form of every simple path, looked up in
/// a set.
pub fn solve_by_paths(grid: &Grid, words: &[Vec<u8>], min_letters: usize) -> Vec<Letters> {
    let set: HashSet<&[u8]> = words.iter().map(|w| &w[..]).collect();
    let mut found = HashSet::new();
    let mut stack: Vec<(Vec<usize>, Vec<u8>)> = (0..grid.cells())
        .map(|c| (vec![c], vec![grid.faces[c]]))
        .collect();
    while let Some((path, w)) = stack.pop() {
        if set.contains(&w[..]) {
            found.insert(w.clone());
        }
        let last = *path.last().expect("non-empty");
        for d in 0..grid.cells() {
            if !path.contains(&d) && grid.adjacent(last, d) {
                let mut p = path.clone();
                p.push(d);
                let mut x = w.clone();
                x.push(grid.faces[d]);
                stack.push((p, x));
            }
        }
    }
    finish(found, min_letters)
}
