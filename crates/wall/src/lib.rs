//! The Wall Game: positions, the graph core, the cut oracle that decides legal walls, and the
//! game as it is played (moves, standard notation, game records).

pub mod board;
pub mod circuit;
pub mod cut;
pub mod format;
pub mod game;
pub mod graph;
pub mod html;
pub mod moves;
pub mod notation;
pub mod record;
pub mod render;
pub mod seal;
