//! Find files: the protocol ids, the head, the opening, and seal, verify and open.

#[allow(unused_imports)]
use super::*;

zkgames_mpc::protocols! {
    /// Find files: protocol ids 496 (ZKB++), 497 (KKW), 498 (VOLE-in-the-head).
    pub FIND_PROTOCOLS = "a sealed Boggle find", "Boggle find",
    {
        Zkbpp: BOGGLE_FIND_MPC = 496,
        Kkw: BOGGLE_FIND_KKW = 497,
        Vole: BOGGLE_FIND_VOLE = 498,
    }
}

/// What precedes the proof in a find file's body.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FindHead {
    pub commitment: commit::Commitment,
    pub grid: Digest,
    pub dictionary: Digest,
    /// The word's length in dice.
    pub dice: u8,
}

/// `SHA-256(FIND_DIGEST_TAG ‖ find file bytes)`.
pub fn find_digest(file: &[u8]) -> Digest {
    let mut h = Sha256::new();
    h.update(FIND_DIGEST_TAG);
    h.update(file);
    h.finalize().into()
}

/// The secret opening: the find's digest, the key and the word.
///
/// Bytes: `"ZKGBOGL\0" ‖ u16-le version 1 ‖ find digest (32) ‖ key (16) ‖ u8 n ‖ the word
/// (n ASCII lower-case letters, 1 ≤ n ≤ MAX_LETTERS)`, nothing after.
#[derive(Clone, PartialEq, Eq)]
pub struct Opening {
    pub find: Digest,
    pub key: Key,
    pub word: Letters,
}

impl std::fmt::Debug for Opening {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Opening {{ find: {}, .. }}", hex::encode(self.find))
    }
}

impl Drop for Opening {
    fn drop(&mut self) {
        self.key.fill(0);
        self.word.fill(0);
        std::hint::black_box(&mut self.key);
    }
}

/// Magic bytes of an opening.
pub const OPENING_MAGIC: &[u8; 8] = b"ZKGBOGL\0";
/// Bytes before the word.
pub(crate) const OPENING_HEAD: usize = 8 + 2 + 32 + 16 + 1;

impl Opening {
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = OPENING_MAGIC.to_vec();
        b.extend_from_slice(&1u16.to_le_bytes());
        b.extend_from_slice(&self.find);
        b.extend_from_slice(&self.key);
        b.push(self.word.len() as u8);
        b.extend(self.word.iter().map(|&l| b'a' + l));
        b
    }

    pub fn from_bytes(b: &[u8]) -> Result<Self> {
        if b.len() < OPENING_HEAD || &b[..8] != OPENING_MAGIC {
            return Err(Error::bad(
                "not a Boggle opening (wrong size or magic bytes)",
            ));
        }
        if b[8..10] != 1u16.to_le_bytes() {
            return Err(Error::bad(
                "Boggle opening: version not supported (this build reads 1)",
            ));
        }
        let n = b[OPENING_HEAD - 1] as usize;
        let word = &b[OPENING_HEAD..];
        if n == 0 || n > MAX_LETTERS || word.len() != n {
            return Err(Error::bad("Boggle opening: wrong size"));
        }
        if !word.iter().all(|c| c.is_ascii_lowercase()) {
            return Err(Error::bad("Boggle opening: the word is not letters a-z"));
        }
        Ok(Opening {
            find: b[10..42].try_into().expect("32"),
            key: b[42..58].try_into().expect("16"),
            word: word.iter().map(|c| c - b'a').collect(),
        })
    }
}

/// A sealed find: the file's bytes and the opening.
pub struct Sealed {
    pub file: Vec<u8>,
    pub opening: Opening,
    pub dice: usize,
    pub membership: Membership,
}

/// Seals a find of `word` (bad input unless it is in the dictionary and on the grid).
pub fn seal(
    grid: &Grid,
    dict: &Dictionary,
    word: &[u8],
    system: &System,
    context: &[u8],
    rng: &mut impl RngCore,
) -> Result<Sealed> {
    let w = dict::word_of(word);
    if !dict.list().contains(word) {
        return Err(Error::bad(format!(
            "{w} is not in the dictionary: only a listed word can be sealed"
        )));
    }
    let Some(dice) = dice_of(word) else {
        return Err(Error::bad(format!(
            "{w} cannot be traced: it has a q without u (the grid's q face is Qu)"
        )));
    };
    if dice.len() > MAX_DICE {
        return Err(Error::bad(format!(
            "{w} takes {} dice; a find holds at most {MAX_DICE}",
            dice.len()
        )));
    }
    let Some(path) = trace(grid, &dice) else {
        return Err(Error::bad(format!(
            "{w} is not on the grid {} (adjacent dice, each once)",
            grid.text()
        )));
    };
    let m = dice.len();
    let mem = dict.membership(m)?;
    let lf = leaf(&dice);
    let steps = match &mem {
        Membership::Merkle(tree) => {
            let i = tree
                .leaves()
                .binary_search(&lf)
                .expect("a listed word is a leaf");
            tree.path(i)
        }
        Membership::Automaton { .. } => Vec::new(),
    };
    let key = fresh_key(&lf, rng);
    let c = commit_leaf(&key, &lf);
    let st = FindStatement::new(grid, &dict.digest(), m, &mem, &c, system.engine(), context);
    let mut wit = witness(grid, &key, &path, &steps);
    let proof = system.prove(&st.statement(), &wit, rng);
    wit.fill(false);
    let head = FindHead {
        commitment: c,
        grid: grid.digest(),
        dictionary: dict.digest(),
        dice: m as u8,
    };
    let file = proof?.file_bytes(&FIND_PROTOCOLS, &head)?;
    Ok(Sealed {
        opening: Opening {
            find: find_digest(&file),
            key,
            word: word.to_vec(),
        },
        file,
        dice: m,
        membership: mem,
    })
}

/// Reads a find file (bad input if it is not one).
pub fn read_find(bytes: &[u8]) -> Result<(FindHead, Proof)> {
    let f = ProofFile::from_bytes(bytes)?;
    Proof::read_file(&FIND_PROTOCOLS, &f, "sealed Boggle find")
}

/// Verifies a find against the grid and dictionary: its head, and its digest.
pub fn verify(
    grid: &Grid,
    dict: &Dictionary,
    bytes: &[u8],
    req: &Required,
    context: &[u8],
) -> Result<(FindHead, Digest)> {
    let (head, proof) = read_find(bytes)?;
    if head.grid != grid.digest() {
        return Err(Error::rejected(format!(
            "this find was sealed on another grid, not {}",
            grid.text()
        )));
    }
    if head.dictionary != dict.digest() {
        return Err(Error::rejected(
            "this find was sealed against another dictionary (give the same --dict as the prover)",
        ));
    }
    let m = head.dice as usize;
    if m == 0 || m > MAX_DICE.min(grid.cells()) {
        return Err(Error::rejected(format!(
            "this find names a word of {m} dice, which the grid cannot hold"
        )));
    }
    let mem = dict.membership(m)?;
    let st = FindStatement::new(
        grid,
        &dict.digest(),
        m,
        &mem,
        &head.commitment,
        proof.engine(),
        context,
    );
    proof.verify(&st.statement(), req)?;
    Ok((head, find_digest(bytes)))
}

/// Opens a verified find: the word, if the opening matches.
pub fn open(
    grid: &Grid,
    dict: &Dictionary,
    file: &[u8],
    head: &FindHead,
    opening: &Opening,
) -> Result<Letters> {
    open_digest(grid, dict, &find_digest(file), head, opening)
}

/// [`open`] for a find known by its digest ([`find_digest`] of its file) and head: what a
/// referee keeps of each find it verified, instead of the file.
pub fn open_digest(
    grid: &Grid,
    dict: &Dictionary,
    digest: &Digest,
    head: &FindHead,
    opening: &Opening,
) -> Result<Letters> {
    if opening.find != *digest {
        return Err(Error::rejected("this opening is for another find"));
    }
    let dice = dice_of(&opening.word).filter(|d| d.len() == head.dice as usize);
    let ok = dice
        .as_ref()
        .is_some_and(|d| commit_leaf(&opening.key, &leaf(d)) == head.commitment);
    if !ok {
        return Err(Error::rejected(
            "the opening's word and key do not give the find's commitment",
        ));
    }
    let dice = dice.expect("checked");
    if !dict.list().contains(&opening.word) || trace(grid, &dice).is_none() {
        return Err(Error::rejected(
            "the opened word is not a dictionary word on the grid",
        ));
    }
    Ok(opening.word.clone())
}
