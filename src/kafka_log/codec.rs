//! The generic decoder and encoder of flexible-version messages, driven by a [`Schema`]
//! (what Kafka's `MessageGenerator` emits per message as `read` and `write`): compact strings,
//! bytes and arrays (length + 1 as an unsigned varint, 0 for null), and after each struct's
//! fields its tagged fields (count, then tag, size and value each, ascending by tag; unknown
//! tags are skipped, `MessageGenerator`'s `_unknownTaggedFields`).

use super::cursor::{Cursor, ParseError};
use super::schema::{Default, Field, Schema, Type};
use super::value::Value;
use super::varint::put_unsigned;

/// Decode a message of `schema` at `version`; it must use every byte of `input`.
pub(crate) fn decode(input: &mut Cursor<'_>, schema: &Schema, version: u16) -> Result<Value, ParseError> {
    if version < schema.versions.0 || version > schema.versions.1 {
        return Err(input.error(format!(
            "{} has no version {version} (Kafka 4.3.1 defines {}-{})",
            schema.name, schema.versions.0, schema.versions.1
        )));
    }
    let value = decode_struct(input, schema.fields, version)?;
    if input.remaining() > 0 {
        // AbstractApiMessageSerde.read: "Found N byte(s) of garbage after ..."
        return Err(input.error(format!("{} byte(s) of garbage after {}", input.remaining(), schema.name)));
    }
    Ok(value)
}

fn decode_struct(
    input: &mut Cursor<'_>,
    fields: &'static [Field],
    version: u16,
) -> Result<Value, ParseError> {
    let present = fields.iter().filter(|f| f.in_version(version));
    let mut values = Vec::with_capacity(present.clone().count());
    // Each value is built where it is kept: a value returned and then moved into `values` is
    // written a word at a time and read back sixteen bytes at a time, which stalls the
    // processor (store forwarding fails) on every field.
    for field in present {
        let put = |value| values.push((field.name, value));
        match field.tag {
            Some(_) => default_into(field, version, put),
            None => decode_into(input, field, version, put)?,
        }
    }
    let count = input.unsigned_varint("tagged field count")?;
    let mut last_tag = None;
    for _ in 0..count {
        let tag = input.unsigned_varint("tag")?;
        if last_tag.is_some_and(|last| tag <= last) {
            // Kafka's generated read(): "Invalid or out-of-order tag"
            return Err(input.error(format!("tag {tag} out of order")));
        }
        last_tag = Some(tag);
        let size = input.unsigned_varint("tagged field size")? as usize;
        let mut body = input.sub(size, "tagged field")?;
        // Its slot: the fields of this version are `values` in order.
        let known =
            fields.iter().filter(|f| f.in_version(version)).enumerate().find(|(_, f)| f.tag == Some(tag));
        if let Some((slot, field)) = known {
            decode_into(&mut body, field, version, |value| values[slot].1 = value)?;
            if body.remaining() > 0 {
                return Err(body
                    .error(format!("tagged field {} is {size} bytes but its value is shorter", field.name)));
            }
        }
    }
    Ok(Value::Struct(values.into_boxed_slice()))
}

/// Hand `put` the value an absent tagged field reads as, built in place for the usual defaults.
#[inline(always)]
fn default_into(field: &Field, version: u16, put: impl FnOnce(Value)) {
    match (field.default, field.ty) {
        (Default::Null, Type::Array(_)) => put(Value::Array(None)),
        (Default::Int(n), Type::Int32) => put(Value::Int32(n as i32)),
        _ => put(Value::default_of(field, version)),
    }
}

/// A compact length: `None` for null (0), else the count.
fn compact_length(input: &mut Cursor<'_>, field: &Field, version: u16) -> Result<Option<usize>, ParseError> {
    let at = input.position();
    let raw = input.unsigned_varint(field.name)?;
    match raw {
        0 if field.nullable_in(version) => Ok(None),
        0 => Err(ParseError { at, what: format!("{} is null but not nullable", field.name) }),
        n => Ok(Some(n as usize - 1)),
    }
}

/// Decode a value of `field` and hand it to `put`, which stores it.
#[inline(always)]
fn decode_into(
    input: &mut Cursor<'_>,
    field: &Field,
    version: u16,
    put: impl FnOnce(Value),
) -> Result<(), ParseError> {
    let name = field.name;
    match field.ty {
        Type::Bool => put(Value::Bool(input.i8(name)? != 0)),
        Type::Int8 => put(Value::Int8(input.i8(name)?)),
        Type::Int16 => put(Value::Int16(input.i16(name)?)),
        Type::Uint16 => put(Value::Uint16(input.u16(name)?)),
        Type::Int32 => put(Value::Int32(input.i32(name)?)),
        Type::Int64 => put(Value::Int64(input.i64(name)?)),
        Type::Float64 => put(Value::Float64(input.f64(name)?)),
        Type::Uuid => put(Value::Uuid(input.uuid(name)?)),
        Type::String => match compact_length(input, field, version)? {
            None => put(Value::String(None)),
            Some(len) => {
                let at = input.position();
                let bytes = input.take(len, name)?;
                let text = std::str::from_utf8(bytes)
                    .map_err(|_| ParseError { at, what: format!("{name} is not UTF-8") })?;
                put(Value::String(Some(Box::from(text))))
            }
        },
        Type::Bytes => match compact_length(input, field, version)? {
            None => put(Value::Bytes(None)),
            Some(len) => put(Value::Bytes(Some(Box::from(input.take(len, name)?)))),
        },
        Type::Array(element) => put(Value::Array(decode_array(input, field, *element, version)?)),
        Type::Struct(fields) => put(decode_struct(input, fields, version)?),
    }
    Ok(())
}

/// The elements of an array field of `element`s (`None` when null).
fn decode_array(
    input: &mut Cursor<'_>,
    field: &Field,
    element: Type,
    version: u16,
) -> Result<Option<Box<[Value]>>, ParseError> {
    let Some(len) = compact_length(input, field, version)? else { return Ok(None) };
    // Every element takes at least one byte: a count above the bytes left is a lie, caught
    // before any allocation.
    if len > input.remaining() {
        return Err(input.error(format!(
            "{} claims {len} elements but only {} bytes are left",
            field.name,
            input.remaining()
        )));
    }
    let item = Field { ty: element, nullable_since: None, tag: None, ..*field };
    let mut items = Vec::with_capacity(len);
    for _ in 0..len {
        decode_into(input, &item, version, |value| items.push(value))?;
    }
    Ok(Some(items.into_boxed_slice()))
}

/// Encode `value` (a struct of `schema` at `version`) after `out`'s bytes.
pub(crate) fn encode(out: &mut Vec<u8>, schema: &Schema, version: u16, value: &Value) {
    encode_struct(out, schema.fields, version, value);
}

fn encode_struct(out: &mut Vec<u8>, fields: &'static [Field], version: u16, value: &Value) {
    let present = || fields.iter().filter(|f| f.in_version(version));
    let field_value =
        |field: &Field| value.get(field.name).cloned().unwrap_or_else(|| Value::default_of(field, version));
    for field in present().filter(|f| f.tag.is_none()) {
        encode_value(out, field, version, &field_value(field));
    }
    let mut tagged: Vec<(u32, Vec<u8>)> = present()
        .filter_map(|field| {
            let tag = field.tag?;
            let v = field_value(field);
            (v != Value::default_of(field, version)).then(|| {
                let mut body = Vec::new();
                encode_value(&mut body, field, version, &v);
                (tag, body)
            })
        })
        .collect();
    crate::util::sort::sort_by_key(&mut tagged, |(tag, _)| *tag);
    put_unsigned(out, tagged.len() as u64);
    for (tag, body) in tagged {
        put_unsigned(out, u64::from(tag));
        put_unsigned(out, body.len() as u64);
        out.extend_from_slice(&body);
    }
}

fn encode_value(out: &mut Vec<u8>, field: &Field, version: u16, value: &Value) {
    match (field.ty, value) {
        (Type::Bool, Value::Bool(v)) => out.push(u8::from(*v)),
        (Type::Int8, Value::Int8(v)) => out.extend_from_slice(&v.to_be_bytes()),
        (Type::Int16, Value::Int16(v)) => out.extend_from_slice(&v.to_be_bytes()),
        (Type::Uint16, Value::Uint16(v)) => out.extend_from_slice(&v.to_be_bytes()),
        (Type::Int32, Value::Int32(v)) => out.extend_from_slice(&v.to_be_bytes()),
        (Type::Int64, Value::Int64(v)) => out.extend_from_slice(&v.to_be_bytes()),
        (Type::Float64, Value::Float64(v)) => out.extend_from_slice(&v.to_be_bytes()),
        (Type::Uuid, Value::Uuid(v)) => out.extend_from_slice(v),
        (Type::String, Value::String(Some(s))) => put_compact(out, s.as_bytes()),
        (Type::Bytes, Value::Bytes(Some(b))) => put_compact(out, b),
        (Type::String, Value::String(None))
        | (Type::Bytes, Value::Bytes(None))
        | (Type::Array(_), Value::Array(None)) => out.push(0),
        (Type::Array(element), Value::Array(Some(items))) => {
            put_unsigned(out, items.len() as u64 + 1);
            let item = Field { ty: *element, ..*field };
            for v in items {
                encode_value(out, &item, version, v);
            }
        }
        (Type::Struct(fields), v) => encode_struct(out, fields, version, v),
        // A value of the wrong type is written as the field's default, so the bytes still parse.
        (_, _) => {
            encode_value(out, field, version, &Value::default_of(&Field { tag: None, ..*field }, version))
        }
    }
}

fn put_compact(out: &mut Vec<u8>, bytes: &[u8]) {
    put_unsigned(out, bytes.len() as u64 + 1);
    out.extend_from_slice(bytes);
}
