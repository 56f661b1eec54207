//! KKW (Katz, Kolesnikov, Wang, CCS 2018; the proof system of Picnic3) over [`Circuit`]s.
//!
//! Each of `M` executions runs the circuit as an `N`-party computation with a preprocessing
//! phase. Every wire `v` has a random mask `λ_v = ⊕_i λ_{v,i}` shared among the parties,
//! and the parties learn only the masked value `v̂ = v ⊕ λ_v`:
//! * inputs: masks from the parties' tapes; the masked input `x̂ = w ⊕ λ_in` is public;
//! * `Xor`, `Not`: masks XOR (or are copied), masked values XOR (or are negated);
//! * `And(a, b)` with output `c`: `λ_c` and shares `λ_{ab,i}` come from the tapes for parties
//!   `0 … N−2`; party `N−1`'s share of `λ_ab` is the *auxiliary bit*
//!   `aux = λ_a λ_b ⊕ ⊕_{i<N−1} λ_{ab,i}`, so that `⊕_i λ_{ab,i} = λ_a λ_b`. Online, party `i`
//!   broadcasts `s_i = λ_{c,i} ⊕ â λ_{b,i} ⊕ b̂ λ_{a,i} ⊕ λ_{ab,i}` and everyone sets
//!   `ĉ = â b̂ ⊕ ⊕_i s_i` (which is `ab ⊕ λ_c`);
//! * outputs: the parties reveal their mask shares and `y = v̂ ⊕ λ_v`.
//!
//! The prover commits to the preprocessing of every execution (seeds, with `aux` in party
//! `N−1`'s commitment) and to the online phase of every execution (masked input, all
//! broadcasts, all output shares), then one Fiat–Shamir hash picks `τ` executions to run
//! online and, in each, the one party `p` that stays hidden. Executions outside the set are
//! opened completely (their seed) and checked to be honest preprocessing; in the others the
//! verifier recomputes the `N − 1` opened parties' broadcasts from their seeds and takes
//! party `p`'s from the proof. A cheater must either corrupt the preprocessing of executions
//! that all land in the online set, or guess `p` in each honest online execution: see
//! [`attack_cost_bits`] for the exact cost, which the parameter sets bound by 2^128.
//!
//! Seeds: one root seed per proof expands (GGM, [`super::seedtree`]) into `M` execution
//! seeds, each of which expands into `N` party seeds; all but `τ` execution seeds, and in each
//! online execution all but one party seed, are revealed with about `log` as many seeds.
//! The online commitments are the leaves of a Merkle tree ([`zkgames_core::merkle`]): the verifier
//! recomputes the `τ` online leaves and receives the siblings.
//!
//! Speed: the online phase runs bitsliced with one `u64` lane per (execution, party): `64/N`
//! executions per word, their party shares side by side; a preprocessing-only execution needs
//! only the XOR of all parties' tapes and runs 64 executions per word. Groups run on rayon.
//!
//! The bytes are specified in `docs/PROTOCOLS.md` (section 5).
//!
//! Files: this one holds the messages, the commitments, the prover, the verifier and the
//! simulator; `params.rs` the parameter sets and their forgery cost; `bits.rs` the packed
//! bits, party tapes, lane arithmetic and the circuit compiled to a register program;
//! `walk.rs` the two bitsliced walks (preprocessing only, and online).

#[macro_use]
mod bits;
pub mod backend;
mod params;
pub mod size;
pub use backend::Kkw;
#[cfg(test)]
mod tests;
mod walk;

use rand_core::RngCore;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use sha2::{Digest as _, Sha256};

use super::seedtree::{self, Seed, SeedTree, TreeId};
use super::statement::{pack_bools, Statement};
use zkgames_core::commit::Digest;
use zkgames_core::details::{Details, Value};
use zkgames_core::transcript::{ChallengeStream, Transcript};
use zkgames_core::Error;
use zkgames_core::Result;

use bits::*;
use walk::*;

pub use params::{attack_cost_bits, params_for, split_attack_cost_bits, Params, Profile};

/// The most executions a proof may have.
pub const MAX_EXECUTIONS: u32 = 4096;
/// The most parties per execution (one `u64` lane each).
pub const MAX_PARTIES: u32 = 64;
/// The most (execution, party) pairs a proof may have: bounds the verifier's work.
pub const MAX_PARTY_EXECUTIONS: u64 = 1 << 16;

/// The tree number of the execution-seed tree (party trees use the execution index).
const EXEC_TREE: u32 = u32::MAX;

// ---------------------------------------------------------------------------------------
// proof structures

/// The opened part of one online execution.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct OnlineOpening {
    /// The key of the execution's online commitment (keeps the online commitments of the
    /// executions whose seeds are all revealed hiding).
    pub key: [u8; 32],
    /// Seed-tree nodes revealing every party seed but the hidden party's (`log2 N` seeds).
    pub party_seeds: Vec<Seed>,
    /// The hidden party's commitment.
    pub commitment: Digest,
    /// Party `N−1`'s auxiliary bits, packed (`ceil(n_and/8)` bytes); empty if it is hidden.
    #[serde(with = "zkgames_core::proof_file::bytes")]
    pub aux: Vec<u8>,
    /// The masked input `x̂`, packed (`ceil(n_in/8)` bytes).
    #[serde(with = "zkgames_core::proof_file::bytes")]
    pub masked_input: Vec<u8>,
    /// The hidden party's broadcast bits, one per AND gate, packed.
    #[serde(with = "zkgames_core::proof_file::bytes")]
    pub msgs: Vec<u8>,
}

/// The prover's answer to a challenge.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Response {
    /// Seed-tree nodes revealing the seeds of every execution outside the online set.
    pub exec_seeds: Vec<Seed>,
    /// Merkle siblings opening the online leaves of the online set.
    pub online_path: Vec<Digest>,
    /// One per online execution, in increasing execution order.
    pub online: Vec<OnlineOpening>,
}

/// A non-interactive KKW proof.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Proof {
    pub params: Params,
    pub salt: [u8; 32],
    /// The Fiat–Shamir challenge hash (the online set and hidden parties are derived from it).
    pub challenge: Digest,
    pub response: Response,
}

/// The prover's first message in the interactive form (hashed, not sent, in a proof).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct CommitMsg {
    pub salt: [u8; 32],
    /// `h_j`, the preprocessing commitment of every execution.
    pub preprocessing: Vec<Digest>,
    /// The Merkle root of the online commitments `h'_j`.
    pub online_root: Digest,
}

/// The online set (increasing) and the hidden party of each of its executions.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Challenge {
    pub online: Vec<u32>,
    pub hidden: Vec<u32>,
}

impl Challenge {
    /// The challenge derived from a Fiat–Shamir hash: the first `τ` distinct values of
    /// `uniform(M)` form the online set; then, in increasing execution order, `uniform(N)`
    /// for each hidden party (one [`ChallengeStream`] seeded with the hash).
    pub fn from_hash(h: &Digest, p: &Params) -> Self {
        let mut s = ChallengeStream::new(*h);
        let mut chosen = vec![false; p.m()];
        let mut online = Vec::with_capacity(p.tau());
        while online.len() < p.tau() {
            let j = s.uniform(p.executions as u64) as usize;
            if !chosen[j] {
                chosen[j] = true;
                online.push(j as u32);
            }
        }
        online.sort_unstable();
        let hidden = online
            .iter()
            .map(|_| s.uniform(p.parties as u64) as u32)
            .collect();
        Challenge { online, hidden }
    }

    /// A uniformly random challenge (for interactive use and tests).
    pub fn random(p: &Params, rng: &mut impl RngCore) -> Self {
        Challenge::from_hash(&zkgames_core::rng::random_32(rng), p)
    }

    pub(crate) fn check(&self, p: &Params) -> Result<()> {
        let ok = self.online.len() == p.tau()
            && self.hidden.len() == p.tau()
            && self.online.windows(2).all(|w| w[0] < w[1])
            && self.online.iter().all(|&j| j < p.executions)
            && self.hidden.iter().all(|&q| q < p.parties);
        if ok {
            Ok(())
        } else {
            Err(Error::bad(format!(
                "the challenge is not {} increasing executions below {} with a party below {} each",
                p.online, p.executions, p.parties
            )))
        }
    }
}

/// Deliberate misbehaviour for soundness tests; the prover carries on consistently.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cheat {
    /// Flip party `N−1`'s auxiliary bit of AND gate `and_index` in an execution (a corrupt
    /// preprocessing: caught when that execution is not online).
    Aux { execution: usize, and_index: usize },
    /// Flip `party`'s broadcast bit of AND gate `and_index` in an execution (a corrupt
    /// online phase: caught unless `party` is the hidden one).
    Broadcast {
        execution: usize,
        and_index: usize,
        party: usize,
    },
    /// Run execution `execution` on the witness with bit `input` flipped (a prover that
    /// changes witness between executions; tests of committed witnesses).
    Input { execution: usize, input: usize },
}

// ---------------------------------------------------------------------------------------
// commitments

fn commit_party(salt: &[u8; 32], j: usize, i: usize, seed: &Seed, aux: Option<&[u8]>) -> Digest {
    let mut h = Sha256::new();
    h.update(b"zkg:kkw:party:v1");
    h.update(salt);
    h.update((j as u32).to_le_bytes());
    h.update((i as u32).to_le_bytes());
    h.update(seed);
    if let Some(a) = aux {
        h.update(a);
    }
    h.finalize().into()
}

fn commit_preprocessing(salt: &[u8; 32], j: usize, parties: &[Digest]) -> Digest {
    let mut h = Sha256::new();
    h.update(b"zkg:kkw:pre:v1");
    h.update(salt);
    h.update((j as u32).to_le_bytes());
    for c in parties {
        h.update(c);
    }
    h.finalize().into()
}

fn fs_hash(st: &Statement, p: &Params, cm: &CommitMsg) -> Digest {
    let mut t = Transcript::new(b"zkgames/kkw/v1");
    t.append(b"application", st.tag);
    t.append(b"circuit", &st.circuit.digest());
    t.append(b"public inputs", st.public);
    t.append_u64(b"output bits", st.output.len() as u64);
    t.append(b"output", &pack_bools(st.output));
    t.append(b"context", st.context);
    t.append_u64(b"executions", p.executions as u64);
    t.append_u64(b"online executions", p.online as u64);
    t.append_u64(b"parties", p.parties as u64);
    t.append(b"salt", &cm.salt);
    let pre: Vec<u8> = cm.preprocessing.iter().flatten().copied().collect();
    t.append(b"preprocessing commitments", &pre);
    t.append(b"online root", &cm.online_root);
    let mut s = t.challenges(b"kkw challenge");
    std::array::from_fn(|_| s.next_byte())
}

// ---------------------------------------------------------------------------------------
// prover

/// Everything the prover keeps between its commitment and its response.
pub struct ProverState {
    params: Params,
    salt: [u8; 32],
    exec_tree: SeedTree,
    party_seeds: Vec<Vec<Seed>>,
    /// the keys of the online commitments
    keys: Vec<[u8; 32]>,
    aux: Vec<Vec<u8>>,
    masked_input: Vec<Vec<u8>>,
    parties: Vec<Vec<Digest>>,
    online: Vec<Digest>,
    msg: CommitMsg,
    witness: Vec<bool>,
    cheats: Vec<Cheat>,
}

fn party_seeds_of(salt: &[u8; 32], j: usize, exec_seed: &Seed, n: usize) -> Vec<Seed> {
    SeedTree::new(
        exec_seed,
        n,
        TreeId {
            salt,
            tree: j as u32,
        },
    )
    .leaves()
}

/// The prover's commitment: preprocessing and online phase of every execution.
/// `witness` is not checked here (see [`prove`]); `cheats` are for soundness tests.
pub fn commit(
    st: &Statement,
    witness: &[bool],
    params: Params,
    rng: &mut impl RngCore,
    cheats: &[Cheat],
) -> Result<ProverState> {
    params.check()?;
    if witness.len() != st.circuit.n_inputs() {
        return Err(Error::bad(format!(
            "witness has {} bits, the circuit takes {}",
            witness.len(),
            st.circuit.n_inputs()
        )));
    }
    st.check_output_len()?;
    st.check_boolean()?;
    let (m, n) = (params.m(), params.n());
    let sh = Shape::of(st.circuit, n);
    let pr = Program::compile(st.circuit);
    let salt = zkgames_core::rng::random_32(rng);
    let root = zkgames_core::rng::random_32(rng);
    let keys: Vec<[u8; 32]> = (0..m).map(|_| zkgames_core::rng::random_32(rng)).collect();
    let exec_tree = SeedTree::new(
        &root,
        m,
        TreeId {
            salt: &salt,
            tree: EXEC_TREE,
        },
    );
    let party_seeds: Vec<Vec<Seed>> = exec_tree
        .leaves()
        .par_iter()
        .enumerate()
        .map(|(j, s)| party_seeds_of(&salt, j, s, n))
        .collect();
    let outs = run_prover_groups(
        st,
        &pr,
        &sh,
        &salt,
        witness,
        &party_seeds,
        &keys,
        &(0..m).map(|j| (j, None)).collect::<Vec<_>>(),
        cheats,
    );
    let mut aux = Vec::with_capacity(m);
    let mut masked_input = Vec::with_capacity(m);
    let mut online = Vec::with_capacity(m);
    for o in outs {
        aux.push(o.aux);
        masked_input.push(o.masked_input);
        online.push(o.online);
    }
    let parties: Vec<Vec<Digest>> = (0..m)
        .into_par_iter()
        .map(|j| {
            (0..n)
                .map(|i| {
                    let a = (i == n - 1).then_some(aux[j].as_slice());
                    commit_party(&salt, j, i, &party_seeds[j][i], a)
                })
                .collect()
        })
        .collect();
    let preprocessing = parties
        .iter()
        .enumerate()
        .map(|(j, c)| commit_preprocessing(&salt, j, c))
        .collect();
    let msg = CommitMsg {
        salt,
        preprocessing,
        online_root: zkgames_core::merkle::root(&online),
    };
    Ok(ProverState {
        params,
        salt,
        exec_tree,
        party_seeds,
        keys,
        aux,
        masked_input,
        parties,
        online,
        msg,
        witness: witness.to_vec(),
        cheats: cheats.to_vec(),
    })
}

/// Runs prover-mode groups for the listed `(execution, column wanted)` pairs.
#[allow(clippy::too_many_arguments)]
fn run_prover_groups(
    st: &Statement,
    pr: &Program,
    sh: &Shape,
    salt: &[u8; 32],
    witness: &[bool],
    party_seeds: &[Vec<Seed>],
    keys: &[[u8; 32]],
    list: &[(usize, Option<usize>)],
    cheats: &[Cheat],
) -> Vec<ExecOut> {
    list.par_chunks(group_size(sh.n))
        .map(|ch| {
            let execs: Vec<ExecIn> = ch
                .iter()
                .map(|&(j, col)| ExecIn {
                    j,
                    key: keys[j],
                    seeds: party_seeds[j].iter().map(|s| Some(*s)).collect(),
                    given: None,
                    column: col,
                })
                .collect();
            with_lanes!(
                sh.n,
                online_group(
                    st.circuit,
                    pr,
                    sh,
                    salt,
                    st.output,
                    Some(witness),
                    &execs,
                    cheats
                )
            )
        })
        .flatten_iter()
        .collect()
}

impl ProverState {
    /// The first message.
    pub fn commitment(&self) -> &CommitMsg {
        &self.msg
    }

    /// The answer to a challenge.
    pub fn respond(&self, st: &Statement, ch: &Challenge) -> Result<Response> {
        ch.check(&self.params)?;
        let n = self.params.n();
        let online_set: Vec<usize> = ch.online.iter().map(|&j| j as usize).collect();
        let exec_seeds = self.exec_tree.leaves();
        let sh = Shape::of(st.circuit, n);
        let pr = Program::compile(st.circuit);
        let list: Vec<(usize, Option<usize>)> = online_set
            .iter()
            .zip(&ch.hidden)
            .map(|(&j, &q)| (j, Some(q as usize)))
            .collect();
        let rerun = run_prover_groups(
            st,
            &pr,
            &sh,
            &self.salt,
            &self.witness,
            &self.party_seeds,
            &self.keys,
            &list,
            &self.cheats,
        );
        let online = online_set
            .iter()
            .zip(&ch.hidden)
            .zip(rerun)
            .map(|((&j, &q), out)| {
                let q = q as usize;
                let t = SeedTree::new(
                    &exec_seeds[j],
                    n,
                    TreeId {
                        salt: &self.salt,
                        tree: j as u32,
                    },
                );
                OnlineOpening {
                    key: self.keys[j],
                    party_seeds: t.reveal(&[q]),
                    commitment: self.parties[j][q],
                    aux: if q == n - 1 {
                        Vec::new()
                    } else {
                        self.aux[j].clone()
                    },
                    masked_input: self.masked_input[j].clone(),
                    msgs: out.column.expect("column requested"),
                }
            })
            .collect();
        Ok(Response {
            exec_seeds: self.exec_tree.reveal(&online_set),
            online_path: zkgames_core::merkle::open(&self.online, &online_set),
            online,
        })
    }
}

/// Proves knowledge of `witness` with `C(witness) = output`; refuses a wrong witness.
pub fn prove(
    st: &Statement,
    witness: &[bool],
    params: Params,
    rng: &mut impl RngCore,
) -> Result<Proof> {
    params.check()?;
    super::statement::check_witness(st, witness)?;
    prove_unchecked(st, witness, params, rng, &[])
}

/// Like [`prove`] without checking the witness, optionally cheating: for soundness tests.
#[doc(hidden)]
pub fn prove_unchecked(
    st: &Statement,
    witness: &[bool],
    params: Params,
    rng: &mut impl RngCore,
    cheats: &[Cheat],
) -> Result<Proof> {
    let ps = commit(st, witness, params, rng, cheats)?;
    let challenge = fs_hash(st, &params, &ps.msg);
    let ch = Challenge::from_hash(&challenge, &params);
    Ok(Proof {
        params,
        salt: ps.salt,
        challenge,
        response: ps.respond(st, &ch)?,
    })
}

// ---------------------------------------------------------------------------------------
// verifier

fn rejected_at(j: usize, what: impl std::fmt::Display) -> Error {
    let what = what.to_string();
    // the user's cause first ("made for another statement …"), the execution after
    match what.strip_prefix(super::ANOTHER_STATEMENT) {
        Some(rest) => Error::rejected(format!(
            "{}: online execution {j}{rest}",
            super::ANOTHER_STATEMENT
        )),
        None => Error::rejected(format!("online execution {j}: {what}")),
    }
}

/// Recomputes the first message from a response: every `h_j` and the online root.
/// Checks every length; errors name the execution.
pub fn recompute(
    st: &Statement,
    params: &Params,
    salt: &[u8; 32],
    ch: &Challenge,
    resp: &Response,
) -> Result<CommitMsg> {
    params.check().map_err(|e| Error::rejected(e.to_string()))?;
    st.check_output_len()?;
    st.check_boolean()?;
    ch.check(params)
        .map_err(|e| Error::rejected(e.to_string()))?;
    let (m, n) = (params.m(), params.n());
    let sh = Shape::of(st.circuit, n);
    let pr = Program::compile(st.circuit);
    let online_set: Vec<usize> = ch.online.iter().map(|&j| j as usize).collect();
    if resp.online.len() != online_set.len() {
        return Err(Error::rejected(format!(
            "{} online openings, expected {}",
            resp.online.len(),
            online_set.len()
        )));
    }
    let logn = n.trailing_zeros() as usize;
    for (&j, (o, &q)) in online_set.iter().zip(resp.online.iter().zip(&ch.hidden)) {
        if o.party_seeds.len() != logn {
            return Err(rejected_at(
                j,
                format!("{} party seeds, expected {logn}", o.party_seeds.len()),
            ));
        }
        let want_aux = if q as usize == n - 1 { 0 } else { sh.n_and };
        if !(if want_aux == 0 {
            o.aux.is_empty()
        } else {
            canonical_bits(&o.aux, sh.n_and)
        }) {
            return Err(rejected_at(
                j,
                format!(
                    "{}the auxiliary bits are {} bytes, expected {} with zero padding",
                    other_statement(o.aux.len(), want_aux.div_ceil(8)),
                    o.aux.len(),
                    want_aux.div_ceil(8)
                ),
            ));
        }
        if !canonical_bits(&o.masked_input, sh.n_in) {
            return Err(rejected_at(
                j,
                format!(
                    "{}the masked input is {} bytes, expected {} with zero padding",
                    other_statement(o.masked_input.len(), sh.in_bytes()),
                    o.masked_input.len(),
                    sh.in_bytes()
                ),
            ));
        }
        if !canonical_bits(&o.msgs, sh.n_and) {
            return Err(rejected_at(
                j,
                format!(
                    "{}the hidden party's broadcasts are {} bytes, expected {} with zero padding",
                    other_statement(o.msgs.len(), sh.and_bytes()),
                    o.msgs.len(),
                    sh.and_bytes()
                ),
            ));
        }
    }
    let exec_seeds = seedtree::reconstruct(
        m,
        &online_set,
        &resp.exec_seeds,
        TreeId {
            salt,
            tree: EXEC_TREE,
        },
    )
    .ok_or_else(|| {
        Error::rejected(format!(
            "{} execution seeds, expected {}",
            resp.exec_seeds.len(),
            seedtree::reveal_nodes(m, &online_set).len()
        ))
    })?;

    // executions outside the online set: preprocessing from their seeds
    let closed: Vec<usize> = (0..m).filter(|j| exec_seeds[*j].is_some()).collect();
    let closed_seeds: Vec<Vec<Seed>> = closed
        .par_iter()
        .map(|&j| party_seeds_of(salt, j, &exec_seeds[j].expect("revealed"), n))
        .collect();
    let refs: Vec<&[Seed]> = closed_seeds.iter().map(|s| s.as_slice()).collect();
    let closed_aux = aux_of(&pr, &sh, &refs);
    let mut pre: Vec<Digest> = vec![[0; 32]; m];
    let closed_h: Vec<Digest> = closed
        .par_iter()
        .zip(closed_seeds.par_iter().zip(closed_aux.par_iter()))
        .map(|(&j, (seeds, aux))| {
            let cs: Vec<Digest> = (0..n)
                .map(|i| commit_party(salt, j, i, &seeds[i], (i == n - 1).then_some(aux)))
                .collect();
            commit_preprocessing(salt, j, &cs)
        })
        .collect();
    for (&j, h) in closed.iter().zip(closed_h) {
        pre[j] = h;
    }

    // online executions
    let opened: Vec<Vec<Option<Seed>>> = online_set
        .iter()
        .zip(resp.online.iter().zip(&ch.hidden))
        .map(|(&j, (o, &q))| {
            seedtree::reconstruct(
                n,
                &[q as usize],
                &o.party_seeds,
                TreeId {
                    salt,
                    tree: j as u32,
                },
            )
            .ok_or_else(|| rejected_at(j, "malformed party seeds"))
        })
        .collect::<Result<_>>()?;
    let idx: Vec<usize> = (0..online_set.len()).collect();
    let outs: Vec<ExecOut> = idx
        .par_chunks(group_size(n))
        .map(|ch_idx| {
            let execs: Vec<ExecIn> = ch_idx
                .iter()
                .map(|&t| {
                    let o = &resp.online[t];
                    ExecIn {
                        j: online_set[t],
                        key: o.key,
                        seeds: opened[t].clone(),
                        given: Some(Given {
                            hidden: ch.hidden[t] as usize,
                            masked_input: &o.masked_input,
                            aux: &o.aux,
                            msgs: &o.msgs,
                        }),
                        column: None,
                    }
                })
                .collect();
            with_lanes!(
                n,
                online_group(st.circuit, &pr, &sh, salt, st.output, None, &execs, &[])
            )
        })
        .flatten_iter()
        .collect();
    let mut leaves = Vec::with_capacity(online_set.len());
    for (t, out) in outs.iter().enumerate() {
        let j = online_set[t];
        let q = ch.hidden[t] as usize;
        let o = &resp.online[t];
        let cs: Vec<Digest> = (0..n)
            .map(|i| {
                if i == q {
                    o.commitment
                } else {
                    let a = (i == n - 1).then_some(o.aux.as_slice());
                    commit_party(salt, j, i, &opened[t][i].expect("opened"), a)
                }
            })
            .collect();
        pre[j] = commit_preprocessing(salt, j, &cs);
        leaves.push((j, out.online));
    }
    let online_root = zkgames_core::merkle::root_from_opening(m, &leaves, &resp.online_path)
        .ok_or_else(|| {
            Error::rejected(format!(
                "the Merkle opening of the online commitments has {} hashes, not the number needed",
                resp.online_path.len()
            ))
        })?;
    Ok(CommitMsg {
        salt: *salt,
        preprocessing: pre,
        online_root,
    })
}

/// `"made for another statement …: "` when a length differs from the circuit's (not a
/// padding bit): the proof belongs to another statement, which is what the user needs to hear.
fn other_statement(len: usize, want: usize) -> String {
    if len != want {
        format!("{}: ", super::ANOTHER_STATEMENT)
    } else {
        String::new()
    }
}

/// Verifies a non-interactive proof; requires [`attack_cost_bits`] `≥ min_bits`.
pub fn verify(st: &Statement, proof: &Proof, min_bits: f64) -> Result<()> {
    let p = &proof.params;
    p.check().map_err(|e| Error::rejected(e.to_string()))?;
    let bits = attack_cost_bits(p);
    if bits < min_bits {
        return Err(Error::rejected(format!(
            "the proof's parameters ({p}) give {bits:.1} bits of security; {min_bits} are required"
        )));
    }
    let ch = Challenge::from_hash(&proof.challenge, p);
    let cm = recompute(st, p, &proof.salt, &ch, &proof.response)?;
    if fs_hash(st, p, &cm) != proof.challenge {
        return Err(Error::rejected(format!(
            "{}, or altered since: the recomputed preprocessing and online commitments do not \
                 hash to the proof's challenge (the Fiat–Shamir check failed)",
            super::ANOTHER_STATEMENT
        )));
    }
    Ok(())
}

/// Verifies the interactive form: the response must reproduce the first message exactly.
pub fn verify_interactive(
    st: &Statement,
    params: &Params,
    cm: &CommitMsg,
    ch: &Challenge,
    resp: &Response,
) -> Result<()> {
    if cm.preprocessing.len() != params.m() {
        return Err(Error::rejected(format!(
            "{} preprocessing commitments, expected {}",
            cm.preprocessing.len(),
            params.executions
        )));
    }
    let got = recompute(st, params, &cm.salt, ch, resp)?;
    if let Some(j) = (0..params.m()).find(|&j| got.preprocessing[j] != cm.preprocessing[j]) {
        let what = if ch.online.contains(&(j as u32)) {
            "online"
        } else {
            "opened"
        };
        return Err(Error::rejected(format!(
            "execution {j} ({what}): its preprocessing does not match the commitment"
        )));
    }
    if got.online_root != cm.online_root {
        return Err(Error::rejected(
            "the online phase of some online execution does not match the committed root",
        ));
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// simulator

/// The zero-knowledge simulator: for a challenge fixed in advance, a first message and a
/// response that [`verify_interactive`] accepts, made without any witness. Preprocessing is
/// honest (it does not involve the witness); in each online execution the masked input and
/// the hidden party's broadcasts are uniformly random — as in a real proof, where they are
/// masked by the hidden party's tape — and the hidden party's output share is whatever makes
/// the output come out right. The online leaves of the executions outside the online set are
/// random digests (a real prover's are never opened).
pub fn simulate(
    st: &Statement,
    params: Params,
    ch: &Challenge,
    rng: &mut impl RngCore,
) -> Result<(CommitMsg, Response)> {
    params.check()?;
    ch.check(&params)?;
    st.check_output_len()?;
    st.check_boolean()?;
    let (m, n) = (params.m(), params.n());
    let sh = Shape::of(st.circuit, n);
    let pr = Program::compile(st.circuit);
    let salt = zkgames_core::rng::random_32(rng);
    let root = zkgames_core::rng::random_32(rng);
    let exec_tree = SeedTree::new(
        &root,
        m,
        TreeId {
            salt: &salt,
            tree: EXEC_TREE,
        },
    );
    let exec_seeds = exec_tree.leaves();
    let party_seeds: Vec<Vec<Seed>> = exec_seeds
        .iter()
        .enumerate()
        .map(|(j, s)| party_seeds_of(&salt, j, s, n))
        .collect();
    let refs: Vec<&[Seed]> = party_seeds.iter().map(|s| s.as_slice()).collect();
    let aux = aux_of(&pr, &sh, &refs);
    let online_set: Vec<usize> = ch.online.iter().map(|&j| j as usize).collect();
    let rand_bits = |rng: &mut dyn RngCore, nbits: usize| {
        let b: Vec<bool> = (0..nbits).map(|_| rng.next_u32() & 1 == 1).collect();
        pack_bools(&b)
    };
    let mut online_leaves: Vec<Digest> =
        (0..m).map(|_| zkgames_core::rng::random_32(rng)).collect();
    let mut openings = Vec::with_capacity(online_set.len());
    for (&j, &q) in online_set.iter().zip(&ch.hidden) {
        let q = q as usize;
        let key = zkgames_core::rng::random_32(rng);
        let masked_input = rand_bits(rng, sh.n_in);
        let msgs = rand_bits(rng, sh.n_and);
        let seeds: Vec<Option<Seed>> = (0..n)
            .map(|i| (i != q).then_some(party_seeds[j][i]))
            .collect();
        let a = if q == n - 1 {
            Vec::new()
        } else {
            aux[j].clone()
        };
        let execs = [ExecIn {
            j,
            key,
            seeds,
            given: Some(Given {
                hidden: q,
                masked_input: &masked_input,
                aux: &a,
                msgs: &msgs,
            }),
            column: None,
        }];
        let out = with_lanes!(
            n,
            online_group(st.circuit, &pr, &sh, &salt, st.output, None, &execs, &[])
        );
        online_leaves[j] = out[0].online;
        let t = SeedTree::new(
            &exec_seeds[j],
            n,
            TreeId {
                salt: &salt,
                tree: j as u32,
            },
        );
        openings.push(OnlineOpening {
            key,
            party_seeds: t.reveal(&[q]),
            commitment: commit_party(
                &salt,
                j,
                q,
                &party_seeds[j][q],
                (q == n - 1).then_some(aux[j].as_slice()),
            ),
            aux: a,
            masked_input,
            msgs,
        });
    }
    let preprocessing = (0..m)
        .map(|j| {
            let cs: Vec<Digest> = (0..n)
                .map(|i| {
                    commit_party(
                        &salt,
                        j,
                        i,
                        &party_seeds[j][i],
                        (i == n - 1).then_some(aux[j].as_slice()),
                    )
                })
                .collect();
            commit_preprocessing(&salt, j, &cs)
        })
        .collect();
    let cm = CommitMsg {
        salt,
        preprocessing,
        online_root: zkgames_core::merkle::root(&online_leaves),
    };
    let resp = Response {
        exec_seeds: exec_tree.reveal(&online_set),
        online_path: zkgames_core::merkle::open(&online_leaves, &online_set),
        online: openings,
    };
    Ok((cm, resp))
}

/// Summary lines of a KKW proof for `inspect` (no verification): parameters, their
/// security, and where the bytes go.
pub fn describe(proof: &Proof) -> Details {
    let p = proof.params;
    let d = Details::new().text("parameters", p.to_string());
    let d = match p.check() {
        Ok(()) => {
            let bits = attack_cost_bits(&p);
            d.number(
                "security",
                bits,
                format!(
                    "{bits:.1} bits (Fiat–Shamir grinding; with two separate challenge hashes it would be {:.1})",
                    split_attack_cost_bits(&p)
                ),
            )
        }
        Err(e) => d.text("security", format!("invalid parameters: {e}")),
    };
    let r = &proof.response;
    let sum = |f: fn(&OnlineOpening) -> usize| r.online.iter().map(f).sum::<usize>();
    let count = |d: Details, name: &str, n: usize, unit: usize| {
        d.count(name, n as u64, format!("{n} ({} bytes)", unit * n))
    };
    let d = count(d, "execution seeds", r.exec_seeds.len(), 32);
    let d = count(d, "Merkle siblings", r.online_path.len(), 32);
    let parts = [
        ("party seeds", 32 * sum(|o| o.party_seeds.len())),
        ("auxiliary bits", sum(|o| o.aux.len())),
        ("masked inputs", sum(|o| o.masked_input.len())),
        ("broadcasts", sum(|o| o.msgs.len())),
        ("commitments", 32 * r.online.len()),
    ];
    let text = parts
        .iter()
        .map(|(name, b)| format!("{name} {b} B"))
        .collect::<Vec<_>>()
        .join(", ");
    let d = d.count(
        "online executions",
        r.online.len() as u64,
        format!("{}: {text}", r.online.len()),
    );
    parts.iter().fold(d, |d, (name, b)| {
        d.also(&format!("{name} bytes"), Value::Count(*b as u64))
    })
}
