//! A find's dictionary: its classes by length in dice and the cheaper membership design of each.

#[allow(unused_imports)]
use super::*;

/// A dictionary for finds: the list, its dice forms by length in dice, the trees built on
/// demand.
pub struct Dictionary {
    list: WordList,
    classes: BTreeMap<usize, Vec<Vec<u8>>>,
    force: Option<Design>,
}

impl Dictionary {
    /// Reads a dictionary: one word a line, 1 to [`MAX_LETTERS`] letters (the rules of
    /// [`WordList::parse_lengths`]).
    pub fn parse(text: &str, what: &str) -> Result<Self> {
        Ok(Self::from_list(WordList::parse_lengths(
            text,
            1,
            MAX_LETTERS,
            what,
        )?))
    }

    /// The shipped dictionary.
    pub fn shipped() -> Self {
        Self::parse(DEFAULT_DICT, "the shipped dictionary").expect("shipped dictionary")
    }

    pub fn from_list(list: WordList) -> Self {
        let mut classes: BTreeMap<usize, Vec<Vec<u8>>> = BTreeMap::new();
        for d in dice_forms(&list, MAX_DICE) {
            classes.entry(d.len()).or_default().push(d);
        }
        for c in classes.values_mut() {
            c.sort_unstable();
        }
        Dictionary {
            list,
            classes,
            force: None,
        }
    }

    pub fn list(&self) -> &WordList {
        &self.list
    }

    pub fn digest(&self) -> Digest {
        self.list.digest()
    }

    /// The dice forms of `m` dice, sorted.
    pub fn class(&self, m: usize) -> &[Vec<u8>] {
        self.classes.get(&m).map_or(&[], |c| &c[..])
    }

    /// The lengths in dice present, with their word counts.
    pub fn class_sizes(&self) -> Vec<(usize, usize)> {
        self.classes.iter().map(|(&m, c)| (m, c.len())).collect()
    }

    /// The same dictionary with one design for every class (tests and measurements; both
    /// sides of a find must force the same).
    pub fn forcing(mut self, d: Design) -> Self {
        self.force = Some(d);
        self
    }

    /// The membership of the words of `m` dice: the compiled automaton if it commits fewer
    /// bits than the Merkle path (AND gates against [`merkle_bits`]), else the tree (rejected
    /// if there is no word of `m` dice).
    pub fn membership(&self, m: usize) -> Result<Membership> {
        let c = self.class(m);
        if c.is_empty() {
            return Err(Error::rejected(format!(
                "the dictionary has no word of {m} dice"
            )));
        }
        let depth = c.len().next_power_of_two().trailing_zeros() as usize;
        let design = match self.force {
            Some(d) => d,
            None if automaton_ands(c, m) < merkle_bits(m, depth) => Design::Automaton,
            None => Design::Merkle,
        };
        match design {
            Design::Merkle => Ok(Membership::Merkle(self.tree(m)?)),
            Design::Automaton => {
                let list = WordList::from_letters(m, c.to_vec());
                let backward = dict::automaton_and_gates(&list, true)
                    < dict::automaton_and_gates(&list, false);
                Ok(Membership::Automaton { list, backward })
            }
        }
    }

    /// The tree of the words of `m` dice (rejected if there is none: a find names a length
    /// the dictionary does not have).
    pub fn tree(&self, m: usize) -> Result<Tree> {
        let c = self.class(m);
        if c.is_empty() {
            return Err(Error::rejected(format!(
                "the dictionary has no word of {m} dice"
            )));
        }
        Tree::build(c.iter().map(|d| leaf(d)).collect())
    }
}

/// Committed bits of one node ([`node_gadget`]): 120 inverted bytes and 80 norms.
pub const NODE_COMMITTED_BITS: usize = 8 * 120 + 4 * 80;

/// Committed bits of a Merkle path of `depth` levels for a word of `m` dice: per level the
/// direction, the sibling, the tweak, the swap's AND gates and the node (at the bottom the
/// sibling and the swap take `5m` bits).
pub fn merkle_bits(m: usize, depth: usize) -> usize {
    let level = |sib: usize| 1 + sib + 8 + sib + NODE_COMMITTED_BITS;
    match depth {
        0 => 0,
        d => level(5 * m) + (d - 1) * level(8 * NODE_BYTES),
    }
}

/// A membership design.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Design {
    /// A Merkle path in the class's tree ([`Tree`]).
    Merkle,
    /// The class's minimal automaton compiled into the circuit ([`dict`]).
    Automaton,
}

/// How a find proves that its word is in its length class: the design with fewer committed
/// bits, a function of the class (both sides compute it).
pub enum Membership {
    Merkle(Tree),
    Automaton { list: WordList, backward: bool },
}

impl Membership {
    /// The design's byte in the public bytes: 0 Merkle, 1 automaton read forward, 2 backward.
    pub fn code(&self) -> u8 {
        match self {
            Membership::Merkle(_) => 0,
            Membership::Automaton { backward, .. } => 1 + *backward as u8,
        }
    }

    /// Words in the class.
    pub fn words(&self) -> usize {
        match self {
            Membership::Merkle(t) => t.words(),
            Membership::Automaton { list, .. } => list.len(),
        }
    }

    /// The tree's depth (0 for the automaton).
    pub fn depth(&self) -> usize {
        match self {
            Membership::Merkle(t) => t.depth(),
            Membership::Automaton { .. } => 0,
        }
    }

    pub fn design(&self) -> Design {
        match self {
            Membership::Merkle(_) => Design::Merkle,
            Membership::Automaton { .. } => Design::Automaton,
        }
    }

    /// A short description for reports.
    pub fn describe(&self) -> String {
        match self {
            Membership::Merkle(t) => format!("Merkle tree of depth {}", t.depth()),
            Membership::Automaton { backward, .. } => format!(
                "compiled automaton (read {})",
                if *backward { "backward" } else { "forward" }
            ),
        }
    }
}

/// AND gates of the compiled-automaton alternative for the words of one class: the cheaper
/// direction of [`dict::automaton_and_gates`] (the letters' one-hot bits come free from the
/// path's, the faces being public).
pub fn automaton_ands(class: &[Vec<u8>], m: usize) -> usize {
    let list = WordList::from_letters(m, class.to_vec());
    dict::automaton_and_gates(&list, false).min(dict::automaton_and_gates(&list, true))
}

/// Bits of a die's index on a grid of `cells` dice.
pub fn index_bits(cells: usize) -> usize {
    (usize::BITS - (cells - 1).leading_zeros()).max(1) as usize
}
