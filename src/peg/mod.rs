//! Peg solitaire: the formal model of Bultel (FUN 2022), boards, a solver, and Protocol 1.

pub mod board;
pub mod instance;
pub mod iso;
pub mod solver;
