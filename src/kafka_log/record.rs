//! One record inside a v2 batch (Kafka's `DefaultRecord.readFrom` / `writeTo`): a varint
//! length, attributes, timestamp and offset deltas, key, value and headers.

use super::cursor::{Cursor, ParseError};
use super::varint::put_signed;

/// A record's fields, borrowing the key and value from the file's bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RawRecord<'a> {
    /// File position of the record's length field.
    pub position: usize,
    pub timestamp_delta: i64,
    pub offset_delta: i32,
    pub key: Option<&'a [u8]>,
    pub value: Option<&'a [u8]>,
}

/// A varint length: -1 is null, other negatives are corrupt (`DefaultRecord.readFrom`).
fn nullable_bytes<'a>(c: &mut Cursor<'a>, what: &str) -> Result<Option<&'a [u8]>, ParseError> {
    let at = c.position();
    match c.varint(what)? {
        -1 => Ok(None),
        len if len < 0 => Err(ParseError { at, what: format!("{what} length {len} is negative") }),
        len => Ok(Some(c.take(len as usize, what)?)),
    }
}

impl<'a> RawRecord<'a> {
    /// Read one record; it must use exactly the bytes its length field announces.
    pub(crate) fn read(c: &mut Cursor<'a>) -> Result<RawRecord<'a>, ParseError> {
        let position = c.position();
        let length = c.varint("record length")?;
        if length < 0 {
            return Err(ParseError { at: position, what: format!("record length {length} is negative") });
        }
        let mut body = c.sub(length as usize, "record")?;
        let _attributes = body.i8("record attributes")?;
        let timestamp_delta = body.varlong("timestampDelta")?;
        let offset_delta = body.varint("offsetDelta")?;
        let key = nullable_bytes(&mut body, "key")?;
        let value = nullable_bytes(&mut body, "value")?;
        let at = body.position();
        let headers = body.varint("header count")?;
        if headers < 0 {
            return Err(ParseError { at, what: format!("header count {headers} is negative") });
        }
        for _ in 0..headers {
            let at = body.position();
            let key_len = body.varint("header key length")?;
            if key_len < 0 {
                return Err(ParseError { at, what: "header key is null".into() });
            }
            body.take(key_len as usize, "header key")?;
            nullable_bytes(&mut body, "header value")?;
        }
        if body.remaining() > 0 {
            // DefaultRecord.readFrom: "Invalid record size: expected to read N bytes ..."
            return Err(body.error(format!(
                "record is {length} bytes but its fields end {} bytes early",
                body.remaining()
            )));
        }
        Ok(RawRecord { position, timestamp_delta, offset_delta, key, value })
    }

    /// Append a record with no headers, as `DefaultRecord.writeTo` lays it out.
    pub(crate) fn write(
        out: &mut Vec<u8>,
        timestamp_delta: i64,
        offset_delta: i32,
        key: Option<&[u8]>,
        value: &[u8],
    ) {
        let mut body = vec![0u8];
        put_signed(&mut body, timestamp_delta);
        put_signed(&mut body, i64::from(offset_delta));
        match key {
            None => put_signed(&mut body, -1),
            Some(key) => {
                put_signed(&mut body, key.len() as i64);
                body.extend_from_slice(key);
            }
        }
        put_signed(&mut body, value.len() as i64);
        body.extend_from_slice(value);
        put_signed(&mut body, 0);
        put_signed(out, body.len() as i64);
        out.extend_from_slice(&body);
    }
}
