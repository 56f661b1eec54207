//! The built-in puzzle catalog: the files of `puzzles/peg/`, compiled into the binaries so
//! that `prover peg solve english` works from any directory.

use super::board::Puzzle;
use zkgames_core::Result;

/// `(name, file text)` for every catalog puzzle.
pub const PUZZLES: &[(&str, &str)] = &[
    ("tee", include_str!("../../../puzzles/peg/tee.txt")),
    ("english", include_str!("../../../puzzles/peg/english.txt")),
    (
        "european",
        include_str!("../../../puzzles/peg/european.txt"),
    ),
    ("wiegleb", include_str!("../../../puzzles/peg/wiegleb.txt")),
    (
        "wiegleb-24",
        include_str!("../../../puzzles/peg/wiegleb-24.txt"),
    ),
    ("diamond", include_str!("../../../puzzles/peg/diamond.txt")),
    (
        "diamond-full",
        include_str!("../../../puzzles/peg/diamond-full.txt"),
    ),
    (
        "triangle15",
        include_str!("../../../puzzles/peg/triangle15.txt"),
    ),
    (
        "square5-diagonal",
        include_str!("../../../puzzles/peg/square5-diagonal.txt"),
    ),
];

/// The text of a catalog puzzle.
pub fn text(name: &str) -> Option<&'static str> {
    PUZZLES.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
}

/// A catalog puzzle, parsed.
pub fn get(name: &str) -> Option<Puzzle> {
    text(name).map(|t| Puzzle::parse(t).expect("catalog puzzles are valid"))
}

/// Loads a puzzle from a file path, `-` for stdin, or a catalog name when no such file exists.
pub fn load(path_or_name: &str) -> Result<Puzzle> {
    if path_or_name != "-" && !std::path::Path::new(path_or_name).exists() {
        if let Some(p) = get(path_or_name) {
            return Ok(p);
        }
    }
    Puzzle::load(path_or_name)
}

/// A catalog puzzle's instance with a solution found by [`crate::solver`] (for
/// examples, tests and benchmarks; `None` for an unknown name or an unsolved puzzle).
pub fn solved(name: &str) -> Option<(super::instance::Instance, super::instance::Matrix)> {
    use super::solver::{solve, SolveOptions, SolveOutcome};
    let p = get(name)?;
    let opts = SolveOptions {
        symmetries: p.symmetries(),
        ..SolveOptions::default()
    };
    match solve(p.instance(), &opts) {
        SolveOutcome::Solved(z) => Some((p.instance().clone(), z)),
        _ => None,
    }
}

/// The names of the catalog, for help texts and errors.
pub fn names() -> Vec<&'static str> {
    PUZZLES.iter().map(|(n, _)| *n).collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_catalog_puzzle_parses_and_matches_its_name() {
        for (name, _) in super::PUZZLES {
            let p = super::get(name).unwrap();
            assert_eq!(p.name(), *name);
        }
        assert!(super::get("nope").is_none());
    }
}
