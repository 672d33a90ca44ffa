//! A fast evaluator of the Mantere & Koljonen fitness (eq. (1) of Das et al., conference version),
//! equal bit for bit to [`crate::fitness::mk_fitness`]: the same integer terms, and the square
//! roots summed in the same order (rows 0..N, then columns 0..N), so the two never disagree on a
//! ranking or on the solved value 0.0.
//!
//! It makes one row-major pass with per-column accumulators on the stack, takes the square
//! roots in a separate loop (they pipeline) before summing them in order, and multiplies in
//! `u32` for 9x9 (9^9 < 2^32), in `u64` up to order 15 (15^15 < 2^64) and in `u128` above
//! (25^25 < 2^128).

use crate::Geometry;

const MAX_N: usize = 25;

/// Evaluator of eq. (1) for one geometry.
#[derive(Debug, Clone)]
pub struct MkEvaluator {
    n: usize,
    target_sum: i64,
    target_prod: u128,
    full: u32,
}

trait Product: Copy {
    const ONE: Self;
    fn times(self, v: u8) -> Self;
    /// `|target - self|` as f64 (exactly the u128 value, correctly rounded).
    fn deviation(self, target: u128) -> f64;
}

impl Product for u64 {
    const ONE: Self = 1;
    #[inline(always)]
    fn times(self, v: u8) -> Self {
        self * v as u64
    }
    #[inline(always)]
    fn deviation(self, target: u128) -> f64 {
        self.abs_diff(target as u64) as f64
    }
}

impl Product for u32 {
    const ONE: Self = 1;
    #[inline(always)]
    fn times(self, v: u8) -> Self {
        self * v as u32
    }
    #[inline(always)]
    fn deviation(self, target: u128) -> f64 {
        self.abs_diff(target as u32) as f64
    }
}

impl Product for u128 {
    const ONE: Self = 1;
    #[inline(always)]
    fn times(self, v: u8) -> Self {
        self * v as u128
    }
    #[inline(always)]
    fn deviation(self, target: u128) -> f64 {
        self.abs_diff(target) as f64
    }
}

impl MkEvaluator {
    pub fn new(geom: Geometry) -> Self {
        let n = geom.n();
        assert!(n <= MAX_N);
        MkEvaluator {
            n,
            target_sum: (n * (n + 1) / 2) as i64,
            target_prod: (1..=n as u128).product(),
            full: geom.full_mask(),
        }
    }

    /// Eq. (1) of a full grid (row-major cells); 0.0 exactly when every row and column holds
    /// 1..=N.
    #[inline]
    pub fn eval(&self, cells: &[u8]) -> f64 {
        match self.n {
            9 => self.eval_n::<u32, 9>(cells),
            n if n <= 15 => self.eval_g::<u64>(cells),
            _ => self.eval_g::<u128>(cells),
        }
    }

    /// Fixed-order version (the common 9x9 case): constant bounds, unrolled loops.
    #[inline]
    fn eval_n<P: Product, const N: usize>(&self, cells: &[u8]) -> f64 {
        let cells = &cells[..N * N];
        let (mut csum, mut cprod, mut cmask) = ([0u32; N], [P::ONE; N], [0u32; N]);
        let (mut s1, mut s3) = (0i64, 0u32);
        let mut dev = [[0f64; N]; 2];
        for r in 0..N {
            let row = &cells[r * N..r * N + N];
            let (mut sum, mut prod, mut mask) = (0u32, P::ONE, 0u32);
            for c in 0..N {
                let v = row[c];
                sum += v as u32;
                prod = prod.times(v);
                mask |= 1 << v;
                csum[c] += v as u32;
                cprod[c] = cprod[c].times(v);
                cmask[c] |= 1 << v;
            }
            s1 += (self.target_sum - sum as i64).abs();
            dev[0][r] = prod.deviation(self.target_prod);
            s3 += (self.full & !mask).count_ones();
        }
        for c in 0..N {
            s1 += (self.target_sum - csum[c] as i64).abs();
            dev[1][c] = cprod[c].deviation(self.target_prod);
            s3 += (self.full & !cmask[c]).count_ones();
        }
        // Square roots first (independent, so they pipeline or vectorise), then the sum in
        // mk_fitness's order.
        let dev = dev.as_flattened_mut();
        for d in dev.iter_mut() {
            *d = d.sqrt();
        }
        let mut s2 = 0f64;
        for d in dev.iter() {
            s2 += d;
        }
        10.0 * s1 as f64 + s2 + 50.0 * s3 as f64
    }

    #[inline]
    fn eval_g<P: Product>(&self, cells: &[u8]) -> f64 {
        let n = self.n;
        let cells = &cells[..n * n];
        let (mut csum, mut cprod, mut cmask) = ([0u32; MAX_N], [P::ONE; MAX_N], [0u32; MAX_N]);
        let (csum, cprod, cmask) = (&mut csum[..n], &mut cprod[..n], &mut cmask[..n]);
        let (mut s1, mut s2, mut s3) = (0i64, 0f64, 0u32);
        for row in cells.chunks_exact(n) {
            let (mut sum, mut prod, mut mask) = (0u32, P::ONE, 0u32);
            for (c, &v) in row.iter().enumerate() {
                sum += v as u32;
                prod = prod.times(v);
                mask |= 1 << v;
                csum[c] += v as u32;
                cprod[c] = cprod[c].times(v);
                cmask[c] |= 1 << v;
            }
            s1 += (self.target_sum - sum as i64).abs();
            s2 += prod.deviation(self.target_prod).sqrt();
            s3 += (self.full & !mask).count_ones();
        }
        for c in 0..n {
            s1 += (self.target_sum - csum[c] as i64).abs();
            s2 += cprod[c].deviation(self.target_prod).sqrt();
            s3 += (self.full & !cmask[c]).count_ones();
        }
        10.0 * s1 as f64 + s2 + 50.0 * s3 as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fitness::mk_fitness;
    use crate::geometry::SUPPORTED_SHAPES;
    use crate::rng_from_seed;
    use rand::Rng;

    #[test]
    fn equals_core_mk_fitness_bit_for_bit() {
        let mut rng = rng_from_seed(42);
        for &(br, bc) in &SUPPORTED_SHAPES {
            let g = Geometry::new(br, bc).unwrap();
            let e = MkEvaluator::new(g);
            for _ in 0..300 {
                let cells: Vec<u8> = (0..g.cells())
                    .map(|_| rng.random_range(1..=g.n() as u8))
                    .collect();
                let (fast, core) = (e.eval(&cells), mk_fitness(g, &cells));
                assert_eq!(fast.to_bits(), core.to_bits(), "{br}x{bc}");
            }
        }
    }

    #[test]
    fn zero_on_solutions() {
        for id in ["mk_easy", "mk_1star", "mk_superdifficult"] {
            let p = crate::bank_puzzle(id).unwrap();
            let s = p.solution.as_ref().unwrap();
            assert_eq!(MkEvaluator::new(s.geometry()).eval(s.cells()), 0.0);
        }
    }
}
