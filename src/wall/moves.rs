//! Legal wall placements of a position's graph.

use super::cut::naive;
pub use super::cut::naive::Analysis;
use super::graph::Graph;

/// Analyses which single walls and wall pairs are illegal.
pub fn analyze(g: &Graph, pairs: &[(u32, u32)]) -> Analysis {
    naive::analyze(g, pairs)
}
