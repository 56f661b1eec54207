//! The Wall Game as played: legality of moves against an independent brute force written here
//! (unit steps tried one by one, walls placed one at a time, BFS over the grid; no library
//! algorithm), the enumeration of legal moves, captures and the one-move rule, standard
//! notation, game records, and the `verifier wall check --move`, `replay`, `notation` commands
//! through the binary, with bad input.

use std::collections::{BTreeSet, HashSet, VecDeque};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use zkgames::wall::board::{Cell, Dir, Player, Position, Setup, Variant, Wall};
use zkgames::wall::game::{Checker, Game, Move, Outcome, Rule, Status};
use zkgames::wall::notation::{move_to_json, parse_move_json, Notation};
use zkgames::wall::record::{self, Record};

use crate::common;
use common::{tmp, VERIFIER as BIN};

fn puzzle(name: &str) -> String {
    common::p(&format!("puzzles/wall/{name}"))
}

/// Runs `verifier ARGS` with optional stdin; returns (exit code, stdout, stderr).
fn run(args: &[&str], stdin: Option<&[u8]>) -> (i32, String, String) {
    common::run_stdin(BIN, args, stdin)
}

// ------------------------------------------------------------------ independent brute force

/// A cell with signed coordinates, so that steps may leave the board.
type P = (i64, i64);

/// The board as the brute force sees it: a set of closed slots, each named by the two cells it
/// separates (smaller first).
#[derive(Clone)]
struct BBoard {
    rows: i64,
    cols: i64,
    closed: HashSet<(P, P)>,
}

fn slot(a: P, b: P) -> (P, P) {
    (a.min(b), a.max(b))
}

fn wall_cells(w: Wall) -> (P, P) {
    let (r, c) = (w.row as i64, w.col as i64);
    match w.dir {
        Dir::R => ((r, c), (r, c + 1)),
        Dir::D => ((r, c), (r + 1, c)),
    }
}

impl BBoard {
    fn on(&self, p: P) -> bool {
        p.0 >= 0 && p.1 >= 0 && p.0 < self.rows && p.1 < self.cols
    }
    /// A unit step from `a` to `b` is allowed: both on the board, adjacent, slot open.
    fn can_step(&self, a: P, b: P) -> bool {
        self.on(a)
            && self.on(b)
            && (a.0 - b.0).abs() + (a.1 - b.1).abs() == 1
            && !self.closed.contains(&slot(a, b))
    }
    fn reach(&self, s: P, t: P) -> bool {
        self.dist(s, t).is_some()
    }
    /// BFS distance.
    fn dist(&self, s: P, t: P) -> Option<usize> {
        let mut seen = HashSet::from([s]);
        let mut q = VecDeque::from([(s, 0)]);
        while let Some((v, d)) = q.pop_front() {
            if v == t {
                return Some(d);
            }
            for (dr, dc) in [(0, 1), (1, 0), (0, -1), (-1, 0)] {
                let w = (v.0 + dr, v.1 + dc);
                if self.can_step(v, w) && seen.insert(w) {
                    q.push_back((w, d + 1));
                }
            }
        }
        None
    }
}

#[derive(Clone, Debug, PartialEq)]
struct BGame {
    variant: Variant,
    cats: Vec<P>,
    mice: Vec<Option<P>>,
    homes: Vec<Option<P>>,
}

impl BGame {
    fn n(&self) -> usize {
        self.cats.len()
    }
    /// What cat `i` chases.
    fn target(&self, i: usize) -> P {
        match self.variant {
            Variant::Classic => self.homes[i].unwrap(),
            _ => self.mice[(i + 1) % self.n()].unwrap(),
        }
    }
    /// The first cat (by player) that cannot reach its target.
    fn first_cut(&self, b: &BBoard) -> Option<usize> {
        (0..self.n()).find(|&i| !b.reach(self.cats[i], self.target(i)))
    }
}

fn p(c: Cell) -> P {
    (c.0 as i64, c.1 as i64)
}

fn from_position(pos: &Position) -> (BBoard, BGame) {
    let Setup::Game { variant, players } = pos.setup() else {
        panic!("a game")
    };
    let b = BBoard {
        rows: pos.rows() as i64,
        cols: pos.cols() as i64,
        closed: pos.walls().iter().map(|&w| wall_cells(w)).collect(),
    };
    let g = BGame {
        variant: *variant,
        cats: players.iter().map(|q| p(q.cat)).collect(),
        mice: players.iter().map(|q| q.mouse.map(p)).collect(),
        homes: players.iter().map(|q| q.goal.map(p)).collect(),
    };
    (b, g)
}

/// The brute force's verdict categories, in the order the rules are checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Kind {
    TooMany,
    NoMouse,
    OffBoard,
    OutOfReach,
    Blocked,
    Taken,
    /// After a wall, this player's cat lost its target.
    Cuts(usize),
}

fn kind_of(r: &Rule) -> Kind {
    match r {
        Rule::TooManyActions { .. } => Kind::TooMany,
        Rule::NoMouse => Kind::NoMouse,
        Rule::OffBoard => Kind::OffBoard,
        Rule::OutOfReach { .. } => Kind::OutOfReach,
        Rule::WallInTheWay => Kind::Blocked,
        Rule::SlotTaken { .. } => Kind::Taken,
        Rule::Cuts(pair) => match pair.role {
            zkgames::wall::board::PairRole::Goal { player } => Kind::Cuts(player),
            zkgames::wall::board::PairRole::Catch { cat, .. } => Kind::Cuts(cat),
            zkgames::wall::board::PairRole::Explicit(_) => panic!("games only"),
        },
    }
}

const DIRS: [P; 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

/// How a piece gets from `from` to `to`: `None` if no sequence of one or two unit steps
/// (ignoring walls and the border) ends there, or `to == from` (staying is no move); else the
/// length of those sequences and whether one of them stays on the board through open slots.
fn brute_pawn(b: &BBoard, from: P, to: P) -> Option<(usize, bool)> {
    if to == from {
        return None;
    }
    let mut shape = None;
    let mut open = false;
    for k in 1..=2usize {
        for seq in 0..4usize.pow(k as u32) {
            let mut cur = from;
            let mut ok = true;
            let mut x = seq;
            for _ in 0..k {
                let d = DIRS[x % 4];
                x /= 4;
                let next = (cur.0 + d.0, cur.1 + d.1);
                ok &= b.can_step(cur, next);
                cur = next;
            }
            if cur == to {
                shape.get_or_insert(k);
                if shape == Some(k) {
                    open |= ok;
                }
            }
        }
    }
    shape.map(|k| (k, open))
}

/// The brute-force verdict on a move of `player`: the rules checked in the documented order,
/// then the resulting board and pieces.
fn brute_move(b: &BBoard, g: &BGame, player: usize, mv: &Move) -> Result<(BBoard, BGame), Kind> {
    let off = |c: Cell| !b.on(p(c));
    // (steps, open) per moving piece; a blocked path still counts its steps.
    let mut pawns = Vec::new();
    if let Some(c) = mv.cat() {
        if off(c) {
            return Err(Kind::OffBoard);
        }
        pawns.push(brute_pawn(b, g.cats[player], p(c)).ok_or(Kind::OutOfReach)?);
    }
    if let Some(m) = mv.mouse() {
        let Some(from) = g.mice[player] else {
            return Err(Kind::NoMouse);
        };
        if off(m) {
            return Err(Kind::OffBoard);
        }
        pawns.push(brute_pawn(b, from, p(m)).ok_or(Kind::OutOfReach)?);
    }
    if pawns.iter().map(|x| x.0).sum::<usize>() + mv.walls().len() > 2 {
        return Err(Kind::TooMany);
    }
    if pawns.iter().any(|x| !x.1) {
        return Err(Kind::Blocked);
    }
    let mut seen = Vec::new();
    for &w in mv.walls() {
        let (a, c) = wall_cells(w);
        if !b.on(a) || !b.on(c) {
            return Err(Kind::OffBoard);
        }
        if b.closed.contains(&(a, c)) || seen.contains(&(a, c)) {
            return Err(Kind::Taken);
        }
        seen.push((a, c));
    }
    let mut g2 = g.clone();
    if let Some(c) = mv.cat() {
        g2.cats[player] = p(c);
    }
    if let Some(m) = mv.mouse() {
        g2.mice[player] = Some(p(m));
    }
    let mut b2 = b.clone();
    for &w in mv.walls() {
        b2.closed.insert(wall_cells(w));
        if let Some(i) = g2.first_cut(&b2) {
            return Err(Kind::Cuts(i));
        }
    }
    Ok((b2, g2))
}

/// The brute-force status after `mover` moved: who caught (or reached home), with the
/// one-move rule for player 1 in cat-and-mouse.
#[derive(Debug, PartialEq)]
enum BStatus {
    Ongoing,
    Win(usize),
    OneMoveDraw,
    Draw,
}

fn brute_status(b: &BBoard, g: &BGame, mover: usize) -> BStatus {
    let done: Vec<usize> = (0..g.n()).filter(|&i| g.cats[i] == g.target(i)).collect();
    match done.as_slice() {
        [] => BStatus::Ongoing,
        [0] if g.variant == Variant::CatAndMouse
            && mover == 0
            && b.dist(g.cats[1], g.mice[0].unwrap())
                .is_some_and(|d| d <= 2) =>
        {
            BStatus::OneMoveDraw
        }
        [i] => BStatus::Win(*i),
        _ => BStatus::Draw,
    }
}

fn status_of(s: &Status) -> BStatus {
    match s {
        Status::Ongoing => BStatus::Ongoing,
        Status::Over(Outcome::Win { player, .. }) => BStatus::Win(*player),
        Status::Over(Outcome::OneMoveRuleDraw { .. }) => BStatus::OneMoveDraw,
        Status::Over(Outcome::SimultaneousDraw) => BStatus::Draw,
    }
}

// ------------------------------------------------------------------ random positions and moves

fn rand_cell(rng: &mut ChaCha8Rng, rows: u32, cols: u32) -> Cell {
    (rng.gen_range(0..rows), rng.gen_range(0..cols))
}

/// A random valid game: 3×3 to 12×12 (or `max` per side), any variant and player count, pieces
/// often sharing cells, walls added one by one at random while every cat still reaches its
/// target (checked by the brute force), up to a density from 0 to 50 % of the slots.
fn random_game(rng: &mut ChaCha8Rng, max: u32) -> Game {
    let rows = rng.gen_range(3..=max);
    let cols = rng.gen_range(3..=max);
    let (variant, n) = match rng.gen_range(0..4) {
        0 | 1 => (Variant::CatAndMouse, 2),
        2 => (Variant::Classic, rng.gen_range(1..=4)),
        _ => (Variant::Ring, rng.gen_range(3..=4)),
    };
    let few: Vec<Cell> = (0..3).map(|_| rand_cell(rng, rows, cols)).collect();
    let pick = |rng: &mut ChaCha8Rng| {
        if rng.gen_bool(0.2) {
            few[rng.gen_range(0..few.len())]
        } else {
            rand_cell(rng, rows, cols)
        }
    };
    let players: Vec<Player> = (0..n)
        .map(|_| {
            let cat = pick(rng);
            let other = pick(rng);
            match variant {
                Variant::Classic => Player {
                    cat,
                    mouse: None,
                    goal: Some(other),
                },
                _ => Player {
                    cat,
                    mouse: Some(other),
                    goal: None,
                },
            }
        })
        .collect();
    let empty = Position::new(
        rows,
        cols,
        vec![],
        Setup::Game {
            variant,
            players: players.clone(),
        },
    )
    .unwrap();
    let (mut b, g) = from_position(&empty);
    let mut slots = Vec::new();
    for r in 0..rows {
        for c in 0..cols {
            if r + 1 < rows {
                slots.push(Wall::new(r, c, Dir::D));
            }
            if c + 1 < cols {
                slots.push(Wall::new(r, c, Dir::R));
            }
        }
    }
    let want = (slots.len() as f64 * rng.gen_range(0.0..0.5)) as usize;
    let mut walls = Vec::new();
    for _ in 0..3 * want {
        if walls.len() >= want {
            break;
        }
        let w = slots[rng.gen_range(0..slots.len())];
        let key = wall_cells(w);
        if b.closed.contains(&key) {
            continue;
        }
        b.closed.insert(key);
        if g.first_cut(&b).is_some() {
            b.closed.remove(&key);
        } else {
            walls.push(w);
        }
    }
    let pos = Position::new(rows, cols, walls, Setup::Game { variant, players }).unwrap();
    Game::new(pos, rng.gen_range(0..n)).unwrap()
}

/// A random move, biased towards the interesting cases: destinations near the piece (some off
/// the board, some too far, some the piece's own cell), 0 to 3 walls among free slots near the
/// pieces, taken slots, border slots and repeats.
fn random_move(rng: &mut ChaCha8Rng, game: &Game, player: usize) -> Move {
    let pos = game.position();
    let (rows, cols) = (pos.rows() as i64, pos.cols() as i64);
    let me = &game.players()[player];
    let near = |rng: &mut ChaCha8Rng, c: Cell| -> Cell {
        // One or two steps (straight or in an L), sometimes anything within three.
        const D: [(i64, i64); 12] = [
            (0, 1),
            (1, 0),
            (0, -1),
            (-1, 0),
            (0, 2),
            (2, 0),
            (0, -2),
            (-2, 0),
            (1, 1),
            (1, -1),
            (-1, 1),
            (-1, -1),
        ];
        let (dr, dc) = match rng.gen_range(0..10) {
            0 => (rng.gen_range(-3..=3), rng.gen_range(-3..=3)),
            _ => D[rng.gen_range(0..D.len())],
        };
        let r = (c.0 as i64 + dr).clamp(0, rows + 1);
        let k = (c.1 as i64 + dc).clamp(0, cols + 1);
        (r as u32, k as u32)
    };
    // The shape: pawns only, one pawn and one wall, two walls, or anything (often too much).
    let (want_cat, want_mouse, k) = match rng.gen_range(0..20) {
        0..=4 => {
            let c = rng.gen_bool(0.6);
            (c, !c || rng.gen_bool(0.3), 0)
        }
        5..=9 => {
            let c = rng.gen_bool(0.6);
            (c, !c, 1)
        }
        10..=16 => (false, false, 2),
        _ => (rng.gen_bool(0.5), rng.gen_bool(0.5), rng.gen_range(0..=3)),
    };
    let cat = want_cat.then(|| near(rng, me.cat));
    let mouse = want_mouse.then(|| near(rng, me.mouse.or(me.goal).unwrap()));
    let mut walls: Vec<Wall> = Vec::new();
    // Pieces and targets: walls around them are the ones that cut.
    let hot: Vec<Cell> = game
        .players()
        .iter()
        .flat_map(|q| [Some(q.cat), q.mouse, q.goal])
        .flatten()
        .collect();
    for _ in 0..k {
        let w = match rng.gen_range(0..20) {
            0 if !pos.walls().is_empty() => pos.walls()[rng.gen_range(0..pos.walls().len())],
            1 if !walls.is_empty() => walls[0],
            2 => {
                // On the border or off the board.
                let r = rng.gen_range(0..=rows as u32);
                let c = rng.gen_range(0..=cols as u32);
                if rng.gen_bool(0.5) {
                    Wall::new(r, cols as u32 - 1 + rng.gen_range(0..2), Dir::R)
                } else {
                    Wall::new(rows as u32 - 1 + rng.gen_range(0..2), c, Dir::D)
                }
            }
            3..=11 => {
                let c = hot[rng.gen_range(0..hot.len())];
                let c = near(rng, c);
                Wall::new(
                    c.0.min(rows as u32 - 1),
                    c.1.min(cols as u32 - 1),
                    if rng.gen_bool(0.5) { Dir::R } else { Dir::D },
                )
            }
            _ => Wall::new(
                rng.gen_range(0..rows as u32),
                rng.gen_range(0..cols as u32),
                if rng.gen_bool(0.5) { Dir::R } else { Dir::D },
            ),
        };
        walls.push(w);
    }
    Move::new(cat, mouse, walls)
}

// ------------------------------------------------------------------ legality

/// Production legality against the brute force on thousands of random positions and moves:
/// the verdict, the rule broken (in the documented order, and for a cut which cat), and for a
/// legal move the resulting pieces, walls, status and next player.
#[test]
fn legality_matches_brute_force_on_random_positions() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut seen: std::collections::HashMap<String, usize> = Default::default();
    let mut legal = 0;
    let mut over = 0;
    for _ in 0..3000 {
        let game = random_game(&mut rng, 12);
        let (b, g) = from_position(game.position());
        // A checker reuses its oracles across the moves of one position.
        let mut checker = Checker::new(&game);
        for _ in 0..12 {
            let player = rng.gen_range(0..game.players().len());
            let mv = random_move(&mut rng, &game, player);
            let want = brute_move(&b, &g, player, &mv);
            assert_eq!(checker.check(player, &mv), game.check(player, &mv));
            match (game.after(player, &mv), want) {
                (Ok(next), Ok((b2, g2))) => {
                    legal += 1;
                    let (nb, ng) = from_position(next.position());
                    assert_eq!(ng, g2, "{mv:?}");
                    assert_eq!(nb.closed, b2.closed, "{mv:?}");
                    assert_eq!(next.to_move(), (player + 1) % g.n());
                    let st = brute_status(&b2, &g2, player);
                    assert_eq!(status_of(next.status()), st, "{mv:?}");
                    over += (st != BStatus::Ongoing) as usize;
                    let shape = format!(
                        "legal cat {} mouse {} walls {}",
                        mv.cat().is_some(),
                        mv.mouse().is_some(),
                        mv.walls().len()
                    );
                    *seen.entry(shape).or_default() += 1;
                }
                (Err(why), Err(k)) => {
                    assert_eq!(
                        kind_of(&why.rule),
                        k,
                        "{mv:?} on\n{}",
                        zkgames::wall::format::to_ascii(game.position())
                    );
                    let line = why.to_string();
                    assert!(!line.contains('\n') && line.len() < 200, "{line}");
                    let key = match k {
                        Kind::Cuts(_)
                            if mv.walls().len() == 2
                                && why.action
                                    == Some(zkgames::wall::game::Action::Wall(mv.walls()[1])) =>
                        {
                            "cuts second".to_string()
                        }
                        Kind::Cuts(_) => "cuts first".to_string(),
                        other => format!("{other:?}"),
                    };
                    *seen.entry(key).or_default() += 1;
                }
                (got, want) => panic!(
                    "move {mv:?} by player {}: library {got:?}, brute force {:?}, on\n{}",
                    player + 1,
                    want.map(|_| ()),
                    zkgames::wall::format::to_ascii(game.position())
                ),
            }
        }
    }
    // Every rule is exercised, and legal moves of every shape.
    for k in [
        "TooMany",
        "NoMouse",
        "OffBoard",
        "OutOfReach",
        "Blocked",
        "Taken",
        "cuts first",
        "cuts second",
    ] {
        assert!(seen.get(k).copied().unwrap_or(0) >= 100, "{k}: {seen:?}");
    }
    assert!(
        legal > 5000 && over > 50,
        "{legal} legal, {over} ending: {seen:?}"
    );
    eprintln!("{legal} legal moves ({over} ending the game); verdicts: {seen:?}");
}

/// All moves of a position, enumerated by the brute force: every sequence of at most two unit
/// actions (a step of the cat, of the mouse, a wall on any slot) in canonical order, applied one
/// by one and kept when legal.
fn brute_all_moves(b: &BBoard, g: &BGame, player: usize) -> BTreeSet<Move> {
    let mut slots = Vec::new();
    for r in 0..b.rows {
        for c in 0..b.cols {
            for d in [(0, 1), (1, 0)] {
                let (x, y) = ((r, c), (r + d.0, c + d.1));
                if b.on(y) && !b.closed.contains(&(x, y)) {
                    slots.push((x, y));
                }
            }
        }
    }
    let to_wall = |(x, y): (P, P)| {
        Wall::new(
            x.0 as u32,
            x.1 as u32,
            if y.0 == x.0 { Dir::R } else { Dir::D },
        )
    };
    // Pawn parts: (cat steps, mouse steps) as direction lists, at most two steps in all.
    let mut pawn_parts: Vec<(Vec<P>, Vec<P>)> = vec![(vec![], vec![])];
    for &d in &DIRS {
        pawn_parts.push((vec![d], vec![]));
        if g.mice[player].is_some() {
            pawn_parts.push((vec![], vec![d]));
        }
        for &e in &DIRS {
            pawn_parts.push((vec![d, e], vec![]));
            if g.mice[player].is_some() {
                pawn_parts.push((vec![], vec![d, e]));
                pawn_parts.push((vec![d], vec![e]));
            }
        }
    }
    let walk = |from: P, steps: &[P]| -> Option<P> {
        let mut cur = from;
        for d in steps {
            let next = (cur.0 + d.0, cur.1 + d.1);
            if !b.can_step(cur, next) {
                return None;
            }
            cur = next;
        }
        Some(cur)
    };
    let mut out = BTreeSet::new();
    for (cs, ms) in pawn_parts {
        let Some(cat) = walk(g.cats[player], &cs) else {
            continue;
        };
        let mouse = match g.mice[player] {
            Some(m) => match walk(m, &ms) {
                Some(x) => Some(x),
                None => continue,
            },
            None => None,
        };
        let left = 2 - cs.len() - ms.len();
        let mut g2 = g.clone();
        g2.cats[player] = cat;
        g2.mice[player] = mouse;
        let cell = |x: P| (x.0 as u32, x.1 as u32);
        let cat_part = (cat != g.cats[player]).then(|| cell(cat));
        let mouse_part = mouse.filter(|&m| Some(m) != g.mice[player]).map(cell);
        out.insert(Move::new(cat_part, mouse_part, vec![]));
        if left == 0 {
            continue;
        }
        for (i, &s1) in slots.iter().enumerate() {
            let mut b1 = b.clone();
            b1.closed.insert(s1);
            if g2.first_cut(&b1).is_some() {
                continue;
            }
            out.insert(Move::new(cat_part, mouse_part, vec![to_wall(s1)]));
            if left < 2 {
                continue;
            }
            for &s2 in &slots[i + 1..] {
                let mut b2 = b1.clone();
                b2.closed.insert(s2);
                if g2.first_cut(&b2).is_none() {
                    out.insert(Move::new(
                        cat_part,
                        mouse_part,
                        vec![to_wall(s1), to_wall(s2)],
                    ));
                }
            }
        }
    }
    out
}

/// `legal_moves` is exactly the brute force's set of legal moves, on small boards.
#[test]
fn enumeration_matches_brute_force() {
    let mut rng = ChaCha8Rng::seed_from_u64(12);
    let mut total = 0;
    for i in 0..300 {
        let game = random_game(&mut rng, [4, 5, 6][i % 3]);
        let (b, g) = from_position(game.position());
        let player = rng.gen_range(0..g.n());
        let got: Vec<Move> = game.legal_moves(player);
        let set: BTreeSet<Move> = got.iter().cloned().collect();
        assert_eq!(set.len(), got.len(), "no duplicates");
        assert!(got.windows(2).all(|w| w[0] < w[1]), "sorted");
        let want = brute_all_moves(&b, &g, player);
        if set != want {
            let extra: Vec<_> = set.difference(&want).take(3).collect();
            let missing: Vec<_> = want.difference(&set).take(3).collect();
            panic!(
                "player {}: extra {extra:?}, missing {missing:?} on\n{}",
                player + 1,
                zkgames::wall::format::to_ascii(game.position())
            );
        }
        // Each enumerated move passes `check`.
        for mv in got.iter().step_by(7) {
            assert!(game.check(player, mv).is_ok());
        }
        total += got.len();
    }
    assert!(total > 50_000, "{total}");
}

/// A hand-made position for the named cases: 4×4 cat-and-mouse.
///
/// ```text
/// a4 b4 c4 d4      row 0
/// a3 b3 c3 d3      row 1
/// a2 b2 c2 d2      row 2
/// a1 b1 c1 d1      row 3
/// ```
fn four_by_four(walls: Vec<Wall>, players: Vec<Player>) -> Game {
    let pos = Position::new(
        4,
        4,
        walls,
        Setup::Game {
            variant: Variant::CatAndMouse,
            players,
        },
    )
    .unwrap();
    Game::new(pos, 0).unwrap()
}

fn pl(cat: Cell, mouse: Cell) -> Player {
    Player {
        cat,
        mouse: Some(mouse),
        goal: None,
    }
}

fn rule(game: &Game, player: usize, mv: &str) -> Result<(), Rule> {
    let n = Notation::for_position(game.position()).unwrap();
    let mv = n.parse_move(mv).unwrap();
    game.check(player, &mv).map_err(|e| e.rule)
}

#[test]
fn named_cases() {
    // P1 cat a4 (0,0), mouse a1 (3,0); P2 cat d4 (0,3), mouse d1 (3,3).
    let open = four_by_four(vec![], vec![pl((0, 0), (3, 0)), pl((0, 3), (3, 3))]);
    // A wall on an occupied slot; the move's own wall twice.
    let walled = four_by_four(
        vec![Wall::new(0, 0, Dir::R)],
        vec![pl((0, 0), (3, 0)), pl((0, 3), (3, 3))],
    );
    assert_eq!(
        rule(&walled, 0, ">a4"),
        Err(Rule::SlotTaken {
            by_this_move: false
        })
    );
    assert_eq!(
        rule(&open, 0, ">b2.>b2"),
        Err(Rule::SlotTaken { by_this_move: true })
    );
    // A wall off the board (only expressible in the project's spelling: notation refuses it).
    let mv = parse_move_json(r#"{"walls": [[0, 3, "R"]]}"#).unwrap();
    assert_eq!(open.check(0, &mv).unwrap_err().rule, Rule::OffBoard);
    let mv = parse_move_json(r#"{"walls": [[3, 0, "D"]]}"#).unwrap();
    assert_eq!(open.check(0, &mv).unwrap_err().rule, Rule::OffBoard);
    // Two walls that cut only together: ^a1 and >a1 box player 1's mouse in a1.
    assert_eq!(rule(&open, 0, "^a1"), Ok(()));
    assert_eq!(rule(&open, 0, ">a1"), Ok(()));
    let e = rule(&open, 0, ">a1.^a1").unwrap_err();
    assert!(matches!(e, Rule::Cuts(p) if p.b == (3, 0)), "{e:?}");
    // A step through a wall.
    assert_eq!(rule(&walled, 0, "Cb4"), Err(Rule::WallInTheWay));
    // A step off the board (project spelling; notation refuses the cell).
    let mv = parse_move_json(r#"{"cat": [0, 4]}"#).unwrap();
    assert_eq!(open.check(0, &mv).unwrap_err().rule, Rule::OffBoard);
    assert!(Notation::new(4, 4).unwrap().parse_move("Ce4").is_err());
    // Two-cell steps: an L with both intermediate cells blocked, then with one open.
    // From a4 to b3: via b4 (b4-b3 walled) or a3 (a3-b3 walled).
    let both = four_by_four(
        vec![Wall::new(0, 1, Dir::D), Wall::new(1, 0, Dir::R)],
        vec![pl((0, 0), (3, 0)), pl((0, 3), (3, 3))],
    );
    assert_eq!(rule(&both, 0, "Cb3"), Err(Rule::WallInTheWay));
    let one = four_by_four(
        vec![Wall::new(0, 0, Dir::R)],
        vec![pl((0, 0), (3, 0)), pl((0, 3), (3, 3))],
    );
    assert_eq!(rule(&one, 0, "Cb3"), Ok(()));
    // Straight two cells with the middle blocked.
    assert_eq!(rule(&walled, 0, "Cc4"), Err(Rule::WallInTheWay));
    assert_eq!(rule(&open, 0, "Cc4"), Ok(()));
    // A step, then a wall on the slot just crossed: legal (walls come after steps)...
    assert_eq!(rule(&open, 0, "Cb4.>a4"), Ok(()));
    // ...unless it cuts: b1 is closed above and to the right.
    let pocket = four_by_four(
        vec![Wall::new(2, 1, Dir::D), Wall::new(3, 1, Dir::R)],
        vec![pl((0, 0), (3, 0)), pl((0, 3), (3, 3))],
    );
    // Mouse a1 -> b1 (through >a1), then wall >a1: b1 is closed above and right: cut.
    let e = rule(&pocket, 0, "Mb1.>a1").unwrap_err();
    assert!(matches!(e, Rule::Cuts(p) if p.b == (3, 1)), "{e:?}");
    assert_eq!(rule(&pocket, 0, "Mb1"), Ok(()));
    // The wrong player's piece: a3 is one step for player 1's cat (a4), four for player 2's
    // (d4); moves always name the mover's own pieces.
    assert_eq!(rule(&open, 0, "Ca3"), Ok(()));
    assert_eq!(rule(&open, 1, "Ca3"), Err(Rule::OutOfReach { steps: 4 }));
    assert_eq!(rule(&open, 1, "Md2"), Ok(()));
    assert_eq!(rule(&open, 0, "Md2"), Err(Rule::OutOfReach { steps: 4 }));
    // A classic home moved.
    let classic = Game::standard(Variant::Classic, 4, 4).unwrap();
    assert_eq!(rule(&classic, 0, "Mb1"), Err(Rule::NoMouse));
    // Three actions, in several shapes.
    for mv in ["Cc4.>b2", "Cb4.Mb1.>c2", ">a1.>b1.>c1", "Cc4.Mb1"] {
        assert!(
            matches!(rule(&open, 0, mv), Err(Rule::TooManyActions { count: 3 })),
            "{mv}"
        );
    }
    assert_eq!(rule(&open, 0, "Cb4.Mb1"), Ok(()));
    assert_eq!(rule(&open, 0, "---"), Ok(()));
    // Staying put is not a step.
    assert_eq!(rule(&open, 0, "Ca4"), Err(Rule::OutOfReach { steps: 0 }));
}

#[test]
fn captures_wins_and_the_one_move_rule() {
    let play = |g: &Game, p: usize, mv: &str| {
        let n = Notation::for_position(g.position()).unwrap();
        g.after(p, &n.parse_move(mv).unwrap()).unwrap()
    };
    let one_move_draw =
        |g: &Game| matches!(g.status(), Status::Over(Outcome::OneMoveRuleDraw { .. }));
    // Player 1's cat d2 catches on d1; player 2's cat on b3 is 3 steps from a1: a win.
    let g = four_by_four(vec![], vec![pl((2, 3), (3, 0)), pl((1, 1), (3, 3))]);
    let after = play(&g, 0, "Cd1");
    assert_eq!(
        after.status(),
        &Status::Over(Outcome::Win {
            player: 0,
            cell: (3, 3)
        })
    );
    assert_eq!(after.result_text(), "1-0");
    // Player 2's cat on b2 is 2 steps from a1: a draw by the one-move rule.
    let g = four_by_four(vec![], vec![pl((2, 3), (3, 0)), pl((2, 1), (3, 3))]);
    let after = play(&g, 0, "Cd1");
    assert!(one_move_draw(&after));
    assert_eq!(after.result_text(), "1/2-1/2");
    // Player 2's cat on a3: 2 steps straight down; the same move's wall ^a1 makes it 4: a win.
    let g = four_by_four(vec![], vec![pl((2, 3), (3, 0)), pl((1, 0), (3, 3))]);
    assert!(one_move_draw(&play(&g, 0, "Cd1")));
    assert_eq!(play(&g, 0, "Cd1.^a1").result_text(), "1-0");
    // Player 2 catching wins outright (no one-move rule for the second player).
    let g = four_by_four(vec![], vec![pl((0, 0), (3, 0)), pl((2, 1), (3, 3))]);
    assert_eq!(play(&g, 1, "Ca1").result_text(), "0-1");
    // A mouse walking onto the cat that chases it is caught, whoever moved.
    let g = four_by_four(vec![], vec![pl((3, 2), (0, 0)), pl((0, 3), (3, 3))]);
    assert_eq!(play(&g, 1, "Mc1").result_text(), "1-0");
    // Both catches at once: a draw.
    let g = four_by_four(vec![], vec![pl((3, 2), (0, 0)), pl((0, 1), (3, 3))]);
    let after = play(&g, 1, "Ca4.Mc1");
    assert_eq!(after.status(), &Status::Over(Outcome::SimultaneousDraw));
    assert_eq!(after.result_text(), "1/2-1/2");
    // Passing over the mouse during a two-cell step catches nothing.
    let g = four_by_four(vec![], vec![pl((3, 1), (0, 0)), pl((0, 3), (3, 2))]);
    assert_eq!(play(&g, 0, "Cd1").status(), &Status::Ongoing);
    // Classic: reaching the home wins (no one-move rule, though player 2 is 2 steps away).
    let classic = Game::standard(Variant::Classic, 3, 3).unwrap();
    let a = play(&classic, 0, "Cb2");
    let a = play(&a, 1, "Cb2");
    let a = play(&a, 0, "Cc1");
    assert_eq!(a.result_text(), "1-0");
    assert!(a.describe_outcome().unwrap().contains("home on c1"));
    // Ring: the catcher wins, three scores; the turn passes on.
    let ring = Position::new(
        3,
        3,
        vec![],
        Setup::Game {
            variant: Variant::Ring,
            players: vec![pl((0, 0), (2, 2)), pl((1, 1), (0, 2)), pl((2, 0), (0, 1))],
        },
    )
    .unwrap();
    let ring = Game::new(ring, 2).unwrap();
    let a = play(&ring, 2, "Cc1");
    assert_eq!(a.result_text(), "0-0-1");
    assert_eq!(a.to_move(), 0);
    // A standing capture in a position file is a win without the one-move rule.
    let standing = four_by_four(vec![], vec![pl((3, 3), (3, 0)), pl((3, 1), (3, 3))]);
    assert_eq!(standing.result_text(), "1-0");
}

// ------------------------------------------------------------------ notation

#[test]
fn notation_matches_an_independent_formula_and_round_trips() {
    let mut rng = ChaCha8Rng::seed_from_u64(13);
    for _ in 0..3000 {
        let rows = rng.gen_range(1..=99u32);
        let cols = rng.gen_range(1..=26u32);
        let n = Notation::new(rows, cols).unwrap();
        let c = rand_cell(&mut rng, rows, cols);
        let name = format!("{}{}", (b'a' + c.1 as u8) as char, rows - c.0);
        assert_eq!(n.cell(c).unwrap(), name);
        assert_eq!(n.parse_cell(&name).unwrap(), c);
        if c.1 + 1 < cols {
            let w = Wall::new(c.0, c.1, Dir::R);
            assert_eq!(n.wall(w).unwrap(), format!(">{name}"));
            assert_eq!(n.parse_wall(&format!(">{name}")).unwrap(), w);
        } else {
            assert!(n.wall(Wall::new(c.0, c.1, Dir::R)).is_none());
            assert!(n.parse_wall(&format!(">{name}")).is_err());
        }
        if c.0 >= 1 {
            // The top side of (r, c) is the D slot of (r - 1, c).
            let w = Wall::new(c.0 - 1, c.1, Dir::D);
            assert_eq!(n.wall(w).unwrap(), format!("^{name}"));
            assert_eq!(n.parse_wall(&format!("^{name}")).unwrap(), w);
        } else {
            assert!(n.parse_wall(&format!("^{name}")).is_err());
        }
        assert!(
            n.parse_cell(&format!("{}{}", (b'a' + cols as u8) as char, 1))
                .is_err()
                || cols == 26
        );
        assert!(n.parse_cell(&format!("a{}", rows + 1)).is_err());
    }
    // Moves: random legal moves of random games print and parse back to themselves, in both
    // spellings, and the printed parts are in canonical order.
    for _ in 0..300 {
        let game = random_game(&mut rng, 8);
        let n = Notation::for_position(game.position()).unwrap();
        let p = rng.gen_range(0..game.players().len());
        let moves = game.legal_moves(p);
        for _ in 0..20 {
            let mv = &moves[rng.gen_range(0..moves.len())];
            let s = n.write_move(mv).unwrap();
            assert_eq!(&n.parse_move(&s).unwrap(), mv, "{s}");
            assert_eq!(&parse_move_json(&move_to_json(mv)).unwrap(), mv);
            // Shuffled parts parse to the same move.
            let mut parts: Vec<&str> = s.split('.').collect();
            parts.reverse();
            assert_eq!(&n.parse_move(&parts.join(".")).unwrap(), mv);
            let walls: Vec<&str> = s.split('.').filter(|x| x.starts_with(['>', '^'])).collect();
            if let [a, b] = walls.as_slice() {
                let key = |w: &str| {
                    let wc = n.parse_wall(w).unwrap();
                    (w.starts_with('^'), wc.col, std::cmp::Reverse(wc.row))
                };
                assert!(key(a) < key(b), "{s}");
            }
        }
    }
}

#[test]
fn notation_rejects_malformed_moves() {
    let n = Notation::new(8, 8).unwrap();
    for bad in [
        "",
        " ",
        ".",
        "Ce4.",
        ".Ce4",
        "Ce4..>a1",
        "Ce4.Ce5",
        "Me4.Md4",
        "Ci1",
        "Ca9",
        "Ca0",
        "Ca01",
        "ce4",
        "C",
        "M",
        "<e4",
        "ve4",
        ">h4",
        "^a8",
        "e4",
        "C e4",
        "Ce4 ",
        "Ce4,>a1",
        "----",
        "--",
        "Ce4.---",
        "\u{e9}",
        "C\u{e9}4",
        "Ce\u{e9}",
        &"Ce4.".repeat(20),
    ] {
        if bad == "Ce4 " {
            // Surrounding spaces are trimmed.
            assert!(n.parse_move(bad).is_ok());
            continue;
        }
        let e = n.parse_move(bad);
        assert!(e.is_err(), "{bad:?} parsed");
        let m = e.unwrap_err().to_string();
        assert!(!m.contains('\n') && m.len() < 200, "{m}");
    }
    // Fuzz: no input panics.
    let mut rng = ChaCha8Rng::seed_from_u64(14);
    let alphabet = b"CM>^.-abchz0189 \xc3\xa9";
    for _ in 0..20_000 {
        let len = rng.gen_range(0..12);
        let bytes: Vec<u8> = (0..len)
            .map(|_| alphabet[rng.gen_range(0..alphabet.len())])
            .collect();
        if let Ok(s) = std::str::from_utf8(&bytes) {
            if let Ok(mv) = n.parse_move(s) {
                assert_eq!(n.parse_move(&n.write_move(&mv).unwrap()).unwrap(), mv);
            }
        }
    }
}

// ------------------------------------------------------------------ records

/// Plays a random game: each turn a random legal move from the enumeration (most often a pawn
/// move, so games travel), until the game ends or `plies` moves.
fn random_playout(rng: &mut ChaCha8Rng, start: &Game, plies: usize) -> (Vec<Move>, Game) {
    let mut g = start.clone();
    let mut moves = Vec::new();
    while moves.len() < plies && *g.status() == Status::Ongoing {
        let all = g.legal_moves(g.to_move());
        let pawns: Vec<&Move> = all.iter().filter(|m| m.walls().len() < 2).collect();
        let mv = if rng.gen_bool(0.7) {
            pawns[rng.gen_range(0..pawns.len())].clone()
        } else {
            all[rng.gen_range(0..all.len())].clone()
        };
        g = g.play(&mv).unwrap();
        moves.push(mv);
    }
    (moves, g)
}

#[test]
fn records_round_trip_and_replay_like_the_brute_force() {
    let mut rng = ChaCha8Rng::seed_from_u64(15);
    let mut finished = 0;
    for i in 0..120 {
        let start = if i % 3 == 0 {
            let v = if i % 2 == 0 {
                Variant::CatAndMouse
            } else {
                Variant::Classic
            };
            Game::standard(v, rng.gen_range(3..=8), rng.gen_range(3..=8)).unwrap()
        } else {
            // Any position, player 1 to move (a record starts so).
            let g = random_game(&mut rng, 7);
            if *g.status() != Status::Ongoing {
                continue;
            }
            Game::new(g.position().clone(), 0).unwrap()
        };
        let (moves, end) = random_playout(&mut rng, &start, 30);
        let rec = Record::from_game(&start, moves.clone()).unwrap();
        let text = rec.to_text();
        let back = record::parse(text.as_bytes()).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(back, rec, "{text}");
        assert_eq!(back.to_text(), text);
        let replayed = back.replay().unwrap();
        assert_eq!(replayed, end);
        if *end.status() != Status::Ongoing {
            finished += 1;
            assert_eq!(back.tag("Result").unwrap(), end.result_text());
        }
        // The brute force replays the same moves to the same pieces and walls.
        let (mut b, mut g) = from_position(start.position());
        for (k, mv) in moves.iter().enumerate() {
            let (b2, g2) = brute_move(&b, &g, k % g.n(), mv).unwrap();
            b = b2;
            g = g2;
        }
        let (eb, eg) = from_position(end.position());
        assert_eq!((eb.closed, eg), (b.closed, g));
        // As a position source, the record is its final position with the next player.
        let src = record::parse_source(text.as_bytes()).unwrap();
        assert_eq!(src.position(), end.position());
        assert_eq!(src.to_move(), Some(end.to_move()));
    }
    assert!(finished >= 10, "{finished}");
}

fn record_err(text: &str) -> (bool, String) {
    match record::parse(text.as_bytes()).and_then(|r| r.replay().map_err(Into::into)) {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(e) => (matches!(e, zkgames::Error::Rejected(_)), e.to_string()),
    }
}

const GOOD: &str =
    "[Board \"4x4\"]\n[Variant \"Standard\"]\n[Result \"*\"]\n\n1. Cb4 Cc4\n2. Cb2 Cc2\n";

#[test]
fn bad_records_are_refused_with_one_line() {
    assert!(record::parse(GOOD.as_bytes()).unwrap().replay().is_ok());
    let long_value = format!(
        "[Board \"4x4\"]\n[Result \"*\"]\n[Note \"{}\"]\n",
        "x".repeat(40_000)
    );
    let many_tags: String = (0..70)
        .map(|i| format!("[T{i} \"v\"]\n"))
        .collect::<String>()
        + "[Board \"4x4\"]\n[Result \"*\"]\n";
    let cases: Vec<(String, &str)> = vec![
        (GOOD.replace("[Board \"4x4\"]\n", ""), "missing [Board"),
        (GOOD.replace("[Result \"*\"]\n", ""), "missing [Result"),
        (GOOD.replace("4x4", "4x1"), "Board"),
        (GOOD.replace("4x4", "27x4"), "Board"),
        (GOOD.replace("4x4", "four"), "Board"),
        (GOOD.replace("Standard", "Freestyle"), "Variant"),
        (GOOD.replace("\"*\"", "\"2-0\""), "Result"),
        (GOOD.replace("\"*\"", "\"1-0-0\""), "Result"),
        (GOOD.replace("[Result \"*\"]", "[Result \"*\"]\n[Result \"*\"]"), "second Result"),
        (GOOD.replace("[Result \"*\"]", "[Result *]"), "double quotes"),
        (GOOD.replace("[Result \"*\"]", "[Re-sult \"*\"]"), "tag name"),
        (GOOD.replace("[Result \"*\"]", "[Result \"*\"] extra"), "tag"),
        (GOOD.replace("[Result \"*\"]", "[Result \"*\"]\n[Termination \"Bored\"]"), "Termination"),
        (GOOD.replace("[Result \"*\"]", "[Result \"*\"]\n[Termination \"MouseCapture\"]"), "did not end"),
        (GOOD.replace("[Result \"*\"]", "[Result \"*\"]\n[Note \"a\\q\"]"), "escapes"),
        (GOOD.replace("2. Cb2", "3. Cb2"), "move number"),
        (GOOD.replace("1. Cb4", "Cb4"), "move number 1."),
        (GOOD.replace("1. Cb4 Cc4", "1. Cb4"), "only the last number"),
        (GOOD.replace("2. Cb2 Cc2", "2. Cb2 Cc2 Cd2"), "already has all"),
        (GOOD.replace("2. Cb2 Cc2", "2. Cb2 Cc2\n3."), "no moves after it"),
        (GOOD.replace("Cb2", "Cz2"), "off the board"),
        (GOOD.replace("Cb2", "Cb2.Cb3"), "named twice"),
        (GOOD.replace("Cb2", "Xb2"), "unknown action"),
        (GOOD.replace("Cc2\n", "Cc2 1-0\n"), "Result tag says"),
        (GOOD.replace("Cc2\n", "Cc2 * Cd2\n"), "after the result"),
        (GOOD.replace("2. Cb2", "[Late \"tag\"]\n2. Cb2"), "tag after"),
        (GOOD.replace("Standard", "Ring"), "ring variant has no standard setup"),
        (GOOD.replace("[Result \"*\"]", "[Result \"*\"]\n[Position \"C1a4 M1a1 C2d4\"]"), "no mouse"),
        (GOOD.replace("[Result \"*\"]", "[Result \"*\"]\n[Position \"C1a4 M1a1 C2d4 M2d1 C1b1\"]"), "second C1"),
        (GOOD.replace("[Result \"*\"]", "[Result \"*\"]\n[Position \"C1a4 M1a1 C5d4 M5d1\"]"), "player number"),
        (GOOD.replace("[Result \"*\"]", "[Result \"*\"]\n[Position \"C1a4 M1a1 C2d4 M2d1 >a1 >a1\"]"), "twice"),
        (GOOD.replace("[Result \"*\"]", "[Result \"*\"]\n[Position \"C1a4 M1a1 C2d4 M2d1 >a1 ^a1\"]"), "cannot reach"),
        (GOOD.replace("[Result \"*\"]", "[Result \"*\"]\n[Position \"C1a4 M1a1 C2d4 M2d1 Z\"]"), "unknown item"),
        (long_value, "at most"),
        (many_tags, "more than 64 tags"),
        ("[Board \"4x4\"]\n[Result \"*\"]\n\n1. Cb4 Cc4\n2. Cc4 Cb3\n3. Cd4 Ca3\n4. Cd3 Ca2\n5. Cd2 Ca1\n6. Cd1 Cb1\n".to_string(), "already over"),
        ("[Board \"4x4\"]\n[Result \"1-0\"]\n\n1. Cb4 Cc4\n2. Cc4 Cb3\n3. Cd4 Ca3\n4. Cd3 Ca2\n5. Cd2 Ca1\n".to_string(), "Result tag says 1-0"),
    ];
    for (text, want) in &cases {
        let (_, e) = record_err(text);
        assert!(e.contains(want), "{text}\n -> {e}\n (wanted {want:?})");
        assert!(!e.contains('\n') && e.len() < 300, "{e}");
    }
    // An illegal move is a rejection naming its number and player.
    let (rejected, e) = record_err(&GOOD.replace("Cb2", ">a1.^a1"));
    assert!(rejected, "{e}");
    assert!(e.contains("move 2 (player 1, >a1.^a1) is illegal"), "{e}");
    let (rejected, e) = record_err("[Board \"4x4\"]\n[Result \"*\"]\n\n1. Cd4\n");
    assert!(rejected && e.contains("3 steps away"), "{e}");
    // Bounds: oversized records and too many moves.
    let big = format!(
        "[Board \"4x4\"]\n[Result \"*\"]\n\n{}",
        " ".repeat(record::MAX_RECORD)
    );
    assert!(record_err(&big).1.contains("bytes"));
    let mut long = String::from("[Board \"4x4\"]\n[Result \"*\"]\n\n");
    for k in 1..=5001 {
        long.push_str(&format!("{k}. Cb4 Cc4 "));
    }
    // Cb4 then Cb4 again is illegal long before, but the ply bound is hit first at parse time.
    assert!(record_err(&long).1.contains("more than 10000 moves"));
}

#[test]
fn record_parser_fuzz_never_panics() {
    let mut rng = ChaCha8Rng::seed_from_u64(16);
    let sample = std::fs::read(puzzle("standard-8x8-game.txt")).unwrap();
    let pool: &[u8] = b"[]\"\\ \n.-*/0123456789xCM>^abhBoardResultVariantPositionRing";
    let mut ok = 0;
    for _ in 0..5000 {
        let mut b = sample.clone();
        for _ in 0..rng.gen_range(1..=4) {
            if b.is_empty() {
                break;
            }
            let i = rng.gen_range(0..b.len());
            match rng.gen_range(0..4) {
                0 => b[i] = pool[rng.gen_range(0..pool.len())],
                1 => {
                    b.remove(i);
                }
                2 => b.insert(i, pool[rng.gen_range(0..pool.len())]),
                _ => b[i] = rng.gen(),
            }
        }
        if let Ok(src) = record::parse_source(&b) {
            ok += 1;
            let _ = src.position();
        }
    }
    assert!(ok > 0);
}

// ------------------------------------------------------------------ the binary

#[test]
fn sample_record_replays_and_serves_as_a_position() {
    let path = puzzle("standard-8x8-game.txt");
    let (code, out, err) = run(&["wall", "replay", &path], None);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("17 moves replayed"), "{out}");
    assert!(
        out.contains("# result 1-0: player 1 wins: its cat caught player 2's mouse on h1"),
        "{out}"
    );
    // The printed final position is a position file equal to the library's replay.
    let rec = record::parse(&std::fs::read(&path).unwrap()).unwrap();
    let end = rec.replay().unwrap();
    let f = zkgames::wall::format::parse_file(out.as_bytes()).unwrap();
    assert_eq!(
        (&f.position, f.to_move),
        (end.position(), Some(end.to_move()))
    );
    // Every POSITION command accepts the record as its final position.
    let final_ascii = tmp("final.txt");
    std::fs::write(&final_ascii, &out).unwrap();
    for cmd in [
        vec!["analyze", "--json"],
        vec!["render"],
        vec!["convert", "--to", "json"],
        vec!["check"],
    ] {
        let a = run(&[&["wall", cmd[0], &path], &cmd[1..]].concat(), None);
        let b = run(&[&["wall", cmd[0], &final_ascii], &cmd[1..]].concat(), None);
        assert_eq!(a.0, 0, "{cmd:?}: {}", a.2);
        assert_eq!(a, b, "{cmd:?}");
    }
    // convert --to record rewrites the record identically (it is in canonical form but for
    // one reordered wall pair).
    let (code, out, _) = run(&["wall", "convert", &path, "--to", "record"], None);
    assert_eq!(code, 0);
    let again = record::parse(out.as_bytes()).unwrap();
    assert_eq!(again.moves(), rec.moves());
    assert_eq!(again.tags(), rec.tags());
    // The SVG draws the two pieces sharing h1 side by side.
    let (code, svg, _) = run(&["wall", "render", &path, "--svg", "-"], None);
    assert_eq!(code, 0);
    let cx: BTreeSet<&str> = svg
        .lines()
        .filter(|l| l.starts_with("<circle"))
        .map(|l| l.split('"').nth(1).unwrap())
        .collect();
    assert_eq!(cx.len(), 4, "{svg}");
    // The game is over: a further move is bad input.
    let (code, _, err) = run(&["wall", "check", &path, "--move", "Cg1"], None);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("the game is over (1-0"), "{err}");
}

#[test]
fn check_move_exit_codes_and_messages() {
    let path = puzzle("standard-8x8-game.txt");
    let text = std::fs::read_to_string(&path).unwrap();
    // The game before its last two moves: player 1 to move after 8. Cf1 Ce1 minus Ce1.
    let cut = text
        .replace("8. Cf1 Ce1\n9. Ch1\n", "8. Cf1\n")
        .replace("1-0", "*")
        .replace("[Termination \"MouseCapture\"]\n", "");
    let f = tmp("cut.txt");
    std::fs::write(&f, &cut).unwrap();
    let check = |mv: &str, extra: &[&str]| {
        run(
            &[&["wall", "check", &f, "--move", mv], extra].concat(),
            None,
        )
    };
    // Player 2 to move: >g1 would shut player 1's cat out of the mouse's pocket.
    let (code, out, err) = check(">g1", &[]);
    assert_eq!(code, 1, "{out}");
    assert_eq!(err.trim().lines().count(), 1);
    assert!(err.contains("illegal move >g1 by player 2: wall >g1: player 1's cat on f1 would have no path to player 2's mouse on h1"), "{err}");
    let (code, out, _) = check("Ce1", &[]);
    assert_eq!(code, 0);
    assert_eq!(out.trim(), "legal: Ce1 by player 2");
    // --player: as player 1 the capture is legal and ends the game.
    let (code, out, _) = check("Ch1", &["--player", "1"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("legal: Ch1 by player 1; it ends the game 1-0"),
        "{out}"
    );
    // The JSON spelling of the same move.
    let (code, out, _) = check(r#"{"cat": [7, 7]}"#, &["--player", "1"]);
    assert_eq!(code, 0, "{out}");
    // Bad input: exit 2, one line.
    for (mv, extra, want) in [
        ("Cz1", &[][..], "off the board"),
        (">h1", &[][..], "border"),
        ("Ce1.Ce2", &[][..], "named twice"),
        ("", &[][..], "empty move"),
        ("C-1", &[][..], "not a cell"),
        ("Ce1", &["--player", "3"][..], "players 1 to 2"),
        ("Ce1", &["--player", "0"][..], "players 1 to 2"),
        ("{\"cat\": [1]}", &[][..], "malformed move JSON"),
    ] {
        let (code, _, err) = check(mv, extra);
        assert_eq!(code, 2, "{mv:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(err.contains(want), "{mv:?}: {err}");
    }
    // Without --move, check is the validity check it always was.
    let (code, out, _) = run(&["wall", "check", &f], None);
    assert_eq!(
        (code, out.trim()),
        (0, "valid: all 2 attached pairs are connected")
    );
    // --player without --move is a usage error.
    assert_eq!(run(&["wall", "check", &f, "--player", "1"], None).0, 2);
    // A position file with a `to-move:` line; a position with explicit pairs is no game.
    let (code, out, err) = run(
        &["wall", "check", "-", "--move", "Cb2"],
        Some(b"variant: cat-and-mouse\nto-move: 2\n+---+---+---+\n| C1  .   C2|\n+   +   +   +\n| M1  .   M2|\n+---+---+---+\n"),
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.trim(), "legal: Cb2 by player 2");
    let (code, _, err) = run(
        &["wall", "check", &puzzle("pairs-5x6.json"), "--move", "---"],
        None,
    );
    assert_eq!(code, 2);
    assert!(err.contains("not a game"), "{err}");
    let (code, _, err) = run(
        &[
            "wall",
            "check",
            &puzzle("invalid-boxed-mouse.txt"),
            "--move",
            "---",
        ],
        None,
    );
    assert_eq!(code, 2);
    assert!(err.contains("not a playable position"), "{err}");
}

#[test]
fn ring_positions_take_player_numbers_up_to_four() {
    let ring = puzzle("ring-4p-9x9.json");
    // Player 3's cat is on i1 (8, 8); player 4's mouse on b1 (8, 1) is what it chases.
    let (code, out, err) = run(
        &["wall", "check", &ring, "--move", "Ch1", "--player", "3"],
        None,
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.trim(), "legal: Ch1 by player 3");
    // Player 4's cat on a1 cannot take two steps up through its walls... but one step right is
    // fine; player 5 does not exist.
    let (code, _, err) = run(
        &["wall", "check", &ring, "--move", "Cb1", "--player", "4"],
        None,
    );
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = run(
        &["wall", "check", &ring, "--move", "Cb1", "--player", "5"],
        None,
    );
    assert_eq!(code, 2);
    assert!(err.contains("players 1 to 4"));
    // Default: player 1 (the file does not say).
    let (code, out, _) = run(&["wall", "check", &ring, "--move", "---"], None);
    assert_eq!((code, out.trim()), (0, "legal: --- by player 1"));
    // A ring record needs a Position tag; convert --to record writes one, replay reads it.
    let (code, rec, err) = run(&["wall", "convert", &ring, "--to", "record"], None);
    assert_eq!(code, 0, "{err}");
    assert!(
        rec.contains("[Variant \"Ring\"]") && rec.contains("[Position \"C1a9 M1a8"),
        "{rec}"
    );
    let game = format!("{rec}1. --- --- Ch1 Cb1\n2. ---\n");
    let (code, out, err) = run(&["wall", "replay", "-"], Some(game.as_bytes()));
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("5 moves replayed") && out.contains("to-move: 2"),
        "{out}"
    );
}

#[test]
fn replay_rejects_illegal_moves_and_bad_records() {
    let sample = std::fs::read_to_string(puzzle("standard-8x8-game.txt")).unwrap();
    // An illegal move: exit 1, its number and player.
    let bad = sample.replace("8. Cf1 Ce1", "8. Cf1 >g1");
    let (code, out, err) = run(&["wall", "replay", "-"], Some(bad.as_bytes()));
    assert_eq!(code, 1);
    assert!(out.is_empty());
    assert_eq!(err.trim().lines().count(), 1);
    assert!(
        err.contains("<stdin>: move 8 (player 2, >g1) is illegal: wall >g1"),
        "{err}"
    );
    // The same record as POSITION of another command: rejected too.
    assert_eq!(run(&["wall", "render", "-"], Some(bad.as_bytes())).0, 1);
    // Bad records: exit 2, one line.
    for text in [
        sample.replace("[Board \"8x8\"]\n", ""),
        sample.replace("9. Ch1", "9. Ch1 Cg1"),
        sample.replace("3. ", "4. "),
        sample.replace("[Result \"1-0\"]", "[Result \"0-1\"]"),
        "[Board \"8x8\"\n".to_string(),
        "not a record at all".to_string(),
        "\u{feff}[Board \"8x8\"]\n[Result \"*\"]\n\n1. Ca9\n".to_string(),
    ] {
        let (code, out, err) = run(&["wall", "replay", "-"], Some(text.as_bytes()));
        assert_eq!(code, 2, "{text}\n{err}");
        assert!(out.is_empty());
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(err.starts_with("verifier: error: <stdin>:"), "{err}");
    }
    // Oversized input is refused, not read without bound.
    let huge = format!(
        "[Board \"8x8\"]\n[Result \"*\"]\n\n{}",
        "1. ".repeat(400_000)
    );
    let (code, _, err) = run(&["wall", "replay", "-"], Some(huge.as_bytes()));
    assert_eq!(code, 2);
    assert!(err.contains("bytes"), "{err}");
}

#[test]
fn notation_command_translates_both_ways() {
    let (code, out, err) = run(
        &[
            "wall",
            "notation",
            &puzzle("cat-and-mouse-8x8.txt"),
            "e4",
            ">e4",
            "^e4",
            "(4, 4)",
            "4,4,R",
            "[3, 4, \"D\"]",
            "Ce4.^e4",
            "{\"mouse\": [7, 0]}",
            "---",
        ],
        None,
    );
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines,
        [
            "e4 = (4, 4)",
            ">e4 = [4, 4, \"R\"]",
            "^e4 = [3, 4, \"D\"]",
            "(4, 4) = e4",
            "4,4,R = >e4",
            "[3, 4, \"D\"] = ^e4",
            "Ce4.^e4 = {\"cat\": [4, 4], \"walls\": [[3, 4, \"D\"]]}",
            "{\"mouse\": [7, 0]} = Ma1",
            "--- = {}",
        ]
    );
    for bad in ["(8, 0)", "0,7,R", "^a8", "z1", "[0, 0, \"X\"]"] {
        let (code, _, err) = run(
            &["wall", "notation", &puzzle("cat-and-mouse-8x8.txt"), bad],
            None,
        );
        assert_eq!(code, 2, "{bad}: {err}");
        assert_eq!(err.trim().lines().count(), 1);
    }
    // Boards wider than 26 columns have no notation.
    let wide = r#"{"rows": 2, "cols": 27, "variant": "classic", "players": [{"cat": [0, 0], "goal": [1, 26]}]}"#;
    let (code, _, err) = run(&["wall", "notation", "-", "a1"], Some(wide.as_bytes()));
    assert_eq!(code, 2);
    assert!(err.contains("26 columns"), "{err}");
}
