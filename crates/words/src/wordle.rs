//! Wordle with a host who cannot cheat: the feedback rule, its circuit, and the two
//! statements, the *seal* and the *answer*.
//!
//! **The rule** ([`feedback`]). Position `i` of a guess is *exact* (`g`) when the word has
//! the same letter there. Then, left to right, a non-exact position is *present* (`y`) when
//! its letter occurs in the word at a non-exact position more often than it has already
//! been marked present to its left; otherwise it is *absent* (`.`).
//!
//! **The witness** (both statements): the commitment key `K` (128 bits, byte `i` bit `j` at
//! `8i + j`), then the five letters, 5 bits each (`a` = 0 … `z` = 25, bit 0 first), 153 bits.
//!
//! **The seal** ([`SealStatement`]): "I know `K`, `w` with `C = Commit_K(w)` and `w` in the
//! answer list": output `C` (256 bits) ‖ `1`, the list compiled into the circuit
//! ([`super::dict`]) and its digest in the public bytes.
//!
//! **The answer** ([`AnswerStatement`]): "I know `K`, `w` with `C = Commit_K(w)` and
//! `feedback(guess, w) = F`", the guess public (folded into the circuit), the output
//! `C ‖ F` (F: per position the bits `exact`, `present`), the seal's digest and the guess
//! in the public bytes. The commitment is binding, so every answer speaks of the sealed
//! word; docs/PROTOCOLS.md, "Word games", has the bytes.

use rand_core::RngCore;
use serde::{Deserialize, Serialize};
use sha2::{Digest as _, Sha256};

use super::commit::{self, Commitment, Key};
use super::dict::{self, WordList};
use zkgames_core::commit::Digest;
use zkgames_core::proof_file::ProofFile;
use zkgames_core::Error;
use zkgames_core::Result;
use zkgames_mpc::circuit::{Bit, Builder, Circuit};
use zkgames_mpc::engine::{Engine, Proof, Required, System};
use zkgames_mpc::statement::Statement;

/// Letters per word.
pub const WORD_LEN: usize = 5;
/// Witness bits: the key, then the letters.
pub const WITNESS_BITS: usize = 128 + 5 * WORD_LEN;
/// Transcript label of seals.
pub const SEAL_TAG: &[u8] = b"zkgames/wordle/seal/v1";
/// Transcript label of answers.
pub const ANSWER_TAG: &[u8] = b"zkgames/wordle/answer/v1";
/// Domain tag of [`seal_digest`].
pub const SEAL_DIGEST_TAG: &[u8] = b"zkg:wordle:seal-digest:v1";

/// The shipped answer list (see puzzles/words/README.md).
pub const DEFAULT_ANSWERS: &str = include_str!("../../../puzzles/words/wordle-answers.txt");
/// The shipped allowed-guess list.
pub const DEFAULT_ALLOWED: &str = include_str!("../../../puzzles/words/wordle-allowed.txt");

/// A word: five letters 0..=25.
pub type Word = [u8; WORD_LEN];

/// One position's mark.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mark {
    Absent = 0,
    Present = 1,
    Exact = 2,
}

/// A guess's feedback.
pub type Feedback = [Mark; WORD_LEN];

/// The feedback of `guess` against `word` (module docs).
pub fn feedback(guess: &Word, word: &Word) -> Feedback {
    let mut out = [Mark::Absent; WORD_LEN];
    let mut left = [0u8; 26];
    for i in 0..WORD_LEN {
        if guess[i] == word[i] {
            out[i] = Mark::Exact;
        } else {
            left[word[i] as usize] += 1;
        }
    }
    for i in 0..WORD_LEN {
        if out[i] != Mark::Exact && left[guess[i] as usize] > 0 {
            left[guess[i] as usize] -= 1;
            out[i] = Mark::Present;
        }
    }
    out
}

/// Feedback as five characters: `g` exact, `y` present, `.` absent.
pub fn feedback_text(f: &Feedback) -> String {
    f.iter()
        .map(|m| match m {
            Mark::Exact => 'g',
            Mark::Present => 'y',
            Mark::Absent => '.',
        })
        .collect()
}

/// Parses feedback text (`g`, `y`, `.`; upper case `G`, `Y` too).
pub fn parse_feedback(s: &str) -> Result<Feedback> {
    let marks: Option<Vec<Mark>> = s
        .chars()
        .map(|c| match c {
            'g' | 'G' => Some(Mark::Exact),
            'y' | 'Y' => Some(Mark::Present),
            '.' => Some(Mark::Absent),
            _ => None,
        })
        .collect();
    match marks {
        Some(m) if m.len() == WORD_LEN => Ok(std::array::from_fn(|i| m[i])),
        _ => Err(Error::bad(format!(
            "feedback {}: give five characters, g (exact), y (present) or . (absent), e.g. g.y..",
            zkgames_core::files::quote(&zkgames_core::files::excerpt(s))
        ))),
    }
}

/// A word from text: five letters a-z (case folded), or bad input.
pub fn parse_word(s: &str) -> Result<Word> {
    match dict::letters_of(s) {
        Some(l) if l.len() == WORD_LEN => Ok(std::array::from_fn(|i| l[i])),
        _ => Err(Error::bad(format!(
            "{} is not a five-letter word of letters a-z",
            zkgames_core::files::quote(&zkgames_core::files::excerpt(s))
        ))),
    }
}

/// The output bits of feedback: per position `exact`, `present`.
pub fn feedback_bits(f: &Feedback) -> Vec<bool> {
    f.iter()
        .flat_map(|&m| [m == Mark::Exact, m == Mark::Present])
        .collect()
}

/// The feedback circuit: 10 bits (per position `exact`, `present`) for the public `guess`
/// and the secret letters (5 bits each). `exact_i = [w_i = g_i]`; for `c = g_i`,
/// `present_i = ¬exact_i ∧ (#{k < i : g_k = c, ¬exact_k} < #{j : g_j ≠ c, w_j = c})`: a word
/// position `j` with `g_j = c` and `w_j = c` is exact, so the right side counts the letters
/// `c` left for yellows.
pub fn feedback_gadget(b: &mut Builder, letters: &[[Bit; 5]], guess: &Word) -> Vec<Bit> {
    assert_eq!(letters.len(), WORD_LEN);
    let mut memo = std::collections::HashMap::new();
    let mut eqc = |b: &mut Builder, j: usize, c: u8| -> Bit {
        *memo.entry((j, c)).or_insert_with(|| {
            let k: Vec<Bit> = (0..5).map(|t| Bit::Const(c >> t & 1 == 1)).collect();
            b.eq(&letters[j], &k)
        })
    };
    let exact: Vec<Bit> = (0..WORD_LEN).map(|i| eqc(b, i, guess[i])).collect();
    let mut out = Vec::with_capacity(2 * WORD_LEN);
    for i in 0..WORD_LEN {
        let c = guess[i];
        let avail_bits: Vec<Bit> = (0..WORD_LEN)
            .filter(|&j| guess[j] != c)
            .map(|j| eqc(b, j, c))
            .collect();
        let avail = b.popcount(&avail_bits, 3);
        let used_bits: Vec<Bit> = (0..i)
            .filter(|&k| guess[k] == c)
            .map(|k| b.not(exact[k]))
            .collect();
        let used = b.popcount(&used_bits, 3);
        let lt = b.less_than(&used, &avail);
        let ne = b.not(exact[i]);
        let present = b.and(ne, lt);
        out.push(exact[i]);
        out.push(present);
    }
    out
}

/// The witness's parts as circuit bits.
fn witness_bits(b: &Builder) -> (Vec<Bit>, Vec<[Bit; 5]>) {
    let key = (0..128).map(|i| b.input(i)).collect();
    let letters = (0..WORD_LEN)
        .map(|i| std::array::from_fn(|k| b.input(128 + 5 * i + k)))
        .collect();
    (key, letters)
}

/// The witness of a key and word.
pub fn witness(key: &Key, word: &Word) -> Vec<bool> {
    let mut w = commit::bits_of(key);
    for &l in word {
        w.extend((0..5).map(|k| l >> k & 1 == 1));
    }
    w
}

/// A circuit with inverse gates for VOLE, lowered (and its output) for ZKB++ and KKW.
fn for_engine(c: Circuit, y: Vec<bool>, engine: Engine) -> (Circuit, Vec<bool>) {
    if engine.native_inverses() {
        (c, y)
    } else {
        let out = c.lowered_output(&y);
        (c.lowered(), out)
    }
}

/// The seal circuit of an answer list: `C ‖ member` (257 outputs).
pub fn seal_circuit(answers: &WordList) -> Circuit {
    let mut b = Builder::new(WITNESS_BITS);
    let (key, letters) = witness_bits(&b);
    let c = commit::commit_gadget(&mut b, &key, &letters);
    let (m, _) = dict::member_gadget(&mut b, answers, &letters);
    b.output_word(&c);
    b.output(m);
    b.finish()
}

/// The answer circuit of a guess: `C ‖ F` (266 outputs).
pub fn answer_circuit(guess: &Word) -> Circuit {
    let mut b = Builder::new(WITNESS_BITS);
    let (key, letters) = witness_bits(&b);
    let c = commit::commit_gadget(&mut b, &key, &letters);
    let f = feedback_gadget(&mut b, &letters, guess);
    b.output_word(&c);
    b.output_word(&f);
    b.finish()
}

/// The public side of a seal.
pub struct SealStatement {
    circuit: Circuit,
    output: Vec<bool>,
    public: Vec<u8>,
    context: Vec<u8>,
}

/// Seal public bytes: `"zkg:wordle:seal:v1" ‖ answer-list digest ‖ u64-le answer count`.
pub fn seal_public(answers: &WordList) -> Vec<u8> {
    let mut p = b"zkg:wordle:seal:v1".to_vec();
    p.extend_from_slice(&answers.digest());
    p.extend_from_slice(&(answers.len() as u64).to_le_bytes());
    p
}

impl SealStatement {
    pub fn new(answers: &WordList, c: &Commitment, engine: Engine, context: &[u8]) -> Self {
        let mut y = commit::bits_of(c);
        y.push(true);
        let (circuit, output) = for_engine(seal_circuit(answers), y, engine);
        SealStatement {
            circuit,
            output,
            public: seal_public(answers),
            context: context.to_vec(),
        }
    }
    pub fn statement(&self) -> Statement<'_> {
        Statement {
            tag: SEAL_TAG,
            circuit: &self.circuit,
            public: &self.public,
            output: &self.output,
            context: &self.context,
        }
    }
    pub fn circuit(&self) -> &Circuit {
        &self.circuit
    }
}

/// The public side of an answer.
pub struct AnswerStatement {
    circuit: Circuit,
    output: Vec<bool>,
    public: Vec<u8>,
    context: Vec<u8>,
}

/// Answer public bytes: `"zkg:wordle:answer:v1" ‖ seal digest ‖ guess letters (5 bytes)`.
pub fn answer_public(seal: &Digest, guess: &Word) -> Vec<u8> {
    let mut p = b"zkg:wordle:answer:v1".to_vec();
    p.extend_from_slice(seal);
    p.extend_from_slice(guess);
    p
}

impl AnswerStatement {
    pub fn new(
        seal: &Digest,
        c: &Commitment,
        guess: &Word,
        f: &Feedback,
        engine: Engine,
        context: &[u8],
    ) -> Self {
        let mut y = commit::bits_of(c);
        y.extend(feedback_bits(f));
        let (circuit, output) = for_engine(answer_circuit(guess), y, engine);
        AnswerStatement {
            circuit,
            output,
            public: answer_public(seal, guess),
            context: context.to_vec(),
        }
    }
    pub fn statement(&self) -> Statement<'_> {
        Statement {
            tag: ANSWER_TAG,
            circuit: &self.circuit,
            public: &self.public,
            output: &self.output,
            context: &self.context,
        }
    }
    pub fn circuit(&self) -> &Circuit {
        &self.circuit
    }
}

zkgames_mpc::protocols! {
    /// Seal files: protocol ids 490 (ZKB++), 491 (KKW), 492 (VOLE-in-the-head).
    pub SEAL_PROTOCOLS = "a Wordle seal", "Wordle seal",
    {
        Zkbpp: WORDLE_SEAL_MPC = 490,
        Kkw: WORDLE_SEAL_KKW = 491,
        Vole: WORDLE_SEAL_VOLE = 492,
    }
}

zkgames_mpc::protocols! {
    /// Answer files: protocol ids 493 (ZKB++), 494 (KKW), 495 (VOLE-in-the-head).
    pub ANSWER_PROTOCOLS = "a Wordle answer", "Wordle answer",
    {
        Zkbpp: WORDLE_ANSWER_MPC = 493,
        Kkw: WORDLE_ANSWER_KKW = 494,
        Vole: WORDLE_ANSWER_VOLE = 495,
    }
}

/// What precedes the proof in a seal file's body.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SealHead {
    pub commitment: Commitment,
    pub answers: Digest,
}

/// What precedes the proof in an answer file's body.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AnswerHead {
    pub seal: Digest,
    pub guess: Word,
    /// 0 absent, 1 present, 2 exact.
    pub feedback: [u8; WORD_LEN],
}

/// The digest naming a seal: `SHA-256(SEAL_DIGEST_TAG ‖ seal file bytes)`.
pub fn seal_digest(seal_file: &[u8]) -> Digest {
    let mut h = Sha256::new();
    h.update(SEAL_DIGEST_TAG);
    h.update(seal_file);
    h.finalize().into()
}

/// The secret opening: the seal's digest, the key and the word.
///
/// Bytes: `"ZKGWORD\0" ‖ u16-le version 1 ‖ seal digest (32) ‖ key (16) ‖ word (5 ASCII
/// lowercase letters)`, 63 bytes, nothing after.
#[derive(Clone, PartialEq, Eq)]
pub struct Opening {
    pub seal: Digest,
    pub key: Key,
    pub word: Word,
}

impl std::fmt::Debug for Opening {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Opening {{ seal: {}, .. }}", hex::encode(self.seal))
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
pub const OPENING_MAGIC: &[u8; 8] = b"ZKGWORD\0";
/// Bytes of an opening.
pub const OPENING_LEN: usize = 8 + 2 + 32 + 16 + WORD_LEN;

impl Opening {
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = OPENING_MAGIC.to_vec();
        b.extend_from_slice(&1u16.to_le_bytes());
        b.extend_from_slice(&self.seal);
        b.extend_from_slice(&self.key);
        b.extend(self.word.iter().map(|&l| b'a' + l));
        b
    }

    pub fn from_bytes(b: &[u8]) -> Result<Self> {
        if b.len() != OPENING_LEN || &b[..8] != OPENING_MAGIC {
            return Err(Error::bad(
                "not a Wordle opening (wrong size or magic bytes)",
            ));
        }
        if b[8..10] != 1u16.to_le_bytes() {
            return Err(Error::bad(
                "Wordle opening: version not supported (this build reads 1)",
            ));
        }
        let word = &b[58..];
        if !word.iter().all(|c| c.is_ascii_lowercase()) {
            return Err(Error::bad(
                "Wordle opening: the word is not five letters a-z",
            ));
        }
        Ok(Opening {
            seal: b[10..42].try_into().expect("32"),
            key: b[42..58].try_into().expect("16"),
            word: std::array::from_fn(|i| word[i] - b'a'),
        })
    }
}

/// The game's word lists: answers (sealed words) and allowed guesses (the answers are
/// allowed too).
#[derive(Clone, Debug)]
pub struct Lists {
    pub answers: WordList,
    pub allowed: WordList,
}

impl Lists {
    /// The shipped lists.
    pub fn default_lists() -> Self {
        Lists {
            answers: WordList::parse(DEFAULT_ANSWERS, WORD_LEN, "the shipped answer list")
                .expect("shipped list"),
            allowed: WordList::parse(DEFAULT_ALLOWED, WORD_LEN, "the shipped allowed list")
                .expect("shipped list"),
        }
    }

    /// Bad input unless the guess is allowed.
    pub fn check_guess(&self, guess: &Word) -> Result<()> {
        if self.allowed.contains(guess) || self.answers.contains(guess) {
            Ok(())
        } else {
            Err(Error::bad(format!(
                "{} is not in the allowed-guess list",
                dict::word_of(guess)
            )))
        }
    }
}

/// A sealed game: the seal file's bytes and the opening's.
pub struct Sealed {
    pub file: Vec<u8>,
    pub opening: Opening,
    pub commitment: Commitment,
}

/// Seals `word` (bad input unless it is in the answer list).
pub fn seal(
    lists: &Lists,
    word: &Word,
    system: &System,
    context: &[u8],
    rng: &mut impl RngCore,
) -> Result<Sealed> {
    if !lists.answers.contains(word) {
        return Err(Error::bad(format!(
            "{} is not in the answer list: only a listed word can be sealed",
            dict::word_of(word)
        )));
    }
    let key = commit::fresh_key(word, rng);
    let c = commit::commit(&key, word);
    let st = SealStatement::new(&lists.answers, &c, system.engine(), context);
    let mut w = witness(&key, word);
    let proof = system.prove(&st.statement(), &w, rng);
    w.fill(false);
    let head = SealHead {
        commitment: c,
        answers: lists.answers.digest(),
    };
    let file = proof?.file_bytes(&SEAL_PROTOCOLS, &head)?;
    Ok(Sealed {
        opening: Opening {
            seal: seal_digest(&file),
            key,
            word: *word,
        },
        file,
        commitment: c,
    })
}

/// Reads a seal file (bad input if it is not one).
pub fn read_seal(bytes: &[u8]) -> Result<(SealHead, Proof)> {
    let f = ProofFile::from_bytes(bytes)?;
    Proof::read_file(&SEAL_PROTOCOLS, &f, "Wordle seal")
}

/// Verifies a seal against the answer list under `req`: its head, and its digest.
pub fn verify_seal(
    answers: &WordList,
    bytes: &[u8],
    req: &Required,
    context: &[u8],
) -> Result<(SealHead, Digest)> {
    let (head, proof) = read_seal(bytes)?;
    if head.answers != answers.digest() {
        return Err(Error::rejected(
            "this seal was made for another answer list (give the same --dict as the host)",
        ));
    }
    let st = SealStatement::new(answers, &head.commitment, proof.engine(), context);
    proof.verify(&st.statement(), req)?;
    Ok((head, seal_digest(bytes)))
}

/// The host's answer to a guess: its feedback and the answer file's bytes.
pub fn answer(
    opening: &Opening,
    guess: &Word,
    system: &System,
    context: &[u8],
    rng: &mut impl RngCore,
) -> Result<(Feedback, Vec<u8>)> {
    let c = commit::commit(&opening.key, &opening.word);
    let f = feedback(guess, &opening.word);
    let st = AnswerStatement::new(&opening.seal, &c, guess, &f, system.engine(), context);
    let mut w = witness(&opening.key, &opening.word);
    let proof = system.prove(&st.statement(), &w, rng);
    w.fill(false);
    let head = AnswerHead {
        seal: opening.seal,
        guess: *guess,
        feedback: f.map(|m| m as u8),
    };
    Ok((f, proof?.file_bytes(&ANSWER_PROTOCOLS, &head)?))
}

/// Reads an answer file.
pub fn read_answer(bytes: &[u8]) -> Result<(AnswerHead, Proof)> {
    let f = ProofFile::from_bytes(bytes)?;
    Proof::read_file(&ANSWER_PROTOCOLS, &f, "Wordle answer")
}

/// Verifies an answer: that `feedback` is what the word sealed in `seal` (digest, head)
/// gives for `guess`.
pub fn verify_answer(
    seal: &Digest,
    head: &SealHead,
    guess: &Word,
    f: &Feedback,
    bytes: &[u8],
    req: &Required,
    context: &[u8],
) -> Result<()> {
    let (ah, proof) = read_answer(bytes)?;
    if ah.seal != *seal {
        return Err(Error::rejected(
            "this answer was made for another game's seal",
        ));
    }
    if ah.guess != *guess {
        return Err(Error::rejected(format!(
            "this answer is for the guess {}, not {}",
            dict::word_of(&ah.guess),
            dict::word_of(guess)
        )));
    }
    let st = AnswerStatement::new(seal, &head.commitment, guess, f, proof.engine(), context);
    proof.verify(&st.statement(), req).map_err(|e| match e {
        Error::Rejected(_) => Error::rejected(format!(
            "the answer does not prove feedback {} for {}: {e}",
            feedback_text(f),
            dict::word_of(guess)
        )),
        other => other,
    })
}

/// Opens a game: the sealed word, if the opening matches the seal.
pub fn open(seal_bytes: &[u8], head: &SealHead, opening: &Opening) -> Result<Word> {
    if opening.seal != seal_digest(seal_bytes) {
        return Err(Error::rejected("this opening is for another seal"));
    }
    if commit::commit(&opening.key, &opening.word) != head.commitment {
        return Err(Error::rejected(
            "the opening's word and key do not give the seal's commitment",
        ));
    }
    Ok(opening.word)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng as _;
    use zkgames_core::rng::seeded_rng;

    /// The rule stated differently: the word's non-exact letters as a pool, each
    /// non-exact guess letter left to right takes one from the pool if it can.
    pub(crate) fn reference(guess: &Word, word: &Word) -> Feedback {
        let mut pool: Vec<u8> = (0..5)
            .filter(|&i| guess[i] != word[i])
            .map(|i| word[i])
            .collect();
        std::array::from_fn(|i| i).map(|i: usize| {
            if guess[i] == word[i] {
                Mark::Exact
            } else if let Some(p) = pool.iter().position(|&c| c == guess[i]) {
                pool.remove(p);
                Mark::Present
            } else {
                Mark::Absent
            }
        })
    }

    #[test]
    fn the_rule_matches_the_reference_on_random_pairs() {
        let mut rng = seeded_rng(21);
        let mut classes = std::collections::HashSet::new();
        for it in 0..200_000 {
            // small alphabets make repeated letters frequent
            let k = [2u8, 3, 4, 26][it % 4];
            let g: Word = std::array::from_fn(|_| rng.gen_range(0..k));
            let w: Word = std::array::from_fn(|_| rng.gen_range(0..k));
            let f = feedback(&g, &w);
            assert_eq!(f, reference(&g, &w), "{g:?} {w:?}");
            classes.insert(feedback_text(&f));
        }
        // known cases: repeated letters in the guess and in the word
        let p = |s: &str| parse_word(s).unwrap();
        for (g, w, f) in [
            ("speed", "abide", "..y.y"),
            ("speed", "erase", "y.yy."),
            ("llama", "hello", "yy..."),
            ("hello", "llama", "..yy."),
            ("aabbb", "bbbaa", "yygyy"),
            ("abbey", "kebab", "yygy."),
            ("crane", "crane", "ggggg"),
        ] {
            assert_eq!(feedback_text(&feedback(&p(g), &p(w))), f, "{g} {w}");
        }
        assert!(classes.len() > 200, "{}", classes.len());
    }

    /// The circuit against the rule, exhaustively: every guess over {a, b, c} and every
    /// word over {a, b, c, d} (d in no guess), and every guess over {a, b} against every
    /// word over all 32 letter codes at one position.
    #[test]
    fn the_feedback_circuit_is_the_rule() {
        let words: Vec<Word> = (0..4u32.pow(5))
            .map(|x| std::array::from_fn(|i| (x / 4u32.pow(i as u32) % 4) as u8))
            .collect();
        for gx in 0..3u32.pow(5) {
            let g: Word = std::array::from_fn(|i| (gx / 3u32.pow(i as u32) % 3) as u8);
            let mut b = Builder::new(25);
            let letters: Vec<[Bit; 5]> = (0..5)
                .map(|i| std::array::from_fn(|k| b.input(5 * i + k)))
                .collect();
            let f = feedback_gadget(&mut b, &letters, &g);
            b.output_word(&f);
            let c = b.finish();
            for w in &words {
                let bits: Vec<bool> = w
                    .iter()
                    .flat_map(|&l| (0..5).map(move |k| l >> k & 1 == 1))
                    .collect();
                assert_eq!(
                    c.eval(&bits),
                    feedback_bits(&reference(&g, w)),
                    "{g:?} {w:?}"
                );
            }
        }
    }

    #[test]
    fn feedback_and_word_text() {
        assert_eq!(feedback_text(&parse_feedback("g.Y..").unwrap()), "g.y..");
        for bad in ["", "g.y.", "g.y...", "gxy..", "g y.."] {
            assert!(parse_feedback(bad).is_err(), "{bad}");
        }
        assert_eq!(parse_word("CrAnE").unwrap(), [2, 17, 0, 13, 4]);
        for bad in ["cran", "cranes", "cr4ne", "cr ne"] {
            assert!(parse_word(bad).is_err());
        }
    }

    #[test]
    fn opening_bytes_round_trip() {
        let mut rng = seeded_rng(3);
        let o = Opening {
            seal: rng.gen(),
            key: rng.gen(),
            word: [1, 2, 3, 4, 25],
        };
        let b = o.to_bytes();
        assert_eq!(b.len(), OPENING_LEN);
        assert_eq!(Opening::from_bytes(&b).unwrap(), o);
        for cut in 0..b.len() {
            assert!(Opening::from_bytes(&b[..cut]).is_err());
        }
        let mut t = b.clone();
        t[60] = b'A';
        assert!(Opening::from_bytes(&t).is_err());
        assert!(!format!("{o:?}").contains(&hex::encode(o.key)));
    }
}
