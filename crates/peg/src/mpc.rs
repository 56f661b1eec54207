//! Peg solitaire solutions checked by a circuit, proven with any engine ([`zkgames_mpc::engine`]).
//!
//! Witness: for each of the `S − 1` steps, a one-hot vector over the `T` triplets (the
//! triplet used). No direction bit is needed: Definition 6 only asks that the middle cell
//! holds a peg and the two ends differ, and all three cells flip either way.
//!
//! The circuit derives every row from the public first row `f`, flipping the three cells of
//! the selected triplet (linear in the witness, so free). Per step it checks
//! * one-hotness: a running XOR `acc`; `acc ∧ s_j` must be 0 for every `j` and the final
//!   `acc` must be 1 (`T − 1` ANDs);
//! * legality: for every triplet `ok_j = row[t2] ∧ (row[t1] ⊕ row[t3])`, and the XOR over `j`
//!   of `s_j ∧ ¬ok_j` must be 0 — with `s` one-hot that is `¬ok` of the selected triplet
//!   (`2T` ANDs, fewer when cells are still public);
//!
//! and at the end the last row equals `l` (free), or its popcount equals the goal count.
//! Outputs are the error bits (expected 0) and one parity bit per step (expected 1).

use crate::instance::{Goal, Instance, Matrix};
use zkgames_core::commit::Digest;
use zkgames_core::details::Details;
use zkgames_core::proof_file::{self, Mode, ProofFile};
use zkgames_core::rng::Rng;
use zkgames_core::Error;
use zkgames_core::Result;
use zkgames_mpc::circuit::{Bit, Builder, Circuit};
use zkgames_mpc::engine::{replay_session, Engine, Proof as EngineProof, Required, System};
use zkgames_mpc::session;
use zkgames_mpc::statement::OwnedStatement;
use zkgames_mpc::statement::Statement;
use zkgames_mpc::Report;
use zkgames_net::SessionRecord;

/// Transcript label of peg solitaire proofs through the engine.
pub const TAG: &[u8] = b"zkgames/zkb++/peg-solitaire/v1";

/// Largest circuit input accepted (`(S − 1)·T` witness bits), so a hostile instance cannot
/// make the verifier build an enormous circuit: the circuit has about `9·(S − 1)·T` gates and
/// each batch of 64 rounds holds 24 bytes per wire, about 100 MiB at this limit.
pub const MAX_WITNESS_BITS: usize = 1 << 19;

/// The circuit for an instance and the output it must produce.
pub fn peg_circuit(inst: &Instance) -> Result<(Circuit, Vec<bool>)> {
    let (n, t, s) = (inst.n(), inst.t(), inst.s());
    let steps = s - 1;
    let n_in = steps.checked_mul(t).filter(|&x| x <= MAX_WITNESS_BITS).ok_or_else(|| {
        Error::bad(format!("(S − 1)·T = {steps}·{t} witness bits: the puzzle is over the {MAX_WITNESS_BITS}-bit limit of the circuit engines (vole, zkbpp, kkw)"))
    })?;
    let mut b = Builder::new(n_in);
    let mut expect = Vec::new();
    let mut row: Vec<Bit> = inst.first().iter().map(|&x| Bit::Const(x)).collect();
    let trip = inst.triplets();
    for i in 0..steps {
        let sel = b.input_word(i * t, t);
        let (errs, parity) = b.one_hot_check(&sel);
        for e in errs {
            b.output(e);
            expect.push(false);
        }
        b.output(parity);
        expect.push(true);
        let mut bad = Bit::Const(false);
        for (j, tr) in trip.iter().enumerate() {
            let [a, m, c] = tr.map(|x| row[x as usize]);
            let ends = b.xor(a, c);
            let ok = b.and(m, ends);
            let not_ok = b.not(ok);
            let e = b.and(sel[j], not_ok);
            bad = b.xor(bad, e);
        }
        b.output(bad);
        expect.push(false);
        for (j, tr) in trip.iter().enumerate() {
            for &v in tr {
                row[v as usize] = b.xor(row[v as usize], sel[j]);
            }
        }
    }
    match inst.goal() {
        Goal::Position(l) => {
            for (v, &x) in row.iter().zip(l) {
                let d = b.xor(*v, Bit::Const(x));
                b.output(d);
                expect.push(false);
            }
        }
        Goal::PegCount(c) => {
            let width = (usize::BITS - n.leading_zeros()) as usize;
            let pc = b.popcount(&row, width);
            let cw = b.const_word(*c as u64, width);
            let d = b.xor_w(&pc, &cw);
            b.output_word(&d);
            expect.extend(std::iter::repeat_n(false, width));
        }
    }
    Ok((b.finish(), expect))
}

/// The witness bits for a solution matrix; refuses anything that is not a solution.
pub fn peg_witness(inst: &Instance, z: &Matrix) -> Result<Vec<bool>> {
    inst.check_solution(z)
        .map_err(|e| Error::bad(format!("not a solution, the prover refuses: {e}")))?;
    let t = inst.t();
    let mut w = vec![false; (inst.s() - 1) * t];
    for i in 0..inst.s() - 1 {
        let j = inst
            .step_triplet(&z[i], &z[i + 1])
            .ok_or_else(|| Error::bad(format!("step {} is not legal", i + 1)))?;
        w[i * t + j] = true;
    }
    Ok(w)
}

pub(crate) fn statement(inst: &Instance, context: &[u8]) -> Result<OwnedStatement> {
    let (circuit, output) = peg_circuit(inst)?;
    Ok(OwnedStatement {
        tag: TAG,
        circuit,
        public: inst.canonical_bytes(),
        output,
        context: context.to_vec(),
    })
}

zkgames_mpc::protocols! {
    /// Peg solitaire proofs' protocol ids: 2 (ZKB++), 5 (KKW), 10 (VOLE-in-the-head), in both
    /// modes (a proof, or a recorded session). A non-interactive ZKB++ body starts with the
    /// instance's digest (the head, so a proof checked against another puzzle is named as such;
    /// the first engine's format); the KKW and VOLE bodies are the proof alone, and a proof of
    /// another instance is refused as [`zkgames_mpc::ANOTHER_STATEMENT`] or by Fiat–Shamir.
    pub PROTOCOLS = "a peg solitaire proof", "peg solitaire",
    {
        Zkbpp: PEG_MPC = 2,
        Kkw: PEG_KKW = 5,
        Vole: PEG_VOLE = 10,
    }
}

fn another_instance(claimed: &Digest, inst: &Instance) -> Error {
    let (theirs, ours) = zkgames_core::files::two_digests(claimed, &inst.digest());
    Error::rejected(format!(
        "the proof is for another instance: another puzzle or start position (its digest {theirs}, this puzzle's {ours})"
    ))
}

/// A non-interactive proof of a solution `z` of `inst` with `system`: the bytes of a proof
/// file ([`PROTOCOLS`], [`Mode::NonInteractive`]).
pub fn prove(
    inst: &Instance,
    z: &Matrix,
    system: &System,
    context: &[u8],
    rng: &mut Rng,
) -> Result<Vec<u8>> {
    let w = peg_witness(inst, z)?;
    let st = statement(inst, context)?;
    let proof = system.prove(&st.as_ref(), &w, rng)?;
    // ZKB++ files name the instance's digest before the proof (format v1's head); the
    // other engines' bind it through the statement only
    if proof.engine() == Engine::Zkbpp {
        proof.file_bytes(&PROTOCOLS, &inst.digest())
    } else {
        proof.file_bytes(&PROTOCOLS, &())
    }
}

/// The proof in a non-interactive file, and the instance digest its head names (ZKB++).
pub fn read(file: &ProofFile) -> Result<(Option<Digest>, EngineProof)> {
    Ok(if PROTOCOLS.non_interactive(file)? == Engine::Zkbpp {
        let (d, p) = EngineProof::read_file(&PROTOCOLS, file, "peg ZKB++ proof")?;
        (Some(d), p)
    } else {
        let ((), p) = EngineProof::read_file(&PROTOCOLS, file, "peg proof")?;
        (None, p)
    })
}

/// Verifies a peg solitaire proof file of any engine and either mode under `req`. An
/// interactive file is a recorded session: it is re-checked, but it is not evidence for
/// anyone but the original verifier (the report's mode says which).
pub fn verify(inst: &Instance, file: &ProofFile, req: &Required, context: &[u8]) -> Result<Report> {
    let engine = PROTOCOLS.engine(file)?;
    let size = proof_file::HEADER_LEN + file.body.len();
    let st = statement(inst, context)?;
    let ands = st.circuit.n_and();
    if file.mode == Mode::Interactive {
        let rec: SessionRecord = proof_file::decode(&file.body, "peg session record")?;
        let system = replay_session(engine, st, file.protocol, req, &rec)?;
        return Ok(Report::of(&system, size, ands, Mode::Interactive));
    }
    let (digest, proof) = read(file)?;
    if let Some(d) = digest.filter(|d| *d != inst.digest()) {
        return Err(another_instance(&d, inst));
    }
    proof.verify(&st.as_ref(), req)?;
    Ok(proof.report(size, ands))
}

/// The prover's side of a live session with `system` ([`zkgames_mpc::engine`]).
pub fn session_prover(
    inst: &Instance,
    z: &Matrix,
    system: &System,
    context: &[u8],
    rng: Rng,
) -> Result<Box<dyn zkgames_net::SessionProver<'static>>> {
    let w = peg_witness(inst, z)?;
    system.session_prover(
        statement(inst, context)?,
        PROTOCOLS.id(system.engine())?,
        w,
        rng,
    )
}

/// The verifier's side of a live session with the engine and parameters it fixes; `rng`
/// draws the challenges (use [`zkgames_core::rng::os_rng`]).
pub fn session_verifier(
    inst: &Instance,
    system: &System,
    context: &[u8],
    rng: Rng,
) -> Result<Box<dyn zkgames_net::SessionVerifier>> {
    Ok(zkgames_mpc::engine::session_verifier(
        system,
        statement(inst, context)?,
        PROTOCOLS.id(system.engine())?,
        rng,
    ))
}

/// A simulated session transcript of `system` for `inst` (made without a solution), as
/// proof-file bytes (mode 1): what a recorded session proves to a third party — nothing.
pub fn simulate_session_file(
    inst: &Instance,
    system: &System,
    context: &[u8],
    rng: &mut Rng,
) -> Result<Vec<u8>> {
    let st = statement(inst, context)?;
    let protocol = PROTOCOLS.id(system.engine())?;
    let rec = system.simulate_session(&st.as_ref(), protocol, rng)?;
    Ok(session::record_file(protocol, &rec))
}

/// A recorded session of `engine` as proof-file bytes ([`Mode::Interactive`]).
pub fn session_file(engine: Engine, rec: &SessionRecord) -> Result<Vec<u8>> {
    Ok(session::record_file(PROTOCOLS.id(engine)?, rec))
}

/// The protocol-specific lines of `verifier peg inspect` for a peg file of any engine (no
/// verification, no instance needed); the caller prints the header's protocol and mode.
/// Refuses a body that does not match the header (a session transcript of another protocol).
pub fn inspect(file: &ProofFile) -> Result<Details> {
    let engine = PROTOCOLS.engine(file)?;
    if file.mode == Mode::Interactive {
        let r: SessionRecord = proof_file::decode(&file.body, "peg session record")?;
        if r.hello.protocol != file.protocol.0 {
            return Err(Error::bad(format!(
                "inconsistent file: the header says {}, the session inside says protocol {}",
                file.protocol.name(),
                r.hello.protocol
            )));
        }
        return Ok(Details::aligned(12)
            .text("statement", hex::encode(r.hello.statement))
            .text(
                "context",
                zkgames_core::files::excerpt(&String::from_utf8_lossy(&r.hello.context)),
            )
            .then(engine.describe_session(r.hello.rounds)));
    }
    let (digest, proof) = read(file)?;
    let instance = match digest {
        Some(d) => hex::encode(d),
        // say so rather than print nothing: the digest is bound, not stored
        None => format!(
            "not stored in the file: {} proofs bind the puzzle's digest through \
             their challenge (`verifier peg verify PUZZLE FILE` checks it)",
            engine.name()
        ),
    };
    Ok(Details::aligned(12)
        .text("instance", instance)
        .then(proof.describe()))
}

/// A statement for tests that need the engine directly.
#[doc(hidden)]
pub fn statement_for_tests(inst: &Instance, context: &[u8]) -> Result<OwnedStatement> {
    statement(inst, context)
}

/// Makes the borrowed form of a statement (re-exported for tests).
#[doc(hidden)]
pub fn borrow(st: &OwnedStatement) -> Statement<'_> {
    st.as_ref()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instance::tee;
    use rand::Rng as _;
    use zkgames_core::rng::seeded_rng;

    /// Random walks from random first rows give random solvable instances and solutions.
    fn random_instance(rng: &mut Rng) -> (Instance, Matrix) {
        loop {
            let n = rng.gen_range(5..12);
            let mut trip = std::collections::BTreeSet::new();
            for _ in 0..rng.gen_range(2..10) {
                let mut t = [0u32; 3];
                for x in t.iter_mut() {
                    *x = rng.gen_range(0..n as u32);
                }
                if t[0] != t[1] && t[1] != t[2] && t[0] != t[2] {
                    let mut s = t;
                    s.sort();
                    if !trip.iter().any(|u: &[u32; 3]| {
                        let mut v = *u;
                        v.sort();
                        v == s
                    }) {
                        trip.insert(t);
                    }
                }
            }
            let trip: Vec<[u32; 3]> = trip.into_iter().collect();
            if trip.is_empty() {
                continue;
            }
            let first: Vec<bool> = (0..n).map(|_| rng.gen()).collect();
            let mut rows = vec![first.clone()];
            for _ in 0..rng.gen_range(1..5) {
                let cur = rows.last().unwrap().clone();
                let legal: Vec<&[u32; 3]> = trip
                    .iter()
                    .filter(|t| cur[t[1] as usize] && cur[t[0] as usize] != cur[t[2] as usize])
                    .collect();
                if legal.is_empty() {
                    break;
                }
                let t = legal[rng.gen_range(0..legal.len())];
                let mut nx = cur.clone();
                for &v in t {
                    nx[v as usize] ^= true;
                }
                rows.push(nx);
            }
            if rows.len() < 2 {
                continue;
            }
            let last = rows.last().unwrap().clone();
            let goal = if rng.gen() {
                Goal::Position(last.clone())
            } else {
                Goal::PegCount(last.iter().filter(|&&b| b).count())
            };
            if let Ok(inst) = Instance::new(n, trip, first, goal) {
                return (inst, rows);
            }
        }
    }

    /// The circuit accepts exactly the witnesses that encode solutions (compared with
    /// `Instance::check_solution` on random one-hot and non-one-hot witnesses).
    #[test]
    fn circuit_agrees_with_check_solution() {
        let mut rng = seeded_rng(21);
        for _ in 0..300 {
            let (inst, z) = random_instance(&mut rng);
            let (c, expect) = peg_circuit(&inst).unwrap();
            let w = peg_witness(&inst, &z).unwrap();
            assert_eq!(c.eval(&w), expect);
            let (t, steps) = (inst.t(), inst.s() - 1);
            for _ in 0..30 {
                let mut w2 = w.clone();
                if rng.gen_bool(0.5) {
                    // change one step's triplet
                    let i = rng.gen_range(0..steps);
                    w2[i * t..(i + 1) * t].iter_mut().for_each(|x| *x = false);
                    w2[i * t + rng.gen_range(0..t)] = true;
                } else {
                    let k = rng.gen_range(0..w2.len());
                    w2[k] ^= true;
                }
                // decode: accepted iff one-hot and the derived rows solve the instance
                let mut rows = vec![inst.first().to_vec()];
                let mut onehot = true;
                for i in 0..steps {
                    let sel: Vec<usize> = (0..t).filter(|&j| w2[i * t + j]).collect();
                    onehot &= sel.len() == 1;
                    let mut nx = rows[i].clone();
                    for &j in &sel {
                        for &v in &inst.triplets()[j] {
                            nx[v as usize] ^= true;
                        }
                    }
                    rows.push(nx);
                }
                let valid = onehot && inst.check_solution(&rows).is_ok();
                assert_eq!(c.eval(&w2) == expect, valid);
            }
        }
    }

    #[test]
    fn tee_proof_round_trip_and_rejections() {
        let inst = tee();
        let z = crate::instance::tee_solution();
        let mut rng = seeded_rng(22);
        let bytes = prove(&inst, &z, &System::Zkbpp(30), b"ctx", &mut rng).unwrap();
        let f = ProofFile::from_bytes(&bytes).unwrap();
        let rep = verify(&inst, &f, &Required::rounds(30), b"ctx").unwrap();
        assert_eq!(rep.rounds, 30);
        assert!(verify(&inst, &f, &Required::rounds(31), b"ctx").is_err());
        assert!(verify(&inst, &f, &Required::rounds(30), b"ctY").is_err());
        assert!(inspect(&f).unwrap().render().contains("rounds:     30"));
        let mut bad = z.clone();
        bad[2][0] ^= true;
        assert!(prove(&inst, &bad, &System::Zkbpp(30), b"", &mut rng).is_err());
        // every byte flipped is rejected
        for i in 0..bytes.len() {
            let mut t = bytes.clone();
            t[i] ^= 0x10;
            let ok = ProofFile::from_bytes(&t)
                .and_then(|f| verify(&inst, &f, &Required::rounds(30), b"ctx"));
            assert!(ok.is_err(), "flip at {i}");
        }
    }

    #[test]
    fn english_board_solution_proves() {
        let (inst, z) = crate::catalog::solved("english").unwrap();
        assert_eq!((inst.n(), inst.t(), inst.s()), (33, 38, 32));
        inst.check_solution(&z).unwrap();
        let mut rng = seeded_rng(23);
        let bytes = prove(&inst, &z, &System::Zkbpp(20), b"", &mut rng).unwrap();
        let f = ProofFile::from_bytes(&bytes).unwrap();
        verify(&inst, &f, &Required::rounds(20), b"").unwrap();
        // another instance (peg-count goal) rejects it
        let other = Instance::new(
            inst.n(),
            inst.triplets().to_vec(),
            inst.first().to_vec(),
            Goal::PegCount(1),
        )
        .unwrap();
        assert!(verify(&other, &f, &Required::rounds(20), b"").is_err());
    }
}
