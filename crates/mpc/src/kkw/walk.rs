//! The bitsliced walks over the circuit: preprocessing only (64 executions per word) and
//! the online phase (`64/N` executions per word, one lane per party).

use rayon::prelude::*;
use sha2::{Digest as _, Sha256};

use crate::circuit::{Bit, Circuit};
use crate::seedtree::Seed;
use zkgames_core::commit::Digest;

use super::bits::*;
use super::*;

/// The XOR of all parties' input and output-mask words, and of parties `0 … N−2`'s
/// `λ_ab` shares: one row of `full_words` words per execution, written into `sum`.
pub(super) fn summed_tape(sh: &Shape, seeds: &[Seed], sum: &mut [u64], buf: &mut [u64]) {
    sum.fill(0);
    for (i, s) in seeds.iter().enumerate() {
        let w = sh.tape_words(i);
        fill_tape(s, &mut buf[..w]);
        for (a, b) in sum.iter_mut().zip(&buf[..w]) {
            *a ^= b;
        }
    }
}

/// The auxiliary bits (packed) of up to 64 executions, 64 executions per word, from their
/// summed tapes (`rows`: one row of `full_words` words per execution).
pub(super) fn aux_batch(pr: &Program, sh: &Shape, rows: &[u64]) -> Vec<Vec<u8>> {
    let fw = sh.full_words();
    let count = rows.len() / fw;
    let mut full = vec![0u64; 64 * fw];
    full[..rows.len()].copy_from_slice(rows);
    let cols = transpose_rows(&full, fw);
    drop(full);
    let (lam_in, rest) = cols.split_at(64 * sh.in_w);
    let (lam_c, lam_ab) = rest.split_at(64 * sh.and_w);
    let mut lam = vec![0u64; pr.regs];
    lam[..sh.n_in].copy_from_slice(&lam_in[..sh.n_in]);
    let mut aux: Vec<u64> = Vec::with_capacity(sh.n_and);
    for op in &pr.ops {
        match *op {
            Op::Xor(a, b, d) => lam[d as usize] = lam[a as usize] ^ lam[b as usize],
            Op::Not(a, d) => lam[d as usize] = lam[a as usize],
            Op::And(a, b, d) => {
                let k = aux.len();
                aux.push((lam[a as usize] & lam[b as usize]) ^ lam_ab[k]);
                lam[d as usize] = lam_c[k];
            }
        }
    }
    let lanes: Vec<usize> = (0..count).collect();
    lane_columns(&aux, sh.n_and, &lanes)
}

/// Auxiliary bits of every listed execution: summed tapes in parallel per execution, then
/// batches of 64.
pub(super) fn aux_of(pr: &Program, sh: &Shape, seeds: &[&[Seed]]) -> Vec<Vec<u8>> {
    let fw = sh.full_words();
    let mut rows = vec![0u64; seeds.len() * fw];
    rows.par_chunks_mut(fw).zip(seeds.par_iter()).for_each_init(
        || vec![0u64; fw],
        |buf, (row, s)| summed_tape(sh, s, row, buf),
    );
    rows.par_chunks(64 * fw)
        .map(|ch| aux_batch(pr, sh, ch))
        .flatten_iter()
        .collect()
}

/// What the walk knows about one execution.
pub(super) struct ExecIn<'a> {
    pub(super) j: usize,
    /// The online commitment's key.
    pub(super) key: [u8; 32],
    /// Party seeds; `None` for the hidden party.
    pub(super) seeds: Vec<Option<Seed>>,
    /// `Some` in verify mode: the hidden party, masked input, aux (if party `N−1` is
    /// opened) and the hidden party's broadcasts. `None`: prover mode (all parties known,
    /// aux computed, masked input from the witness).
    pub(super) given: Option<Given<'a>>,
    /// Party whose broadcast column to return.
    pub(super) column: Option<usize>,
}

pub(super) struct Given<'a> {
    pub(super) hidden: usize,
    pub(super) masked_input: &'a [u8],
    pub(super) aux: &'a [u8],
    pub(super) msgs: &'a [u8],
}

pub(super) struct ExecOut {
    /// `h'_j`
    pub(super) online: Digest,
    pub(super) masked_input: Vec<u8>,
    /// computed (prover mode) or as given
    pub(super) aux: Vec<u8>,
    pub(super) column: Option<Vec<u8>>,
}

/// Per AND gate, what a cheating prover flips: its aux lanes, its broadcast lanes, and the
/// masked output of the groups concerned.
#[derive(Clone, Copy, Default)]
pub(super) struct Flip {
    pub(super) aux: Wide,
    pub(super) bcast: Wide,
    pub(super) out: Wide,
}

/// Words processed together by the online walk: `4·64` lanes, `4·64/N` executions.
pub(super) const W: usize = 4;
pub(super) type Wide = [u64; W];

#[inline(always)]
pub(super) fn wxor(a: Wide, b: Wide) -> Wide {
    std::array::from_fn(|i| a[i] ^ b[i])
}
#[inline(always)]
pub(super) fn wand(a: Wide, b: Wide) -> Wide {
    std::array::from_fn(|i| a[i] & b[i])
}
#[inline(always)]
pub(super) fn wnot(a: Wide) -> Wide {
    std::array::from_fn(|i| !a[i])
}
#[inline(always)]
pub(super) fn wpar<const N: usize>(a: Wide) -> Wide {
    std::array::from_fn(|i| Lanes::<N>::parity(a[i]))
}

/// Word `b` of every wide word.
pub(super) fn sub(v: &[Wide], b: usize) -> Vec<u64> {
    v.iter().map(|w| w[b]).collect()
}

/// Executions per wide group.
pub(super) fn group_size(n: usize) -> usize {
    W * (64 / n)
}

/// Runs the online phase of up to `4·64/N` executions (execution `e` of the group sits in
/// word `e / (64/N)`, lanes `(e mod 64/N)·N …`). `witness` is needed in prover mode.
#[allow(clippy::too_many_arguments)]
pub(super) fn online_group<const N: usize>(
    c: &Circuit,
    pr: &Program,
    sh: &Shape,
    salt: &[u8; 32],
    y: &[bool],
    witness: Option<&[bool]>,
    execs: &[ExecIn],
    cheats: &[Cheat],
) -> Vec<ExecOut> {
    let g_per = 64 / N;
    let place = |e: usize| (e / g_per, e % g_per);
    let fw = sh.full_words();
    let blocks = execs.len().div_ceil(g_per);
    let mut cols: Vec<Wide> = vec![[0; W]; 64 * fw];
    {
        let mut rows = vec![0u64; 64 * fw];
        for (b, block) in execs.chunks(g_per).enumerate() {
            rows.fill(0);
            for (g, ex) in block.iter().enumerate() {
                for (i, sd) in ex.seeds.iter().enumerate() {
                    if let Some(sd) = sd {
                        let l = g * N + i;
                        fill_tape(sd, &mut rows[l * fw..l * fw + sh.tape_words(i)]);
                    }
                }
            }
            transpose_rows_with(&rows, fw, |t, x| cols[t][b] = x);
        }
    }
    let (lam_in, rest) = cols.split_at(64 * sh.in_w);
    let (lam_c, lam_ab) = rest.split_at(64 * sh.and_w);
    let verify = execs.iter().any(|e| e.given.is_some());
    let group = |e: usize| -> Wide {
        let (b, g) = place(e);
        let mut w = [0; W];
        w[b] = Lanes::<N>::group(g);
        w
    };
    let last: Wide = [Lanes::<N>::LAST; W];

    // (mask shares, masked value) of each output register, after the walk
    let out_regs: Vec<Option<(Wide, Wide)>>;
    let mut xin: Vec<u64> = Vec::new();
    let mut bcast: Vec<Wide> = Vec::with_capacity(sh.n_and);
    let mut hid: Wide = [0; W];
    let mut auxw: Vec<Wide> = Vec::new();
    if verify {
        // hidden lanes, given aux and broadcasts as lane words
        let mut aux_given: Vec<Wide> = vec![[0; W]; sh.n_and];
        let mut msg_given: Vec<Wide> = vec![[0; W]; sh.n_and];
        let mut x_given: Vec<Wide> = vec![[0; W]; sh.n_in];
        for (e, ex) in execs.iter().enumerate() {
            let gv = ex
                .given
                .as_ref()
                .expect("all executions of a group in one mode");
            let (b, g) = place(e);
            let lane = g * N + gv.hidden;
            hid[b] |= 1 << lane;
            let gm = Lanes::<N>::group(g);
            for (i, x) in x_given.iter_mut().enumerate() {
                if bit(gv.masked_input, i) {
                    x[b] |= gm;
                }
            }
            for k in 0..sh.n_and {
                msg_given[k][b] |= (bit(gv.msgs, k) as u64) << lane;
                if gv.hidden != N - 1 {
                    aux_given[k][b] |= (bit(gv.aux, k) as u64) << (g * N + N - 1);
                }
            }
        }
        // per register: (mask shares, masked value)
        let mut reg: Vec<[Wide; 2]> = vec![[[0; W]; 2]; pr.regs];
        for i in 0..sh.n_in {
            reg[i] = [lam_in[i], x_given[i]];
        }
        let nhid = wnot(hid);
        for op in &pr.ops {
            match *op {
                Op::Xor(a, b, d) => {
                    let (ra, rb) = (reg[a as usize], reg[b as usize]);
                    reg[d as usize] = [wxor(ra[0], rb[0]), wxor(ra[1], rb[1])];
                }
                Op::Not(a, d) => {
                    let ra = reg[a as usize];
                    reg[d as usize] = [ra[0], wnot(ra[1])];
                }
                Op::And(a, b, d) => {
                    let k = bcast.len();
                    let ([la, xa], [lb, xb]) = (reg[a as usize], reg[b as usize]);
                    let lc = lam_c[k];
                    let lab = std::array::from_fn(|i| lam_ab[k][i] | aux_given[k][i]);
                    let s0 = wxor(wxor(lc, wand(xa, lb)), wxor(wand(xb, la), lab));
                    let s: Wide = std::array::from_fn(|i| (s0[i] & nhid[i]) | msg_given[k][i]);
                    bcast.push(s);
                    reg[d as usize] = [lc, wxor(wand(xa, xb), wpar::<N>(s))];
                }
            }
        }
        out_regs = pr
            .outputs
            .iter()
            .map(|r| r.map(|r| (reg[r as usize][0], reg[r as usize][1])))
            .collect();
    } else {
        let w = witness.expect("prover mode needs the witness");
        // cheats, per AND gate
        let mut flips: Vec<(usize, Flip)> = Vec::new();
        let mut input_flips: Vec<(usize, Wide)> = Vec::new();
        for ch in cheats {
            if let Cheat::Input { execution, input } = *ch {
                if let Some(e) = execs.iter().position(|x| x.j == execution) {
                    if input < sh.n_in {
                        input_flips.push((input, group(e)));
                    }
                }
                continue;
            }
            let (ex, k, aux, lane) = match *ch {
                Cheat::Aux {
                    execution,
                    and_index,
                } => (execution, and_index, true, N - 1),
                Cheat::Broadcast {
                    execution,
                    and_index,
                    party,
                } => (execution, and_index, false, party),
                Cheat::Input { .. } => unreachable!("handled above"),
            };
            if let Some(e) = execs.iter().position(|x| x.j == ex) {
                if lane < N && k < sh.n_and {
                    let (b, g) = place(e);
                    let mut f = Flip::default();
                    if aux {
                        f.aux[b] = Lanes::<N>::group(g);
                    } else {
                        f.bcast[b] = 1 << (g * N + lane);
                    }
                    f.out = group(e);
                    flips.push((k, f));
                }
            }
        }
        flips.sort_by_key(|f| f.0);
        let mut next = 0;
        // per register: (mask shares, masked value, full mask λ spread over each group)
        let mut reg: Vec<[Wide; 3]> = vec![[[0; W]; 3]; pr.regs];
        auxw.reserve(sh.n_and);
        for (i, &wi) in w.iter().enumerate() {
            let l = lam_in[i];
            let f = wpar::<N>(l);
            reg[i] = [l, if wi { wnot(f) } else { f }, f];
        }
        for &(i, g) in &input_flips {
            reg[i][1] = wxor(reg[i][1], g);
        }
        xin = reg[..sh.n_in].iter().flat_map(|r| r[1]).collect();
        for op in &pr.ops {
            match *op {
                Op::Xor(a, b, d) => {
                    let (ra, rb) = (reg[a as usize], reg[b as usize]);
                    reg[d as usize] = [wxor(ra[0], rb[0]), wxor(ra[1], rb[1]), wxor(ra[2], rb[2])];
                }
                Op::Not(a, d) => {
                    let ra = reg[a as usize];
                    reg[d as usize] = [ra[0], wnot(ra[1]), ra[2]];
                }
                Op::And(a, b, d) => {
                    let k = bcast.len();
                    let ([la, xa, fa], [lb, xb, fb]) = (reg[a as usize], reg[b as usize]);
                    let lc = lam_c[k];
                    let fc = wpar::<N>(lc);
                    let mut ax = wxor(wand(fa, fb), wpar::<N>(lam_ab[k]));
                    let mut flip = Flip::default();
                    while next < flips.len() && flips[next].0 == k {
                        let f = flips[next].1;
                        flip.aux = wxor(flip.aux, f.aux);
                        flip.bcast = wxor(flip.bcast, f.bcast);
                        flip.out = wxor(flip.out, f.out);
                        next += 1;
                    }
                    ax = wxor(ax, flip.aux);
                    auxw.push(ax);
                    let lab = std::array::from_fn(|i| lam_ab[k][i] | (ax[i] & last[i]));
                    let s = wxor(
                        wxor(wxor(lc, wand(xa, lb)), wxor(wand(xb, la), lab)),
                        flip.bcast,
                    );
                    bcast.push(s);
                    // ĉ = â b̂ ⊕ ⊕ s_i, which for honest shares is (a ∧ b) ⊕ λ_c
                    let x = wxor(wxor(wand(wxor(xa, fa), wxor(xb, fb)), fc), flip.out);
                    reg[d as usize] = [lc, x, fc];
                }
            }
        }
        out_regs = pr
            .outputs
            .iter()
            .map(|r| r.map(|r| (reg[r as usize][0], reg[r as usize][1])))
            .collect();
    }
    // output mask shares; the hidden party's is whatever makes the output y
    let outs: Vec<Wide> = out_regs
        .iter()
        .zip(c.outputs())
        .zip(y)
        .map(|((r, o), &yo)| {
            let (l, x) = match (*r, *o) {
                (Some(v), _) => v,
                (None, Bit::Const(b)) => ([0; W], [if b { !0 } else { 0 }; W]),
                (None, Bit::Wire(_)) => unreachable!("wire outputs have registers"),
            };
            let d = wxor(wxor(x, [if yo { !0 } else { 0 }; W]), wpar::<N>(l));
            std::array::from_fn(|i| l[i] | (d[i] & hid[i]))
        })
        .collect();

    // per block: the executions' masked inputs, aux and wanted broadcast columns
    let mut buf = Vec::with_capacity((sh.n_and * N).div_ceil(8));
    let mut out = Vec::with_capacity(execs.len());
    for b in 0..blocks {
        let range: Vec<usize> = (b * g_per..((b + 1) * g_per).min(execs.len())).collect();
        let bases: Vec<usize> = range.iter().map(|e| (e % g_per) * N).collect();
        let bc = sub(&bcast, b);
        let wanted: Vec<usize> = range
            .iter()
            .filter_map(|&e| execs[e].column.map(|q| (e % g_per) * N + q))
            .collect();
        let mut cols = lane_columns(&bc, sh.n_and, &wanted).into_iter();
        let (mut xs, mut ax) = if verify {
            (Vec::new(), Vec::new())
        } else {
            let xw: Vec<u64> = xin.iter().skip(b).step_by(W).copied().collect();
            (
                lane_columns(&xw, sh.n_in, &bases),
                lane_columns(&sub(&auxw, b), sh.n_and, &bases),
            )
        };
        let ob = sub(&outs, b);
        for (t, &e) in range.iter().enumerate() {
            let ex = &execs[e];
            let g = e % g_per;
            let (masked_input, aux) = match &ex.given {
                Some(gv) => (gv.masked_input.to_vec(), gv.aux.to_vec()),
                None => (std::mem::take(&mut xs[t]), std::mem::take(&mut ax[t])),
            };
            let column = ex
                .column
                .map(|_| cols.next().expect("one column per request"));
            let mut h = Sha256::new();
            h.update(b"zkg:kkw:online:v1");
            h.update(salt);
            h.update((ex.j as u32).to_le_bytes());
            h.update(ex.key);
            h.update(&masked_input);
            buf.clear();
            matrix_bytes::<N>(&bc, g, &mut buf);
            h.update(&buf);
            buf.clear();
            matrix_bytes::<N>(&ob, g, &mut buf);
            h.update(&buf);
            out.push(ExecOut {
                online: h.finalize().into(),
                masked_input,
                aux,
                column,
            });
        }
    }
    out
}
