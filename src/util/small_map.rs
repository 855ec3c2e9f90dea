//! Maps and sets of a handful of keys (one entry per node, per link, per epoch), kept as a
//! sorted vector. They iterate in key order as a `BTreeMap` does (the core never depends on
//! hash order), find a key by binary search, and compile to a small body of code for each key
//! and value type: a `BTreeMap` brings its node splitting and merging to the page's WebAssembly
//! once per type, about 13 KB each. Large maps (partitions, znodes, topics) stay `BTreeMap`s,
//! since inserting into the middle of a vector moves everything after it.

use std::borrow::Borrow;

/// A map of few entries, in key order.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SmallMap<K, V> {
    entries: Vec<(K, V)>,
}

impl<K, V> Default for SmallMap<K, V> {
    fn default() -> Self {
        SmallMap { entries: Vec::new() }
    }
}

impl<K: Ord, V> SmallMap<K, V> {
    pub(crate) const fn new() -> Self {
        SmallMap { entries: Vec::new() }
    }

    /// Where `key` is, or where it would go.
    fn find<Q: Ord + ?Sized>(&self, key: &Q) -> Result<usize, usize>
    where
        K: Borrow<Q>,
    {
        self.entries.binary_search_by(|(k, _)| k.borrow().cmp(key))
    }

    pub fn get<Q: Ord + ?Sized>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
    {
        self.find(key).ok().map(|i| &self.entries[i].1)
    }

    pub(crate) fn get_mut<Q: Ord + ?Sized>(&mut self, key: &Q) -> Option<&mut V>
    where
        K: Borrow<Q>,
    {
        self.find(key).ok().map(|i| &mut self.entries[i].1)
    }

    pub(crate) fn contains_key<Q: Ord + ?Sized>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
    {
        self.find(key).is_ok()
    }

    /// Set `key` to `value`; returns the value it replaced.
    pub(crate) fn insert(&mut self, key: K, value: V) -> Option<V> {
        match self.find(&key) {
            Ok(i) => Some(std::mem::replace(&mut self.entries[i].1, value)),
            Err(i) => {
                self.entries.insert(i, (key, value));
                None
            }
        }
    }

    pub(crate) fn remove<Q: Ord + ?Sized>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
    {
        self.find(key).ok().map(|i| self.entries.remove(i).1)
    }

    /// The value at `key`, inserting `make()` first if there is none (`entry().or_insert_with()`).
    pub(crate) fn get_or_insert_with(&mut self, key: K, make: impl FnOnce() -> V) -> &mut V {
        let i = match self.find(&key) {
            Ok(i) => i,
            Err(i) => {
                self.entries.insert(i, (key, make()));
                i
            }
        };
        &mut self.entries[i].1
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub(crate) fn clear(&mut self) {
        self.entries.clear();
    }

    /// Entries in key order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (&K, &V)> + ExactSizeIterator {
        self.entries.iter().map(|(k, v)| (k, v))
    }

    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &K> + ExactSizeIterator {
        self.entries.iter().map(|(k, _)| k)
    }

    pub(crate) fn values(&self) -> impl DoubleEndedIterator<Item = &V> + ExactSizeIterator {
        self.entries.iter().map(|(_, v)| v)
    }
}

impl<'a, K: Ord, V> IntoIterator for &'a SmallMap<K, V> {
    type Item = (&'a K, &'a V);
    type IntoIter = std::iter::Map<std::slice::Iter<'a, (K, V)>, fn(&'a (K, V)) -> (&'a K, &'a V)>;

    fn into_iter(self) -> Self::IntoIter {
        self.entries.iter().map(|(k, v)| (k, v))
    }
}

/// `map[&key]`, which panics when the key is missing, as `BTreeMap`'s does.
impl<K: Ord + Borrow<Q>, Q: Ord + ?Sized, V> std::ops::Index<&Q> for SmallMap<K, V> {
    type Output = V;

    fn index(&self, key: &Q) -> &V {
        self.get(key).expect("no entry for the key")
    }
}

/// As a `BTreeMap` serializes: a map in key order.
impl<K: serde::Serialize, V: serde::Serialize> serde::Serialize for SmallMap<K, V> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.entries.iter().map(|(k, v)| (k, v)))
    }
}

impl<K: Ord, V> FromIterator<(K, V)> for SmallMap<K, V> {
    /// As `BTreeMap` collects: in key order, the last value given for a key wins.
    fn from_iter<I: IntoIterator<Item = (K, V)>>(items: I) -> Self {
        let mut map = SmallMap::new();
        for (key, value) in items {
            map.insert(key, value);
        }
        map
    }
}

/// A set of few keys, in order.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SmallSet<K> {
    map: SmallMap<K, ()>,
}

impl<K> Default for SmallSet<K> {
    fn default() -> Self {
        SmallSet { map: SmallMap::default() }
    }
}

impl<K: Ord> SmallSet<K> {
    pub(crate) const fn new() -> Self {
        SmallSet { map: SmallMap::new() }
    }

    /// Add `key`; whether it was new.
    pub(crate) fn insert(&mut self, key: K) -> bool {
        self.map.insert(key, ()).is_none()
    }

    /// Take `key` out; whether it was there.
    pub(crate) fn remove(&mut self, key: &K) -> bool {
        self.map.remove(key).is_some()
    }

    pub(crate) fn contains(&self, key: &K) -> bool {
        self.map.contains_key(key)
    }

    pub(crate) fn len(&self) -> usize {
        self.map.len()
    }

    pub(crate) fn clear(&mut self) {
        self.map.clear();
    }

    /// Keys in order.
    pub(crate) fn iter(&self) -> impl DoubleEndedIterator<Item = &K> + ExactSizeIterator {
        self.map.keys()
    }
}

impl<K: Ord> FromIterator<K> for SmallSet<K> {
    fn from_iter<I: IntoIterator<Item = K>>(keys: I) -> Self {
        SmallSet { map: keys.into_iter().map(|k| (k, ())).collect() }
    }
}

impl<K: Ord, const N: usize> From<[K; N]> for SmallSet<K> {
    fn from(keys: [K; N]) -> Self {
        keys.into_iter().collect()
    }
}

impl<'a, K: Ord> IntoIterator for &'a SmallSet<K> {
    type Item = &'a K;
    type IntoIter = std::iter::Map<std::slice::Iter<'a, (K, ())>, fn(&'a (K, ())) -> &'a K>;

    fn into_iter(self) -> Self::IntoIter {
        self.map.entries.iter().map(|(k, ())| k)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::util::rng::Rng;

    /// Random inserts, removals and lookups agree with `BTreeMap` at every step, iteration
    /// order included.
    #[test]
    fn behaves_as_a_btree_map() {
        let mut rng = Rng::new(7);
        let mut small = SmallMap::new();
        let mut btree = BTreeMap::new();
        for step in 0..5_000u32 {
            let key = rng.range(0, 40);
            match rng.range(0, 4) {
                0 => assert_eq!(small.insert(key, step), btree.insert(key, step)),
                1 => assert_eq!(small.remove(&key), btree.remove(&key)),
                2 => {
                    *small.get_or_insert_with(key, || step) += 1;
                    *btree.entry(key).or_insert(step) += 1;
                }
                _ => assert_eq!(small.get(&key), btree.get(&key)),
            }
            assert_eq!(small.iter().collect::<Vec<_>>(), btree.iter().collect::<Vec<_>>(), "step {step}");
        }
    }

    #[test]
    fn collecting_keeps_the_last_value_of_a_key_in_key_order() {
        let map: SmallMap<u32, char> = [(3, 'a'), (1, 'b'), (3, 'c')].into_iter().collect();
        assert_eq!(map.iter().collect::<Vec<_>>(), [(&1, &'b'), (&3, &'c')]);
        let set = SmallSet::from([5, 2, 5, 9]);
        assert_eq!(set.iter().copied().collect::<Vec<_>>(), [2, 5, 9]);
        assert_eq!(set.len(), 3);
    }
}
