use super::*;
use rand::Rng as _;
use zkgames_core::rng::seeded_rng;

fn random_grid(rng: &mut impl rand::Rng, side: usize, alphabet: u8) -> Grid {
    Grid::new(
        side,
        (0..side * side)
            .map(|_| rng.gen_range(0..alphabet))
            .collect(),
    )
}

fn random_words(rng: &mut impl rand::Rng, n: usize, alphabet: u8, max: usize) -> Vec<Vec<u8>> {
    (0..n)
        .map(|_| {
            let l = rng.gen_range(1..=max);
            (0..l).map(|_| rng.gen_range(0..alphabet)).collect()
        })
        .collect()
}

/// The trie walk against both references on many random small grids (small alphabets:
/// many words on every grid, repeated letters, and the Qu face among them).
#[test]
fn the_trie_walk_finds_what_brute_force_finds() {
    let mut rng = seeded_rng(41);
    let mut total = 0;
    for it in 0..400 {
        let side = [2usize, 3, 3, 4][it % 4];
        let alphabet = [2u8, 3, 5, 26][it / 4 % 4];
        // letters 16 (q) and 20 (u) are in play when the alphabet is shifted
        let shift = if it % 3 == 0 { 15 } else { 0 };
        let g = Grid::new(
            side,
            random_grid(&mut rng, side, alphabet)
                .faces()
                .iter()
                .map(|f| (f + shift) % 26)
                .collect(),
        );
        let words: Vec<Vec<u8>> = random_words(&mut rng, 300, alphabet, side * side)
            .into_iter()
            .map(|w| w.iter().map(|f| (f + shift) % 26).collect())
            .collect();
        let trie = Trie::new(&words);
        let min = it % 3;
        let got = solve(&g, &trie, min);
        assert_eq!(got, solve_by_words(&g, &words, min), "{g:?}");
        if side <= 3 {
            assert_eq!(got, solve_by_paths(&g, &words, min), "{g:?}");
        }
        for w in &got {
            assert!(w.len() >= min);
        }
        total += got.len();
    }
    assert!(total > 2000, "{total}");
}

#[test]
fn dice_forms_and_qu() {
    let l = |s: &str| dict::letters_of(s).unwrap();
    assert_eq!(dice_of(&l("queen")).unwrap(), l("qeen"));
    assert_eq!(letters_of_dice(&l("qeen")), l("queen"));
    assert!(dice_of(&l("qatar")).is_none());
    assert!(dice_of(&l("iraq")).is_none());
    let g = Grid::parse("QEEN/xxxx/xxxx/xxxx", "grid").unwrap();
    let d = Dictionary::parse("queen\nqeen\n", "d").unwrap();
    let trie = Trie::new(&dice_forms(d.list(), 16));
    assert_eq!(solve(&g, &trie, 5), vec![l("queen")]);
    assert_eq!(solve(&g, &trie, 0), vec![l("queen")]);
}

#[test]
fn grids_are_read_strictly() {
    let a = Grid::parse("abcd/efgh/ijkl/mnop", "g").unwrap();
    let b = Grid::parse("\u{feff}ABCD\r\nefgh\nijkl\nmnop\n", "g").unwrap();
    assert_eq!(a, b);
    assert_eq!(a.text(), "abcd/efgh/ijkl/mnop");
    assert_eq!(
        Grid::parse("abcde/fghij/klmno/pqrst/uvwxy", "g")
            .unwrap()
            .cells(),
        25
    );
    for (bad, needle) in [
        ("", "0 rows"),
        ("abc/def/ghi", "3 rows"),
        ("abcd/efgh/ijkl/mno", "row 4 has 3"),
        ("abcd/ef1h/ijkl/mnop", "row 2"),
        ("abcd/efgh/ijkl/mnop/qrst", "row 1 has 4 letters, not 5"),
        ("abcdef/a/b/c/d/e", "6 rows"),
    ] {
        let e = Grid::parse(bad, "the grid").unwrap_err().to_string();
        assert!(e.contains(needle), "{bad}: {e}");
        assert!(!e.contains('\n'));
    }
    assert!(a.adjacent(0, 5) && a.adjacent(5, 0) && !a.adjacent(0, 2) && !a.adjacent(3, 4));
    assert_eq!(a.neighbours(5).count(), 8);
    assert_ne!(
        a.digest(),
        Grid::parse("abcd/efgh/ijkl/mnoq", "g").unwrap().digest()
    );
}

/// The path gadget against every witness: all index values of every die, on a 2×2 grid
/// for paths of 1 to 5 dice and a 3×3 grid (with codes past its 9 dice) for 1 to 3.
#[test]
fn the_path_gadget_accepts_exactly_the_paths() {
    let mut rng = seeded_rng(42);
    for (side, maxm) in [(2usize, 5usize), (3, 3)] {
        let g = random_grid(&mut rng, side, 26);
        let ib = index_bits(g.cells());
        for m in 1..=maxm {
            let mut b = Builder::new(m * ib);
            let steps: Vec<Vec<Bit>> = (0..m)
                .map(|i| (0..ib).map(|k| b.input(ib * i + k)).collect())
                .collect();
            let (codes, checks) = path_gadget(&mut b, &g, &steps);
            for c in &codes {
                b.output_word(c);
            }
            for c in &checks {
                b.output(c.0);
            }
            let want_checks: Vec<bool> = checks.iter().map(|c| c.1).collect();
            let circ = b.finish();
            let mut accepted = 0;
            for x in 0u32..1 << (m * ib) {
                let idx: Vec<usize> = (0..m)
                    .map(|i| (x >> (ib * i) & ((1 << ib) - 1)) as usize)
                    .collect();
                let bits: Vec<bool> = (0..m * ib).map(|k| x >> k & 1 == 1).collect();
                let out = circ.eval(&bits);
                let ok = out[5 * m..] == want_checks[..];
                // the reference: dice on the grid, adjacent, distinct
                let want = idx.iter().all(|&c| c < g.cells())
                    && idx.windows(2).all(|p| {
                        let (a, b) = (p[0] as i64, p[1] as i64);
                        let s = side as i64;
                        (a / s - b / s).abs() <= 1 && (a % s - b % s).abs() <= 1 && a != b
                    })
                    && idx.iter().collect::<HashSet<_>>().len() == m;
                assert_eq!(ok, want, "{idx:?}");
                if ok {
                    accepted += 1;
                    for (i, &c) in idx.iter().enumerate() {
                        let code: u8 = (0..5).map(|k| (out[5 * i + k] as u8) << k).sum();
                        assert_eq!(code, g.faces()[c] + 1);
                    }
                }
            }
            assert!(accepted > 0 || m > g.cells());
        }
    }
}

#[test]
fn the_table_cipher_is_aes() {
    let mut rng = seeded_rng(46);
    let (mut some, mut none) = (0, 0);
    for i in 0..3000 {
        let mut k: [u8; 16] = rng.gen();
        let mut p: [u8; 16] = rng.gen();
        if i % 3 == 0 {
            // zero bytes at the start: zero S-box inputs in the first round or schedule
            k[rng.gen_range(0..16)] = 0;
            p[rng.gen_range(0..16)] = k[rng.gen_range(0..16)];
        }
        match aes_nonzero(&k, &p) {
            Some(c) => {
                assert!(aes128::sbox_inputs_nonzero(&k, &p));
                assert_eq!(c, aes128::encrypt(&k, &p));
                some += 1;
            }
            None => {
                assert!(!aes128::sbox_inputs_nonzero(&k, &p));
                none += 1;
            }
        }
    }
    assert!(some > 1000 && none > 1000, "{some} {none}");
}

#[test]
fn the_node_circuit_is_the_compression() {
    let mut rng = seeded_rng(43);
    let mut b = Builder::new(248);
    let l: Vec<Bit> = (0..120).map(|i| b.input(i)).collect();
    let r: Vec<Bit> = (0..120).map(|i| b.input(120 + i)).collect();
    let t: Vec<Bit> = (0..8).map(|i| b.input(240 + i)).collect();
    let out = node_gadget(&mut b, 3, &l, &r, &t);
    b.output_word(&out);
    let c = b.finish();
    assert_eq!((c.n_and(), c.n_inv()), (0, 200));
    let mut n = 0;
    while n < 20 {
        let (x, y): (Node, Node) = (rng.gen(), rng.gen());
        let tw: u8 = rng.gen();
        let mut w = commit::bits_of(&x);
        w.extend(commit::bits_of(&y));
        w.extend((0..8).map(|k| tw >> k & 1 == 1));
        match compress_with(3, &x, &y, tw) {
            Some(z) => {
                assert_eq!(c.eval_checked(&w).unwrap(), commit::bits_of(&z));
                n += 1;
            }
            None => assert!(c.eval_checked(&w).is_err()),
        }
    }
    let (z, t) = compress(0, &[1; 15], &[2; 15]).unwrap();
    assert_eq!(compress_with(0, &[1; 15], &[2; 15], t), Some(z));
    assert!((0..t).all(|u| compress_with(0, &[1; 15], &[2; 15], u).is_none()));
    assert_ne!(compress_with(1, &[1; 15], &[2; 15], t), Some(z));
}

/// The Merkle gadget on a tree of 3 words (padded to 4) against every witness drawn from
/// its pieces: every leaf of two symbols over three, every direction pair, every sibling
/// of either level among the tree's nodes (and a zero node), every tweak pair among those
/// the tree uses (and one more); accepted exactly when the native path gives the root,
/// and then the leaf is a word of the list.
#[test]
fn the_membership_gadget_accepts_exactly_the_words() {
    let words: Vec<Vec<u8>> = vec![vec![0, 1], vec![1, 1], vec![2, 0]];
    let tree = Tree::build(words.iter().map(|w| leaf(w)).collect()).unwrap();
    assert_eq!(tree.depth(), 2);
    let root = tree.root();
    let mut b = Builder::new(120 + 2 * 129);
    let lf: Vec<Bit> = (0..120).map(|i| b.input(i)).collect();
    let levels: Vec<(Bit, Vec<Bit>, Vec<Bit>)> = (0..2)
        .map(|j| {
            let at = 120 + 129 * j;
            (
                b.input(at),
                (0..120).map(|i| b.input(at + 1 + i)).collect(),
                (0..8).map(|i| b.input(at + 121 + i)).collect(),
            )
        })
        .collect();
    let out = merkle_gadget(&mut b, &lf, &levels);
    b.output_word(&out);
    let c = b.finish();
    assert_eq!(c.n_and(), 2 * 120);
    let distinct = |v: &[Node]| {
        let mut v: Vec<Node> = v.iter().copied().chain([[0; 15]]).collect();
        v.sort();
        v.dedup();
        v
    };
    let (sib0, sib1) = (distinct(&tree.levels[0]), distinct(&tree.levels[1]));
    let mut tweaks: Vec<u8> = tree.tweaks.iter().flatten().copied().collect();
    tweaks.push(tweaks.iter().max().unwrap() + 1);
    tweaks.sort();
    tweaks.dedup();
    let (mut accepted, mut tried) = (0, 0);
    for x in 0..9u8 {
        let w = vec![x / 3, x % 3];
        let l = leaf(&w);
        for dirs in 0..4u8 {
            for s0 in &sib0 {
                for s1 in &sib1 {
                    for &t0 in &tweaks {
                        for &t1 in &tweaks {
                            let steps = [(dirs & 1 == 1, *s0, t0), (dirs & 2 == 2, *s1, t1)];
                            let mut bits = commit::bits_of(&l);
                            for (d, s, t) in &steps {
                                bits.push(*d);
                                bits.extend(commit::bits_of(s));
                                bits.extend((0..8).map(|k| t >> k & 1 == 1));
                            }
                            let got = c.eval_checked(&bits).ok() == Some(commit::bits_of(&root));
                            let native = root_of(&l, &steps) == Some(root);
                            assert_eq!(got, native);
                            tried += 1;
                            if got {
                                accepted += 1;
                                assert!(words.contains(&w), "{w:?}");
                            }
                        }
                    }
                }
            }
        }
    }
    // each word by its own path; the last word also as its padding copy (either direction
    // at the bottom: both children are that word)
    assert_eq!(accepted, 4, "of {tried}");
    for w in &words {
        let i = tree.leaves().binary_search(&leaf(w)).unwrap();
        assert_eq!(root_of(&leaf(w), &tree.path(i)), Some(root));
    }
}

fn tiny() -> (Grid, Dictionary) {
    tiny_as(None)
}

fn tiny_as(force: Option<Design>) -> (Grid, Dictionary) {
    let (g, d) = tiny_list();
    (
        g,
        force.map_or(d, |f| {
            Dictionary::from_list(WordList::clone(Dictionary::list(&tiny_list().1))).forcing(f)
        }),
    )
}

fn tiny_list() -> (Grid, Dictionary) {
    let g = Grid::parse("cats/oqen/does/xyzw", "g").unwrap();
    let d = Dictionary::parse("cat\ncats\ndoe\ndoes\nqueen\nact\nzzz\nnot\n", "d").unwrap();
    (g, d)
}

/// The whole find on the VOLE engine at a low security level: proven, verified, opened;
/// and refused on another grid, another dictionary, another context, a flipped byte.
/// The whole find, with the design the dictionary picks and with each design forced.
#[test]
fn a_find_seals_verifies_and_opens() {
    for force in [None, Some(Design::Merkle), Some(Design::Automaton)] {
        find_round_trip(force);
    }
}

fn find_round_trip(force: Option<Design>) {
    let (g, d) = tiny_as(force);
    if let Some(f) = force {
        assert_eq!(d.membership(4).unwrap().design(), f);
    } else {
        // eight words: the automaton is far cheaper than a tree
        assert_eq!(d.membership(4).unwrap().design(), Design::Automaton);
    }
    let mut rng = seeded_rng(44);
    let sys = System::vole(16, zkgames_mpc::vole::Profile::Speed).unwrap();
    let req = Required::bits(16);
    let word = dict::letters_of("queen").unwrap();
    let s = seal(&g, &d, &word, &sys, b"ctx", &mut rng).unwrap();
    assert_eq!(s.dice, 4);
    let (head, digest) = verify(&g, &d, &s.file, &req, b"ctx").unwrap();
    assert_eq!(digest, s.opening.find);
    assert_eq!(open(&g, &d, &s.file, &head, &s.opening).unwrap(), word);
    let o = Opening::from_bytes(&s.opening.to_bytes()).unwrap();
    assert_eq!(o, s.opening);
    assert!(!format!("{o:?}").contains(&hex::encode(o.key)));
    assert!(verify(&g, &d, &s.file, &req, b"other").is_err());
    let g2 = Grid::parse("cats/oqen/does/xyzz", "g").unwrap();
    assert!(matches!(
        verify(&g2, &d, &s.file, &req, b"ctx"),
        Err(Error::Rejected(_))
    ));
    let mut d2 = Dictionary::parse("cat\ncats\ndoe\ndoes\nqueen\nact\n", "d").unwrap();
    if let Some(f) = force {
        d2 = d2.forcing(f);
    }
    assert!(matches!(
        verify(&g, &d2, &s.file, &req, b"ctx"),
        Err(Error::Rejected(_))
    ));
    for at in [30, s.file.len() / 2, s.file.len() - 1] {
        let mut t = s.file.clone();
        t[at] ^= 1;
        assert!(verify(&g, &d, &t, &req, b"ctx").is_err(), "{at}");
    }
    let mut o2 = s.opening.clone();
    o2.word = dict::letters_of("does").unwrap();
    assert!(open(&g, &d, &s.file, &head, &o2).is_err());
    o2.word = word.clone();
    o2.key[0] ^= 1;
    assert!(open(&g, &d, &s.file, &head, &o2).is_err());
    // refused by the prover: not on the grid, not in the dictionary
    for w in ["zzz", "act", "tac"] {
        let e = seal(&g, &d, &dict::letters_of(w).unwrap(), &sys, b"", &mut rng);
        assert!(matches!(e, Err(Error::BadInput(_))), "{w}");
    }
}

#[test]
fn the_find_circuit_holds_only_for_a_real_path() {
    let (g, d) = tiny();
    let mut rng = seeded_rng(45);
    let dice = dice_of(&dict::letters_of("does").unwrap()).unwrap();
    let tree = d.tree(4).unwrap();
    let i = tree.leaves().binary_search(&leaf(&dice)).unwrap();
    let path = trace(&g, &dice).unwrap();
    let key = fresh_key(&leaf(&dice), &mut rng);
    let (c, checks) = find_circuit(&g, 4, &Membership::Merkle(tree.clone()));
    let mut want = commit::bits_of(&commit_leaf(&key, &leaf(&dice)));
    want.extend(commit::bits_of(&tree.root()));
    want.extend(&checks);
    let w = witness(&g, &key, &path, &tree.path(i));
    assert_eq!(c.eval_checked(&w).unwrap(), want);
    // another word's path (cats: on the grid, in the list) under this leaf's tree path
    let other = trace(&g, &dice_of(&dict::letters_of("cats").unwrap()).unwrap()).unwrap();
    let w2 = witness(&g, &key, &other, &tree.path(i));
    assert_ne!(c.eval_checked(&w2).ok(), Some(want.clone()));
    // a path that jumps
    let mut jump = path.clone();
    jump.swap(0, 3);
    assert_ne!(
        c.eval_checked(&witness(&g, &key, &jump, &tree.path(i)))
            .ok(),
        Some(want)
    );
}

/// The find circuit with the automaton design on a 2×2 grid against every path witness
/// of 1 to 4 dice: the path's checks and the membership bit hold exactly for a path of
/// distinct adjacent dice spelling a word of the class.
#[test]
fn the_automaton_find_accepts_exactly_the_words_on_the_grid() {
    let g = Grid::new(2, vec![0, 1, 0, 2]);
    let words: Vec<Vec<u8>> = vec![
        vec![0],
        vec![0, 1],
        vec![1, 0],
        vec![2, 2],
        vec![0, 1, 2],
        vec![0, 0, 1],
        vec![1, 2, 0, 0],
        vec![2, 0, 1, 0],
    ];
    let key = [3u8; 16];
    for m in 1..=4 {
        let class: Vec<Vec<u8>> = words.iter().filter(|w| w.len() == m).cloned().collect();
        let list = WordList::from_letters(m, class.clone());
        for backward in [false, true] {
            let mem = Membership::Automaton {
                list: list.clone(),
                backward,
            };
            let (c, tail) = find_circuit(&g, m, &mem);
            let mut accepted = 0;
            for x in 0u32..1 << (2 * m) {
                let path: Vec<usize> = (0..m).map(|i| (x >> (2 * i) & 3) as usize).collect();
                let out = c.eval(&witness(&g, &key, &path, &[]));
                let got = out[256..] == tail[..];
                let spelled: Vec<u8> = path.iter().map(|&c| g.faces()[c]).collect();
                let valid = path.windows(2).all(|p| g.adjacent(p[0], p[1]))
                    && path.iter().collect::<HashSet<_>>().len() == m;
                assert_eq!(got, valid && class.contains(&spelled), "{path:?}");
                accepted += got as usize;
            }
            assert!(accepted > 0, "{m}");
        }
    }
}

#[test]
fn the_cheaper_design_is_chosen() {
    // a class of two words: the automaton; the Merkle bits grow by a level per doubling
    let d = Dictionary::parse("abcd\nabce\n", "d").unwrap();
    assert_eq!(d.membership(4).unwrap().design(), Design::Automaton);
    assert_eq!(merkle_bits(4, 0), 0);
    assert_eq!(
        merkle_bits(4, 2) - merkle_bits(4, 1),
        1 + 120 + 8 + 120 + 1280
    );
    assert_eq!(merkle_bits(4, 1), 1 + 20 + 8 + 20 + 1280);
    // 20,000 random words of 6 letters: little shared structure, the tree
    let mut rng = seeded_rng(47);
    let words: String = (0..20_000)
        .map(|_| {
            let w: String = (0..6)
                .map(|_| (b'a' + rng.gen_range(0..26u8)) as char)
                .collect();
            format!("{w}\n")
        })
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    let d = Dictionary::parse(&words, "d").unwrap();
    let m = d.membership(6).unwrap();
    assert_eq!(m.design(), Design::Merkle, "{}", m.describe());
    let n = d.class(6).len();
    assert!(
        automaton_ands(d.class(6), 6) >= merkle_bits(6, m.depth()),
        "{n}"
    );
}

#[test]
fn opening_bytes_are_read_strictly() {
    let o = Opening {
        find: [7; 32],
        key: [9; 16],
        word: dict::letters_of("quiz").unwrap(),
    };
    let b = o.to_bytes();
    assert_eq!(Opening::from_bytes(&b).unwrap(), o);
    for cut in 0..b.len() {
        assert!(Opening::from_bytes(&b[..cut]).is_err());
    }
    let mut t = b.clone();
    t.push(b'a');
    assert!(Opening::from_bytes(&t).is_err());
    let mut t = b.clone();
    *t.last_mut().unwrap() = b'Z';
    assert!(Opening::from_bytes(&t).is_err());
}

#[test]
fn dictionaries_of_every_length_are_read_by_the_list_rules() {
    let d = Dictionary::parse("Cat\ncats\n\nquiet\nqat\n", "d").unwrap();
    assert_eq!(d.class_sizes(), vec![(3, 1), (4, 2)]);
    assert_eq!(d.list().len(), 4);
    for (text, needle) in [
        ("cat\ncat\n", "listed twice"),
        ("cat\nca t\n", "line 2"),
        ("", "no word"),
    ] {
        let e = Dictionary::parse(text, "d").err().unwrap().to_string();
        assert!(e.contains(needle), "{e}");
    }
    let long = "a".repeat(MAX_LETTERS + 1);
    assert!(Dictionary::parse(&long, "d").is_err());
    assert!(d.tree(9).is_err());
}
