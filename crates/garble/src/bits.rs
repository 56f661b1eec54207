//! The one place where Garble's bit order meets ours.
//!
//! Garble lays a value out as its literal's bits: integers most significant bit first
//! (`5u8` is `00000101`), arrays, tuples and structs as their elements in order (struct
//! fields in the order of the struct's definition), enums as a tag (most significant bit
//! first) followed by the variant's fields, padded to the widest variant.
//!
//! Ours, everywhere else in the project (Bristol Fashion groups, `G=HEX` values, the
//! circuit IR's words), is least significant bit first. So a parameter's bits in our order
//! are Garble's with **every integer's bits reversed in place**; booleans, the order of
//! elements and fields, and enum values are kept as Garble has them (an enum's layout depends
//! on its variant, so it has no fixed integers to reverse: its bits stay in Garble's order).
//! A `u16` parameter `4660u16` (0x1234) is therefore the hex `3412` of a Bristol group, and a
//! `[u8; 5]` parameter the hex of its five bytes in order.

use std::collections::HashMap;

use garble_lang::ast::{Type, Variant};
use garble_lang::token::{SignedNumType, UnsignedNumType};
use garble_lang::TypedProgram;

use zkgames_core::Error;
use zkgames_core::Result;

/// A permutation of a value's bits: bit `i` in our order is Garble's bit `order[i]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Order {
    order: Vec<usize>,
}

impl Order {
    /// The order of a value of type `ty` in `program` (array sizes named by constants looked
    /// up in `const_sizes`). Refused past `max_bits` bits, before any allocation of that size.
    pub fn of(
        program: &TypedProgram,
        ty: &Type,
        const_sizes: &HashMap<String, usize>,
        max_bits: usize,
    ) -> Result<Order> {
        let mut order = Vec::new();
        push(program, ty, const_sizes, max_bits, 0, &mut order)?;
        Ok(Order { order })
    }

    /// The value's width in bits.
    pub fn len(&self) -> usize {
        self.order.len()
    }

    /// Whether the value has no bits (a unit tuple).
    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }

    /// Garble's bits in our order.
    pub fn to_ours(&self, garble: &[bool]) -> Vec<bool> {
        assert_eq!(garble.len(), self.order.len(), "a value of another type");
        self.order.iter().map(|&g| garble[g]).collect()
    }

    /// Our bits in Garble's order (the inverse of [`Order::to_ours`]).
    pub fn to_garble(&self, ours: &[bool]) -> Vec<bool> {
        assert_eq!(ours.len(), self.order.len(), "a value of another type");
        let mut g = vec![false; ours.len()];
        for (i, &at) in self.order.iter().enumerate() {
            g[at] = ours[i];
        }
        g
    }

    /// Where our bit `i` is among Garble's.
    pub fn garble_index(&self, i: usize) -> usize {
        self.order[i]
    }
}

fn int_width(ty: &Type) -> Option<usize> {
    Some(match ty {
        Type::Unsigned(UnsignedNumType::U8) | Type::Signed(SignedNumType::I8) => 8,
        Type::Unsigned(UnsignedNumType::U16) | Type::Signed(SignedNumType::I16) => 16,
        Type::Unsigned(UnsignedNumType::U64) | Type::Signed(SignedNumType::I64) => 64,
        // usize and unsuffixed integers are 32 bits in Garble's circuits
        Type::Unsigned(_) | Type::Signed(_) => 32,
        _ => return None,
    })
}

fn too_wide(max_bits: usize) -> Error {
    Error::bad(format!(
        "a parameter or result is wider than {max_bits} bits, more than the circuit can have"
    ))
}

/// Appends the order of a `ty` value whose Garble bits start at `at`; returns its width.
fn push(
    program: &TypedProgram,
    ty: &Type,
    const_sizes: &HashMap<String, usize>,
    max_bits: usize,
    at: usize,
    order: &mut Vec<usize>,
) -> Result<usize> {
    if let Some(w) = int_width(ty) {
        if order.len() + w > max_bits {
            return Err(too_wide(max_bits));
        }
        order.extend((0..w).map(|i| at + w - 1 - i));
        return Ok(w);
    }
    let start = order.len();
    match ty {
        Type::Bool => {
            if order.len() + 1 > max_bits {
                return Err(too_wide(max_bits));
            }
            order.push(at);
        }
        Type::Array(elem, n) => array(program, elem, *n, const_sizes, max_bits, at, order)?,
        Type::ArrayConst(elem, name) => {
            let n = *const_sizes.get(name).ok_or_else(|| {
                Error::bad(format!(
                    "the array size {name} is a constant this program does not define"
                ))
            })?;
            array(program, elem, n, const_sizes, max_bits, at, order)?
        }
        Type::Tuple(fields) => {
            let mut w = 0;
            for f in fields {
                w += push(program, f, const_sizes, max_bits, at + w, order)?;
            }
        }
        Type::Struct(name) => {
            let def = program
                .struct_defs
                .get(name)
                .ok_or_else(|| Error::bad(format!("the struct {name} is not defined")))?;
            let mut w = 0;
            for (_, f) in &def.fields {
                w += push(program, f, const_sizes, max_bits, at + w, order)?;
            }
        }
        Type::Enum(_) => {
            // no fixed integers: the value's bits as Garble lays them out
            let w = enum_width(program, ty, const_sizes, max_bits)?;
            if order.len() + w > max_bits {
                return Err(too_wide(max_bits));
            }
            order.extend(at..at + w);
        }
        Type::Fn(..) | Type::UntypedTopLevelDefinition(..) => {
            return Err(Error::bad(format!(
                "a parameter or result of type {ty} cannot be an input or output of a circuit"
            )))
        }
        Type::Unsigned(_) | Type::Signed(_) => unreachable!("integers handled above"),
    }
    Ok(order.len() - start)
}

fn array(
    program: &TypedProgram,
    elem: &Type,
    n: usize,
    const_sizes: &HashMap<String, usize>,
    max_bits: usize,
    at: usize,
    order: &mut Vec<usize>,
) -> Result<()> {
    let mut w = 0;
    for _ in 0..n {
        // each element at least one bit (or none, for unit elements: then the width check
        // cannot stop a long loop, so bound the count itself)
        if n > max_bits {
            return Err(too_wide(max_bits));
        }
        w += push(program, elem, const_sizes, max_bits, at + w, order)?;
    }
    Ok(())
}

/// An enum's width: its tag's bits (enough for the variants' count) and its widest variant.
fn enum_width(
    program: &TypedProgram,
    ty: &Type,
    const_sizes: &HashMap<String, usize>,
    max_bits: usize,
) -> Result<usize> {
    let Type::Enum(name) = ty else {
        unreachable!("called on enums")
    };
    let def = program
        .enum_defs
        .get(name)
        .ok_or_else(|| Error::bad(format!("the enum {name} is not defined")))?;
    let n = def.variants.len();
    // Garble: ceil(log2(variants)) bits of tag
    let tag = (usize::BITS - n.saturating_sub(1).leading_zeros()) as usize;
    let mut widest = 0;
    for v in &def.variants {
        let mut scratch = Vec::new();
        let mut w = 0;
        let fields: &[Type] = match v {
            Variant::Unit(_) => &[],
            Variant::Tuple(_, fields) => fields,
        };
        for f in fields {
            w += push(program, f, const_sizes, max_bits, 0, &mut scratch)?;
        }
        widest = widest.max(w);
    }
    Ok(tag + widest)
}
