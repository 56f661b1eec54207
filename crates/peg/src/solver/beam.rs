//! Beam search: level by level (one move per level), expand every kept position by every
//! legal move that the pruning allows, merge children equal up to symmetry, and keep the
//! `width` best by the beam's score ([`super::score`]: many adjacent pegs, pegs close to the
//! goal; ties broken by the canonical form, so the result does not depend on the order moves
//! are enumerated in). A narrow beam often walks straight to the goal where a depth-first
//! search spends millions of positions in dead subtrees near the root. The beam forgets most
//! positions, so it only ever proves solvability; the depth-first rounds keep the solver
//! complete.

use super::compiled::Compiled;
use super::endgame::Endgame;
use super::score;
use super::table::Table;
use super::word::Word;

/// What a beam search consults: the same pruning as the depth-first search.
pub(crate) struct BeamContext<'a, W: Word> {
    pub c: &'a Compiled<W>,
    pub endgame: Option<&'a Endgame<W>>,
    pub dead: &'a Table<W>,
}

/// One beam search of the given width, expanding at most `budget` positions. Returns the
/// positions from the start to the goal if the beam reaches it, and the number of positions
/// expanded.
pub(crate) fn run<W: Word>(
    ctx: &BeamContext<'_, W>,
    width: usize,
    budget: u64,
) -> (Option<Vec<W>>, u64) {
    let c = ctx.c;
    let g = c.g;
    let floor = c.goal_count + ctx.endgame.map_or(0, |e| e.depth());
    let width = width.max(1);
    if c.first_count <= floor {
        return (None, 0);
    }
    // levels[i]: (position, index of its parent in levels[i - 1])
    let mut levels: Vec<Vec<(W, u32)>> = vec![vec![(c.first, u32::MAX)]];
    let mut imgs = vec![W::ZERO; g];
    c.images(c.first, &mut imgs);
    let mut scores: Vec<i32> = vec![score::beam_score(c, c.first)];
    let mut seen: Table<W> = Table::with_capacity(4 * width);
    let mut nodes = 0u64;
    // (minus the score, canonical form, parent index, move): ties broken by the canonical
    // form, so the beam does not depend on the order moves are enumerated in
    let mut next: Vec<(i32, W, u32, u32)> = Vec::with_capacity(2 * width);
    let mut out = vec![W::ZERO; g];
    let mut legal: Vec<u32> = Vec::new();
    loop {
        let d = levels.len() - 1;
        let cc = c.first_count - d as u32 - 1;
        let cur = &levels[d];
        next.clear();
        seen.clear();
        for (i, &(s, _)) in cur.iter().enumerate() {
            let pi = &imgs[i * g..i * g + g];
            legal.clear();
            c.for_each_legal(s, cc + 1, |m| legal.push(m as u32));
            for &m in &legal {
                let m = m as usize;
                let child = s ^ c.span[m];
                if !c.pagoda_ok(child, m) {
                    continue;
                }
                let canon = c.child_canon(pi, m);
                if cc == floor {
                    let hit = match ctx.endgame {
                        Some(e) => e.solvable(canon),
                        None => c.is_goal(child),
                    };
                    if hit {
                        let mut path = vec![child];
                        let mut j = i;
                        for level in levels.iter().rev() {
                            path.push(level[j].0);
                            j = level[j].1 as usize;
                        }
                        path.reverse();
                        if let Some(e) = ctx.endgame {
                            path.extend(e.finish(c, child));
                        }
                        return (Some(path), nodes);
                    }
                    continue;
                }
                if ctx.dead.contains(canon) {
                    continue;
                }
                if !seen.insert_growing(canon, usize::MAX) {
                    continue;
                }
                if nodes >= budget {
                    return (None, nodes);
                }
                nodes += 1;
                let delta = score::beam_delta(c, s, m);
                next.push((-(scores[i] + delta), canon, i as u32, m as u32));
                if next.len() >= 2 * width {
                    next.select_nth_unstable(width);
                    next.truncate(width);
                }
            }
        }
        if next.is_empty() {
            return (None, nodes);
        }
        if next.len() > width {
            next.select_nth_unstable(width);
            next.truncate(width);
        }
        let mut level = Vec::with_capacity(next.len());
        let mut new_imgs = vec![W::ZERO; next.len() * g];
        let mut new_scores = Vec::with_capacity(next.len());
        for (k, &(score, _, i, m)) in next.iter().enumerate() {
            let (i, m) = (i as usize, m as usize);
            let s = levels[d][i].0;
            c.child_images(&imgs[i * g..i * g + g], m, &mut out);
            new_imgs[k * g..k * g + g].copy_from_slice(&out);
            level.push((s ^ c.span[m], i as u32));
            new_scores.push(-score);
        }
        levels.push(level);
        imgs = new_imgs;
        scores = new_scores;
    }
}
