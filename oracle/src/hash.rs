//! The hasher of the oracle's memo maps: a plain multiply-and-rotate hash of the key's bytes,
//! eight at a time. A map compares whole keys, so the hasher only decides where a key is looked
//! for, never which answer is found: it cannot change an answer. The standard library's default
//! (SipHash, built against hash flooding) costs more than some of the searches it remembers, and
//! no key here comes from outside the program.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A map with [`WordHasher`].
pub(crate) type Map<K, V> = HashMap<K, V, BuildHasherDefault<WordHasher>>;

/// Multiply-and-rotate over 64-bit words.
#[derive(Default, Clone, Copy)]
pub(crate) struct WordHasher(u64);

impl WordHasher {
    /// An odd constant with well-mixed bits (from the golden ratio).
    const K: u64 = 0x9e37_79b9_7f4a_7c15;

    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(Self::K);
    }
}

impl Hasher for WordHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.add(u64::from_le_bytes(c.try_into().expect("eight bytes")));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut last = [0u8; 8];
            last[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(last) ^ ((rest.len() as u64) << 59));
        }
    }

    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }

    fn write_u32(&mut self, i: u32) {
        self.add(u64::from(i));
    }

    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }

    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::Hash;

    fn hash_of(x: impl Hash) -> u64 {
        let mut h = WordHasher::default();
        x.hash(&mut h);
        h.finish()
    }

    #[test]
    fn keys_that_differ_in_one_byte_hash_apart() {
        let a = [0u8; 91];
        let mut b = a;
        b[90] = 1;
        assert_ne!(hash_of(a), hash_of(b));
        let mut c = a;
        c[3] = 1;
        assert_ne!(hash_of(a), hash_of(c));
        assert_ne!(hash_of((1u32, 2u32)), hash_of((2u32, 1u32)));
    }

    #[test]
    fn a_map_finds_every_key() {
        let mut m: Map<Vec<u8>, usize> = Map::default();
        for i in 0..1000usize {
            m.insert(i.to_le_bytes().to_vec(), i);
        }
        assert!((0..1000usize).all(|i| m[&i.to_le_bytes().to_vec()] == i));
    }
}
