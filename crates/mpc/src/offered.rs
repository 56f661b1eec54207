//! Which parameters a verifier accepts from a proof file: what honest provers are offered,
//! so that no file can ask a verifier for more work than the heaviest honest proof of the
//! same statement (docs/PROTOCOLS.md, 5.7).
//!
//! A proof states its own parameters, and every engine's work grows with them: VOLE's leaves
//! (`Σ 2^{k_i}`, each expanded to the circuit's length), KKW's party-executions (`M · N`,
//! each a pass over the circuit), ZKB++'s rounds. A verifier asked for `L` bits accepts:
//!
//! * VOLE-in-the-head: parameters with at most as many leaves (`Σ 2^{k_i}`) as the heaviest
//!   offered set ([`vole::params_for`]: the size set at 128 bits, 17,408 leaves); a file
//!   cannot ask for `τ = 8` trees of `2^16` leaves. Smaller sets (tests, research) stay
//!   verifiable: they cost less than an honest proof, and give the bits they give.
//! * KKW: parameters whose `M · N` is at most the heaviest offered set's at level
//!   `max(L, 128)` (at 128 bits: the smallest set, 842 · 64).
//! * ZKB++: at most the rounds of `max(L, 128)` bits ([`zkbpp::rounds_for_bits`]).
//!
//! So a proof at more than 128 bits is accepted by a verifier that asks for its level (or
//! more), and refused, before any work, by one that asks for 128: its cost would exceed what
//! that verifier's honest proofs cost.

use super::{kkw, vole, zkbpp};
use std::sync::OnceLock;
use zkgames_core::Error;
use zkgames_core::Result;

/// The level below which the work cap does not fall: proofs at the default 128 bits are
/// accepted whatever lower level a verifier asks for.
pub const WORK_FLOOR_BITS: u32 = 128;

/// The level whose heaviest offered set caps the work of a verifier asking for `min_bits`.
fn cap_level(min_bits: f64, max: u32) -> u32 {
    if !min_bits.is_finite() {
        return max;
    }
    (min_bits.ceil().max(WORK_FLOOR_BITS as f64) as u32).min(max)
}

/// The most ZKB++ rounds a verifier requiring `min_rounds` accepts: those of 128 bits, or
/// `min_rounds` if more (a live session's Hello and a proof file alike).
pub fn max_zkbpp_rounds(min_rounds: usize) -> usize {
    min_rounds
        .max(zkbpp::rounds_for_bits(WORK_FLOOR_BITS))
        .min(zkbpp::MAX_ROUNDS)
}

/// Whether `p` is one of the offered VOLE sets (any profile, any level).
pub fn vole_offered(p: &vole::Params) -> bool {
    static SETS: OnceLock<Vec<vole::Params>> = OnceLock::new();
    SETS.get_or_init(|| {
        (1..=128u32)
            .flat_map(|b| vole::Profile::ALL.map(|pr| vole::params_for(b, pr)))
            .filter_map(|r| r.ok())
            .collect()
    })
    .contains(p)
}

/// Whether `p` is one of the offered KKW sets (any profile, any level).
pub fn kkw_offered(p: &kkw::Params) -> bool {
    static SETS: OnceLock<Vec<kkw::Params>> = OnceLock::new();
    SETS.get_or_init(|| {
        (1..=256u32)
            .flat_map(|b| kkw::Profile::ALL.map(|pr| kkw::params_for(b, pr)))
            .filter_map(|r| r.ok())
            .collect()
    })
    .contains(p)
}

/// `Σ 2^{k_i}`: the leaves a VOLE verifier expands (each to the circuit's length).
fn vole_leaves(p: &vole::Params) -> u64 {
    (0..p.tau()).map(|i| 1u64 << p.k(i)).sum()
}

/// The most leaves of any offered VOLE set (the size set at 128 bits).
pub fn max_vole_leaves() -> u64 {
    static MAX: OnceLock<u64> = OnceLock::new();
    *MAX.get_or_init(|| {
        (1..=128u32)
            .flat_map(|b| vole::Profile::ALL.map(|pr| vole::params_for(b, pr)))
            .filter_map(|r| r.ok())
            .map(|p| vole_leaves(&p))
            .max()
            .unwrap_or(0)
    })
}

/// `M · N`: the party-executions a KKW verifier recomputes.
fn kkw_work(p: &kkw::Params) -> u64 {
    p.executions as u64 * p.parties as u64
}

/// The most party-executions a KKW verifier asking for `min_bits` accepts: the heaviest
/// offered set at any level up to `max(min_bits, 128)` (the smallest profile stops at some
/// level, so the heaviest set is not always at the top level).
pub fn max_kkw_work(min_bits: f64) -> u64 {
    // the running maximum over levels 1..=256, computed once
    static CAPS: OnceLock<Vec<u64>> = OnceLock::new();
    let caps = CAPS.get_or_init(|| {
        let mut most = 0;
        (1..=256u32)
            .map(|b| {
                for pr in kkw::Profile::ALL {
                    if let Ok(p) = kkw::params_for(b, pr) {
                        most = most.max(kkw_work(&p));
                    }
                }
                most
            })
            .collect()
    });
    caps[cap_level(min_bits, 256) as usize - 1]
}

/// Refuses (before any work) a ZKB++ proof of `rounds` rounds for a verifier requiring
/// `min_rounds`: see the module's text.
pub fn check_zkbpp(rounds: usize, min_rounds: usize) -> Result<()> {
    let max = max_zkbpp_rounds(min_rounds);
    if rounds > max {
        return Err(Error::rejected(format!(
            "the proof has {rounds} rounds, more than the {max} a verifier at this level accepts (verify with a higher --security to accept it)"
        )));
    }
    Ok(())
}

/// Refuses (before any work) a KKW proof whose parameters (valid ones) ask for more work
/// than the offered sets of a verifier asking for `min_bits`. Parameters giving fewer bits
/// are left to the engine, which refuses them at once with its own message.
pub fn check_kkw(p: &kkw::Params, min_bits: f64) -> Result<()> {
    if p.check().is_err() || kkw::attack_cost_bits(p) < min_bits {
        return Ok(());
    }
    if kkw_work(p) > max_kkw_work(min_bits) {
        return Err(Error::rejected(format!(
            "the proof's KKW parameters ({p}) ask for more work than any offered set at this level (verify with a higher --security to accept it)"
        )));
    }
    Ok(())
}

/// The same for VOLE-in-the-head: at most the leaves of the heaviest offered set.
pub fn check_vole(p: &vole::Params, min_bits: f64) -> Result<()> {
    if p.check().is_err() || vole::attack_cost_bits(p) < min_bits {
        return Ok(());
    }
    let (leaves, max) = (vole_leaves(p), max_vole_leaves());
    if leaves > max {
        return Err(Error::rejected(format!(
            "the proof's VOLE parameters ({p}) ask for more work than any offered set ({leaves} leaves to expand; the heaviest offered set has {max})"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Required, System};

    fn check(s: &System, req: &Required) -> Result<()> {
        s.check_offered(req)
    }

    #[test]
    fn offered_sets_are_exactly_the_params_for_outputs() {
        for b in [1, 40, 100, 128] {
            for pr in vole::Profile::ALL {
                assert!(vole_offered(&vole::params_for(b, pr).unwrap()));
            }
        }
        let mut n = 0;
        for b in [1, 40, 128, 129, 192, 256] {
            for pr in kkw::Profile::ALL {
                if let Ok(p) = kkw::params_for(b, pr) {
                    assert!(kkw_offered(&p), "{b} {pr:?}");
                    n += 1;
                }
            }
        }
        assert!(n >= 14, "{n}");
        // the forged set, and neighbours of offered ones
        assert!(!vole_offered(&vole::Params::new(8, 128, 2)));
        assert!(!vole_offered(&vole::Params::new(11, 116, 15)));
        assert!(!vole_offered(&vole::Params::new(11, 117, 14)));
        assert!(vole_offered(&vole::Params::bounded(11, 116, 14, 108)));
        assert!(!vole_offered(&vole::Params::bounded(11, 116, 14, 107)));
        assert!(!vole_offered(&vole::Params::new(11, 116, 14)));
        assert!(!kkw_offered(&kkw::Params::new(463, 27, 32)));
        assert!(!kkw_offered(&kkw::Params::new(4096, 27, 16)));
        assert!(!kkw_offered(&kkw::Params::new(462, 27, 16)));
    }

    /// Against brute force: the cap is the maximum of `M · N` over every offered set at a
    /// level up to the cap level, and it never decreases as the level grows.
    #[test]
    fn kkw_cap_is_the_heaviest_set_up_to_the_level() {
        let mut last = 0;
        for min in [1.0, 80.0, 128.0, 128.5, 129.0, 160.0, 200.0, 256.0] {
            let level = cap_level(min, 256);
            let mut heaviest = 0;
            for b in 1..=level {
                for pr in kkw::Profile::ALL {
                    if let Ok(p) = kkw::params_for(b, pr) {
                        heaviest = heaviest.max(kkw_work(&p));
                    }
                }
            }
            assert_eq!(max_kkw_work(min), heaviest, "{min}");
            assert!(heaviest >= last);
            last = heaviest;
        }
        assert_eq!(max_kkw_work(128.0), 842 * 64);
        assert_eq!(max_zkbpp_rounds(1), zkbpp::rounds_for_bits(128));
        assert_eq!(max_zkbpp_rounds(400), 400);
    }

    #[test]
    fn check_refuses_heavier_than_offered_and_leaves_weak_to_the_engine() {
        let req = Required::bits(128);
        assert!(check(&System::vole(128, vole::Profile::Size).unwrap(), &req).is_ok());
        assert!(check(&System::Vole(vole::Params::new(8, 128, 2)), &req).is_err());
        // too weak: the engine's own refusal names the bits
        assert!(check(&System::Vole(vole::Params::new(1, 4, 0)), &req).is_ok());
        assert!(check(&System::kkw(128, kkw::Profile::Smallest).unwrap(), &req).is_ok());
        // an offered set heavier than any at 128 bits: refused at 128, accepted at its level
        let (b, big) = (129..=256u32)
            .flat_map(|b| kkw::Profile::ALL.map(|pr| (b, kkw::params_for(b, pr))))
            .find_map(|(b, p)| p.ok().filter(|p| kkw_work(p) > 842 * 64).map(|p| (b, p)))
            .unwrap();
        assert!(check(&System::Kkw(big), &req).is_err());
        assert!(check(&System::Kkw(big), &Required::bits(b)).is_ok());
        assert!(check(&System::Kkw(kkw::Params::new(1024, 64, 64)), &req).is_err());
        assert!(check(&System::zkbpp(128), &req).is_ok());
        assert!(check(&System::Zkbpp(2048), &req).is_err());
        assert!(check(&System::zkbpp(256), &Required::bits(256)).is_ok());
    }
}
