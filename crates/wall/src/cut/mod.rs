//! Cut problems on a position's graph: which walls (edge removals) disconnect an attached pair.
//!
//! - [`naive`]: brute force (remove, BFS), the reference for every test.
//! - [`bridges`]: bridges, biconnected components and the DFS forest, iteratively.
//! - [`single_paths`]: indelible edges in O(E·k) (bridges on a path per pair).
//! - [`single`]: indelible edges in O(E + k) (one tree, offline LCA).
//! - [`double`]: the per-pair double-edge cut oracle, O(V + E) build, O(1) query.

pub mod bridges;
pub mod double;
pub mod naive;
pub mod single;
pub mod single_paths;
