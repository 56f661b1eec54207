//! ZKB++ (MPC-in-the-head) over boolean circuits.

// TEMPORARY placeholders until the ZKB++ branch lands.
pub fn rounds_for_bits(bits: u32) -> usize {
    (bits as f64 / (1.5f64).log2()).ceil() as usize
}
pub fn achieved_bits(rounds: usize) -> f64 {
    rounds as f64 * (1.5f64).log2()
}
pub fn inspect(_f: &crate::proof_file::ProofFile) -> crate::Result<String> {
    Err(crate::Error::bad("not yet"))
}
pub mod peg {
    use crate::peg::instance::{Instance, Matrix};
    pub fn prove_peg(_: &Instance, _: &Matrix, _: usize, _: &[u8], _: &mut crate::rng::Rng) -> crate::Result<Vec<u8>> {
        Err(crate::Error::bad("not yet"))
    }
    pub fn verify_peg(_: &Instance, _: &crate::proof_file::ProofFile, _: u32, _: &[u8]) -> crate::Result<String> {
        Err(crate::Error::bad("not yet"))
    }
}
