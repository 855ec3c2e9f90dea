//! A decoded message as a tree of values, whatever its schema: what the generic flexible
//! decoder returns and the writer encodes.

use std::fmt;

use super::schema::{Default, Field, Type};

/// One field's value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Bool(bool),
    Int8(i8),
    Int16(i16),
    Uint16(u16),
    Int32(i32),
    Int64(i64),
    Float64(f64),
    Uuid([u8; 16]),
    String(Option<Box<str>>),
    Bytes(Option<Box<[u8]>>),
    Array(Option<Box<[Value]>>),
    /// The fields that exist in the message's version, in schema order.
    Struct(Box<[(&'static str, Value)]>),
}

impl Value {
    /// The default value of `field` (what an absent tagged field reads as).
    #[inline]
    pub(crate) fn default_of(field: &Field, version: u16) -> Value {
        match (field.default, field.ty) {
            (Default::Null, Type::String) => Value::String(None),
            (Default::Null, Type::Bytes) => Value::Bytes(None),
            (Default::Null, _) => Value::Array(None),
            (default, ty) => {
                let n = match default {
                    Default::Int(n) => n,
                    Default::True => 1,
                    _ => 0,
                };
                Value::zero(ty, n, version)
            }
        }
    }

    #[inline]
    fn zero(ty: Type, n: i64, version: u16) -> Value {
        match ty {
            Type::Bool => Value::Bool(n != 0),
            Type::Int8 => Value::Int8(n as i8),
            Type::Int16 => Value::Int16(n as i16),
            Type::Uint16 => Value::Uint16(n as u16),
            Type::Int32 => Value::Int32(n as i32),
            Type::Int64 => Value::Int64(n),
            Type::Float64 => Value::Float64(n as f64),
            Type::Uuid => Value::Uuid([0; 16]),
            Type::String => Value::String(Some(Box::default())),
            Type::Bytes => Value::Bytes(Some(Box::default())),
            Type::Array(_) => Value::Array(Some(Box::default())),
            Type::Struct(fields) => Value::defaults(fields, version),
        }
    }

    /// A struct of `fields` in `version` with every field at its default.
    pub fn defaults(fields: &'static [Field], version: u16) -> Value {
        Value::Struct(
            fields
                .iter()
                .filter(|f| f.in_version(version))
                .map(|f| (f.name, Value::default_of(f, version)))
                .collect(),
        )
    }

    /// The same struct with field `name` set (a name the struct lacks is ignored).
    pub(crate) fn with(mut self, name: &str, value: Value) -> Value {
        if let Value::Struct(fields) = &mut self
            && let Some(slot) = fields.iter_mut().find(|(n, _)| *n == name)
        {
            slot.1 = value;
        }
        self
    }

    /// Field `name` of a struct.
    pub(crate) fn get(&self, name: &str) -> Option<&Value> {
        match self {
            Value::Struct(fields) => fields.iter().find(|(n, _)| *n == name).map(|(_, v)| v),
            _ => None,
        }
    }

    /// An integer field of any width.
    pub(crate) fn int(&self, name: &str) -> Option<i64> {
        match self.get(name)? {
            Value::Int8(v) => Some(i64::from(*v)),
            Value::Int16(v) => Some(i64::from(*v)),
            Value::Uint16(v) => Some(i64::from(*v)),
            Value::Int32(v) => Some(i64::from(*v)),
            Value::Int64(v) => Some(*v),
            Value::Bool(v) => Some(i64::from(*v)),
            _ => None,
        }
    }

    /// A boolean field.
    pub(crate) fn flag(&self, name: &str) -> Option<bool> {
        match self.get(name)? {
            Value::Bool(v) => Some(*v),
            _ => None,
        }
    }

    /// A non-null string field.
    pub(crate) fn text(&self, name: &str) -> Option<&str> {
        match self.get(name)? {
            Value::String(Some(s)) => Some(s),
            _ => None,
        }
    }

    /// A UUID field.
    pub(crate) fn uuid(&self, name: &str) -> Option<[u8; 16]> {
        match self.get(name)? {
            Value::Uuid(u) => Some(*u),
            _ => None,
        }
    }

    /// The elements of a non-null array field.
    pub(crate) fn list(&self, name: &str) -> Option<&[Value]> {
        match self.get(name)? {
            Value::Array(Some(items)) => Some(items),
            _ => None,
        }
    }

    /// A non-null `[]int32` field.
    pub(crate) fn ints(&self, name: &str) -> Option<Vec<i32>> {
        self.list(name)?.iter().map(|v| if let Value::Int32(i) = v { Some(*i) } else { None }).collect()
    }

    /// An `[]int32` value.
    pub(crate) fn int32s(ids: impl IntoIterator<Item = i32>) -> Value {
        Value::Array(Some(ids.into_iter().map(Value::Int32).collect()))
    }

    /// A struct of `fields` (name and value, in schema order).
    pub fn of_fields(fields: Vec<(&'static str, Value)>) -> Value {
        Value::Struct(fields.into_boxed_slice())
    }

    /// A non-null string value.
    pub(crate) fn string(text: impl Into<String>) -> Value {
        Value::String(Some(text.into().into_boxed_str()))
    }
}

/// Kafka's text form of a UUID (`Uuid.toString`): URL-safe base64 without padding.
pub(crate) fn uuid_text(uuid: &[u8; 16]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut out = String::with_capacity(22);
    for chunk in uuid.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |n, (i, b)| n | u32::from(*b) << (16 - 8 * i));
        for i in 0..=chunk.len() {
            out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
        }
    }
    out
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Bool(v) => write!(f, "{v}"),
            Value::Int8(v) => write!(f, "{v}"),
            Value::Int16(v) => write!(f, "{v}"),
            Value::Uint16(v) => write!(f, "{v}"),
            Value::Int32(v) => write!(f, "{v}"),
            Value::Int64(v) => write!(f, "{v}"),
            Value::Float64(v) => write!(f, "{v}"),
            Value::Uuid(u) => f.write_str(&uuid_text(u)),
            Value::String(None) | Value::Bytes(None) | Value::Array(None) => f.write_str("null"),
            Value::String(Some(s)) => write!(f, "{s:?}"),
            Value::Bytes(Some(b)) => write!(f, "<{} bytes>", b.len()),
            Value::Array(Some(items)) => {
                f.write_str("[")?;
                for (i, item) in items.iter().enumerate() {
                    write!(f, "{}{item}", if i > 0 { ", " } else { "" })?;
                }
                f.write_str("]")
            }
            Value::Struct(fields) => {
                f.write_str("{")?;
                for (i, (name, value)) in fields.iter().enumerate() {
                    write!(f, "{}{name}={value}", if i > 0 { ", " } else { "" })?;
                }
                f.write_str("}")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::uuid_text;

    #[test]
    fn uuids_print_as_kafka_prints_them() {
        // meta.properties of the LDI-POC fixture: directory.id=XHhkr4tkSsD900pOQ8pPfg
        let bytes =
            [0x5c, 0x78, 0x64, 0xaf, 0x8b, 0x64, 0x4a, 0xc0, 0xfd, 0xd3, 0x4a, 0x4e, 0x43, 0xca, 0x4f, 0x7e];
        assert_eq!(uuid_text(&bytes), "XHhkr4tkSsD900pOQ8pPfg");
        assert_eq!(uuid_text(&[0; 16]), "AAAAAAAAAAAAAAAAAAAAAA");
    }
}
