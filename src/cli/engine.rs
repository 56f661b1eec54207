//! The `--system` option and the engines' parameter-set options (`--kkw-params`,
//! `--vole-params`, …), shared by every proof kind that runs on the engines.
//!
//! Nothing here names an engine: the values of `--system`, their help, and one
//! `--NAME-params` flag per engine that offers named parameter sets all come from
//! [`Engine::ALL`] and the engines' [`crate::mpc::engine::ProofEngine`] constants.

use std::sync::OnceLock;

use clap::builder::{PossibleValue, PossibleValuesParser};
use clap::{Arg, ArgMatches, Command, ValueEnum};

use crate::mpc::engine::{Engine, System};
use crate::Result;

/// An engine as `--system` names it (its wire name or an alias).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineArg(pub Engine);

impl EngineArg {
    /// The engine commands use when `--system` is not given: VOLE-in-the-head, the smallest
    /// proofs.
    pub const DEFAULT: EngineArg = EngineArg(Engine::Vole);
}

impl ValueEnum for EngineArg {
    fn value_variants<'a>() -> &'a [Self] {
        static ALL: OnceLock<Vec<EngineArg>> = OnceLock::new();
        ALL.get_or_init(|| Engine::ALL.iter().map(|&e| EngineArg(e)).collect())
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(
            PossibleValue::new(self.0.wire())
                .aliases(self.0.aliases().iter().copied())
                .help(self.0.help()),
        )
    }
}

/// The most engines [`EngineParams`] holds a choice for.
const MAX_ENGINES: usize = 8;

/// The ids and flags of the engines' parameter-set options: `(engine, id, --long)`.
fn param_flags() -> &'static [(Engine, &'static str, &'static str)] {
    static FLAGS: OnceLock<Vec<(Engine, &'static str, &'static str)>> = OnceLock::new();
    FLAGS.get_or_init(|| {
        assert!(Engine::ALL.len() <= MAX_ENGINES, "raise MAX_ENGINES");
        Engine::ALL
            .iter()
            .filter(|e| !e.param_sets().is_empty())
            .map(|&e| {
                let id: &'static str = Box::leak(format!("{}_params", e.wire()).into_boxed_str());
                let long: &'static str = Box::leak(format!("{}-params", e.wire()).into_boxed_str());
                (e, id, long)
            })
            .collect()
    })
}

fn index(e: Engine) -> usize {
    Engine::ALL
        .iter()
        .position(|&x| x == e)
        .expect("every engine is in Engine::ALL")
}

/// The parameter set chosen for each engine that offers named sets (`--kkw-params size`);
/// each flag applies when `--system` picks its engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineParams {
    /// Per engine (in [`Engine::ALL`]'s order), the index of its chosen set.
    sets: [u8; MAX_ENGINES],
}

impl Default for EngineParams {
    /// Every engine's first (default) set.
    fn default() -> Self {
        EngineParams {
            sets: [0; MAX_ENGINES],
        }
    }
}

impl EngineParams {
    /// The set chosen for `engine` (`""` for an engine without named sets).
    pub fn set(&self, engine: Engine) -> &'static str {
        engine
            .param_sets()
            .get(self.sets[index(engine)] as usize)
            .map_or("", |s| s.name)
    }

    /// `engine` with its chosen set at `bits` bits.
    pub fn system(&self, engine: Engine, bits: u32) -> Result<System> {
        engine.system(bits, self.set(engine))
    }
}

impl clap::FromArgMatches for EngineParams {
    fn from_arg_matches(m: &ArgMatches) -> std::result::Result<Self, clap::Error> {
        let mut p = EngineParams::default();
        for &(e, id, _) in param_flags() {
            if let Some(v) = m.get_one::<String>(id) {
                if let Some(k) = e.param_sets().iter().position(|s| s.name == v.as_str()) {
                    p.sets[index(e)] = k as u8;
                }
            }
        }
        Ok(p)
    }

    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> std::result::Result<(), clap::Error> {
        *self = Self::from_arg_matches(m)?;
        Ok(())
    }
}

impl clap::Args for EngineParams {
    fn augment_args(mut cmd: Command) -> Command {
        for &(e, id, long) in param_flags() {
            let sets = e.param_sets();
            let values: Vec<PossibleValue> = sets
                .iter()
                .map(|s| PossibleValue::new(s.name).help(s.help))
                .collect();
            cmd = cmd.arg(
                Arg::new(id)
                    .long(long)
                    .value_name("SET")
                    .value_parser(PossibleValuesParser::new(values))
                    .default_value(sets[0].name)
                    .help(format!(
                        "{} parameter set (with --system {})",
                        e.name(),
                        e.wire()
                    )),
            );
        }
        cmd
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        Self::augment_args(cmd)
    }
}

/// `--system` and the parameter-set options, for commands that take them.
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct SystemArgs {
    /// Proof system (vole, the default, gives the smallest proofs).
    #[arg(long, value_enum, default_value_t = EngineArg::DEFAULT)]
    pub system: EngineArg,
    #[command(flatten)]
    pub params: EngineParams,
}

impl SystemArgs {
    /// The engine `--system` picks.
    pub fn engine(&self) -> Engine {
        self.system.0
    }

    /// The engine and its parameters for `bits` bits of security.
    pub fn system(&self, bits: u32) -> Result<System> {
        self.params.system(self.engine(), bits)
    }
}
