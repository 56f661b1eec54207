//! The unrolling bound: a type-checked program is measured before it is compiled.
//!
//! Garble compiles by unrolling: every loop runs its body once per element, every call
//! inlines the function, every value is as many wires as its type has bits. Loop ranges and
//! array sizes are constants, so what a compile will build is known from the typed program
//! alone. [`check`] walks it (from the compiled function through every call) and measures
//! the *unrolled size*: the bits of every expression's value, plus, for a loop, its trip
//! count times its body's size, plus, for a call, the called function's size. A program
//! whose unrolled size, or any type's bits, exceeds the bound (the gate limit,
//! `--max-gates`) is refused naming the construct and its line, before the compiler
//! allocates anything. All arithmetic saturates; the walk is linear in the program text
//! (each function is measured once).

use std::collections::HashMap;

use garble_lang::ast::{
    Accessor, ConstExprEnum, Expr, ExprEnum, Pattern, PatternEnum, Stmt, StmtEnum, Type, Variant,
    VariantExprEnum,
};
use garble_lang::token::{MetaInfo, SignedNumType, UnsignedNumType};
use garble_lang::TypedProgram;

use zkgames_core::{Error, Result};

/// How deeply types may nest in the measure (deeper ones are refused).
const MAX_TYPE_DEPTH: usize = 256;

struct Walk<'a> {
    program: &'a TypedProgram,
    bound: u64,
    fns: HashMap<String, u64>,
    /// Functions being measured (the checker refuses recursion; this guards the walk).
    open: Vec<String>,
}

fn line(meta: &MetaInfo) -> usize {
    meta.start.0 + 1
}

/// Refuses `function` of `program` when unrolling it exceeds `bound`; its unrolled size
/// otherwise.
/// `text` is the program's text: a signature's types are refused naming the line of
/// `fn function` in it (Garble records no location for them).
pub fn check(text: &str, program: &TypedProgram, function: &str, bound: u64) -> Result<u64> {
    let w = Walk {
        program,
        bound,
        fns: HashMap::new(),
        open: Vec::new(),
    };
    if let Some(f) = program.fn_defs.get(function) {
        let at = signature_line(text, function);
        let meta = MetaInfo {
            start: (at, 0),
            end: (at, 0),
        };
        for p in &f.params {
            w.ty_checked(&p.ty, &meta)
                .map_err(|e| Error::bad(format!("{e} (the parameter {} of {function})", p.name)))?;
        }
        w.ty_checked(&f.ty, &meta)
            .map_err(|e| Error::bad(format!("{e} (the result of {function})")))?;
    }
    let mut w = w;
    w.function(function, None)
}

/// The line (from 0) of the first `fn name` in `text` followed by `(` or a space.
fn signature_line(text: &str, name: &str) -> usize {
    for (i, l) in text.lines().enumerate() {
        let mut rest = l;
        while let Some(at) = rest.find("fn ") {
            let after = rest[at + 3..].trim_start();
            if let Some(tail) = after.strip_prefix(name) {
                if tail.trim_start().starts_with('(') {
                    return i;
                }
            }
            rest = &rest[at + 3..];
        }
    }
    0
}

impl Walk<'_> {
    fn too_big(&self, what: String, meta: &MetaInfo) -> Error {
        Error::bad(format!(
            "the program is too large for a circuit: {what} on line {} (the bound is {}, --max-gates)",
            line(meta),
            self.bound
        ))
    }

    /// The bits of a value of `ty` (saturating; `None` past the nesting depth).
    fn bits(&self, ty: &Type, depth: usize) -> Option<u64> {
        if depth > MAX_TYPE_DEPTH {
            return None;
        }
        let d = depth + 1;
        Some(match ty {
            Type::Bool => 1,
            Type::Unsigned(n) => match n {
                UnsignedNumType::U8 => 8,
                UnsignedNumType::U16 => 16,
                UnsignedNumType::Usize | UnsignedNumType::U32 => 32,
                UnsignedNumType::U64 | UnsignedNumType::Unspecified => 64,
            },
            Type::Signed(n) => match n {
                SignedNumType::I8 => 8,
                SignedNumType::I16 => 16,
                SignedNumType::I32 => 32,
                SignedNumType::I64 | SignedNumType::Unspecified => 64,
            },
            Type::Fn(..) => 0,
            Type::Array(t, n) => (*n as u64).saturating_mul(self.bits(t, d)?),
            Type::ArrayConst(t, c) => self.const_size(c).saturating_mul(self.bits(t, d)?),
            Type::Tuple(ts) => ts
                .iter()
                .try_fold(0u64, |s, t| Some(s.saturating_add(self.bits(t, d)?)))?,
            Type::Struct(name) | Type::UntypedTopLevelDefinition(name, _) => {
                if let Some(s) = self.program.struct_defs.get(name) {
                    s.fields
                        .iter()
                        .try_fold(0u64, |s, (_, t)| Some(s.saturating_add(self.bits(t, d)?)))?
                } else if let Some(e) = self.program.enum_defs.get(name) {
                    let mut widest = 0u64;
                    for v in &e.variants {
                        if let Variant::Tuple(_, ts) = v {
                            let w = ts
                                .iter()
                                .try_fold(0u64, |s, t| Some(s.saturating_add(self.bits(t, d)?)))?;
                            widest = widest.max(w);
                        }
                    }
                    widest.saturating_add(64)
                } else {
                    0
                }
            }
            Type::Enum(name) => return self.bits(&Type::Struct(name.clone()), depth),
        })
    }

    /// The value of the constant `name` as a size (0 when unknown: the compiler refuses).
    fn const_size(&self, name: &str) -> u64 {
        fn value(e: &ConstExprEnum) -> u64 {
            match e {
                ConstExprEnum::NumUnsigned(n, _) => *n,
                ConstExprEnum::NumSigned(n, _) => (*n).max(0) as u64,
                ConstExprEnum::Max(v) => v.iter().map(|c| value(&c.0)).max().unwrap_or(0),
                ConstExprEnum::Min(v) => v.iter().map(|c| value(&c.0)).min().unwrap_or(0),
                _ => 0,
            }
        }
        self.program
            .const_defs
            .get(name)
            .map_or(0, |c| value(&c.value.0))
    }

    /// The bits of `ty`, refused past the bound.
    fn ty_checked(&self, ty: &Type, meta: &MetaInfo) -> Result<u64> {
        match self.bits(ty, 0) {
            Some(b) if b <= self.bound => Ok(b),
            Some(b) => Err(self.too_big(format!("the type {ty} has {b} bits"), meta)),
            None => Err(self.too_big(format!("the type {ty} nests too deeply"), meta)),
        }
    }

    /// `a + b`, refused past the bound as `what`.
    fn add(&self, a: u64, b: u64, what: &str, meta: &MetaInfo) -> Result<u64> {
        let s = a.saturating_add(b);
        if s > self.bound {
            return Err(self.too_big(format!("{what} unrolls to more than the bound"), meta));
        }
        Ok(s)
    }

    fn function(&mut self, name: &str, call: Option<&MetaInfo>) -> Result<u64> {
        if let Some(&c) = self.fns.get(name) {
            return Ok(c);
        }
        let Some(f) = self.program.fn_defs.get(name) else {
            return Ok(0); // the compiler names the missing function
        };
        if self.open.iter().any(|n| n == name) || self.open.len() > MAX_TYPE_DEPTH {
            return Err(Error::bad(format!(
                "the program calls {name} recursively on line {}",
                line(call.unwrap_or(&f.meta))
            )));
        }
        self.open.push(name.to_string());
        let c = self.block(&f.body);
        self.open.pop();
        let c = c?;
        self.fns.insert(name.to_string(), c);
        Ok(c)
    }

    fn block(&mut self, body: &[Stmt<Type>]) -> Result<u64> {
        let mut total = 0u64;
        for s in body {
            let c = self.stmt(s)?;
            total = self.add(total, c, "this block", &s.meta)?;
        }
        Ok(total)
    }

    /// The trip count of a loop over a value of `ty`.
    fn trips(&self, ty: &Type) -> u64 {
        match ty {
            Type::Array(_, n) => *n as u64,
            Type::ArrayConst(_, c) => self.const_size(c),
            _ => 0,
        }
    }

    fn looped(&self, trips: u64, body: u64, meta: &MetaInfo) -> Result<u64> {
        let c = trips.saturating_mul(body.saturating_add(1));
        if c > self.bound {
            return Err(self.too_big(
                format!("a loop of {trips} iterations over a body of size {body}"),
                meta,
            ));
        }
        Ok(c)
    }

    fn stmt(&mut self, s: &Stmt<Type>) -> Result<u64> {
        match &s.inner {
            StmtEnum::Let(p, _, e) => {
                let b = self.expr(e)?;
                let a = self.pattern(p)?;
                self.add(a, b, "this statement", &s.meta)
            }
            StmtEnum::LetMut(_, _, e) | StmtEnum::Expr(e) => self.expr(e),
            StmtEnum::VarAssign(_, accessors, e) => {
                let mut c = self.expr(e)?;
                for (a, meta) in accessors {
                    let x = match a {
                        Accessor::ArrayAccess { array_ty, index } => {
                            let x = self.expr(index)?;
                            // an assignment at a secret index touches every element
                            let b = self.ty_checked(array_ty, meta)?;
                            self.add(x, b, "this assignment", meta)?
                        }
                        _ => 1,
                    };
                    c = self.add(c, x, "this assignment", meta)?;
                }
                Ok(c)
            }
            StmtEnum::ForEachLoop(p, e, body) => {
                let over = self.expr(e)?;
                let trips = self.trips(&e.ty);
                let b = self.block(body)?;
                let p = self.pattern(p)?;
                let l = self.looped(trips, b.saturating_add(p), &s.meta)?;
                self.add(over, l, "this loop", &s.meta)
            }
            StmtEnum::JoinLoop(p, _, (a, b), body) => {
                let ca = self.expr(a)?;
                let cb = self.expr(b)?;
                let trips = self.trips(&a.ty).saturating_mul(self.trips(&b.ty));
                let body = self.block(body)?;
                let p = self.pattern(p)?;
                let l = self.looped(trips, body.saturating_add(p), &s.meta)?;
                let c = self.add(ca, cb, "this join", &s.meta)?;
                self.add(c, l, "this join", &s.meta)
            }
        }
    }

    fn pattern(&self, p: &Pattern<Type>) -> Result<u64> {
        let own = self.ty_checked(&p.2, &p.1)?;
        let subs: Vec<&Pattern<Type>> = match &p.0 {
            PatternEnum::Tuple(ps) | PatternEnum::EnumTuple(_, _, ps) => ps.iter().collect(),
            PatternEnum::Struct(_, fs) | PatternEnum::StructIgnoreRemaining(_, fs) => {
                fs.iter().map(|(_, p)| p).collect()
            }
            _ => Vec::new(),
        };
        let mut c = own;
        for sp in subs {
            let x = self.pattern(sp)?;
            c = self.add(c, x, "this pattern", &p.1)?;
        }
        Ok(c)
    }

    /// `c` plus the size of `x`.
    fn plus(&mut self, c: u64, x: &Expr<Type>, meta: &MetaInfo) -> Result<u64> {
        let k = self.expr(x)?;
        self.add(c, k, "this expression", meta)
    }

    fn expr(&mut self, e: &Expr<Type>) -> Result<u64> {
        let meta = &e.meta;
        // the construct itself, named before its size is taken
        match &e.inner {
            ExprEnum::Range(from, to, _) => {
                let n = to.saturating_sub(*from);
                if n > self.bound {
                    return Err(self.too_big(format!("a range of {n} numbers"), meta));
                }
            }
            ExprEnum::ArrayRepeatLiteral(_, n) if *n as u64 > self.bound => {
                return Err(self.too_big(format!("an array of {n} elements"), meta));
            }
            ExprEnum::ArrayRepeatLiteralConst(_, c) if self.const_size(c) > self.bound => {
                return Err(self.too_big(
                    format!("an array of {} elements ({c})", self.const_size(c)),
                    meta,
                ));
            }
            _ => {}
        }
        let own = match self.bits(&e.ty, 0) {
            Some(b) if b <= self.bound => b,
            Some(b) => {
                return Err(self.too_big(format!("a value of type {} ({b} bits)", e.ty), meta))
            }
            None => return Err(self.too_big(format!("the type {} nests too deeply", e.ty), meta)),
        };
        let mut c = own;
        match &e.inner {
            ExprEnum::True
            | ExprEnum::False
            | ExprEnum::NumUnsigned(..)
            | ExprEnum::NumSigned(..)
            | ExprEnum::Identifier(_)
            | ExprEnum::Range(..) => {}
            ExprEnum::ArrayLiteral(xs) | ExprEnum::TupleLiteral(xs) => {
                for x in xs {
                    c = self.plus(c, x, meta)?;
                }
            }
            ExprEnum::ArrayRepeatLiteral(x, _)
            | ExprEnum::ArrayRepeatLiteralConst(x, _)
            | ExprEnum::TupleAccess(x, _)
            | ExprEnum::StructAccess(x, _)
            | ExprEnum::UnaryOp(_, x)
            | ExprEnum::Cast(_, x) => c = self.plus(c, x, meta)?,
            ExprEnum::ArrayAccess(a, i) | ExprEnum::Op(_, a, i) => {
                c = self.plus(c, a, meta)?;
                c = self.plus(c, i, meta)?;
            }
            ExprEnum::StructLiteral(_, fs) => {
                for (_, x) in fs {
                    c = self.plus(c, x, meta)?;
                }
            }
            ExprEnum::EnumLiteral(_, _, v) => {
                if let VariantExprEnum::Tuple(xs) = v {
                    for x in xs {
                        c = self.plus(c, x, meta)?;
                    }
                }
            }
            ExprEnum::Match(x, clauses) => {
                c = self.plus(c, x, meta)?;
                for (p, x) in clauses {
                    let k = self.pattern(p)?;
                    c = self.add(c, k, "this match", meta)?;
                    c = self.plus(c, x, meta)?;
                }
            }
            ExprEnum::Block(body) => {
                let k = self.block(body)?;
                c = self.add(c, k, "this block", meta)?;
            }
            ExprEnum::FnCall(name, args) => {
                for x in args {
                    c = self.plus(c, x, meta)?;
                }
                let k = self.function(name, Some(meta))?;
                c = self.add(c, k, &format!("the call of {name}"), meta)?;
            }
            ExprEnum::If(a, b, x) => {
                c = self.plus(c, a, meta)?;
                c = self.plus(c, b, meta)?;
                c = self.plus(c, x, meta)?;
            }
        }
        Ok(c)
    }
}
