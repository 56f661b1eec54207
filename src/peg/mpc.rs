//! Peg solitaire solutions checked by a circuit, proven with the ZKB++ engine.
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

use serde::{Deserialize, Serialize};

use crate::commit::Digest;
use crate::mpc::circuit::{Bit, Builder, Circuit};
use crate::mpc::engine::{Engine, Proof as EngineProof, Required, System};
use crate::mpc::session::{self, MpcProver, MpcVerifier, OwnedStatement};
use crate::mpc::zkbpp::{self, Proof, Statement};
use crate::mpc::Report;
use crate::net::SessionRecord;
use crate::peg::instance::{Goal, Instance, Matrix};
use crate::proof_file::{self, Mode, ProofFile, ProtocolId};
use crate::rng::Rng;
use crate::{Error, Result};

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

/// The body of a non-interactive peg ZKB++ proof file: the instance it is for (so a proof
/// checked against another puzzle is named as such) and the engine's proof.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PegMpcProof {
    /// SHA-256 of the instance's canonical bytes (also absorbed by Fiat–Shamir as the
    /// statement's public input).
    pub instance_digest: Digest,
    pub proof: Proof,
}

fn another_instance(claimed: &Digest, inst: &Instance) -> Error {
    let (theirs, ours) = crate::files::two_digests(claimed, &inst.digest());
    Error::rejected(format!(
        "the proof is for another instance: another puzzle or start position (its digest {theirs}, this puzzle's {ours})"
    ))
}

/// A non-interactive proof of a solution `z` of `inst`: the bytes of a whole proof file
/// ([`ProtocolId::PegMpc`], [`Mode::NonInteractive`]).
pub fn prove_peg(
    inst: &Instance,
    z: &Matrix,
    rounds: usize,
    context: &[u8],
    rng: &mut Rng,
) -> Result<Vec<u8>> {
    prove_peg_with(inst, z, &System::Zkbpp { rounds }, context, rng)
}

/// A non-interactive proof of a solution with either engine: the bytes of a proof file
/// (protocol 2, body [`PegMpcProof`], for ZKB++; protocol 5, body the KKW proof, for KKW).
pub fn prove_peg_with(
    inst: &Instance,
    z: &Matrix,
    system: &System,
    context: &[u8],
    rng: &mut Rng,
) -> Result<Vec<u8>> {
    let w = peg_witness(inst, z)?;
    let st = statement(inst, context)?;
    let proof = system.prove(&st.as_ref(), &w, rng)?;
    let protocol = protocol_of(proof.engine());
    let body = match proof {
        EngineProof::Zkbpp(proof) => proof_file::encode(&PegMpcProof {
            instance_digest: inst.digest(),
            proof,
        }),
        EngineProof::Kkw(proof) => proof_file::encode(&proof),
        EngineProof::Vole(proof) => proof_file::encode(&proof),
    };
    Ok(ProofFile::new(protocol, Mode::NonInteractive, body).to_bytes())
}

/// Verifies a peg solitaire proof file of either mode. An interactive file is a recorded
/// session: it is re-checked, but it is not evidence for anyone but the original verifier.
pub fn verify_peg(
    inst: &Instance,
    file: &ProofFile,
    min_rounds: usize,
    context: &[u8],
) -> Result<Report> {
    file.expect_protocol(ProtocolId::PegMpc)?;
    let size = proof_file::HEADER_LEN + file.body.len();
    match file.mode {
        Mode::NonInteractive => {
            let body: PegMpcProof = proof_file::decode(&file.body, "peg ZKB++ proof")?;
            if body.instance_digest != inst.digest() {
                return Err(another_instance(&body.instance_digest, inst));
            }
            let st = statement(inst, context)?;
            let rounds = body.proof.rounds.len();
            EngineProof::Zkbpp(body.proof).verify(&st.as_ref(), &Required::rounds(min_rounds))?;
            Ok(Report::new(
                rounds,
                size,
                st.circuit.n_and(),
                Mode::NonInteractive,
            ))
        }
        Mode::Interactive => {
            let rec: SessionRecord = proof_file::decode(&file.body, "peg ZKB++ session record")?;
            let st = statement(inst, context)?;
            if rec.hello.protocol == ProtocolId::PegMpc as u16
                && rec.hello.statement != st.as_ref().digest()
            {
                return Err(Error::rejected(
                    "the session transcript is for another instance (its statement digest differs from this puzzle's)",
                ));
            }
            let ands = st.circuit.n_and();
            let r = session::replay(st, ProtocolId::PegMpc, min_rounds, &rec)?;
            Ok(Report::new(r, size, ands, Mode::Interactive))
        }
    }
}

/// The prover's side of a live session for `prover peg … --system mpc`.
pub fn peg_session_prover(
    inst: &Instance,
    z: &Matrix,
    rounds: usize,
    context: &[u8],
    rng: Rng,
) -> Result<MpcProver> {
    let w = peg_witness(inst, z)?;
    MpcProver::new(
        statement(inst, context)?,
        ProtocolId::PegMpc,
        w,
        rounds,
        rng,
    )
}

/// The verifier's side of a live session; `rng` draws the challenges (use [`crate::rng::os_rng`]).
pub fn peg_session_verifier(
    inst: &Instance,
    min_rounds: usize,
    context: &[u8],
    rng: Rng,
) -> Result<MpcVerifier> {
    Ok(MpcVerifier::new(
        statement(inst, context)?,
        ProtocolId::PegMpc,
        min_rounds,
        rng,
    ))
}

/// The peg proof protocol of `engine` (files and sessions).
pub fn protocol_of(engine: Engine) -> ProtocolId {
    match engine {
        Engine::Zkbpp => ProtocolId::PegMpc,
        Engine::Kkw => ProtocolId::PegKkw,
        Engine::Vole => ProtocolId::PegVole,
    }
}

/// The prover's side of a live session with either engine ([`crate::mpc::engine`]).
pub fn session_prover_with(
    inst: &Instance,
    z: &Matrix,
    system: &System,
    context: &[u8],
    rng: Rng,
) -> Result<Box<dyn crate::net::SessionProver<'static>>> {
    let w = peg_witness(inst, z)?;
    system.session_prover(
        statement(inst, context)?,
        protocol_of(system.engine()),
        w,
        rng,
    )
}

/// The verifier's side of a live session with the engine and parameters it fixes.
pub fn session_verifier_with(
    inst: &Instance,
    system: &System,
    context: &[u8],
    rng: Rng,
) -> Result<Box<dyn crate::net::SessionVerifier>> {
    Ok(crate::mpc::engine::session_verifier(
        system,
        statement(inst, context)?,
        protocol_of(system.engine()),
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
    let protocol = protocol_of(system.engine());
    let rec = system.simulate_session(&st.as_ref(), protocol, rng)?;
    Ok(session::record_file(protocol, &rec))
}

/// A recorded session as proof-file bytes ([`Mode::Interactive`]).
pub fn session_file(rec: &SessionRecord) -> Vec<u8> {
    session::record_file(ProtocolId::PegMpc, rec)
}

/// The protocol-specific lines of `verifier peg inspect` for a peg ZKB++ file (no
/// verification, no instance needed); the caller prints the header's protocol and mode.
/// Refuses a body that does not match the header (a session transcript of another protocol).
pub fn inspect(file: &ProofFile) -> Result<String> {
    file.expect_protocol(ProtocolId::PegMpc)?;
    Ok(match file.mode {
        Mode::NonInteractive => {
            let p: PegMpcProof = proof_file::decode(&file.body, "peg ZKB++ proof")?;
            let rounds = p.proof.rounds.len();
            let view = p.proof.rounds.first().map_or(0, |r| r.opening.view.len());
            format!(
                "instance:   {}\nrounds:     {rounds} ({:.1} bits of security)\nviews:      {view} bytes opened per round (≈ {} AND gates)\n",
                hex::encode(p.instance_digest),
                zkbpp::security_bits(rounds),
                8 * view
            )
        }
        Mode::Interactive => {
            let r: SessionRecord = proof_file::decode(&file.body, "peg ZKB++ session record")?;
            if r.hello.protocol != ProtocolId::PegMpc as u16 {
                return Err(Error::bad(format!(
                    "inconsistent file: the header says peg ZKB++, the session inside says protocol {}",
                    r.hello.protocol
                )));
            }
            let rounds = r.hello.rounds as usize;
            format!(
                "statement:  {}\ncontext:    {}\nrounds:     {rounds} ({:.1} bits of security)\n",
                hex::encode(r.hello.statement),
                crate::files::excerpt(&String::from_utf8_lossy(&r.hello.context)),
                zkbpp::security_bits(rounds)
            )
        }
    })
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

/// A KKW proof of a solution `z` of `inst`: the bytes of a proof file ([`ProtocolId::PegKkw`]).
pub fn prove_peg_kkw(
    inst: &Instance,
    z: &Matrix,
    params: crate::mpc::kkw::Params,
    context: &[u8],
    rng: &mut Rng,
) -> Result<Vec<u8>> {
    prove_peg_with(inst, z, &System::Kkw(params), context, rng)
}

/// Verifies a KKW peg solitaire proof file, requiring `min_bits` of security.
pub fn verify_peg_kkw(
    inst: &Instance,
    file: &ProofFile,
    min_bits: f64,
    context: &[u8],
) -> Result<Report> {
    file.expect_protocol(ProtocolId::PegKkw)?;
    if file.mode == Mode::Interactive {
        let rec: SessionRecord = proof_file::decode(&file.body, "peg KKW session record")?;
        let st = statement(inst, context)?;
        let ands = st.circuit.n_and();
        let params =
            crate::mpc::kkw_session::replay_offered(st, ProtocolId::PegKkw, min_bits, &rec)?;
        let mut r = Report::kkw(params, proof_file::HEADER_LEN + file.body.len(), ands);
        r.mode = Mode::Interactive;
        return Ok(r);
    }
    let proof: crate::mpc::kkw::Proof = proof_file::decode(&file.body, "peg KKW proof")?;
    let st = statement(inst, context)?;
    let params = proof.params;
    EngineProof::Kkw(proof).verify(
        &st.as_ref(),
        &Required {
            kkw_bits: min_bits,
            ..Required::bits(1)
        },
    )?;
    Ok(Report::kkw(
        params,
        proof_file::HEADER_LEN + file.body.len(),
        st.circuit.n_and(),
    ))
}

/// A VOLE-in-the-head proof of a solution `z` of `inst`: the bytes of a proof file
/// ([`ProtocolId::PegVole`]).
pub fn prove_peg_vole(
    inst: &Instance,
    z: &Matrix,
    params: crate::mpc::vole::Params,
    context: &[u8],
    rng: &mut Rng,
) -> Result<Vec<u8>> {
    prove_peg_with(inst, z, &System::Vole(params), context, rng)
}

/// Verifies a VOLE peg solitaire proof file (or recorded session), requiring `min_bits` of
/// security.
pub fn verify_peg_vole(
    inst: &Instance,
    file: &ProofFile,
    min_bits: f64,
    context: &[u8],
) -> Result<Report> {
    file.expect_protocol(ProtocolId::PegVole)?;
    if file.mode == Mode::Interactive {
        let rec: SessionRecord = proof_file::decode(&file.body, "peg VOLE session record")?;
        let st = statement(inst, context)?;
        let ands = st.circuit.n_and();
        let params =
            crate::mpc::vole::session::replay_offered(st, ProtocolId::PegVole, min_bits, &rec)?;
        return Ok(Report::vole(
            params,
            proof_file::HEADER_LEN + file.body.len(),
            ands,
            Mode::Interactive,
        ));
    }
    let proof: crate::mpc::vole::Proof = proof_file::decode(&file.body, "peg VOLE proof")?;
    let st = statement(inst, context)?;
    let params = proof.params;
    EngineProof::Vole(proof).verify(
        &st.as_ref(),
        &Required {
            kkw_bits: min_bits,
            ..Required::bits(1)
        },
    )?;
    Ok(Report::vole(
        params,
        proof_file::HEADER_LEN + file.body.len(),
        st.circuit.n_and(),
        Mode::NonInteractive,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::peg::instance::tee;
    use crate::rng::seeded_rng;
    use rand::Rng as _;

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
        let z = crate::peg::instance::tee_solution();
        let mut rng = seeded_rng(22);
        let bytes = prove_peg(&inst, &z, 30, b"ctx", &mut rng).unwrap();
        let f = ProofFile::from_bytes(&bytes).unwrap();
        let rep = verify_peg(&inst, &f, 30, b"ctx").unwrap();
        assert_eq!(rep.rounds, 30);
        assert!(verify_peg(&inst, &f, 31, b"ctx").is_err());
        assert!(verify_peg(&inst, &f, 30, b"ctY").is_err());
        assert!(inspect(&f).unwrap().contains("rounds:     30"));
        let mut bad = z.clone();
        bad[2][0] ^= true;
        assert!(prove_peg(&inst, &bad, 30, b"", &mut rng).is_err());
        // every byte flipped is rejected
        for i in 0..bytes.len() {
            let mut t = bytes.clone();
            t[i] ^= 0x10;
            let ok = ProofFile::from_bytes(&t).and_then(|f| verify_peg(&inst, &f, 30, b"ctx"));
            assert!(ok.is_err(), "flip at {i}");
        }
    }

    #[test]
    fn english_board_solution_proves() {
        let (inst, z) = crate::peg::catalog::solved("english").unwrap();
        assert_eq!((inst.n(), inst.t(), inst.s()), (33, 38, 32));
        inst.check_solution(&z).unwrap();
        let mut rng = seeded_rng(23);
        let bytes = prove_peg(&inst, &z, 20, b"", &mut rng).unwrap();
        let f = ProofFile::from_bytes(&bytes).unwrap();
        verify_peg(&inst, &f, 20, b"").unwrap();
        // another instance (peg-count goal) rejects it
        let other = Instance::new(
            inst.n(),
            inst.triplets().to_vec(),
            inst.first().to_vec(),
            Goal::PegCount(1),
        )
        .unwrap();
        assert!(verify_peg(&other, &f, 20, b"").is_err());
    }
}
