//! Monomorphised per-element loops, chosen once at bind time ("bind once, loop tight").
//!
//! Every kernel here is a fast path for an exact reference that lives elsewhere: the per-element
//! procedures of [`crate::cast`] and of the codecs. A kernel either computes exactly what
//! the reference computes, or declines: a *block kernel* returns `false` for a block of elements
//! it cannot finish (a NaN without a `scalar_map` entry, an out-of-range value, an inexact
//! division, ...), and the codec then redoes that block element by element with the reference,
//! which produces the result or the error. Kernels never report errors themselves, so error
//! messages (element index, value, codec) stay those of the reference path.
//!
//! - [`cast`]: `cast_value` kernels (int -> float, float -> int with every rounding mode, float32
//!   <-> float64 / bfloat16 / float16), with a one-entry `scalar_map` in the loop.
//! - [`arith`]: `scale_offset` / `cf.scale_offset` kernels (float32/float64 native arithmetic;
//!   integers in native checked arithmetic, or unchecked where a bind-time proof shows no
//!   intermediate can leave the type's range).
//! - [`fused`]: `[scale_offset, cast_value]` decode of int16/uint16 into float32/float64 in one
//!   loop, and encode of float32/float64 into int8 ... uint16 in one pass per 256-element block.
//! - [`Lut8`]: for a source of at most 8 bits, every one of the 256 results precomputed with the
//!   reference (a whole chain decode of a uint8 / float8 chunk becomes one table lookup).
//! - [`pipeline`]: runs a chain of codecs over cache-sized tiles, so a chunk makes one pass over
//!   memory instead of one per codec.
//!
//! The loops are written so that LLVM vectorises them (branch-free bodies, `&=` reductions for
//! the decline flag); `.cargo/config.toml` turns on wasm `simd128`.

pub mod arith;
pub mod cast;
pub mod fused;
mod lut;
mod pipeline;

// The equivalence tests (tests.rs) are compiled as part of the main crate (`kernel_tests`),
// since they run the codecs and chains against these kernels.

pub use lut::Lut8;
pub use pipeline::{pipeline, Stage, StageRun};

use crate::error::Result;

// One tiling, three nested sizes (each a whole number of the one below, so the pieces of a chunk
// line up): the wasm bindings move a chunk between JS and wasm memory in I/O tiles (no
// chunk-sized buffer in wasm memory, one copy call per tile); the chain's pipeline runs every
// codec over each cache-sized tile of an I/O tile; a codec's kernel runs a tile in blocks, and a
// block it declines is redone by the reference.

/// Elements per block of a block kernel: small enough that a declined block costs little to
/// redo with the reference, large enough to amortise the call.
pub const BLOCK: usize = 256;

/// Elements per pipeline tile: two scratch tiles of at most 8-byte elements (2 x 16 KiB) stay in
/// the L1/L2 cache while every codec of a chain runs over them.
pub const TILE: usize = 8 * BLOCK;

/// Elements per I/O tile moved between JS and wasm memory: at most 1 MiB of 8-byte elements each
/// way, and few enough JS calls that their cost does not show (64 pipeline tiles).
pub const IO_TILE: usize = 64 * TILE;

const _: () = assert!(TILE % BLOCK == 0 && IO_TILE % TILE == 0);

/// Seals [`Elem`]: only this module's primitive types implement it, so `SIZE` is never 0 (the
/// kernels split buffers with `chunks_exact(SIZE)`, which panics on 0) and `load`/`store` always
/// get exactly `SIZE` bytes.
mod sealed {
    pub trait Sealed {}
}

/// A fixed-size little-endian element of an in-memory buffer (sealed: implemented for the
/// primitive integer and float types only).
pub trait Elem: sealed::Sealed + Copy + PartialEq + 'static {
    /// Bytes per element.
    const SIZE: usize;
    /// Reads one element from exactly `SIZE` bytes (every caller passes a `chunks_exact(SIZE)`
    /// piece).
    fn load(b: &[u8]) -> Self;
    /// Writes one element into exactly `SIZE` bytes (every caller passes a
    /// `chunks_exact_mut(SIZE)` piece).
    fn store(self, b: &mut [u8]);
    /// The element whose little-endian bytes are the low `SIZE` bytes of `bits` (raw bits as
    /// `DataType::write_bits` takes them).
    #[inline(always)]
    fn from_bits(bits: u64) -> Self {
        // SIZE <= 8 for every element type, so the prefix exists.
        Self::load(bits.to_le_bytes().get(..Self::SIZE).unwrap_or_default())
    }
}

macro_rules! elem {
    ($($t:ty),*) => {$(
        impl sealed::Sealed for $t {}
        impl Elem for $t {
            const SIZE: usize = std::mem::size_of::<$t>();
            #[inline(always)]
            fn load(b: &[u8]) -> Self {
                let mut a = [0u8; std::mem::size_of::<$t>()];
                // PROOF: `copy_from_slice` panics only on unequal lengths; every caller (`map`,
                // `map_ok`, `round_with`, `to_int` in cast.rs) passes a `chunks_exact(SIZE)`
                // piece. Kept in this form for speed: the `try_into` form made the
                // float32 -> float8 kernel 25% slower in wasm.
                a.copy_from_slice(b);
                <$t>::from_le_bytes(a)
            }
            #[inline(always)]
            fn store(self, b: &mut [u8]) {
                // PROOF: as in `load`: every caller passes a `chunks_exact_mut(SIZE)` piece.
                b.copy_from_slice(&self.to_le_bytes());
            }
        }
    )*};
}
elem!(u8, i8, u16, i16, u32, i32, u64, i64, f32, f64);

/// Whether to run the AVX2 twins: this CPU has AVX2 and the environment variable
/// `ZARR_SCALE_OFFSET_NO_AVX2` is not set (looked up once; then an atomic load). Native builds,
/// Python wheels among them, target x86-64's SSE2 baseline so that they run on every x86-64 CPU;
/// the hottest kernels (integer scale_offset, the fused chains) also have a twin compiled for
/// AVX2 ([`avx2_twin!`]), chosen here at run time: 2-3x faster on 16-bit data (8 lanes of i32
/// with a native multiply, where SSE2 has 4 and emulates it). Never `-C target-cpu=native`.
/// The variable is how `npm test` runs the kernel tests on the baseline bodies as well.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub fn avx2() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| {
        std::env::var_os("ZARR_SCALE_OFFSET_NO_AVX2").is_none()
            && std::arch::is_x86_feature_detected!("avx2")
    })
}

/// A kernel method `$name(&self, args) [-> R]` that runs `$body(&self, args)` (an
/// `#[inline(always)]` method holding the loops), and on x86-64 the same body compiled for AVX2
/// (method `$twin`) when the CPU has it. Every function the body's loops call must be inlined
/// into it (`#[inline(always)]` on x86-64) to be compiled for AVX2 as well.
macro_rules! avx2_twin {
    ($(#[$m:meta])* $vis:vis fn $name:ident / $twin:ident => $body:ident
        (&self $(, $a:ident: $t:ty)*) $(-> $r:ty)?) => {
        $(#[$m])*
        $vis fn $name(&self $(, $a: $t)*) $(-> $r)? {
            #[cfg(target_arch = "x86_64")]
            if $crate::kernels::avx2() {
                // SAFETY: `$twin`'s one requirement (`#[target_feature(enable = "avx2")]`) is
                // that the CPU has AVX2, which `avx2()` has just found; the body is safe code.
                return unsafe { self.$twin($($a),*) };
            }
            self.$body($($a),*)
        }

        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx2")]
        fn $twin(&self $(, $a: $t)*) $(-> $r)? {
            self.$body($($a),*)
        }
    };
}
pub(crate) use avx2_twin;

/// `out[i] = f(input[i])` over whole buffers of `S` and `D` elements.
#[inline(always)]
pub(crate) fn map<S: Elem, D: Elem>(input: &[u8], out: &mut [u8], mut f: impl FnMut(S) -> D) {
    for (o, i) in out
        .chunks_exact_mut(D::SIZE)
        .zip(input.chunks_exact(S::SIZE))
    {
        f(S::load(i)).store(o);
    }
}

/// Like [`map`], where `f` also says whether it handled the element exactly; returns whether
/// every element was handled (the outputs of unhandled elements are unspecified).
#[inline(always)]
pub(crate) fn map_ok<S: Elem, D: Elem>(
    input: &[u8],
    out: &mut [u8],
    mut f: impl FnMut(S) -> (D, bool),
) -> bool {
    let mut ok = true;
    for (o, i) in out
        .chunks_exact_mut(D::SIZE)
        .zip(input.chunks_exact(S::SIZE))
    {
        let (v, good) = f(S::load(i));
        ok &= good;
        v.store(o);
    }
    ok
}

/// Blocks per span: [`run_blocks`] hands a kernel [`SPAN`] elements per call (one call per span
/// rather than per block, whose dispatch, loop set-up and tail cost as much as 256 16-bit
/// elements of AVX2 work), and only a span the kernel declines is retried block by block
/// (native builds; the wasm build calls per block).
pub const SPAN_BLOCKS: usize = 16;

/// Elements per span of [`run_blocks`] (4096: 32 KiB of 8-byte elements, within L1/L2 when
/// a declined span is run again).
pub const SPAN: usize = SPAN_BLOCKS * BLOCK;

/// Drives a block kernel over whole buffers: `fast` runs on spans of [`SPAN`] elements; a span
/// it declines is run again in blocks of [`BLOCK`] elements, and a block it declines there is
/// redone by `slow(first_index, input_block, output_block)`, the exact reference, whose error
/// ends the run. So the reference sees the same blocks (and the same first error) as when
/// `fast` ran block by block. `in_size` / `out_size` are the element sizes.
pub fn run_blocks(
    input: &[u8],
    out: &mut [u8],
    in_size: usize,
    out_size: usize,
    fast: impl Fn(&[u8], &mut [u8]) -> bool,
    mut slow: impl FnMut(usize, &[u8], &mut [u8]) -> Result<()>,
) -> Result<()> {
    // `max(1)`: `chunks(0)` panics; element sizes are at least 1 anyway.
    let (in_size, out_size) = (in_size.max(1), out_size.max(1));
    // `fast` block by block over `input` (whose first element has index `first`), `slow`
    // where it declines.
    let mut blocks = |first: usize, input: &[u8], out: &mut [u8]| -> Result<()> {
        let blocks_in = input.chunks(BLOCK * in_size);
        let blocks_out = out.chunks_mut(BLOCK * out_size);
        for (b, (i, o)) in blocks_in.zip(blocks_out).enumerate() {
            if !fast(i, o) {
                slow(first + b * BLOCK, i, o)?;
            }
        }
        Ok(())
    };
    // The wasm build calls per block, as before the spans: the span loop cost 184 B of the
    // zarrita path's download (gzip), which the size budget lacks.
    #[cfg(target_family = "wasm")]
    {
        blocks(0, input, out)
    }
    #[cfg(not(target_family = "wasm"))]
    {
        let spans_in = input.chunks(SPAN * in_size);
        let spans_out = out.chunks_mut(SPAN * out_size);
        for (s, (si, so)) in spans_in.zip(spans_out).enumerate() {
            if !fast(si, so) {
                blocks(s * SPAN, si, so)?;
            }
        }
        Ok(())
    }
}

/// A zeroed scratch buffer whose start address has a chosen offset modulo 4 KiB.
///
/// Buffers that one loop reads and another writes in step (an input tile and an output tile)
/// get different offsets: x86 CPUs stall when loads run at the same address modulo 4 KiB as
/// recent stores ("4K aliasing"), which made a tile copy 20 times slower than `memcpy`.
pub struct Scratch {
    buf: Vec<u8>,
    start: usize,
    len: usize,
}

impl Scratch {
    /// `len` bytes starting at an address equal to `phase` modulo 4096.
    pub fn new(len: usize, phase: usize) -> Scratch {
        let buf = vec![0u8; len + 4096];
        let addr = buf.as_ptr() as usize;
        let start = (phase % 4096 + 4096 - addr % 4096) % 4096;
        Scratch { buf, start, len }
    }

    /// The buffer.
    pub fn get(&mut self) -> &mut [u8] {
        // `start < 4096` and the allocation is `len + 4096` bytes, so the range always exists.
        self.buf
            .get_mut(self.start..self.start + self.len)
            .unwrap_or_default()
    }
}
