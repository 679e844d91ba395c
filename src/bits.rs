//! Walking a bitset: the set bits of a word, lowest first. Quarto's 16
//! squares and the solvers' small Quoridor boards are kept as such words.

/// The set bits of `word`, lowest first.
pub fn bits(word: impl Into<u64>) -> impl Iterator<Item = usize> {
    let mut word = word.into();
    std::iter::from_fn(move || {
        (word != 0).then(|| {
            let bit = word.trailing_zeros() as usize;
            word &= word - 1;
            bit
        })
    })
}

#[cfg(test)]
mod tests {
    use super::bits;

    #[test]
    fn set_bits_come_lowest_first() {
        assert_eq!(bits(0b1010_0001u64).collect::<Vec<_>>(), vec![0, 5, 7]);
        assert_eq!(bits(0x8001u16).collect::<Vec<_>>(), vec![0, 15]);
        assert_eq!(bits(1u64 << 63).collect::<Vec<_>>(), vec![63]);
        assert_eq!(bits(0u64).count(), 0);
    }
}
