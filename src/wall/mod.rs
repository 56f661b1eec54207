//! The Wall Game: positions, the graph core, and the cut oracle that decides legal walls.

pub mod board;
pub mod circuit;
pub mod cut;
pub mod format;
pub mod graph;
pub mod moves;
pub mod render;
