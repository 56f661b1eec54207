//! Pegs (peg solitaire): jump pegs over pegs into holes until one peg is left.
//!
//! PARAMS `WxH` and the board type (`cross`, `octagon` or `random`, which only steers
//! generation); DESC one letter a cell: `P` peg, `H` hole, `O` off the board (at least two
//! pegs and a hole). Moves, as the game's `execute_move`: `sx,sy-tx,ty`, a jump of two
//! cells in a row or column from a peg, over a peg, into a hole. Completion (the game's
//! rule): one peg left, anywhere. The collection cannot solve its boards; zkgames can
//! (`prover tatham prove --solve`, the peg solver of [`zkgames_peg::solver`]).
//!
//! Circuit: the peg solitaire statement of [`zkgames_peg::mpc`] (one-hot triplet per step,
//! legality and the flips checked per step, the final peg count 1) over the board's cells
//! and every line of three of them: the same circuit the peg proofs use, here bound to the
//! Tatham game ID.

use super::{bad_move, cell_name, parse_dim, Game, Position, Puzzle};
use zkgames_core::Error;
use zkgames_core::Result;
use zkgames_mpc::circuit::Circuit;
use zkgames_peg::instance::{Goal, Instance, Matrix};

pub const GAME: Game = Game {
    name: "Pegs",
    default_params: "7x7cross",
    larger_params: "9x9random",
    decode,
    solves: true,
    sample: include_str!("../../../puzzles/tatham/pegs.sav"),
};

/// The largest width or height read.
pub const MAX_SIDE: usize = 32;

const OBST: u8 = 0;
const HOLE: u8 = 1;
const PEG: u8 = 2;

/// A Pegs puzzle.
#[derive(Clone, Debug)]
pub struct Pegs {
    pub w: usize,
    pub h: usize,
    /// The type word of the parameters (`cross`, `octagon`, `random` or empty).
    pub kind: String,
    pub grid: Vec<u8>,
}

fn decode(params: &str, desc: &str) -> Result<Box<dyn Puzzle>> {
    Ok(Box::new(Pegs::decode(params, desc)?))
}

impl Pegs {
    pub fn decode(params: &str, desc: &str) -> Result<Pegs> {
        let bad = |m: String| Error::bad(format!("Pegs: {m}"));
        let (w, rest) = parse_dim(params, "width", MAX_SIDE).map_err(|e| bad(e.to_string()))?;
        let (h, rest) = match rest.strip_prefix('x') {
            Some(r) => parse_dim(r, "height", MAX_SIDE).map_err(|e| bad(e.to_string()))?,
            None => (w, rest),
        };
        if !matches!(rest, "" | "cross" | "octagon" | "random") {
            return Err(bad(format!(
                "board type '{}' is not cross, octagon or random",
                zkgames_core::files::excerpt(rest)
            )));
        }
        if w == 0 || h == 0 {
            return Err(bad("width and height must both be greater than zero".into()));
        }
        if desc.len() != w * h {
            return Err(bad("the description is the wrong length".into()));
        }
        let grid: Vec<u8> = desc
            .bytes()
            .map(|c| match c {
                b'P' => Ok(PEG),
                b'H' => Ok(HOLE),
                b'O' => Ok(OBST),
                _ => Err(bad("invalid character in the description".into())),
            })
            .collect::<Result<_>>()?;
        if grid.iter().filter(|&&c| c == PEG).count() < 2 {
            return Err(bad("too few pegs in the description".into()));
        }
        if !grid.contains(&HOLE) {
            return Err(bad("too few holes in the description".into()));
        }
        Ok(Pegs {
            w,
            h,
            kind: rest.to_string(),
            grid,
        })
    }

    /// The board's cells (not off the board), in reading order.
    fn cells(&self) -> Vec<usize> {
        (0..self.grid.len())
            .filter(|&i| self.grid[i] != OBST)
            .collect()
    }

    /// The peg solitaire instance: the cells, every row or column line of three cells,
    /// the initial pegs, the goal of one peg.
    pub fn instance(&self) -> Result<Instance> {
        let cells = self.cells();
        let mut index = vec![u32::MAX; self.grid.len()];
        for (k, &c) in cells.iter().enumerate() {
            index[c] = k as u32;
        }
        let mut trip = Vec::new();
        for &c in &cells {
            let (x, y) = (c % self.w, c / self.w);
            if x + 2 < self.w {
                let t = [index[c], index[c + 1], index[c + 2]];
                if t.iter().all(|&v| v != u32::MAX) {
                    trip.push(t);
                }
            }
            if y + 2 < self.h {
                let t = [index[c], index[c + self.w], index[c + 2 * self.w]];
                if t.iter().all(|&v| v != u32::MAX) {
                    trip.push(t);
                }
            }
        }
        let first: Vec<bool> = cells.iter().map(|&c| self.grid[c] == PEG).collect();
        Instance::new(cells.len(), trip, first, Goal::PegCount(1)).map_err(|e| {
            Error::bad(format!(
                "Pegs: this board is not a puzzle zkgames proves: {e}"
            ))
        })
    }
}

impl Puzzle for Pegs {
    fn game(&self) -> &'static Game {
        &GAME
    }
    fn params(&self) -> String {
        format!("{}x{}{}", self.w, self.h, self.kind)
    }
    fn desc(&self) -> String {
        self.grid
            .iter()
            .map(|&c| match c {
                PEG => 'P',
                HOLE => 'H',
                _ => 'O',
            })
            .collect()
    }
    fn start(&self) -> Box<dyn Position + '_> {
        Box::new(PegsPosition {
            p: self,
            grid: self.grid.clone(),
            history: vec![self.grid.clone()],
        })
    }
    fn circuit(&self) -> Result<Circuit> {
        let (c, expect) = zkgames_peg::mpc::peg_circuit(&self.instance()?)?;
        zero_outputs(&c, &expect)
    }
    fn solve(&self) -> Result<Option<Box<dyn Position + '_>>> {
        use zkgames_peg::solver::{solve, SolveOptions, SolveOutcome};
        let inst = self.instance()?;
        match solve(&inst, &SolveOptions::default()) {
            SolveOutcome::Solved(z) => {
                let cells = self.cells();
                let mut pos = PegsPosition {
                    p: self,
                    grid: self.grid.clone(),
                    history: Vec::new(),
                };
                pos.history = z
                    .iter()
                    .map(|row| {
                        let mut g = self.grid.clone();
                        for (k, &c) in cells.iter().enumerate() {
                            g[c] = if row[k] { PEG } else { HOLE };
                        }
                        g
                    })
                    .collect();
                pos.grid = pos.history.last().expect("rows").clone();
                Ok(Some(Box::new(pos)))
            }
            SolveOutcome::Impossible(why) => Err(Error::bad(format!(
                "--solve: this board has no solution: {why}"
            ))),
            SolveOutcome::BudgetExhausted { .. } => Ok(None),
        }
    }
}

/// `c` with each output that must be 1 negated: accepted when every output is 0.
fn zero_outputs(c: &Circuit, expect: &[bool]) -> Result<Circuit> {
    use zkgames_mpc::circuit::{Bit, Gate};
    let mut gates = c.gates().to_vec();
    let n = c.n_inputs();
    let outputs = c
        .outputs()
        .iter()
        .zip(expect)
        .map(|(&o, &e)| match (o, e) {
            (o, false) => o,
            (Bit::Const(v), true) => Bit::Const(!v),
            (Bit::Wire(w), true) => {
                gates.push(Gate::Not(w));
                Bit::Wire((n + gates.len() - 1) as u32)
            }
        })
        .collect();
    Circuit::from_parts(n, gates, outputs)
}

/// A position of a Pegs puzzle, with the positions it went through (the witness is the
/// sequence of jumps).
pub struct PegsPosition<'a> {
    p: &'a Pegs,
    grid: Vec<u8>,
    history: Vec<Vec<u8>>,
}

fn xy(s: &str) -> Option<(usize, usize)> {
    let (a, b) = s.split_once(',')?;
    let ok = |t: &str| !t.is_empty() && t.len() <= 6 && t.bytes().all(|c| c.is_ascii_digit());
    if !ok(a) || !ok(b) {
        return None;
    }
    Some((a.parse().ok()?, b.parse().ok()?))
}

impl Position for PegsPosition<'_> {
    fn execute_move(&mut self, mv: &str) -> Result<()> {
        let (w, h) = (self.p.w, self.p.h);
        let (s, t) = mv
            .split_once('-')
            .and_then(|(a, b)| Some((xy(a)?, xy(b)?)))
            .ok_or_else(|| bad_move("Pegs", mv, "expected sx,sy-tx,ty"))?;
        let ((sx, sy), (tx, ty)) = (s, t);
        if sx >= w || sy >= h || tx >= w || ty >= h {
            return Err(bad_move("Pegs", mv, "a cell outside the board"));
        }
        let (dx, dy) = (tx.abs_diff(sx), ty.abs_diff(sy));
        if dx.max(dy) != 2 || dx.min(dy) != 0 {
            return Err(bad_move(
                "Pegs",
                mv,
                "a jump is two cells along a row or column",
            ));
        }
        let (mx, my) = ((sx + tx) / 2, (sy + ty) / 2);
        let g = &mut self.grid;
        if g[sy * w + sx] != PEG || g[my * w + mx] != PEG || g[ty * w + tx] != HOLE {
            return Err(bad_move(
                "Pegs",
                mv,
                "a jump goes from a peg over a peg into a hole",
            ));
        }
        g[sy * w + sx] = HOLE;
        g[my * w + mx] = HOLE;
        g[ty * w + tx] = PEG;
        self.history.push(g.clone());
        Ok(())
    }

    fn check(&self) -> std::result::Result<(), String> {
        let pegs: Vec<usize> = (0..self.grid.len())
            .filter(|&i| self.grid[i] == PEG)
            .collect();
        if pegs.len() == 1 {
            Ok(())
        } else {
            Err(format!(
                "{} pegs are left (one at {} and {} more)",
                pegs.len(),
                cell_name(pegs[0] % self.p.w, pegs[0] / self.p.w),
                pegs.len() - 1
            ))
        }
    }

    fn witness(&self) -> Result<Vec<bool>> {
        let inst = self.p.instance()?;
        let cells = self.p.cells();
        // the rows since the last restart: the positions from the initial one
        let start = self
            .history
            .iter()
            .rposition(|g| g == &self.p.grid)
            .ok_or_else(|| Error::bad("not solved: the moves do not start from the puzzle"))?;
        let z: Matrix = self.history[start..]
            .iter()
            .map(|g| cells.iter().map(|&c| g[c] == PEG).collect())
            .collect();
        zkgames_peg::mpc::peg_witness(&inst, &z)
    }

    fn state_bytes(&self) -> Vec<u8> {
        self.grid.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every witness of a 5x1 board `PPHPH`… and a tiny L-shaped one: the circuit accepts
    /// exactly the jump sequences that end with one peg (checked by replaying them).
    #[test]
    fn tiny_pegs_exhaustive() {
        for (params, desc) in [("4x1", "PPHP"), ("3x3", "PPHOPOOHO"), ("5x1", "HPPHP")] {
            let p = Pegs::decode(params, desc).unwrap();
            let inst = p.instance().unwrap();
            let c = p.circuit().unwrap();
            let n = c.n_inputs();
            assert!(n <= 20, "{n}");
            let mut solutions = 0;
            for a in 0u64..(1 << n) {
                let input: Vec<bool> = (0..n).map(|i| (a >> i) & 1 == 1).collect();
                let ok = crate::accepts(&c, &input);
                // the reference: one triplet a step, each a legal jump, one peg at the end
                let t = inst.t();
                let mut pos = p.start();
                let mut legal = true;
                for step in 0..inst.s() - 1 {
                    let chosen: Vec<usize> = (0..t).filter(|&j| input[step * t + j]).collect();
                    if chosen.len() != 1 {
                        legal = false;
                        break;
                    }
                    let tr = inst.triplets()[chosen[0]];
                    let cells = p.cells();
                    let at = |v: u32| (cells[v as usize] % p.w, cells[v as usize] / p.w);
                    let (a0, a2) = (at(tr[0]), at(tr[2]));
                    let fwd = format!("{},{}-{},{}", a0.0, a0.1, a2.0, a2.1);
                    let back = format!("{},{}-{},{}", a2.0, a2.1, a0.0, a0.1);
                    if pos.execute_move(&fwd).is_err() && pos.execute_move(&back).is_err() {
                        legal = false;
                        break;
                    }
                }
                let truth = legal && pos.check().is_ok();
                assert_eq!(ok, truth, "{params}:{desc} {a:b}");
                if ok {
                    solutions += 1;
                    assert_eq!(pos.witness().unwrap(), input);
                }
            }
            assert_eq!(solutions > 0, desc != "PPHOPOOHO", "{desc}");
        }
    }

    #[test]
    fn decode_and_moves() {
        assert!(Pegs::decode("3x1", "PPH").is_ok());
        assert!(Pegs::decode("3x1", "PHH").is_err());
        assert!(Pegs::decode("3x1", "PPP").is_err());
        assert!(Pegs::decode("3x1", "PPX").is_err());
        assert!(Pegs::decode("3x1hex", "PPH").is_err());
        assert!(Pegs::decode("99x1", "PPH").is_err());
        let p = Pegs::decode("3x1", "PPH").unwrap();
        let mut s = p.start();
        for bad in ["0,0-1,0", "1,0-3,0", "2,0-0,0", "x", "0,0-2,1"] {
            assert!(p.start().execute_move(bad).is_err(), "{bad}");
        }
        s.execute_move("0,0-2,0").unwrap();
        assert!(s.check().is_ok());
        let w = s.witness().unwrap();
        assert!(p.circuit().unwrap().eval(&w).iter().all(|&x| !x));
    }
}
