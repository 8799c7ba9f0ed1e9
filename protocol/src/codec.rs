//! Primitives of Kafka's flexible-version encoding (KIP-482): fixed-width integers, unsigned
//! varints, compact strings and arrays (length + 1, zero meaning null), nullable-struct markers
//! and tagged-field sections. The generated message code is written in terms of these.
//!
//! Decoding is strict: it accepts exactly the bytes that Kafka's writer produces for some value,
//! so any input that decodes re-encodes to the same bytes.

use std::collections::BTreeMap;
use std::fmt;

use bytes::{BufMut, Bytes};

use crate::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind, PathSegment};
use crate::view::{ArrayView, RawTaggedFields};

/// Kafka refuses strings longer than `i16::MAX` bytes on both sides.
pub const MAX_STRING_LEN: usize = i16::MAX as usize;

/// Unknown tagged fields of a struct, by tag, re-encoded in ascending tag order.
pub type TaggedFields = BTreeMap<u32, Bytes>;

/// One decoded value and where its bytes are, recorded when a [`Decoder`] traces.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TraceEntry {
    pub start: usize,
    pub end: usize,
    /// Innermost segment first; see [`TraceEntry::path`].
    segments: Vec<PathSegment>,
    pub value: String,
}

impl TraceEntry {
    /// The field path, outermost first, e.g. `topology.subtopologies[0].source_topics`.
    pub fn path(&self) -> String {
        crate::error::FieldPath::from_innermost_first(self.segments.clone()).to_string()
    }
}

/// Whether a [`Decoder`] records what it reads. A type parameter rather than a flag, so that the
/// plain decoder carries no tracing code at all.
pub trait Recorder: fmt::Debug {
    /// True when values are recorded.
    const RECORDS: bool;
    /// The recorded entries, `None` when nothing is recorded.
    fn entries(&mut self) -> Option<&mut Vec<TraceEntry>>;
}

/// Records nothing: the decoder of [`Decoder::new`].
#[derive(Debug, Default)]
pub struct Untraced;

impl Recorder for Untraced {
    const RECORDS: bool = false;
    #[inline(always)]
    fn entries(&mut self) -> Option<&mut Vec<TraceEntry>> {
        None
    }
}

/// Records every value: the decoder of [`Decoder::tracing`].
#[derive(Debug, Default)]
pub struct Traced(Vec<TraceEntry>);

impl Recorder for Traced {
    const RECORDS: bool = true;
    fn entries(&mut self) -> Option<&mut Vec<TraceEntry>> {
        Some(&mut self.0)
    }
}

/// Reads one message from a byte slice.
#[derive(Debug)]
pub struct Decoder<'a, R: Recorder = Untraced> {
    input: &'a [u8],
    position: usize,
    /// Text ahead known to be UTF-8, so that most strings need no check of their own.
    utf8: Utf8Run<'a>,
    recorder: R,
    /// The message must fill the input: checked at its end by [`Decoder::end_of_message`].
    exact: bool,
}

pub type DecodeResult<T> = Result<T, DecodeError>;

impl<'a> Decoder<'a> {
    /// A decoder for a message at the front of `input`, which may hold more bytes after it.
    pub fn new(input: &'a [u8]) -> Self {
        Decoder {
            input,
            position: 0,
            utf8: Utf8Run::default(),
            recorder: Untraced,
            exact: false,
        }
    }

    /// A decoder for one message that fills `input`: bytes after it are refused.
    pub fn exact(input: &'a [u8]) -> Self {
        Decoder {
            exact: true,
            ..Decoder::new(input)
        }
    }
}

impl<'a> Decoder<'a, Traced> {
    /// A decoder that records every value it reads, for annotated dumps, of one message that
    /// fills `input`.
    pub fn tracing(input: &'a [u8]) -> Self {
        Decoder {
            input,
            position: 0,
            utf8: Utf8Run::default(),
            recorder: Traced::default(),
            exact: true,
        }
    }

    /// The recorded values.
    pub fn into_trace(self) -> Vec<TraceEntry> {
        self.recorder.0
    }
}

impl<'a, R: Recorder> Decoder<'a, R> {
    #[inline]
    pub fn position(&self) -> usize {
        self.position
    }

    #[inline]
    pub fn remaining(&self) -> usize {
        self.input.len() - self.position
    }

    /// Refuses bytes left after a complete message.
    pub fn finish(&self) -> DecodeResult<()> {
        match self.remaining() {
            0 => Ok(()),
            count => Err(self.error(DecodeErrorKind::TrailingBytes { count })),
        }
    }

    /// Called by a message's reader after its last field: refuses trailing bytes when the
    /// decoder is [`Decoder::exact`].
    #[inline(always)]
    pub fn end_of_message(&self) -> DecodeResult<()> {
        if self.exact {
            self.finish()
        } else {
            Ok(())
        }
    }

    #[cold]
    #[inline(never)]
    fn error(&self, kind: DecodeErrorKind) -> DecodeError {
        DecodeError::new(self.position, kind)
    }

    /// An error at `offset`, where the refused value starts.
    #[cold]
    #[inline(never)]
    fn error_at(&mut self, offset: usize, kind: DecodeErrorKind) -> DecodeError {
        self.position = offset;
        self.error(kind)
    }

    #[inline(always)]
    fn record(&mut self, start: usize, value: impl FnOnce() -> String) {
        if R::RECORDS {
            let end = self.position;
            if let Some(trace) = self.recorder.entries() {
                trace.push(TraceEntry {
                    start,
                    end,
                    segments: Vec::new(),
                    value: value(),
                });
            }
        }
    }

    #[inline(always)]
    fn nest<T>(
        &mut self,
        segment: PathSegment,
        read: impl FnOnce(&mut Self) -> DecodeResult<T>,
    ) -> DecodeResult<T> {
        if !R::RECORDS {
            return read(self).map_err(|error| error.within(segment));
        }
        let first_entry = self.recorder.entries().map_or(0, |trace| trace.len());
        match read(self) {
            Ok(value) => {
                if let Some(trace) = self.recorder.entries() {
                    for entry in &mut trace[first_entry..] {
                        entry.segments.push(segment);
                    }
                }
                Ok(value)
            }
            Err(error) => Err(error.within(segment)),
        }
    }

    /// Reads the named field; errors and trace entries inside it carry its name.
    #[inline(always)]
    pub fn field<T>(
        &mut self,
        name: &'static str,
        read: impl FnOnce(&mut Self) -> DecodeResult<T>,
    ) -> DecodeResult<T> {
        self.nest(PathSegment::Field(name), read)
    }

    #[inline(always)]
    fn take(&mut self, count: usize) -> DecodeResult<&'a [u8]> {
        let remaining = self.remaining();
        if count > remaining {
            return Err(self.error(DecodeErrorKind::Truncated {
                needed: count,
                remaining,
            }));
        }
        let bytes = &self.input[self.position..self.position + count];
        self.position += count;
        Ok(bytes)
    }

    #[inline(always)]
    fn take_array<const N: usize>(&mut self) -> DecodeResult<[u8; N]> {
        let bytes = self.take(N)?;
        let mut array = [0u8; N];
        array.copy_from_slice(bytes);
        Ok(array)
    }

    #[inline(always)]
    fn fixed<T: ToString, const N: usize>(
        &mut self,
        from_be_bytes: fn([u8; N]) -> T,
    ) -> DecodeResult<T> {
        let start = self.position;
        let value = from_be_bytes(self.take_array()?);
        self.record(start, || value.to_string());
        Ok(value)
    }

    #[inline]
    pub fn i8(&mut self) -> DecodeResult<i8> {
        self.fixed(i8::from_be_bytes)
    }

    #[inline]
    pub fn i16(&mut self) -> DecodeResult<i16> {
        self.fixed(i16::from_be_bytes)
    }

    #[inline]
    pub fn u16(&mut self) -> DecodeResult<u16> {
        self.fixed(u16::from_be_bytes)
    }

    #[inline]
    pub fn i32(&mut self) -> DecodeResult<i32> {
        self.fixed(i32::from_be_bytes)
    }

    #[inline]
    pub fn i64(&mut self) -> DecodeResult<i64> {
        self.fixed(i64::from_be_bytes)
    }

    #[inline]
    pub fn bool(&mut self) -> DecodeResult<bool> {
        let start = self.position;
        let value = match self.take_array::<1>()?[0] {
            0 => false,
            1 => true,
            other => return Err(self.error_at(start, DecodeErrorKind::InvalidBoolean(other))),
        };
        self.record(start, || value.to_string());
        Ok(value)
    }

    /// An unsigned varint in its one canonical (shortest) form. One byte inline, as lengths and
    /// counts almost always are; longer ones out of line.
    #[inline(always)]
    fn uvarint(&mut self) -> DecodeResult<u32> {
        match self.input.get(self.position) {
            Some(&byte) if byte < 0x80 => {
                self.position += 1;
                Ok(u32::from(byte))
            }
            _ => {
                let (value, end) = long_uvarint(self.input, self.position)?;
                self.position = end;
                Ok(value)
            }
        }
    }

    /// A compact length: `None` for null, else the length, which must not exceed `i32::MAX`.
    #[inline(always)]
    fn compact_length(&mut self) -> DecodeResult<Option<usize>> {
        let start = self.position;
        let encoded = self.uvarint()?;
        if encoded == 0 {
            return Ok(None);
        }
        let length = encoded - 1;
        if length > i32::MAX as u32 {
            let remaining = self.remaining();
            return Err(self.error_at(
                start,
                DecodeErrorKind::InvalidLength {
                    length: i64::from(length as i32),
                    remaining,
                },
            ));
        }
        Ok(Some(length as usize))
    }

    #[inline(always)]
    fn string_body(&mut self, start: usize, length: usize) -> DecodeResult<String> {
        self.str_body(start, length).map(String::from)
    }

    /// A string's `length` bytes (its length read at `start`) and where they begin, once the
    /// length is within bounds; their text is not checked.
    #[inline(always)]
    fn string_bytes(&mut self, start: usize, length: usize) -> DecodeResult<(usize, &'a [u8])> {
        if length > MAX_STRING_LEN {
            let remaining = self.remaining();
            return Err(self.error_at(
                start,
                DecodeErrorKind::InvalidLength {
                    length: length as i64,
                    remaining,
                },
            ));
        }
        let body_start = self.position;
        Ok((body_start, self.take(length)?))
    }

    /// The checks of [`Decoder::string_body`], borrowing the text from the input.
    #[inline(always)]
    fn str_body(&mut self, start: usize, length: usize) -> DecodeResult<&'a str> {
        let (body_start, bytes) = self.string_bytes(start, length)?;
        match self.utf8.str(bytes, &self.input[body_start..]) {
            Some(text) => Ok(text),
            None => Err(self.error_at(body_start, DecodeErrorKind::InvalidUtf8)),
        }
    }

    #[inline(always)]
    pub fn nullable_string(&mut self) -> DecodeResult<Option<String>> {
        let start = self.position;
        let value = match self.compact_length()? {
            None => None,
            Some(length) => Some(self.string_body(start, length)?),
        };
        self.record(start, || match &value {
            None => "null".to_owned(),
            Some(text) => format!("{text:?}"),
        });
        Ok(value)
    }

    /// A non-null string, read without the `Option` of [`Decoder::nullable_string`] in between.
    #[inline(always)]
    pub fn string(&mut self) -> DecodeResult<String> {
        let start = self.position;
        let Some(length) = self.compact_length()? else {
            self.record(start, || "null".to_owned());
            return Err(self.error_at(start, DecodeErrorKind::UnexpectedNull));
        };
        let value = self.string_body(start, length)?;
        self.record(start, || format!("{value:?}"));
        Ok(value)
    }

    /// A compact array whose items each take at least `min_item_size` bytes; the count is
    /// checked against the remaining input before anything is allocated.
    #[inline]
    pub fn nullable_array<T>(
        &mut self,
        min_item_size: usize,
        mut read_item: impl FnMut(&mut Self) -> DecodeResult<T>,
    ) -> DecodeResult<Option<Vec<T>>> {
        let start = self.position;
        let Some(count) = self.compact_length()? else {
            self.record(start, || "null".to_owned());
            return Ok(None);
        };
        self.check_count(start, count, min_item_size)?;
        self.record(start, || plural(count, "item"));
        let mut items = Vec::with_capacity(count);
        for index in 0..count {
            items.push(self.nest(PathSegment::Index(index), &mut read_item)?);
        }
        Ok(Some(items))
    }

    /// Refuses an array count whose items, at `min_item_size` bytes each, the remaining input
    /// cannot hold; the array starts at `start`.
    #[inline(always)]
    fn check_count(
        &mut self,
        start: usize,
        count: usize,
        min_item_size: usize,
    ) -> DecodeResult<()> {
        let remaining = self.remaining();
        if count.saturating_mul(min_item_size.max(1)) > remaining {
            return Err(self.error_at(
                start,
                DecodeErrorKind::InvalidLength {
                    length: count as i64,
                    remaining,
                },
            ));
        }
        Ok(())
    }

    /// A non-null array of fixed-width integers (`i32::from_be_bytes` for int32 items). Its count
    /// check already covers every item, so untraced the items come from one slice in one pass,
    /// with the same errors as [`Decoder::array`]; traced, it is read item by item like any array.
    #[inline(always)]
    pub fn fixed_array<T: ToString, const N: usize>(
        &mut self,
        from_be_bytes: fn([u8; N]) -> T,
    ) -> DecodeResult<Vec<T>> {
        if R::RECORDS {
            return self.array(N, |decoder| decoder.fixed(from_be_bytes));
        }
        let start = self.position;
        let Some(count) = self.compact_length()? else {
            return Err(self.error_at(start, DecodeErrorKind::UnexpectedNull));
        };
        self.check_count(start, count, N)?;
        let bytes = self.take(count * N)?;
        Ok(bytes
            .chunks_exact(N)
            .map(|item| {
                let mut array = [0u8; N];
                array.copy_from_slice(item);
                from_be_bytes(array)
            })
            .collect())
    }

    #[inline]
    pub fn array<T>(
        &mut self,
        min_item_size: usize,
        read_item: impl FnMut(&mut Self) -> DecodeResult<T>,
    ) -> DecodeResult<Vec<T>> {
        let start = self.position;
        match self.nullable_array(min_item_size, read_item)? {
            Some(items) => Ok(items),
            None => {
                if let Some(trace) = self.recorder.entries() {
                    trace.pop();
                }
                Err(self.error_at(start, DecodeErrorKind::UnexpectedNull))
            }
        }
    }

    /// A nullable struct: an int8 marker, -1 for null or 1 for present, then the struct.
    #[inline]
    pub fn nullable_struct<T>(
        &mut self,
        read_struct: impl FnOnce(&mut Self) -> DecodeResult<T>,
    ) -> DecodeResult<Option<T>> {
        let start = self.position;
        let marker = i8::from_be_bytes(self.take_array()?);
        match marker {
            -1 => {
                self.record(start, || "null".to_owned());
                Ok(None)
            }
            1 => {
                self.record(start, || "present".to_owned());
                read_struct(self).map(Some)
            }
            other => Err(self.error_at(start, DecodeErrorKind::InvalidNullMarker(other))),
        }
    }

    /// A tagged-field section. The schemas declare no tagged fields, so all are unknown and kept.
    /// An empty section, the usual case, costs one byte read.
    #[inline(always)]
    pub fn tagged_fields(&mut self) -> DecodeResult<TaggedFields> {
        if !R::RECORDS && self.input.get(self.position) == Some(&0) {
            self.position += 1;
            return Ok(TaggedFields::new());
        }
        self.tagged_field_section()
    }

    #[inline(never)]
    fn tagged_field_section(&mut self) -> DecodeResult<TaggedFields> {
        let mut fields = TaggedFields::new();
        self.tagged_field_entries(|tag, data| {
            fields.insert(tag, Bytes::copy_from_slice(data));
        })?;
        Ok(fields)
    }

    /// Checks a non-empty tagged-field section, handing each entry to `each`; returns where the
    /// entries start and how many there are.
    #[inline(always)]
    fn tagged_field_entries(
        &mut self,
        mut each: impl FnMut(u32, &'a [u8]),
    ) -> DecodeResult<(usize, u32)> {
        self.field("_tagged_fields", |decoder| {
            let start = decoder.position;
            let count = decoder.uvarint()?;
            decoder.record(start, || plural(count as usize, "field"));
            let entries_start = decoder.position;
            let mut previous: Option<u32> = None;
            for index in 0..count as usize {
                decoder.nest(PathSegment::Index(index), |decoder| {
                    let start = decoder.position;
                    let tag = decoder.uvarint()?;
                    if let Some(previous) = previous.filter(|&previous| tag <= previous) {
                        return Err(decoder.error_at(
                            start,
                            DecodeErrorKind::TaggedFieldsOutOfOrder { tag, previous },
                        ));
                    }
                    let size = decoder.uvarint()? as usize;
                    let data = decoder.take(size)?;
                    decoder.record(start, || format!("tag {tag}, {size} bytes"));
                    each(tag, data);
                    previous = Some(tag);
                    Ok(())
                })?;
            }
            Ok((entries_start, count))
        })
    }
}

/// The borrowed decoder of the generated `...View` types ([`crate::view`]): the owned decoder's
/// checks in the same order, so that both refuse the same bytes with the same error, keeping
/// slices of the input instead of building values.
impl<'a> Decoder<'a> {
    /// A non-null string borrowed from the input; see [`Decoder::string`].
    #[inline(always)]
    pub fn str(&mut self) -> DecodeResult<&'a str> {
        let start = self.position;
        let Some(length) = self.compact_length()? else {
            return Err(self.error_at(start, DecodeErrorKind::UnexpectedNull));
        };
        self.str_body(start, length)
    }

    /// See [`Decoder::nullable_string`].
    #[inline(always)]
    pub fn nullable_str(&mut self) -> DecodeResult<Option<&'a str>> {
        let start = self.position;
        match self.compact_length()? {
            None => Ok(None),
            Some(length) => self.str_body(start, length).map(Some),
        }
    }

    /// The checks of [`Decoder::str`], for a string the view does not keep (in an array's
    /// item, read again when the array is iterated).
    #[inline(always)]
    pub fn check_str(&mut self) -> DecodeResult<()> {
        let start = self.position;
        let Some(length) = self.compact_length()? else {
            return Err(self.error_at(start, DecodeErrorKind::UnexpectedNull));
        };
        self.check_str_body(start, length)
    }

    /// The checks of [`Decoder::nullable_str`], keeping nothing.
    #[inline(always)]
    pub fn check_nullable_str(&mut self) -> DecodeResult<()> {
        let start = self.position;
        match self.compact_length()? {
            None => Ok(()),
            Some(length) => self.check_str_body(start, length),
        }
    }

    /// The checks of [`Decoder::str_body`]. No `&str` is made, so an ASCII string (the usual
    /// kind: ids, names, hosts) is checked inline, without a call to `from_utf8` or the renewal
    /// of a run; any other goes to `from_utf8`, so the same strings are accepted.
    #[inline(always)]
    fn check_str_body(&mut self, start: usize, length: usize) -> DecodeResult<()> {
        let (body_start, bytes) = self.string_bytes(start, length)?;
        if bytes.is_ascii() || std::str::from_utf8(bytes).is_ok() {
            Ok(())
        } else {
            Err(self.error_at(body_start, DecodeErrorKind::InvalidUtf8))
        }
    }

    /// Checks an array like [`Decoder::nullable_array`], `check_item` reading each item.
    #[inline(always)]
    pub fn nullable_array_view<T>(
        &mut self,
        version: i16,
        min_item_size: usize,
        mut check_item: impl FnMut(&mut Self) -> DecodeResult<()>,
    ) -> DecodeResult<Option<ArrayView<'a, T>>> {
        let start = self.position;
        let Some(count) = self.compact_length()? else {
            return Ok(None);
        };
        self.check_count(start, count, min_item_size)?;
        let items_start = self.position;
        for index in 0..count {
            self.nest(PathSegment::Index(index), &mut check_item)?;
        }
        let bytes = &self.input[items_start..self.position];
        Ok(Some(ArrayView::new(bytes, count, version)))
    }

    /// Checks a non-null array like [`Decoder::array`].
    #[inline(always)]
    pub fn array_view<T>(
        &mut self,
        version: i16,
        min_item_size: usize,
        check_item: impl FnMut(&mut Self) -> DecodeResult<()>,
    ) -> DecodeResult<ArrayView<'a, T>> {
        let start = self.position;
        match self.nullable_array_view(version, min_item_size, check_item)? {
            Some(items) => Ok(items),
            None => Err(self.error_at(start, DecodeErrorKind::UnexpectedNull)),
        }
    }

    /// A non-null array of `N`-byte integers, checked like [`Decoder::fixed_array`].
    #[inline(always)]
    pub fn fixed_array_view<T, const N: usize>(
        &mut self,
        version: i16,
    ) -> DecodeResult<ArrayView<'a, T>> {
        let start = self.position;
        let Some(count) = self.compact_length()? else {
            return Err(self.error_at(start, DecodeErrorKind::UnexpectedNull));
        };
        self.check_count(start, count, N)?;
        let bytes = self.take(count * N)?;
        Ok(ArrayView::new(bytes, count, version))
    }

    /// A tagged-field section, checked like [`Decoder::tagged_fields`], kept as its bytes.
    #[inline(always)]
    pub fn raw_tagged_fields(&mut self) -> DecodeResult<RawTaggedFields<'a>> {
        if self.input.get(self.position) == Some(&0) {
            self.position += 1;
            return Ok(RawTaggedFields::default());
        }
        self.raw_tagged_field_section()
    }

    #[inline(never)]
    fn raw_tagged_field_section(&mut self) -> DecodeResult<RawTaggedFields<'a>> {
        let (entries_start, count) = self.tagged_field_entries(|_, _| {})?;
        Ok(RawTaggedFields::new(
            &self.input[entries_start..self.position],
            count,
        ))
    }
}

/// The varint of more than one byte at `start` and where it ends, or the error the decoder
/// reports for it. A function of the input, not of the decoder: after a call that may write the
/// decoder, its callers reload their position from memory, on every field after it.
#[inline(never)]
fn long_uvarint(input: &[u8], start: usize) -> DecodeResult<(u32, usize)> {
    let mut value: u32 = 0;
    for index in 0..5 {
        let position = start + index;
        let Some(&byte) = input.get(position) else {
            return Err(DecodeError::new(
                position,
                DecodeErrorKind::Truncated {
                    needed: 1,
                    remaining: input.len().saturating_sub(position),
                },
            ));
        };
        let group = u32::from(byte & 0x7f);
        let last = byte & 0x80 == 0;
        // The fifth group may only hold the top four bits; a last group of zero is redundant.
        if (index == 4 && (!last || group > 0x0f)) || (last && index > 0 && group == 0) {
            return Err(DecodeError::new(start, DecodeErrorKind::InvalidVarint));
        }
        value |= group << (7 * index);
        if last {
            return Ok((value, position + 1));
        }
    }
    unreachable!("the fifth byte either ends the varint or is refused")
}

fn plural(count: usize, noun: &str) -> String {
    if count == 1 {
        format!("1 {noun}")
    } else {
        format!("{count} {noun}s")
    }
}

/// Where encoded bytes go: a buffer, or a counter that only measures.
pub trait Sink {
    fn put_slice(&mut self, bytes: &[u8]);

    /// True once bytes did not fit: the encoding is then abandoned at the next array item.
    #[inline(always)]
    fn overflowed(&self) -> bool {
        false
    }
}

/// Counts bytes, so that `compute_size` runs the same code as `encode`.
#[derive(Debug, Default)]
pub struct SizeCounter(pub usize);

impl Sink for SizeCounter {
    #[inline(always)]
    fn put_slice(&mut self, bytes: &[u8]) {
        self.0 += bytes.len();
    }
}

/// Writes into any [`BufMut`].
#[derive(Debug)]
pub struct BufSink<'b, B: BufMut>(pub &'b mut B);

impl<B: BufMut> Sink for BufSink<'_, B> {
    #[inline(always)]
    fn put_slice(&mut self, bytes: &[u8]) {
        self.0.put_slice(bytes);
    }
}

/// Fills a slice, as `encode_to_vec` does, with a position of its own: a `Vec`'s length behind a
/// reference is stored and loaded again around every byte written (a byte store may alias it),
/// besides a capacity check per write. When the bytes do not fit, [`Sink::overflowed`] turns
/// true and [`Encoder::array`] stops writing items: the encoding is then incomplete, and
/// `written` is not its size.
#[derive(Debug)]
pub struct SliceSink<'b> {
    bytes: &'b mut [u8],
    written: usize,
}

impl<'b> SliceSink<'b> {
    pub fn new(bytes: &'b mut [u8]) -> Self {
        SliceSink { bytes, written: 0 }
    }

    /// The bytes written so far.
    pub fn written(&self) -> usize {
        self.written
    }
}

impl Sink for SliceSink<'_> {
    #[inline(always)]
    fn put_slice(&mut self, bytes: &[u8]) {
        let end = self.written + bytes.len();
        // Past the end nothing is written, and `overflowed` says so.
        if let Some(target) = self.bytes.get_mut(self.written..end) {
            target.copy_from_slice(bytes);
        }
        self.written = end;
    }

    #[inline(always)]
    fn overflowed(&self) -> bool {
        self.written > self.bytes.len()
    }
}

/// Writes one message into a [`Sink`].
#[derive(Debug)]
pub struct Encoder<S: Sink> {
    sink: S,
}

/// The error is boxed, as [`DecodeError`] is: a success is then one register.
pub type EncodeResult = Result<(), Box<EncodeError>>;

#[cold]
#[inline(never)]
fn encode_error(kind: EncodeErrorKind) -> Box<EncodeError> {
    Box::new(EncodeError::new(kind))
}

#[cold]
#[inline(never)]
fn encode_error_within(error: Box<EncodeError>, segment: PathSegment) -> Box<EncodeError> {
    let mut error = error;
    error.path.push_outer(segment);
    error
}

impl<S: Sink> Encoder<S> {
    pub fn new(sink: S) -> Self {
        Encoder { sink }
    }

    pub fn into_sink(self) -> S {
        self.sink
    }

    /// Writes the named field; errors inside it carry its name.
    #[inline(always)]
    pub fn field(
        &mut self,
        name: &'static str,
        write: impl FnOnce(&mut Self) -> EncodeResult,
    ) -> EncodeResult {
        write(self).map_err(|error| encode_error_within(error, PathSegment::Field(name)))
    }

    /// Refuses a non-default value in a field the version lacks (unless the field is ignorable,
    /// which the generated code handles by skipping it).
    #[inline]
    pub fn absent_field(
        &mut self,
        name: &'static str,
        is_default: bool,
        version: i16,
    ) -> EncodeResult {
        if is_default {
            Ok(())
        } else {
            Err(encode_error_within(
                encode_error(EncodeErrorKind::FieldNotInVersion { version }),
                PathSegment::Field(name),
            ))
        }
    }

    #[inline]
    pub fn i8(&mut self, value: i8) {
        self.sink.put_slice(&value.to_be_bytes());
    }

    #[inline]
    pub fn i16(&mut self, value: i16) {
        self.sink.put_slice(&value.to_be_bytes());
    }

    #[inline]
    pub fn u16(&mut self, value: u16) {
        self.sink.put_slice(&value.to_be_bytes());
    }

    #[inline]
    pub fn i32(&mut self, value: i32) {
        self.sink.put_slice(&value.to_be_bytes());
    }

    #[inline]
    pub fn i64(&mut self, value: i64) {
        self.sink.put_slice(&value.to_be_bytes());
    }

    #[inline]
    pub fn bool(&mut self, value: bool) {
        self.sink.put_slice(&[u8::from(value)]);
    }

    #[inline(always)]
    fn uvarint(&mut self, value: u32) {
        if value < 0x80 {
            self.sink.put_slice(&[value as u8]);
        } else {
            self.long_uvarint(value);
        }
    }

    #[inline(never)]
    fn long_uvarint(&mut self, mut value: u32) {
        let mut bytes = [0u8; 5];
        let mut length = 0;
        while value >= 0x80 {
            bytes[length] = (value as u8 & 0x7f) | 0x80;
            value >>= 7;
            length += 1;
        }
        bytes[length] = value as u8;
        self.sink.put_slice(&bytes[..=length]);
    }

    #[inline(always)]
    fn compact_length(&mut self, length: Option<usize>) -> EncodeResult {
        match length {
            None => self.uvarint(0),
            Some(length) if length < i32::MAX as usize => self.uvarint(length as u32 + 1),
            Some(length) => return Err(encode_error(EncodeErrorKind::TooLong { length })),
        }
        Ok(())
    }

    /// Inline, as every string field calls it: called, it keeps the encoder's position in memory.
    #[inline(always)]
    pub fn nullable_string(&mut self, value: Option<&str>) -> EncodeResult {
        match value {
            None => self.uvarint(0),
            Some(text) if text.len() > MAX_STRING_LEN => {
                return Err(encode_error(EncodeErrorKind::StringTooLong {
                    length: text.len(),
                }))
            }
            Some(text) => {
                self.uvarint(text.len() as u32 + 1);
                self.sink.put_slice(text.as_bytes());
            }
        }
        Ok(())
    }

    #[inline(always)]
    pub fn string(&mut self, value: &str) -> EncodeResult {
        self.nullable_string(Some(value))
    }

    #[inline]
    pub fn nullable_array<T>(
        &mut self,
        items: Option<&[T]>,
        write_item: impl FnMut(&mut Self, &T) -> EncodeResult,
    ) -> EncodeResult {
        match items {
            None => self.compact_length(None),
            Some(items) => self.array(items, write_item),
        }
    }

    #[inline]
    pub fn array<T>(
        &mut self,
        items: &[T],
        mut write_item: impl FnMut(&mut Self, &T) -> EncodeResult,
    ) -> EncodeResult {
        self.compact_length(Some(items.len()))?;
        for (index, item) in items.iter().enumerate() {
            // What did not fit is written again at its counted size: stop writing it here, where
            // large messages spend their bytes.
            if self.sink.overflowed() {
                return Ok(());
            }
            write_item(self, item)
                .map_err(|error| encode_error_within(error, PathSegment::Index(index)))?;
        }
        Ok(())
    }

    #[inline]
    pub fn nullable_struct<T>(
        &mut self,
        value: Option<&T>,
        write_struct: impl FnOnce(&mut Self, &T) -> EncodeResult,
    ) -> EncodeResult {
        match value {
            None => {
                self.i8(-1);
                Ok(())
            }
            Some(value) => {
                self.i8(1);
                write_struct(self, value)
            }
        }
    }

    /// An empty section, the usual case, is one zero byte.
    #[inline(always)]
    pub fn tagged_fields(&mut self, fields: &TaggedFields) -> EncodeResult {
        if fields.is_empty() {
            self.uvarint(0);
            return Ok(());
        }
        self.tagged_field_section(fields)
    }

    #[inline(never)]
    fn tagged_field_section(&mut self, fields: &TaggedFields) -> EncodeResult {
        self.field("_tagged_fields", |encoder| {
            encoder.compact_count(fields.len())?;
            for (tag, data) in fields {
                encoder.uvarint(*tag);
                encoder.compact_count(data.len())?;
                encoder.sink.put_slice(data);
            }
            Ok(())
        })
    }

    /// A plain (not length + 1) unsigned varint count.
    fn compact_count(&mut self, count: usize) -> EncodeResult {
        let count = u32::try_from(count)
            .map_err(|_| encode_error(EncodeErrorKind::TooLong { length: count }))?;
        self.uvarint(count);
        Ok(())
    }
}

/// `arbitrary` support for [`TaggedFields`], which holds [`Bytes`] (no `Arbitrary` impl of its own).
pub fn arbitrary_tagged_fields(
    input: &mut arbitrary::Unstructured<'_>,
) -> arbitrary::Result<TaggedFields> {
    // Mostly empty, as real peers send them; sometimes a few, to exercise the section.
    if input.ratio(7, 8)? {
        return Ok(TaggedFields::new());
    }
    let entries: Vec<(u32, Vec<u8>)> = input.arbitrary()?;
    Ok(entries
        .into_iter()
        .take(4)
        .map(|(tag, data)| (tag, Bytes::from(data)))
        .collect())
}

/// The longest UTF-8 text found at the last string that reached past the previous one. A string
/// inside it is text without a check of its own (a slice of valid UTF-8 between character
/// boundaries is valid UTF-8), so that the strings of a message cost one pass at `from_utf8`'s
/// bulk speed instead of a call each. Whether a string is accepted does not change: outside the
/// run, or when the run cannot tell, `from_utf8` decides.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Utf8Run<'a> {
    text: &'a str,
}

impl<'a> Utf8Run<'a> {
    /// `bytes` as text, or `None` when they are not UTF-8; `rest` starts where `bytes` does and
    /// runs to the end of the input.
    #[inline(always)]
    pub(crate) fn str(&mut self, bytes: &'a [u8], rest: &'a [u8]) -> Option<&'a str> {
        let offset = (bytes.as_ptr() as usize).wrapping_sub(self.text.as_ptr() as usize);
        match offset
            .checked_add(bytes.len())
            .and_then(|end| self.text.get(offset..end))
        {
            Some(text) => Some(text),
            // Near the end of the input a run would hold little more than the string.
            None if rest.len() < Self::MIN_RUN => std::str::from_utf8(bytes).ok(),
            None => self.renew(bytes, rest),
        }
    }

    /// Below this many bytes to the end of the input, renewing the run (a scan up to the end of
    /// the text, then its check) costs more than checking the strings one by one: a steady
    /// heartbeat (68 bytes) decoded a quarter slower with it.
    const MIN_RUN: usize = 256;

    /// The run is the ASCII text from the string on, found by a scan that is cheaper than
    /// `from_utf8` and then checked once; only a string holding other characters takes the
    /// longest UTF-8 text instead, checked twice (`from_utf8` fails at its end, then the text
    /// up to there is checked again to borrow it as a `&str`).
    #[inline(never)]
    fn renew(&mut self, bytes: &'a [u8], rest: &'a [u8]) -> Option<&'a str> {
        let ascii = ascii_prefix_len(rest);
        self.text = if ascii >= bytes.len() {
            std::str::from_utf8(&rest[..ascii]).unwrap_or("")
        } else {
            match std::str::from_utf8(rest) {
                Ok(text) => text,
                Err(error) => std::str::from_utf8(&rest[..error.valid_up_to()]).unwrap_or(""),
            }
        };
        match self.text.get(..bytes.len()) {
            Some(text) => Some(text),
            None => std::str::from_utf8(bytes).ok(),
        }
    }
}

/// How many bytes at the front of `bytes` are ASCII: 32 bytes at a time, folded with `|` so that
/// the compiler reads each block with vector loads, then byte by byte in the block that ends it.
#[inline(always)]
fn ascii_prefix_len(bytes: &[u8]) -> usize {
    const BLOCK: usize = 32;
    let mut length = 0;
    for block in bytes.chunks_exact(BLOCK) {
        if block.iter().fold(0, |any, &byte| any | byte) >= 0x80 {
            break;
        }
        length += BLOCK;
    }
    let tail = &bytes[length..];
    length
        + tail
            .iter()
            .position(|&byte| byte >= 0x80)
            .unwrap_or(tail.len())
}
