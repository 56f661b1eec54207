//! Cut problems on a position's graph: which walls (edge removals) disconnect an attached pair.

pub mod naive;
