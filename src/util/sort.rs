//! Stable sorting through one copy of the sort algorithm. The standard library's sort is
//! generic: each element type and comparison it is called with brings its own copy of the
//! algorithm (about 2.5 KB compressed) into the page's WebAssembly. These sort a permutation of
//! indices with the comparison behind `dyn`, so the page carries the algorithm once; the price
//! is one index per element and an indirect call per comparison, small for the short lists the
//! views and models sort. Long lists in hot paths (a failover's partitions, the leader's fetch
//! offsets) keep the standard library's sort.

use std::cmp::Ordering;

/// Sort `items` stably by `compare`.
pub(crate) fn sort_by<T>(items: &mut [T], compare: impl Fn(&T, &T) -> Ordering) {
    let order = sorted_order(items.len(), &|a, b| compare(&items[a], &items[b]));
    permute(items, order);
}

/// Sort `items` stably by the key `key` gives each.
pub(crate) fn sort_by_key<T, K: Ord>(items: &mut [T], key: impl Fn(&T) -> K) {
    sort_by(items, |a, b| key(a).cmp(&key(b)));
}

/// Sort `items` stably in their own order.
pub(crate) fn sort<T: Ord>(items: &mut [T]) {
    sort_by(items, T::cmp);
}

/// The indices `0..len` in the order `compare` puts them (stable).
fn sorted_order(len: usize, compare: &dyn Fn(usize, usize) -> Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..len).collect();
    order.sort_by(|&a, &b| compare(a, b));
    order
}

/// Move `items[order[i]]` to position `i` for every `i`, following each cycle of the
/// permutation once.
fn permute<T>(items: &mut [T], mut order: Vec<usize>) {
    for start in 0..items.len() {
        let mut at = start;
        while order[at] != at {
            let from = order[at];
            order[at] = at;
            if from == start {
                break;
            }
            items.swap(at, from);
            at = from;
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::util::rng::Rng;

    #[test]
    fn sorts_as_the_standard_library_does_stably() {
        let mut rng = Rng::new(7);
        for len in 0..60 {
            let items: Vec<(u64, usize)> = (0..len).map(|i| (rng.below(8), i)).collect();
            let (mut ours, mut std) = (items.clone(), items);
            super::sort_by_key(&mut ours, |(k, _)| *k);
            std.sort_by_key(|(k, _)| *k);
            assert_eq!(ours, std, "length {len}");
        }
        let mut words = vec!["pear", "apple", "fig", "apple"];
        super::sort(&mut words);
        assert_eq!(words, ["apple", "apple", "fig", "pear"]);
    }
}
