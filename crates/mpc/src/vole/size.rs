//! The most bytes an honest VOLE-in-the-head prover's session messages have, from the
//! statement's shape and the parameters alone: what a live session's verifier reads at most
//! ([`crate::session::Interactive::max_commit_len`]). The encoder is [`super::CommitMsg`]'s
//! and [`super::Response`]'s bincode ([`zkgames_core::proof_file::encode`]); the tests
//! (`every_engine_bounds_its_messages`) hold them to these functions.

use super::{vc, Params, Shape, COMBINATIONS, SHORT_BYTES};
use crate::statement::Statement;
use zkgames_core::proof_file::list_len;

/// [`super::CommitMsg`]: the salt, `τ − 1` corrections of `⌈ℓ̂/8⌉` bytes as one string,
/// `ũ ‖ ũ′`, `d` (`⌈ℓ/8⌉` bytes), `Ã1`, `Ã2` (degree 3), `h_com`, `H(Ṽ)`, `Ã0`. Exact: an
/// honest commitment's size depends on nothing else.
pub fn commit_len(st: &Statement, p: &Params) -> usize {
    let sh = Shape::of(st.circuit);
    let core = 16
        + list_len(p.tau().saturating_sub(1) * sh.lhat.div_ceil(8), 1)
        + 16
        + SHORT_BYTES
        + list_len(sh.l.div_ceil(8), 1)
        + 16 * COMBINATIONS
        + list_len(sh.n_a2(), 16);
    core + 32 + 32 + 16 * COMBINATIONS
}

/// [`super::Response`]: the opened seeds (exactly `T` of them when the parameters bound
/// the opening, else at most [`vc::max_opened`], whatever `Δ`), then the `τ` hidden leaves'
/// commitments.
pub fn max_response_len(p: &Params) -> usize {
    let seeds = if p.open > 0 {
        p.open as usize
    } else {
        vc::max_opened(&vc::Layout::new(p))
    };
    list_len(seeds, 16) + list_len(p.tau(), 32)
}
