//! Lookup tables for sources of at most 8 bits: every possible input byte's result computed once
//! with the exact reference, then one load per element.

use super::Elem;

#[derive(Debug, Clone)]
enum Table {
    B1(Box<[u8; 256]>),
    B2(Box<[u16; 256]>),
    B4(Box<[u32; 256]>),
    B8(Box<[u64; 256]>),
}

/// The results for all 256 input bytes of a one-byte source; entries the reference rejects are
/// marked, and a buffer containing one of them is declined.
#[derive(Debug, Clone)]
pub struct Lut8 {
    table: Table,
    /// `declined[b]`: the reference fails for input byte `b` (`None` when none fails).
    declined: Option<Box<[bool; 256]>>,
}

/// The entry of a 256-entry table for an input byte.
#[inline(always)]
// PROOF: a `u8` is at most 255, and the table has 256 entries, so the index is in range (and
// LLVM drops the bounds check for the same reason).
#[allow(clippy::indexing_slicing)]
fn entry<T>(t: &[T; 256], b: u8) -> &T {
    &t[usize::from(b)]
}

fn fill<D: Elem + Default>(
    f: &mut impl FnMut(u8) -> Option<u64>,
    bad: &mut [bool; 256],
) -> Box<[D; 256]> {
    let mut t = Box::new([D::default(); 256]);
    for ((slot, is_bad), b) in t.iter_mut().zip(bad.iter_mut()).zip(0..=u8::MAX) {
        match f(b) {
            Some(bits) => *slot = D::from_bits(bits),
            None => *is_bad = true,
        }
    }
    t
}

#[inline(always)]
fn lookup<D: Elem>(
    input: &[u8],
    out: &mut [u8],
    t: &[D; 256],
    declined: Option<&[bool; 256]>,
) -> bool {
    if let Some(bad) = declined {
        if input.iter().any(|&b| *entry(bad, b)) {
            return false;
        }
    }
    for (o, &b) in out.chunks_exact_mut(D::SIZE).zip(input) {
        entry(t, b).store(o);
    }
    true
}

impl Lut8 {
    /// Builds the table: `f(byte)` is the reference result (raw output bits) for the in-memory
    /// input byte, or `None` when the reference fails for it. `out_size` is 1, 2, 4 or 8.
    pub fn build(out_size: usize, mut f: impl FnMut(u8) -> Option<u64>) -> Lut8 {
        let mut bad = [false; 256];
        let table = match out_size {
            1 => Table::B1(fill(&mut f, &mut bad)),
            2 => Table::B2(fill(&mut f, &mut bad)),
            4 => Table::B4(fill(&mut f, &mut bad)),
            _ => Table::B8(fill(&mut f, &mut bad)),
        };
        let declined = bad.iter().any(|&b| b).then(|| Box::new(bad));
        Lut8 { table, declined }
    }

    /// Maps every input byte through the table into `out` (elements of the output size).
    /// Returns `false`, having written nothing meaningful, when some input byte is one the
    /// reference rejects.
    pub fn run(&self, input: &[u8], out: &mut [u8]) -> bool {
        let d = self.declined.as_deref();
        match &self.table {
            Table::B1(t) => lookup(input, out, t, d),
            Table::B2(t) => lookup(input, out, t, d),
            Table::B4(t) => lookup(input, out, t, d),
            Table::B8(t) => lookup(input, out, t, d),
        }
    }
}
