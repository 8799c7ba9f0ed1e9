//! The orders in which Java's collections hand out equal elements, so that the assignor breaks
//! ties exactly as Kafka's, which runs on the JVM: the iteration order of a `java.util.HashMap`
//! with string keys, and the sift order of a `java.util.PriorityQueue`.

use std::cmp::Ordering;

/// Java's `String.hashCode` over UTF-16 code units.
fn string_hash(text: &str) -> i32 {
    text.encode_utf16().fold(0i32, |hash, unit| {
        hash.wrapping_mul(31).wrapping_add(i32::from(unit))
    })
}

/// How keys went into a `java.util.HashMap`, which decides where they sit in a bucket and
/// when the table grows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Insertion {
    /// `put`: at the tail of its bucket; the table grows after an insertion that passes the
    /// threshold.
    Put,
    /// `computeIfAbsent`: at the head of its bucket; the table grows before an insertion once
    /// the size has passed the threshold.
    ComputeIfAbsent,
}

/// The positions of `keys` (in insertion order) in the iteration order of a `java.util.HashMap`
/// created with `initial_capacity` (`None`: the default, 16) after inserting them all: by bucket,
/// then by place within the bucket. Buckets of eight or more keys, which Java turns into trees,
/// are not modelled.
pub fn hash_map_order(
    keys: &[&str],
    initial_capacity: Option<usize>,
    insertion: Insertion,
) -> Vec<usize> {
    let mut capacity = initial_capacity.map_or(16, |wanted| wanted.max(1).next_power_of_two());
    // Java's threshold is three quarters of the capacity, rounded down.
    let threshold = |capacity: usize| capacity * 3 / 4;
    let grow_until = match insertion {
        Insertion::Put => keys.len(),
        Insertion::ComputeIfAbsent => keys.len().saturating_sub(1),
    };
    while grow_until > threshold(capacity) {
        capacity *= 2;
    }
    let bucket = |key: &str| {
        let hash = string_hash(key) as u32;
        ((hash ^ (hash >> 16)) as usize) & (capacity - 1)
    };
    let mut order: Vec<usize> = (0..keys.len()).collect();
    match insertion {
        Insertion::Put => order.sort_by_key(|&index| (bucket(keys[index]), index)),
        Insertion::ComputeIfAbsent => {
            order.sort_by_key(|&index| (bucket(keys[index]), std::cmp::Reverse(index)))
        }
    }
    order
}

/// A binary heap that adds and removes as `java.util.PriorityQueue` does, so that among equal
/// elements the same one comes out first. Elements are indices; `compare` orders them.
#[derive(Debug, Default, Clone)]
pub struct JavaHeap {
    items: Vec<usize>,
}

impl JavaHeap {
    pub fn add(&mut self, item: usize, compare: impl Fn(usize, usize) -> Ordering) {
        let mut at = self.items.len();
        self.items.push(item);
        while at > 0 {
            let parent = (at - 1) / 2;
            if compare(item, self.items[parent]) != Ordering::Less {
                break;
            }
            self.items[at] = self.items[parent];
            at = parent;
        }
        self.items[at] = item;
    }

    pub fn poll(&mut self, compare: impl Fn(usize, usize) -> Ordering) -> Option<usize> {
        let last = self.items.pop()?;
        if self.items.is_empty() {
            return Some(last);
        }
        let first = self.items[0];
        let size = self.items.len();
        let mut at = 0;
        while at < size / 2 {
            let mut child = 2 * at + 1;
            if child + 1 < size
                && compare(self.items[child], self.items[child + 1]) == Ordering::Greater
            {
                child += 1;
            }
            if compare(last, self.items[child]) != Ordering::Greater {
                break;
            }
            self.items[at] = self.items[child];
            at = child;
        }
        self.items[at] = last;
        Some(first)
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn string_hashes_are_javas() {
        // "p1".hashCode() == 3521, "m0000".hashCode() == 102141421 in Java.
        assert_eq!(string_hash("p1"), 3521);
        assert_eq!(string_hash("m0000"), 102_141_421);
        assert_eq!(string_hash(""), 0);
    }

    #[test]
    fn hash_map_iteration_is_javas() {
        // new HashMap<>(5), keys put in this order, iterates as [p0, px, p1, p3, p10] in Java.
        let keys = ["p3", "p1", "p10", "p0", "px"];
        assert_eq!(
            hash_map_order(&keys, Some(5), Insertion::Put),
            [3, 4, 1, 0, 2]
        );
        // new HashMap<>(2): put p1 then p3 iterates [p1, p3]; computeIfAbsent [p3, p1].
        let keys = ["p1", "p3"];
        assert_eq!(hash_map_order(&keys, Some(2), Insertion::Put), [0, 1]);
        assert_eq!(
            hash_map_order(&keys, Some(2), Insertion::ComputeIfAbsent),
            [1, 0]
        );
        // With growth on the way, as Java 17 iterates them.
        let keys = ["p3", "p1", "p10", "p0", "px", "p7", "p2"];
        assert_eq!(
            hash_map_order(&keys, Some(7), Insertion::ComputeIfAbsent),
            [4, 3, 1, 6, 0, 2, 5]
        );
        let keys = ["a", "b", "c", "aa", "bb", "cc", "abc", "x"];
        assert_eq!(
            hash_map_order(&keys, Some(3), Insertion::ComputeIfAbsent),
            [5, 4, 3, 0, 1, 6, 2, 7]
        );
    }

    #[test]
    fn equal_elements_leave_in_javas_order() {
        // Three equal keys added in order 0, 1, 2: Java polls 0, then 2, then 1.
        let mut heap = JavaHeap::default();
        let equal = |_: usize, _: usize| Ordering::Equal;
        for item in 0..3 {
            heap.add(item, equal);
        }
        let polled: Vec<usize> = std::iter::from_fn(|| heap.poll(equal)).collect();
        assert_eq!(polled, [0, 2, 1]);
    }
}
