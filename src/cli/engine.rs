//! The `--system`, `--kkw-params` and `--vole-params` options shared by the proof kinds that
//! run on the engines (ZKB++, KKW or VOLE-in-the-head).

use clap::ValueEnum;

use crate::mpc::engine::{Engine, System};
use crate::mpc::kkw::{self, Params, Profile};
use crate::Result;

/// The engine of a circuit proof.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum MpcSystem {
    /// ZKB++ (Picnic): three parties, 2/3 soundness error per round.
    #[value(name = "zkbpp", alias = "mpc")]
    Zkbpp,
    /// KKW (Picnic3): N parties with preprocessing; smaller proofs (see --kkw-params).
    Kkw,
    /// VOLE-in-the-head (FAEST's proof system): the smallest proofs (see --vole-params).
    Vole,
}

/// The VOLE-in-the-head parameter set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum VoleParams {
    /// Smallest proofs: τ = 11 trees of 2^10 or 2^11 leaves at 128 bits.
    Size,
    /// Fastest: τ = 17 trees of 2^7 or 2^8 leaves at 128 bits.
    Speed,
}

impl VoleParams {
    /// The parameters for `bits` bits of security.
    pub fn params(self, bits: u32) -> Result<crate::mpc::vole::Params> {
        crate::mpc::vole::params_for(
            bits,
            match self {
                VoleParams::Size => crate::mpc::vole::Profile::Size,
                VoleParams::Speed => crate::mpc::vole::Profile::Speed,
            },
        )
    }
}

/// The KKW parameter set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum KkwParams {
    /// Smallest proofs: N = 32 parties (M = 462, τ = 27 at 128 bits).
    Size,
    /// Fastest: N = 16 parties (M = 250, τ = 36 at 128 bits, Picnic3-L1's shape).
    Speed,
    /// Smallest proofs, slowest: N = 64 parties (M = 842, τ = 22 at 128 bits), about 0.84×
    /// the size set's bytes for 3.6× its work.
    Smallest,
}

impl KkwParams {
    /// The parameters for `bits` bits of security.
    pub fn params(self, bits: u32) -> Result<Params> {
        kkw::params_for(
            bits,
            match self {
                KkwParams::Size => Profile::Size,
                KkwParams::Speed => Profile::Speed,
                KkwParams::Smallest => Profile::Smallest,
            },
        )
    }
}

/// `--system`, `--kkw-params` and `--vole-params`, for commands that take them.
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct SystemArgs {
    /// Proof system: vole (VOLE-in-the-head, the default: the smallest proofs; see
    /// --vole-params), kkw (KKW; see --kkw-params) or zkbpp (ZKB++, the largest proofs).
    #[arg(long, value_enum, default_value_t = MpcSystem::Vole)]
    pub system: MpcSystem,
    /// KKW parameter set (with --system kkw): size (N = 32) or speed (N = 16).
    #[arg(long, value_enum, default_value_t = KkwParams::Size)]
    pub kkw_params: KkwParams,
    /// VOLE parameter set (with --system vole): size (τ = 11) or speed (τ = 17).
    #[arg(long, value_enum, default_value_t = VoleParams::Size)]
    pub vole_params: VoleParams,
}

impl SystemArgs {
    /// The engine and its parameters for `bits` bits of security.
    pub fn system(&self, bits: u32) -> Result<System> {
        Ok(match self.system {
            MpcSystem::Zkbpp => System::zkbpp(bits),
            MpcSystem::Kkw => System::Kkw(self.kkw_params.params(bits)?),
            MpcSystem::Vole => System::Vole(self.vole_params.params(bits)?),
        })
    }
}

impl MpcSystem {
    /// The library's engine.
    pub fn engine(self) -> Engine {
        match self {
            MpcSystem::Zkbpp => Engine::Zkbpp,
            MpcSystem::Kkw => Engine::Kkw,
            MpcSystem::Vole => Engine::Vole,
        }
    }
}
