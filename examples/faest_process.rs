//! FAEST's side of the figures bench's whole-process rows, as a program of its own:
//! `faest_process s` (FAEST-128s) or `f` (FAEST-128f) makes a key, signs "login" and
//! verifies the signature (benches/common/whole.rs, which the figures bench also runs as a
//! child of itself).
#[path = "../benches/common/whole.rs"]
mod whole;

fn main() {
    let set = std::env::args().nth(1).unwrap_or_else(|| "s".into());
    whole::faest_process(&set);
}
