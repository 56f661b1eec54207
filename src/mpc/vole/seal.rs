//! VOLE-in-the-head seals ([`crate::mpc::seal`]): an ordinary proof whose randomness comes from the
//! master seed's generator, which [`super::commit`] reads in this order: the 32-byte salt and the `τ` 16-byte tree roots.

use crate::mpc::seal::Reproducible;
use crate::mpc::zkbpp::Statement;
use crate::Result;

/// The VOLE-in-the-head engine, as a sealer.
pub struct Vole;

impl Reproducible for Vole {
    type Params = super::Params;
    type Proof = super::Proof;
    type Cheat = super::Cheat;
    const MASTER_TAG: &'static [u8] = b"zkg:vole:seal-rng:v1";
    const SEAL_DIGEST_TAG: &'static [u8] = b"zkg:vole:seal:v3";

    fn check(p: &Self::Params) -> Result<()> {
        p.check()
    }

    fn params(proof: &Self::Proof) -> Self::Params {
        proof.params
    }

    fn prove_unchecked(
        st: &Statement,
        witness: &[bool],
        params: Self::Params,
        rng: &mut rand_chacha::ChaCha20Rng,
        cheats: &[Self::Cheat],
    ) -> Result<Self::Proof> {
        super::prove_unchecked(st, witness, params, rng, cheats)
    }
}
