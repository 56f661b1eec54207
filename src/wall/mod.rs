//! The Wall Game: positions, the graph core, and the cut oracle that decides legal walls.

pub mod cut;
pub mod graph;
pub mod moves;
