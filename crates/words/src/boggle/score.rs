//! A live round's rules: the context each find of a round is bound to, and Boggle's scoring.
//!
//! **Context.** A find sealed during a round proves its statement under
//! [`round_context`]`(round, player)`: `ROUND_TAG ‖ round (16 bytes, the referee's fresh
//! nonce) ‖ u8 len ‖ the player's name`. The engines put the context into the Fiat–Shamir
//! transcript, so a find verifies for one round and one player only: a find replayed by
//! another player, or from another round, does not verify.
//!
//! **Scoring** ([`score`]). Each player's opened words (a word opened twice by one player
//! counts once); a word opened by two players or more scores for nobody; the others score
//! by their length in letters ([`points`]: Qu counts two).

use std::collections::{BTreeMap, BTreeSet};

use crate::dict::Letters;

/// Domain tag of [`round_context`].
pub const ROUND_TAG: &[u8] = b"zkg:boggle:round:v1";
/// Bytes of a round's nonce.
pub const ROUND_BYTES: usize = 16;
/// The longest player name, in bytes.
pub const MAX_NAME: usize = 32;

/// Whether `name` can name a player: 1 to [`MAX_NAME`] characters of `A-Za-z0-9_.-`.
pub fn valid_name(name: &str) -> bool {
    (1..=MAX_NAME).contains(&name.len())
        && name
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.'))
}

/// The context a player's finds in a round are sealed under (`name` a [`valid_name`]).
pub fn round_context(round: &[u8; ROUND_BYTES], name: &str) -> Vec<u8> {
    assert!(valid_name(name), "a player's name is checked before");
    let mut c = ROUND_TAG.to_vec();
    c.extend_from_slice(round);
    c.push(name.len() as u8);
    c.extend_from_slice(name.as_bytes());
    c
}

/// Boggle's points for a word of `letters` letters: 3–4 letters 1, 5 letters 2, 6 letters 3,
/// 7 letters 5, 8 or more 11; shorter words none.
pub fn points(letters: usize) -> u32 {
    match letters {
        0..=2 => 0,
        3 | 4 => 1,
        5 => 2,
        6 => 3,
        7 => 5,
        _ => 11,
    }
}

/// One word of a player's list on the scoreboard.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scored {
    pub word: Letters,
    /// Whether another player opened it too (then it scores nothing).
    pub shared: bool,
    pub points: u32,
}

/// Scores a round: per player (in the order given) its distinct words, sorted, and its total.
pub fn score(players: &[Vec<Letters>]) -> Vec<(Vec<Scored>, u32)> {
    let lists: Vec<BTreeSet<&Letters>> = players.iter().map(|w| w.iter().collect()).collect();
    let mut found_by: BTreeMap<&Letters, usize> = BTreeMap::new();
    for l in &lists {
        for w in l {
            *found_by.entry(w).or_default() += 1;
        }
    }
    lists
        .iter()
        .map(|l| {
            let words: Vec<Scored> = l
                .iter()
                .map(|w| {
                    let shared = found_by[w] > 1;
                    Scored {
                        word: (*w).clone(),
                        shared,
                        points: if shared { 0 } else { points(w.len()) },
                    }
                })
                .collect();
            let total = words.iter().map(|s| s.points).sum();
            (words, total)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use zkgames_core::rng::seeded_rng;

    #[test]
    fn points_follow_the_rules() {
        let want = [0, 0, 0, 1, 1, 2, 3, 5, 11, 11, 11, 11, 11, 11, 11, 11, 11];
        for (n, &p) in want.iter().enumerate() {
            assert_eq!(points(n), p, "{n} letters");
        }
    }

    /// Against a plain computation: for every player and word, count the players holding
    /// it by a linear search.
    #[test]
    fn scores_match_a_plain_count_on_random_rounds() {
        use rand::Rng as _;
        let mut rng = seeded_rng(5);
        for _ in 0..300 {
            let n = rng.gen_range(0..5);
            let players: Vec<Vec<Letters>> = (0..n)
                .map(|_| {
                    (0..rng.gen_range(0..8))
                        .map(|_| {
                            (0..rng.gen_range(1..10))
                                .map(|_| rng.gen_range(0..2u8))
                                .collect()
                        })
                        .collect()
                })
                .collect();
            let got = score(&players);
            assert_eq!(got.len(), players.len());
            for (i, (words, total)) in got.iter().enumerate() {
                let mut mine: Vec<Letters> = players[i].clone();
                mine.sort();
                mine.dedup();
                assert_eq!(
                    words.iter().map(|s| s.word.clone()).collect::<Vec<_>>(),
                    mine
                );
                let mut sum = 0;
                for s in words {
                    let holders = players.iter().filter(|p| p.contains(&s.word)).count();
                    assert_eq!(s.shared, holders > 1);
                    let p = if holders > 1 { 0 } else { points(s.word.len()) };
                    assert_eq!(s.points, p);
                    sum += p;
                }
                assert_eq!(*total, sum);
            }
        }
    }

    #[test]
    fn contexts_differ_per_round_and_player() {
        let a = round_context(&[1; 16], "alice");
        assert_ne!(a, round_context(&[2; 16], "alice"));
        assert_ne!(a, round_context(&[1; 16], "alicf"));
        // the name's length is in the context: no name is a prefix of another's context
        assert_ne!(round_context(&[1; 16], "ab"), round_context(&[1; 16], "a"));
        assert!(valid_name("bob_2.x-y") && !valid_name("") && !valid_name("a b"));
        assert!(!valid_name(&"a".repeat(33)) && valid_name(&"a".repeat(32)));
    }
}
