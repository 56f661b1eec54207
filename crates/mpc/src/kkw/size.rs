//! The most bytes an honest KKW prover's session messages have, from the statement's shape
//! and the parameters alone: what a live session's verifier reads at most
//! ([`crate::session::Interactive::max_commit_len`]). The encoder is [`super::CommitMsg`]'s
//! and [`super::Response`]'s bincode ([`zkgames_core::proof_file::encode`]); the tests
//! (`every_engine_bounds_its_messages`) hold them to these functions.

use super::Params;
use crate::seedtree::max_reveal_nodes;
use crate::statement::Statement;
use zkgames_core::merkle::max_opening_len;
use zkgames_core::proof_file::{list_len, varint_len};

/// [`super::CommitMsg`]: the salt, `M` preprocessing commitments, the online root. Exact.
pub fn commit_len(p: &Params) -> usize {
    32 + list_len(p.m(), 32) + 32
}

/// [`super::Response`]: the execution tree's nodes revealing all but the `τ` online
/// executions ([`max_reveal_nodes`]), the Merkle siblings of `τ` online leaves of `M`
/// ([`max_opening_len`]), and `τ` [`super::OnlineOpening`]s: a key, `log2 N` party seeds,
/// a commitment, the auxiliary bits (`⌈n_and/8⌉` bytes, or none when party `N − 1` is
/// hidden), the masked input (`⌈n_in/8⌉`) and the hidden party's broadcast (`⌈n_and/8⌉`).
pub fn max_response_len(st: &Statement, p: &Params) -> usize {
    let (m, tau, n) = (p.m(), p.tau(), p.n());
    let and_bytes = st.circuit.n_and().div_ceil(8);
    let in_bytes = st.circuit.n_inputs().div_ceil(8);
    let opening = 32
        + list_len(max_reveal_nodes(n, 1), 32)
        + 32
        + list_len(and_bytes, 1)
        + list_len(in_bytes, 1)
        + list_len(and_bytes, 1);
    list_len(max_reveal_nodes(m, tau), 32)
        + list_len(max_opening_len(m, tau), 32)
        + varint_len(tau as u64)
        + tau * opening
}
