//! The vector commitment's AES-128 under many keys (`mpc::vole::aes_many`) against the `aes`
//! crate's cipher per key, in one run, alternating: nanoseconds per key to expand it and
//! encrypt `n` blocks, for the tree's nodes (2 blocks), a LowMC login's leaf (10 with its
//! commitment), a 32-block run and a SHA-256 leaf (190). Keys are expanded 64 at a time, as
//! the engine does. `cargo bench --bench aes_many` (`-- --test`: a few rounds).
use std::time::Instant;

use aes::cipher::{BlockCipherEncrypt, KeyInit};
use zkgames::mpc::vole::aes_many::{Ciphers, Path};

fn main() {
    let quick = std::env::args().any(|a| a == "--test");
    let rounds = if quick { 3 } else { 200 };
    let keys: Vec<[u8; 16]> = (0..2304u32)
        .map(|i| {
            let mut k = [0x5au8; 16];
            k[..4].copy_from_slice(&i.to_le_bytes());
            k
        })
        .collect();
    let per_key = |t: f64| t / keys.len() as f64 * 1e9;
    println!(
        "paths on this CPU: {:?} (best: {:?})",
        Path::all(),
        Path::best()
    );
    for blocks in [2usize, 10, 32, 190] {
        let mut peer = f64::MAX;
        let mut ours: Vec<(Path, f64)> = Path::all().into_iter().map(|p| (p, f64::MAX)).collect();
        let mut sink = 0u8;
        let mut b1 = vec![aes::Block::default(); blocks];
        let mut b2 = vec![[0u8; 16]; blocks];
        for _ in 0..rounds {
            let s = Instant::now();
            for k in &keys {
                let c = aes::Aes128Enc::new(&(*k).into());
                c.encrypt_blocks(&mut b1);
                sink ^= b1[0][0];
            }
            peer = peer.min(s.elapsed().as_secs_f64());
            for (path, best) in ours.iter_mut() {
                let s = Instant::now();
                for batch in keys.chunks(64) {
                    let c = Ciphers::with_path(batch, *path);
                    for i in 0..batch.len() {
                        c.encrypt(i, &mut b2);
                        sink ^= b2[0][0];
                    }
                }
                *best = best.min(s.elapsed().as_secs_f64());
            }
        }
        let row: Vec<String> = ours
            .iter()
            .map(|(p, t)| format!("{p:?} {:.0} ns ({:.2}x)", per_key(*t), t / peer))
            .collect();
        println!(
            "{blocks:>3} blocks per key: aes crate {:.0} ns | {} (min of {rounds}; {sink})",
            per_key(peer),
            row.join(" | ")
        );
    }
}
