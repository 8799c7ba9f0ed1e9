//! Borrowed decoding: every generated message has a `...View<'a>` twin whose strings are `&'a str`
//! into the input and whose arrays are [`ArrayView`]s, a slice and a count that yield their
//! items on iteration. Nothing is allocated.
//!
//! A view's `decode` runs the same checks as the owned decoder, in the same order, so it refuses
//! exactly the same inputs with exactly the same [`DecodeError`] (`fuzzing::check_bytes` asserts
//! this for every input it sees). Array items are read again from their validated bytes when
//! iterated, by a [`Cursor`] that cannot fail on them: it answers `None` rather than panicking
//! when bytes end early, which validated bytes never do.

use std::fmt;
use std::marker::PhantomData;

use bytes::Bytes;

use crate::codec::{TaggedFields, Utf8Run};
use crate::error::DecodeError;
use crate::WireMessage;

/// A message's borrowed twin, decoded without allocating.
pub trait MessageView<'a>: Sized + fmt::Debug {
    /// The owned message type.
    type Owned: WireMessage;

    /// Decodes exactly one message filling `bytes`, refusing what [`WireMessage::decode_exact`]
    /// refuses, with the same error.
    fn decode(bytes: &'a [u8], version: i16) -> Result<Self, DecodeError>;

    /// The owned message with the same values.
    fn to_message(&self) -> Self::Owned;

    /// Calls `visitor` with every value, in wire order, reading each array's items in one pass.
    fn visit_values<V: ValueVisitor>(&self, visitor: &mut V);

    /// Calls `visitor` with the same values as [`MessageView::visit_values`], reading them as
    /// user code does, through the fields and array iteration: each item is read with all its
    /// nested arrays passed over to find its end, then those arrays are iterated in turn.
    fn visit_fields<V: ValueVisitor>(&self, visitor: &mut V);
}

/// Receives every value of a view from its `visit`, e.g. to read all of it in a benchmark.
pub trait ValueVisitor {
    /// An integer or boolean field, or an integer array item.
    fn integer(&mut self, value: i64);
    /// A string field or string array item.
    fn string(&mut self, value: &str);
    /// A null in a nullable field.
    fn null(&mut self);
    /// An array's length, before its items.
    fn array(&mut self, len: usize);
    /// An unknown tagged field.
    fn tagged_field(&mut self, tag: u32, data: &[u8]);
}

/// `Cursor::i8` and the like: a big-endian integer.
macro_rules! cursor_integers {
    ($($ty:ident),*) => {$(
        #[inline(always)]
        pub fn $ty(&mut self) -> Option<$ty> {
            self.fixed().map($ty::from_be_bytes)
        }
    )*};
}

/// Reads values from bytes a view's decoder has already validated. Every read returns `None` at
/// the end of the bytes instead of failing loudly: on validated bytes that never happens, and on
/// any other bytes the caller stops rather than panics.
#[derive(Debug, Clone)]
pub struct Cursor<'a> {
    rest: &'a [u8],
    utf8: Utf8Run<'a>,
}

impl<'a> Cursor<'a> {
    #[inline(always)]
    pub(crate) fn new(bytes: &'a [u8]) -> Self {
        Cursor {
            rest: bytes,
            utf8: Utf8Run::default(),
        }
    }

    #[inline(always)]
    fn take(&mut self, count: usize) -> Option<&'a [u8]> {
        if count > self.rest.len() {
            return None;
        }
        let (taken, rest) = self.rest.split_at(count);
        self.rest = rest;
        Some(taken)
    }

    #[inline(always)]
    pub fn skip(&mut self, count: usize) -> Option<()> {
        self.take(count).map(drop)
    }

    #[inline(always)]
    fn fixed<const N: usize>(&mut self) -> Option<[u8; N]> {
        self.take(N)?.try_into().ok()
    }

    cursor_integers!(i8, i16, u16, i32, i64);

    /// The decoder admitted only 0 and 1.
    #[inline(always)]
    pub fn bool(&mut self) -> Option<bool> {
        self.fixed::<1>().map(|[byte]| byte != 0)
    }

    #[inline(always)]
    fn uvarint(&mut self) -> Option<u32> {
        let (&first, rest) = self.rest.split_first()?;
        if first < 0x80 {
            self.rest = rest;
            return Some(u32::from(first));
        }
        self.long_uvarint()
    }

    #[inline(never)]
    fn long_uvarint(&mut self) -> Option<u32> {
        let mut value: u32 = 0;
        for index in 0..5 {
            let [byte] = self.fixed::<1>()?;
            value |= u32::from(byte & 0x7f).checked_shl(7 * index)?;
            if byte & 0x80 == 0 {
                return Some(value);
            }
        }
        None
    }

    /// `None` at the end of the bytes, `Some(None)` for null.
    #[inline(always)]
    fn compact_length(&mut self) -> Option<Option<usize>> {
        let encoded = self.uvarint()?;
        Some(encoded.checked_sub(1).map(|length| length as usize))
    }

    #[inline(always)]
    fn string_body(&mut self, length: usize) -> Option<&'a str> {
        let rest = self.rest;
        let bytes = self.take(length)?;
        self.utf8.str(bytes, rest)
    }

    #[inline(always)]
    pub fn string(&mut self) -> Option<&'a str> {
        let length = self.compact_length()??;
        self.string_body(length)
    }

    #[inline(always)]
    pub fn nullable_string(&mut self) -> Option<Option<&'a str>> {
        match self.compact_length()? {
            None => Some(None),
            Some(length) => self.string_body(length).map(Some),
        }
    }

    /// Skips a string, null or not, without checking its UTF-8 again.
    #[inline(always)]
    pub fn skip_string(&mut self) -> Option<()> {
        let length = self.compact_length()?.unwrap_or(0);
        self.skip(length)
    }

    #[inline(always)]
    pub fn array<T: ViewItem<'a>>(&mut self, version: i16) -> Option<ArrayView<'a, T>> {
        let count = self.compact_length()??;
        self.array_items(count, version)
    }

    #[inline(always)]
    pub fn nullable_array<T: ViewItem<'a>>(
        &mut self,
        version: i16,
    ) -> Option<Option<ArrayView<'a, T>>> {
        match self.compact_length()? {
            None => Some(None),
            Some(count) => self.array_items(count, version).map(Some),
        }
    }

    #[inline(always)]
    fn array_items<T: ViewItem<'a>>(
        &mut self,
        count: usize,
        version: i16,
    ) -> Option<ArrayView<'a, T>> {
        let start = self.rest;
        self.skip_items::<T>(count, version)?;
        let bytes = &start[..start.len() - self.rest.len()];
        Some(ArrayView::new(bytes, count, version))
    }

    #[inline(always)]
    fn skip_items<T: ViewItem<'a>>(&mut self, count: usize, version: i16) -> Option<()> {
        match T::FIXED_SIZE {
            Some(size) => self.skip(count.checked_mul(size)?),
            None => (0..count).try_for_each(|_| T::skip(self, version)),
        }
    }

    /// Skips an array, null or not.
    #[inline(always)]
    pub fn skip_array<T: ViewItem<'a>>(&mut self, version: i16) -> Option<()> {
        let count = self.compact_length()?.unwrap_or(0);
        self.skip_items::<T>(count, version)
    }

    /// A nullable struct's marker: true when the struct follows.
    #[inline(always)]
    pub fn present(&mut self) -> Option<bool> {
        self.i8().map(|marker| marker == 1)
    }

    /// Hands an array's count and items to `visitor`, or a null.
    #[inline(always)]
    pub fn visit_array<T: ViewItem<'a>, V: ValueVisitor>(
        &mut self,
        version: i16,
        visitor: &mut V,
    ) -> Option<()> {
        match self.compact_length()? {
            None => visitor.null(),
            Some(count) => {
                visitor.array(count);
                T::visit_items(self, count, version, visitor)?;
            }
        }
        Some(())
    }

    #[inline(always)]
    pub fn tagged_fields(&mut self) -> Option<RawTaggedFields<'a>> {
        let count = self.uvarint()?;
        let start = self.rest;
        for _ in 0..count {
            self.uvarint()?;
            let size = self.uvarint()?;
            self.skip(size as usize)?;
        }
        Some(RawTaggedFields::new(
            &start[..start.len() - self.rest.len()],
            count,
        ))
    }

    #[inline(always)]
    pub fn skip_tagged_fields(&mut self) -> Option<()> {
        self.tagged_fields().map(drop)
    }
}

/// An item of an [`ArrayView`]: read again from validated bytes when the array is iterated.
pub trait ViewItem<'a>: Sized {
    /// The size of every item when it is fixed, so that an array of them is skipped at once.
    const FIXED_SIZE: Option<usize> = None;
    #[doc(hidden)]
    fn parse(cursor: &mut Cursor<'a>, version: i16) -> Option<Self>;
    #[doc(hidden)]
    fn skip(cursor: &mut Cursor<'a>, version: i16) -> Option<()>;
    /// Reads one item, handing its values to `visitor` as they come.
    #[doc(hidden)]
    fn visit_bytes<V: ValueVisitor>(
        cursor: &mut Cursor<'a>,
        version: i16,
        visitor: &mut V,
    ) -> Option<()>;
    /// Reads `count` items in a row, as [`ViewItem::visit_bytes`] does each.
    #[doc(hidden)]
    #[inline(always)]
    fn visit_items<V: ValueVisitor>(
        cursor: &mut Cursor<'a>,
        count: usize,
        version: i16,
        visitor: &mut V,
    ) -> Option<()> {
        for _ in 0..count {
            Self::visit_bytes(cursor, version, visitor)?;
        }
        Some(())
    }
}

macro_rules! fixed_items {
    ($($ty:ident),*) => {$(
        impl<'a> ViewItem<'a> for $ty {
            const FIXED_SIZE: Option<usize> = Some(std::mem::size_of::<$ty>());
            #[inline(always)]
            fn parse(cursor: &mut Cursor<'a>, _version: i16) -> Option<Self> {
                cursor.$ty()
            }
            #[inline(always)]
            fn skip(cursor: &mut Cursor<'a>, _version: i16) -> Option<()> {
                cursor.skip(std::mem::size_of::<$ty>())
            }
            #[inline(always)]
            fn visit_bytes<V: ValueVisitor>(
                cursor: &mut Cursor<'a>,
                _version: i16,
                visitor: &mut V,
            ) -> Option<()> {
                #[allow(clippy::useless_conversion, reason = "i64 items too")]
                visitor.integer(i64::from(cursor.$ty()?));
                Some(())
            }
            /// All the items' bytes taken at once, with one bounds check instead of one each.
            #[inline(always)]
            fn visit_items<V: ValueVisitor>(
                cursor: &mut Cursor<'a>,
                count: usize,
                _version: i16,
                visitor: &mut V,
            ) -> Option<()> {
                const SIZE: usize = std::mem::size_of::<$ty>();
                let bytes = cursor.take(count.checked_mul(SIZE)?)?;
                for item in bytes.chunks_exact(SIZE) {
                    #[allow(clippy::useless_conversion, reason = "i64 items too")]
                    visitor.integer(i64::from($ty::from_be_bytes(item.try_into().ok()?)));
                }
                Some(())
            }
        }
    )*};
}

fixed_items!(i8, i16, u16, i32, i64);

impl<'a> ViewItem<'a> for &'a str {
    #[inline(always)]
    fn parse(cursor: &mut Cursor<'a>, _version: i16) -> Option<Self> {
        cursor.string()
    }
    #[inline(always)]
    fn skip(cursor: &mut Cursor<'a>, _version: i16) -> Option<()> {
        cursor.skip_string()
    }
    #[inline(always)]
    fn visit_bytes<V: ValueVisitor>(
        cursor: &mut Cursor<'a>,
        _version: i16,
        visitor: &mut V,
    ) -> Option<()> {
        visitor.string(cursor.string()?);
        Some(())
    }
}

/// A validated array in the input: its items' bytes and count. Iterating reads each item from
/// those bytes; nothing is allocated.
pub struct ArrayView<'a, T> {
    bytes: &'a [u8],
    count: usize,
    version: i16,
    item: PhantomData<fn() -> T>,
}

impl<'a, T> ArrayView<'a, T> {
    #[inline(always)]
    pub(crate) fn new(bytes: &'a [u8], count: usize, version: i16) -> Self {
        ArrayView {
            bytes,
            count,
            version,
            item: PhantomData,
        }
    }

    /// The number of items.
    #[inline]
    pub fn len(&self) -> usize {
        self.count
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The items' encoded bytes, without the count in front of them.
    #[inline]
    pub fn as_bytes(&self) -> &'a [u8] {
        self.bytes
    }
}

impl<'a, T: ViewItem<'a>> ArrayView<'a, T> {
    #[inline]
    pub fn iter(&self) -> ArrayViewIter<'a, T> {
        ArrayViewIter {
            cursor: Cursor::new(self.bytes),
            remaining: self.count,
            version: self.version,
            item: PhantomData,
        }
    }
}

impl<'a, T: ViewItem<'a>> ArrayView<'a, T> {
    /// Hands the count and every item's values to `visitor`, reading the items in one pass.
    pub fn visit_items<V: ValueVisitor>(&self, visitor: &mut V) {
        visitor.array(self.count);
        let mut cursor = Cursor::new(self.bytes);
        let _ = T::visit_items(&mut cursor, self.count, self.version, visitor);
    }
}

impl<T> Clone for ArrayView<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for ArrayView<'_, T> {}

impl<T> Default for ArrayView<'_, T> {
    fn default() -> Self {
        ArrayView::new(&[], 0, 0)
    }
}

impl<'a, T: ViewItem<'a> + fmt::Debug> fmt::Debug for ArrayView<'a, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a, T: ViewItem<'a>> IntoIterator for ArrayView<'a, T> {
    type Item = T;
    type IntoIter = ArrayViewIter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<'a, T: ViewItem<'a>> IntoIterator for &ArrayView<'a, T> {
    type Item = T;
    type IntoIter = ArrayViewIter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// The items of an [`ArrayView`], each read when reached.
pub struct ArrayViewIter<'a, T> {
    cursor: Cursor<'a>,
    remaining: usize,
    version: i16,
    item: PhantomData<fn() -> T>,
}

impl<T> fmt::Debug for ArrayViewIter<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ArrayViewIter")
            .field("remaining", &self.remaining)
            .finish_non_exhaustive()
    }
}

impl<'a, T: ViewItem<'a>> Iterator for ArrayViewIter<'a, T> {
    type Item = T;

    #[inline]
    fn next(&mut self) -> Option<T> {
        if self.remaining == 0 {
            return None;
        }
        let item = T::parse(&mut self.cursor, self.version);
        // Validated bytes always hold every item; should they not, the iteration ends.
        self.remaining = if item.is_some() {
            self.remaining - 1
        } else {
            0
        };
        item
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }
}

impl<'a, T: ViewItem<'a>> ExactSizeIterator for ArrayViewIter<'a, T> {}

impl<'a, T: ViewItem<'a>> std::iter::FusedIterator for ArrayViewIter<'a, T> {}

/// A struct's unknown tagged fields as they lie in the input, validated (ascending tags).
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub struct RawTaggedFields<'a> {
    /// The entries (tag, size, data each), without the count in front of them.
    entries: &'a [u8],
    /// A `usize`, not the wire's `u32`: an empty section's count is then written with one store
    /// as wide as the load that reads it back (a narrower store stalls that load).
    count: usize,
}

impl<'a> RawTaggedFields<'a> {
    #[inline(always)]
    pub(crate) fn new(entries: &'a [u8], count: u32) -> Self {
        RawTaggedFields {
            entries,
            count: count as usize,
        }
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.count
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// (tag, data) in ascending tag order.
    pub fn iter(&self) -> impl Iterator<Item = (u32, &'a [u8])> + 'a {
        let mut cursor = Cursor::new(self.entries);
        (0..self.count).map_while(move |_| {
            let tag = cursor.uvarint()?;
            let size = cursor.uvarint()?;
            Some((tag, cursor.take(size as usize)?))
        })
    }

    /// The owned form the generated messages hold.
    pub fn to_tagged_fields(&self) -> TaggedFields {
        self.iter()
            .map(|(tag, data)| (tag, Bytes::copy_from_slice(data)))
            .collect()
    }
}

impl fmt::Debug for RawTaggedFields<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}
