//! The orders in which Java's collections hand out equal elements, so that the assignor breaks
//! ties exactly as Kafka's, which runs on the JVM: the iteration order of a `java.util.HashMap`
//! with string keys, of Kafka's own `TimelineHashMap` (the coordinator's member map), and the
//! sift order of a `java.util.PriorityQueue`.

use std::cmp::{Ordering, Reverse};
use std::collections::BTreeMap;

/// Java's `String.hashCode` over UTF-16 code units.
pub fn string_hash(text: &str) -> i32 {
    let step = |hash: i32, unit: u16| hash.wrapping_mul(31).wrapping_add(i32::from(unit));
    if text.is_ascii() {
        // An ASCII byte is its own UTF-16 code unit; skips the decoding. Eight at a time:
        // h * 31^8 + b0 * 31^7 + ... + b6 * 31 + b7 in wrapping arithmetic as Java's, the
        // products independent of each other.
        const POWERS: [i32; 8] = [
            1_742_810_335,
            887_503_681,
            28_629_151,
            923_521,
            29_791,
            961,
            31,
            1,
        ];
        const POWER_8: i32 = -1_807_454_463;
        let bytes = text.as_bytes();
        let mut chunks = bytes.chunks_exact(8);
        let mut hash = 0i32;
        for chunk in &mut chunks {
            let sum = chunk.iter().zip(POWERS).fold(0i32, |sum, (&byte, power)| {
                sum.wrapping_add(i32::from(byte).wrapping_mul(power))
            });
            hash = hash.wrapping_mul(POWER_8).wrapping_add(sum);
        }
        let rest = chunks.remainder();
        rest.iter()
            .fold(hash, |hash, &byte| step(hash, u16::from(byte)))
    } else {
        text.encode_utf16().fold(0, step)
    }
}

/// A string with its Java `hashCode`, computed once when the string is made, as a Java `String`
/// caches its own: whoever keeps one (the group's member record, the assignor's input) hashes it
/// once, not once per use. Immutable, so the hash cannot go stale.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct JavaString {
    text: String,
    hash: i32,
}

impl JavaString {
    pub fn new(text: impl Into<String>) -> Self {
        let text = text.into();
        let hash = string_hash(&text);
        JavaString { text, hash }
    }

    /// `text` with the hash its owner computed when it got `text` (checked in debug builds).
    pub fn with_hash(text: impl Into<String>, hash: i32) -> Self {
        let text = text.into();
        debug_assert_eq!(hash, string_hash(&text), "a stale Java hash of {text:?}");
        JavaString { text, hash }
    }

    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// Java's `hashCode` of the string.
    pub fn hash(&self) -> i32 {
        self.hash
    }

    pub fn into_string(self) -> String {
        self.text
    }
}

impl std::ops::Deref for JavaString {
    type Target = str;

    fn deref(&self) -> &str {
        &self.text
    }
}

impl From<String> for JavaString {
    fn from(text: String) -> Self {
        JavaString::new(text)
    }
}

impl From<&str> for JavaString {
    fn from(text: &str) -> Self {
        JavaString::new(text)
    }
}

impl std::fmt::Display for JavaString {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}

impl std::fmt::Debug for JavaString {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&self.text, f)
    }
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
/// created with `initial_capacity` (`None`: the default, 16) after inserting them all.
pub fn hash_map_order(
    keys: &[&str],
    initial_capacity: Option<usize>,
    insertion: Insertion,
) -> Vec<usize> {
    let hashes: Vec<i32> = keys.iter().map(|key| string_hash(key)).collect();
    let mut order: Vec<usize> = (0..keys.len()).collect();
    sort_in_hash_map_order(
        &mut order,
        |index| hashes[index],
        initial_capacity,
        insertion,
    );
    order
}

/// Reorders `items`, given in insertion order, into the iteration order of a `java.util.HashMap`
/// created with `initial_capacity` (`None`: the default, 16) after inserting them all: by bucket,
/// then by place within the bucket. `hash` gives an item's `hashCode`, which callers cache.
/// Buckets of eight or more keys, which Java turns into trees, are not modelled.
#[inline]
pub fn sort_in_hash_map_order<T: Copy>(
    items: &mut [T],
    hash: impl Fn(T) -> i32,
    initial_capacity: Option<usize>,
    insertion: Insertion,
) {
    // Two put into a default map (a process's two members, often): one comparison, in line.
    if let ([first, second], None, Insertion::Put) = (&mut *items, initial_capacity, insertion) {
        if default_bucket(hash(*second)) < default_bucket(hash(*first)) {
            std::mem::swap(first, second);
        }
        return;
    }
    sort_in_hash_map_order_outlined(items, hash, initial_capacity, insertion);
}

/// The bucket of a `java.util.HashMap` of the default capacity (16) that holds a key of `hash`.
fn default_bucket(hash: i32) -> u32 {
    let hash = hash as u32;
    (hash ^ (hash >> 16)) & 15
}

/// Whether `items` items go into a table of `capacity` buckets faster by counting them into
/// their buckets than by sorting them (both give the same order): not for few items, nor for a
/// table of more than four buckets per item.
fn counts_into_buckets(items: usize, capacity: usize) -> bool {
    const FEW: usize = 32;
    items > FEW && capacity <= 4 * items
}

fn sort_in_hash_map_order_outlined<T: Copy>(
    items: &mut [T],
    hash: impl Fn(T) -> i32,
    initial_capacity: Option<usize>,
    insertion: Insertion,
) {
    let mut capacity = initial_capacity.map_or(16, |wanted| wanted.max(1).next_power_of_two());
    // Java's threshold is three quarters of the capacity, rounded down.
    let threshold = |capacity: usize| capacity * 3 / 4;
    let grow_until = match insertion {
        Insertion::Put => items.len(),
        Insertion::ComputeIfAbsent => items.len().saturating_sub(1),
    };
    while grow_until > threshold(capacity) {
        capacity *= 2;
    }
    if items.len() < 2 {
        return;
    }
    if insertion == Insertion::ComputeIfAbsent {
        // The latest insertion heads its bucket; the stable sorts below keep this order.
        items.reverse();
    }
    let bucket = |item: T| {
        let hash = hash(item) as u32;
        ((hash ^ (hash >> 16)) as usize) & (capacity - 1)
    };
    if let [first, second] = items {
        // Two (a process's two members, often): one comparison.
        if bucket(*second) < bucket(*first) {
            std::mem::swap(first, second);
        }
        return;
    }
    if !counts_into_buckets(items.len(), capacity) {
        items.sort_by_key(|&item| bucket(item));
        return;
    }
    let buckets: Vec<u32> = items.iter().map(|&item| bucket(item) as u32).collect();
    // Items per bucket, then where each bucket starts (the running sum kept in a register: a
    // sum through memory waits for each store).
    let mut starts = vec![0u32; capacity];
    for &bucket in &buckets {
        starts[bucket as usize] += 1;
    }
    let mut start = 0;
    for next in &mut starts {
        let count = *next;
        *next = start;
        start += count;
    }
    let unsorted = items.to_vec();
    for (item, bucket) in unsorted.into_iter().zip(buckets) {
        let next = &mut starts[bucket as usize];
        items[*next as usize] = item;
        *next += 1;
    }
}

/// The iteration order of the string keys of a Kafka `TimelineHashMap` created empty, as Kafka
/// 4.4.0's `BaseHashTable` lays them out: slots chosen by the top bits of a Fibonacci hash, a
/// power of two of them, at least 2, doubling when a put finds `(size + 1) * 0.75` above the
/// count (present key or not). A slot lists its keys in insertion order, which growing keeps, and
/// iteration walks the slots upwards, each from its last key back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TimelineOrder {
    slots: usize,
    /// Key to its insertion count, which orders the keys of a slot, and its Java hash, which
    /// picks the slot (computed once, at insertion).
    inserted: BTreeMap<String, (u64, i32)>,
    insertions: u64,
}

impl Default for TimelineOrder {
    fn default() -> Self {
        TimelineOrder {
            slots: 2,
            inserted: BTreeMap::new(),
            insertions: 0,
        }
    }
}

impl TimelineOrder {
    /// `TimelineHashMap.put`: grows first, then adds `key` unless present, which keeps its place.
    pub fn put(&mut self, key: &str) {
        if 3 * (self.inserted.len() + 1) > 4 * self.slots && self.slots < 1 << 30 {
            self.slots *= 2;
        }
        if !self.inserted.contains_key(key) {
            let hash = string_hash(key);
            self.inserted
                .insert(key.to_owned(), (self.insertions, hash));
            self.insertions += 1;
        }
    }

    /// `TimelineHashMap.remove`; the table never shrinks.
    pub fn remove(&mut self, key: &str) {
        self.inserted.remove(key);
    }

    pub fn contains(&self, key: &str) -> bool {
        self.inserted.contains_key(key)
    }

    /// The present keys, in iteration order.
    pub fn keys(&self) -> Vec<&str> {
        let bits = self.slots.trailing_zeros();
        let slot = |hash: i32| {
            let mixed = i64::from(hash).wrapping_mul(-7_046_029_254_386_353_131);
            (mixed as u64) >> (64 - bits)
        };
        let mut keys: Vec<(u64, Reverse<u64>, &str)> = self
            .inserted
            .iter()
            .map(|(key, &(insertion, hash))| (slot(hash), Reverse(insertion), key.as_str()))
            .collect();
        keys.sort_unstable();
        keys.into_iter().map(|(_, _, key)| key).collect()
    }
}

/// Adds `item` to the binary heap `heap[..len]` (whose length becomes `len + 1`) as
/// `java.util.PriorityQueue.offer` does, so that among equal elements the same one comes out
/// first. `compare` orders the elements; `heap` must have room at `len`.
#[inline]
pub fn heap_add(heap: &mut [u32], len: usize, item: u32, compare: impl Fn(u32, u32) -> Ordering) {
    let mut at = len;
    while at > 0 {
        let parent = (at - 1) / 2;
        if compare(item, heap[parent]) != Ordering::Less {
            break;
        }
        heap[at] = heap[parent];
        at = parent;
    }
    heap[at] = item;
}

/// Removes and returns the first element of the binary heap `heap[..len]` (whose length becomes
/// `len - 1`) as `java.util.PriorityQueue.poll` does; `None` when it is empty.
#[inline]
pub fn heap_poll(
    heap: &mut [u32],
    len: usize,
    compare: impl Fn(u32, u32) -> Ordering,
) -> Option<u32> {
    let size = len.checked_sub(1)?;
    let first = heap[0];
    let last = heap[size];
    let mut at = 0;
    while at < size / 2 {
        let mut child = 2 * at + 1;
        if child + 1 < size && compare(heap[child], heap[child + 1]) == Ordering::Greater {
            child += 1;
        }
        if compare(last, heap[child]) != Ordering::Greater {
            break;
        }
        heap[at] = heap[child];
        at = child;
    }
    if size > 0 {
        heap[at] = last;
    }
    Some(first)
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
        // Longer than one four-byte step, and beyond ASCII (UTF-16 code units).
        assert_eq!(string_hash("process-17"), 422_135_364);
        assert_eq!(string_hash("a€"), 11_371);
        assert_eq!(string_hash("p\u{1F600}"), 1_880_531);
    }

    #[test]
    fn a_java_string_reads_and_prints_as_its_text() {
        let id = JavaString::from("m\"1");
        assert_eq!(&*id, "m\"1");
        assert_eq!(id.len(), 3);
        assert_eq!(format!("{id:?}"), r#""m\"1""#);
        assert_eq!(format!("{id}"), "m\"1");
    }

    #[test]
    fn java_strings_carry_their_hash_from_when_they_are_made() {
        let id = JavaString::from("m0000");
        assert_eq!((id.as_str(), id.hash()), ("m0000", 102_141_421));
        assert_eq!(JavaString::new(String::from("p1")).hash(), 3521);
        assert_eq!(JavaString::with_hash("p1", 3521), JavaString::from("p1"));
        assert_eq!(JavaString::default().hash(), string_hash(""));
    }

    #[test]
    fn ascii_hashes_in_steps_equal_the_hash_unit_by_unit() {
        let text: String = (0..40u32)
            .map(|i| char::from(b' ' + (i * 7 % 95) as u8))
            .collect();
        for end in 0..=text.len() {
            let unit_by_unit = text[..end].encode_utf16().fold(0i32, |hash, unit| {
                hash.wrapping_mul(31).wrapping_add(i32::from(unit))
            });
            assert_eq!(
                string_hash(&text[..end]),
                unit_by_unit,
                "{:?}",
                &text[..end]
            );
        }
    }

    #[test]
    fn timeline_hash_map_iteration_is_kafkas() {
        // Kafka 4.4.0's TimelineHashMap, created empty, iterates [m2-0, m1-1] after putting m1-1
        // then m2-0, and [f, c, h, e, b, g, d, a] after the puts and removal below.
        let mut order = TimelineOrder::default();
        for key in ["m1-1", "m2-0", "m1-1"] {
            order.put(key);
        }
        assert_eq!(order.keys(), ["m2-0", "m1-1"]);
        let mut order = TimelineOrder::default();
        for key in ["a", "b", "c", "d", "e", "f", "g"] {
            order.put(key);
        }
        order.remove("c");
        order.put("h");
        order.put("c");
        assert_eq!(order.keys(), ["f", "c", "h", "e", "b", "g", "d", "a"]);
        assert!(order.contains("c") && !order.contains("x"));
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

    /// Many keys are counted into buckets, few are sorted: both give the same order.
    #[test]
    fn many_keys_are_ordered_as_few_are() {
        let keys: Vec<String> = (0..300).map(|key| format!("process-{key}")).collect();
        let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
        for insertion in [Insertion::Put, Insertion::ComputeIfAbsent] {
            let counted = hash_map_order(&keys, Some(300), insertion);
            let capacity = 512;
            let bucket = |index: usize| {
                let hash = string_hash(keys[index]) as u32;
                ((hash ^ (hash >> 16)) as usize) & (capacity - 1)
            };
            let mut sorted: Vec<usize> = (0..keys.len()).collect();
            match insertion {
                Insertion::Put => sorted.sort_by_key(|&index| (bucket(index), index)),
                Insertion::ComputeIfAbsent => {
                    sorted.sort_by_key(|&index| (bucket(index), std::cmp::Reverse(index)))
                }
            }
            assert_eq!(counted, sorted, "{insertion:?}");
        }
    }

    #[test]
    fn equal_elements_leave_in_javas_order() {
        // Three equal keys added in order 0, 1, 2: Java polls 0, then 2, then 1.
        let mut heap = [0; 3];
        let equal = |_: u32, _: u32| Ordering::Equal;
        for item in 0..3 {
            heap_add(&mut heap, item as usize, item, equal);
        }
        let polled: Vec<u32> = (1..=3)
            .rev()
            .map(|len| heap_poll(&mut heap, len, equal).unwrap())
            .collect();
        assert_eq!(polled, [0, 2, 1]);
        assert_eq!(heap_poll(&mut heap, 0, equal), None);
    }
}
