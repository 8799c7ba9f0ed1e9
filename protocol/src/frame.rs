//! Size-prefixed frames for api keys 88 and 89: request header v2 and response header v1 (the
//! flexible headers every version of these APIs uses), built on `kafka-protocol`'s header types.

use bytes::{Buf, BytesMut};
use kafka_protocol::messages::{RequestHeader, ResponseHeader};
use kafka_protocol::protocol::{Decodable, Encodable, StrBytes};

use crate::codec::MAX_STRING_LEN;
use crate::error::PathSegment;
use crate::{DecodeError, EncodeError, EncodeErrorKind, WireMessage};

/// Request header version of every version of api keys 88 and 89.
pub const REQUEST_HEADER_VERSION: i16 = 2;
/// Response header version of every version of api keys 88 and 89.
pub const RESPONSE_HEADER_VERSION: i16 = 1;

/// Why a frame could not be read.
#[derive(Debug)]
#[non_exhaustive]
pub enum FrameError {
    /// The size prefix announces more than the caller allows.
    TooLarge { size: i64, max: usize },
    /// The header did not decode.
    Header(anyhow::Error),
    /// The body did not decode.
    Body(DecodeError),
}

impl std::fmt::Display for FrameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FrameError::TooLarge { size, max } => {
                write!(f, "frame of {size} bytes exceeds the limit of {max}")?;
                // A prefix of printable text is most likely another protocol's answer.
                let prefix = (*size as i32).to_be_bytes();
                if prefix.iter().all(|byte| (0x20..0x7f).contains(byte)) {
                    let text: String = prefix.iter().map(|&byte| char::from(byte)).collect();
                    write!(
                        f,
                        " (its size reads {text:?} as text: is this a Kafka listener?)"
                    )?;
                }
                Ok(())
            }
            FrameError::Header(error) => write!(f, "malformed header: {error}"),
            FrameError::Body(error) => write!(f, "malformed body: {error}"),
        }
    }
}

impl std::error::Error for FrameError {}

/// Splits one size-prefixed frame off the front of `buf`: `Ok(None)` until it is complete.
/// A negative or oversized prefix is refused before anything is buffered for it.
pub fn split_frame(buf: &mut BytesMut, max_size: usize) -> Result<Option<BytesMut>, FrameError> {
    if buf.len() < 4 {
        return Ok(None);
    }
    let size = i32::from_be_bytes([buf[0], buf[1], buf[2], buf[3]]);
    if size < 0 || size as usize > max_size {
        return Err(FrameError::TooLarge {
            size: i64::from(size),
            max: max_size,
        });
    }
    if buf.len() < 4 + size as usize {
        return Ok(None);
    }
    buf.advance(4);
    Ok(Some(buf.split_to(size as usize)))
}

fn with_size_prefix(
    write: impl FnOnce(&mut BytesMut) -> Result<(), EncodeError>,
) -> Result<Vec<u8>, EncodeError> {
    let mut frame = BytesMut::zeroed(4);
    write(&mut frame)?;
    let size = (frame.len() - 4) as i32;
    frame[..4].copy_from_slice(&size.to_be_bytes());
    Ok(frame.to_vec())
}

/// A complete request frame: size, request header v2, body.
pub fn encode_request<M: WireMessage>(
    correlation_id: i32,
    client_id: Option<&str>,
    version: i16,
    body: &M,
) -> Result<Vec<u8>, EncodeError> {
    if let Some(length) = client_id
        .map(str::len)
        .filter(|&length| length > MAX_STRING_LEN)
    {
        return Err(EncodeError::new(EncodeErrorKind::StringTooLong { length })
            .within(PathSegment::Field("client_id")));
    }
    let header = RequestHeader::default()
        .with_request_api_key(M::API_KEY)
        .with_request_api_version(version)
        .with_correlation_id(correlation_id)
        .with_client_id(client_id.map(|id| StrBytes::from_string(id.to_owned())));
    with_size_prefix(|frame| {
        header
            .encode(frame, REQUEST_HEADER_VERSION)
            .expect("a request header with a short client id always encodes");
        body.encode_into(
            &mut crate::Encoder::new(crate::codec::BufSink(frame)),
            version,
        )
    })
}

/// A complete response frame: size, response header v1, body.
pub fn encode_response<M: WireMessage>(
    correlation_id: i32,
    version: i16,
    body: &M,
) -> Result<Vec<u8>, EncodeError> {
    let header = ResponseHeader::default().with_correlation_id(correlation_id);
    with_size_prefix(|frame| {
        header
            .encode(frame, RESPONSE_HEADER_VERSION)
            .expect("a response header always encodes");
        body.encode_into(
            &mut crate::Encoder::new(crate::codec::BufSink(frame)),
            version,
        )
    })
}

/// Reads the request header v2 of a frame (without its size prefix); returns it and the body.
pub fn decode_request_header(mut frame: &[u8]) -> Result<(RequestHeader, &[u8]), FrameError> {
    let header =
        RequestHeader::decode(&mut frame, REQUEST_HEADER_VERSION).map_err(FrameError::Header)?;
    Ok((header, frame))
}

/// Reads the response header v1 of a frame (without its size prefix); returns the correlation id
/// and the body.
pub fn decode_response_header(mut frame: &[u8]) -> Result<(i32, &[u8]), FrameError> {
    let header =
        ResponseHeader::decode(&mut frame, RESPONSE_HEADER_VERSION).map_err(FrameError::Header)?;
    Ok((header.correlation_id, frame))
}
