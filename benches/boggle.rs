//! Boggle (`words::boggle`): the trie walk against the brute-force reference (one search per
//! dictionary word) on random grids, in one run, alternating, and the two membership designs'
//! costs per length class of the shipped dictionary: the compiled automaton's AND gates
//! against the Merkle path's committed bits. `cargo bench --bench boggle` (`-- --test`: a few
//! grids and the classes of 4 and 8 dice only).
use std::time::Instant;

use rand::Rng as _;
use zkgames::rng::seeded_rng;
use zkgames::words::boggle::{self, Dictionary, Grid, Trie};

/// Letter frequencies of the classic dice, roughly: vowels and common consonants first.
const LETTERS: &[u8] = b"aaaeeeeiiioootttnnssrrhhlldcumwfgypbvkjxqz";

fn main() {
    let quick = std::env::args().any(|a| a == "--test");
    let d = Dictionary::shipped();
    let mut rng = seeded_rng(1);
    for side in [4usize, 5] {
        let grids = if quick { 3 } else { 200 };
        let words = boggle::dice_forms(d.list(), side * side);
        let t0 = Instant::now();
        let trie = Trie::new(&words);
        let build = t0.elapsed();
        let (mut walk, mut brute, mut found) = (0.0f64, 0.0f64, 0usize);
        for _ in 0..grids {
            let faces: Vec<u8> = (0..side * side)
                .map(|_| LETTERS[rng.gen_range(0..LETTERS.len())] - b'a')
                .collect();
            let g = Grid::new(side, faces);
            let s = Instant::now();
            let a = boggle::solve(&g, &trie, 3);
            walk += s.elapsed().as_secs_f64();
            let s = Instant::now();
            let b = boggle::solve_by_words(&g, &words, 3);
            brute += s.elapsed().as_secs_f64();
            assert_eq!(a, b);
            found += a.len();
        }
        println!(
            "{side}x{side}, {} words ({} trie nodes, built in {:.0} ms): trie walk {:.1} µs a grid, brute force {:.0} µs ({:.0}x); {:.1} words a grid ({grids} grids)",
            words.len(),
            trie.len(),
            build.as_secs_f64() * 1e3,
            walk / grids as f64 * 1e6,
            brute / grids as f64 * 1e6,
            brute / walk,
            found as f64 / grids as f64
        );
    }
    println!("| dice | words | automaton: committed bits (AND gates) | Merkle: depth, committed bits | shipped |");
    println!("|---|---|---|---|---|");
    for (m, n) in d.class_sizes() {
        if quick && m != 4 && m != 8 {
            continue;
        }
        let aut = boggle::automaton_ands(d.class(m), m);
        let depth = n.next_power_of_two().trailing_zeros() as usize;
        let mk = boggle::merkle_bits(m, depth);
        let chosen = d.membership(m).expect("a class").describe();
        println!("| {m} | {n} | {aut} | {depth}, {mk} | {chosen} |");
    }
}
