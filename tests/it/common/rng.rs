//! The random-playout tests' conveniences over the library's one generator
//! ([`tabula::rng::Rng`]): the same seed gives the same games on every
//! machine.

/// The library's generator, with sizes and picks in the tests' terms.
pub struct Rng(tabula::rng::Rng);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(tabula::rng::Rng::new(seed))
    }

    pub fn next(&mut self) -> u64 {
        self.0.next_u64()
    }

    pub fn below(&mut self, n: usize) -> usize {
        self.0.index(n)
    }

    /// True with probability `percent` / 100.
    pub fn chance(&mut self, percent: usize) -> bool {
        self.0.chance(percent as u64)
    }

    pub fn pick<T: Clone>(&mut self, items: &[T]) -> T {
        self.0.pick(items).clone()
    }

    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        self.0.shuffle(items);
    }
}
