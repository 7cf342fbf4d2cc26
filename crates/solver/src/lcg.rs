//! A seeded random sequence for the solver's unit tests (Knuth's MMIX
//! linear congruential generator): the same numbers on every machine.

/// Uniform numbers in [−0.5, 0.5) from `seed`.
pub(crate) struct Lcg(pub u64);

impl Lcg {
    /// The next number, in f64.
    pub fn next(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 11) as f64 / (1u64 << 53) as f64) - 0.5
    }

    /// The next number, in f32.
    pub fn next_f32(&mut self) -> f32 {
        self.next() as f32
    }
}
