//! The project's seeded random numbers: two pinned generators and the one way to derive a
//! component's seed from a root seed. Nothing here reads the clock or the OS: a seed names the same
//! numbers on every machine and in every release, because seeds are recorded in the committed
//! corpus, in campaign traces and in test expectations (style practice 3: the algorithm is pinned,
//! never `StdRng`). The tests pin each generator's output.
//!
//! - [`SplitMix64`] makes the bytes of campaign runs (`streamspec fuzz --seed`);
//! - [`XorShift64Star`] makes the seeded inputs of the fuzz-entry-point tests and their corpus.

/// The odd constant (2^64 / golden ratio) both generators and [`sub_seed`] use.
const GOLDEN_GAMMA: u64 = 0x9e37_79b9_7f4a_7c15;

/// The seed of item `index` (a run, a case) of a stream seeded with `seed`.
pub fn sub_seed(seed: u64, index: u64) -> u64 {
    seed ^ index.wrapping_mul(GOLDEN_GAMMA)
}

/// SplitMix64 (Steele, Lea and Flood), every seed valid.
#[derive(Debug, Clone)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    pub fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GOLDEN_GAMMA);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// `length` bytes: each draw's eight bytes, little-endian, the last draw cut short.
    pub fn bytes(&mut self, length: usize) -> Vec<u8> {
        (0..length.div_ceil(8))
            .flat_map(|_| self.next_u64().to_le_bytes())
            .take(length)
            .collect()
    }
}

/// xorshift64* (Vigna), shifts 12, 25, 27; its state is never zero.
#[derive(Debug, Clone)]
pub struct XorShift64Star {
    state: u64,
}

impl XorShift64Star {
    /// A generator from `seed`, its lowest bit set so the state is not zero.
    pub fn new(seed: u64) -> Self {
        XorShift64Star { state: seed | 1 }
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state ^= self.state >> 12;
        self.state ^= self.state << 25;
        self.state ^= self.state >> 27;
        self.state.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// `length` bytes, one a draw: its highest byte, the best bits of xorshift*.
    pub fn bytes(&mut self, length: usize) -> Vec<u8> {
        (0..length).map(|_| (self.next_u64() >> 56) as u8).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(bytes: &[u8]) -> String {
        bytes.iter().map(|byte| format!("{byte:02x}")).collect()
    }

    /// The bytes of campaign runs: `streamspec fuzz --seed 0x5eed`'s first run starts so.
    #[test]
    fn split_mix_sequences_are_pinned() {
        assert_eq!(
            hex(&SplitMix64::new(sub_seed(0x5eed, 0)).bytes(20)),
            "b4a9f0039dfdf1097584bf1b16743255b343b396"
        );
        assert_eq!(
            hex(&SplitMix64::new(sub_seed(1, 3)).bytes(13)),
            "d282a9cb6cb31d6dae6980572e"
        );
    }

    /// The seeded fuzz inputs (and the corpus seeds written from them).
    #[test]
    fn xorshift_star_sequences_are_pinned() {
        assert_eq!(
            hex(&XorShift64Star::new(sub_seed(0x5eed, 0)).bytes(16)),
            "97c7e914196932d533052e64e98d6eed"
        );
        assert_eq!(
            hex(&XorShift64Star::new(sub_seed(0x5eed, 7)).bytes(16)),
            "01b871786dbeba90044ab1ecdfdb85c7"
        );
    }

    #[test]
    fn a_zero_seed_still_moves() {
        let mut rng = XorShift64Star::new(0);
        assert_ne!(rng.next_u64(), rng.next_u64());
    }
}
