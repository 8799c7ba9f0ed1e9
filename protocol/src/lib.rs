//! Wire messages of the Kafka Streams rebalance protocol (KIP-1071): `StreamsGroupHeartbeat`
//! (api key 88) and `StreamsGroupDescribe` (89), in two dialects:
//!
//! - [`kafka`]: what Apache Kafka 4.4 speaks, every version it defines (0 and 1);
//! - [`kip_draft`]: the early KIP draft of the heartbeat, its defects resolved as
//!   `protocol/schemas/kip-draft/RESOLUTIONS.md` records.
//!
//! The message types are generated from the JSON specs in `protocol/schemas/`. They implement
//! `kafka-protocol`'s traits ([`Encodable`], [`Decodable`], [`Message`], [`HeaderVersion`],
//! [`Request`]) and this crate's [`WireMessage`], whose decoder reports typed errors with the byte
//! offset and field path, and refuses trailing bytes. Each also has a borrowed view
//! (`StreamsGroupHeartbeatRequestView<'a>` and so on, see [`view`]) that decodes without
//! allocating and refuses the same bytes with the same errors.
//!
//! [`Encodable`]: kafka_protocol::protocol::Encodable
//! [`Decodable`]: kafka_protocol::protocol::Decodable
//! [`Message`]: kafka_protocol::protocol::Message
//! [`HeaderVersion`]: kafka_protocol::protocol::HeaderVersion
//! [`Request`]: kafka_protocol::protocol::Request

pub mod access;
pub mod annotate;
pub mod codec;
pub mod codes;
pub mod error;
pub mod frame;
pub mod fuzzing;
mod generated;
pub mod java_oracle;
pub mod rng;
pub mod samples;
pub mod view;

use kafka_protocol::protocol::VersionRange;

pub use codec::{Decoder, Encoder, TaggedFields, TraceEntry};
pub use error::{
    DecodeError, DecodeErrorDetails, DecodeErrorKind, EncodeError, EncodeErrorKind, FieldPath,
};
pub use generated::{kafka, kip_draft, AnyMessage, MessageKind};
pub use view::{ArrayView, MessageView, RawTaggedFields, ValueVisitor};

/// Which schema family a message belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Dialect {
    /// Apache Kafka 4.4, what real brokers speak.
    Kafka,
    /// The early KIP-1071 draft.
    KipDraft,
}

/// The largest encoding [`WireMessage::encode_to_vec`] writes on the stack first: a steady
/// heartbeat and its response fit, and zeroing the buffer costs less than a counting pass.
pub const SMALL_MESSAGE: usize = 128;

/// A message of this crate: the codec entry points shared by every generated type.
pub trait WireMessage: Sized {
    /// The message's name in its schema.
    const NAME: &'static str;
    const API_KEY: i16;
    /// The versions the schema defines.
    const VERSIONS: VersionRange;
    const KIND: MessageKind;

    #[doc(hidden)]
    fn read_body<R: codec::Recorder>(
        decoder: &mut Decoder<'_, R>,
        version: i16,
    ) -> codec::DecodeResult<Self>;
    #[doc(hidden)]
    fn write_body<S: codec::Sink>(
        &self,
        encoder: &mut Encoder<S>,
        version: i16,
    ) -> codec::EncodeResult;

    /// Resets every field that `version` lacks to its default, so that the value round-trips
    /// through that version unchanged.
    fn restrict_to_version(&mut self, version: i16);

    /// Decodes from `decoder`, which may hold more bytes after the message.
    #[inline]
    fn decode_from<R: codec::Recorder>(
        decoder: &mut Decoder<'_, R>,
        version: i16,
    ) -> Result<Self, DecodeError> {
        if version < Self::VERSIONS.min || version > Self::VERSIONS.max {
            return Err(DecodeError::new(
                decoder.position(),
                DecodeErrorKind::UnsupportedVersion {
                    message: Self::NAME,
                    version,
                },
            ));
        }
        Self::read_body(decoder, version)
    }

    /// Decodes exactly one message filling `bytes`.
    /// The exact decoder refuses trailing bytes inside the message's reader, before the value
    /// is assembled, so that the message (hundreds of bytes) is built in the caller's slot
    /// rather than moved out of a local.
    #[inline]
    fn decode_exact(bytes: &[u8], version: i16) -> Result<Self, DecodeError> {
        Self::decode_from(&mut Decoder::exact(bytes), version)
    }

    /// Decodes like [`WireMessage::decode_exact`] and records where every value lies.
    fn decode_traced(bytes: &[u8], version: i16) -> Result<(Self, Vec<TraceEntry>), DecodeError> {
        let mut decoder = Decoder::tracing(bytes);
        let message = Self::decode_from(&mut decoder, version)?;
        Ok((message, decoder.into_trace()))
    }

    /// Writes the message at `version` into `encoder`.
    fn encode_into<S: codec::Sink>(
        &self,
        encoder: &mut Encoder<S>,
        version: i16,
    ) -> Result<(), EncodeError> {
        if version < Self::VERSIONS.min || version > Self::VERSIONS.max {
            return Err(EncodeError::new(EncodeErrorKind::UnsupportedVersion {
                message: Self::NAME,
                version,
            }));
        }
        self.write_body(encoder, version).map_err(|error| *error)
    }

    /// The number of bytes [`WireMessage::encode_to_vec`] writes.
    fn encoded_size(&self, version: i16) -> Result<usize, EncodeError> {
        let mut encoder = Encoder::new(codec::SizeCounter::default());
        self.encode_into(&mut encoder, version)?;
        Ok(encoder.into_sink().0)
    }

    /// The encoding in a `Vec` allocated once, at its size. A message that fits in
    /// [`SMALL_MESSAGE`] bytes, as a steady heartbeat does, is written on the stack and copied
    /// out, without a counting pass; a larger one is abandoned when it overflows, then counted
    /// and written into a `Vec` of its size. Inline, so that the `Vec` comes back in registers
    /// rather than through memory.
    #[inline]
    fn encode_to_vec(&self, version: i16) -> Result<Vec<u8>, EncodeError> {
        let mut small = [0; SMALL_MESSAGE];
        let mut encoder = Encoder::new(codec::SliceSink::new(&mut small));
        self.encode_into(&mut encoder, version)?;
        let written = encoder.into_sink().written();
        if let Some(bytes) = small.get(..written) {
            return Ok(bytes.to_vec());
        }
        let size = self.encoded_size(version)?;
        let mut bytes = vec![0; size];
        let mut encoder = Encoder::new(codec::SliceSink::new(&mut bytes));
        self.encode_into(&mut encoder, version)?;
        assert_eq!(
            encoder.into_sink().written(),
            size,
            "the counting and the writing of one {} differ in size",
            Self::NAME
        );
        Ok(bytes)
    }
}

/// Implements `kafka-protocol`'s message traits on top of [`WireMessage`].
macro_rules! impl_kafka_protocol_traits {
    ($message:ty, header_version: $header_version:expr) => {
        impl kafka_protocol::protocol::Message for $message {
            const VERSIONS: kafka_protocol::protocol::VersionRange =
                <$message as $crate::WireMessage>::VERSIONS;
            const DEPRECATED_VERSIONS: Option<kafka_protocol::protocol::VersionRange> = None;
        }

        impl kafka_protocol::protocol::Encodable for $message {
            fn encode<B: kafka_protocol::protocol::buf::ByteBufMut>(
                &self,
                buf: &mut B,
                version: i16,
            ) -> anyhow::Result<()> {
                let mut encoder = $crate::codec::Encoder::new($crate::codec::BufSink(buf));
                Ok($crate::WireMessage::encode_into(
                    self,
                    &mut encoder,
                    version,
                )?)
            }

            fn compute_size(&self, version: i16) -> anyhow::Result<usize> {
                Ok($crate::WireMessage::encoded_size(self, version)?)
            }
        }

        impl kafka_protocol::protocol::Decodable for $message {
            /// Reads one message from the front of `buf` and advances it past the message.
            fn decode<B: kafka_protocol::protocol::buf::ByteBuf>(
                buf: &mut B,
                version: i16,
            ) -> anyhow::Result<Self> {
                let (message, consumed) = $crate::decode_prefix::<$message, B>(buf, version)?;
                bytes::Buf::advance(buf, consumed);
                Ok(message)
            }
        }

        impl kafka_protocol::protocol::HeaderVersion for $message {
            fn header_version(_version: i16) -> i16 {
                // Every version of these messages is flexible.
                $header_version
            }
        }
    };
}
pub(crate) use impl_kafka_protocol_traits;

/// Decodes a message from the front of `buf` without consuming it, returning the byte count.
#[doc(hidden)]
pub fn decode_prefix<M: WireMessage, B: kafka_protocol::protocol::buf::ByteBuf>(
    buf: &mut B,
    version: i16,
) -> Result<(M, usize), DecodeError> {
    let remaining = buf.remaining();
    let decode = |bytes: &[u8]| {
        let mut decoder = Decoder::new(bytes);
        M::decode_from(&mut decoder, version).map(|message| (message, decoder.position()))
    };
    if buf.chunk().len() == remaining {
        decode(buf.chunk())
    } else {
        // A buffer of several chunks: decode from a contiguous view of all of it.
        decode(&buf.peek_bytes(0..remaining))
    }
}
