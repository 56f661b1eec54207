//! TEMPORARY (replaced by the board module from the peg-solve branch): raw instances only.
use super::instance::{format_bits, parse_matrix, parse_raw, Instance, Matrix};
use crate::Result;

pub struct Puzzle {
    name: String,
    inst: Instance,
}

impl Puzzle {
    pub fn parse(text: &str) -> Result<Puzzle> {
        Ok(Puzzle { name: "raw".into(), inst: parse_raw(text)? })
    }
    pub fn load(path: &str) -> Result<Puzzle> {
        let b = crate::proof_file::read_input(path, 1 << 20)?;
        Self::parse(&String::from_utf8_lossy(&b))
    }
    pub fn name(&self) -> &str {
        &self.name
    }
    pub fn instance(&self) -> &Instance {
        &self.inst
    }
    pub fn parse_solution(&self, text: &str) -> Result<Matrix> {
        let z = parse_matrix(text)?;
        self.inst.check_solution(&z)?;
        Ok(z)
    }
    pub fn format_solution(&self, z: &Matrix) -> String {
        z.iter().map(|r| format_bits(r) + "\n").collect()
    }
    pub fn render(&self, row: &[bool]) -> String {
        format_bits(row)
    }
    pub fn has_board(&self) -> bool {
        false
    }
}
