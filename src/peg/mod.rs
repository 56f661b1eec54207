//! Peg solitaire: the formal model of Bultel (FUN 2022), boards, a solver, and Protocol 1.

pub mod instance;
pub mod iso;
pub mod protocol;
pub mod fs;
pub mod session;
pub mod simulate;
pub mod board;
