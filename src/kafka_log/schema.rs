//! How a message schema is described: fields with their type, the versions they exist in,
//! whether they are nullable or tagged, and their default (the vocabulary of Kafka's
//! `*.json` message definitions, read by its `MessageGenerator`).

/// A field's type (the JSON `"type"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Type {
    Bool,
    Int8,
    Int16,
    Uint16,
    Int32,
    Int64,
    Float64,
    Uuid,
    String,
    Bytes,
    /// `[]T`
    Array(&'static Type),
    /// A nested struct with its own fields (and, in flexible versions, its own tagged fields).
    Struct(&'static [Field]),
}

/// The value a field has when a tagged field is absent (the JSON `"default"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Default {
    /// 0, false, an empty string or an empty array.
    Zero,
    /// `"default": "null"`.
    Null,
    /// A numeric default such as `-1` or `-2`.
    Int(i64),
    /// `"default": "true"`.
    True,
}

/// One field of a schema.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    pub name: &'static str,
    pub ty: Type,
    /// The first version with this field (`"versions": "N+"`).
    pub since: u16,
    /// The first version in which it may be null (`"nullableVersions": "N+"`).
    pub nullable_since: Option<u16>,
    /// Its tag, when it is a tagged field (`"taggedVersions"` equal to `"versions"`).
    pub tag: Option<u32>,
    pub default: Default,
}

impl Field {
    /// A field present from version `since` on.
    pub(crate) const fn new(name: &'static str, ty: Type, since: u16) -> Field {
        Field { name, ty, since, nullable_since: None, tag: None, default: Default::Zero }
    }

    /// The same field, nullable from version `since` on.
    pub(crate) const fn nullable(self, since: u16) -> Field {
        Field { nullable_since: Some(since), ..self }
    }

    /// The same field, tagged with `tag`.
    pub(crate) const fn tagged(self, tag: u32) -> Field {
        Field { tag: Some(tag), ..self }
    }

    /// The same field with a default.
    pub(crate) const fn default(self, default: Default) -> Field {
        Field { default, ..self }
    }

    /// Whether the field exists in `version`.
    pub fn in_version(&self, version: u16) -> bool {
        version >= self.since
    }

    /// Whether the field may be null in `version`.
    pub fn nullable_in(&self, version: u16) -> bool {
        self.nullable_since.is_some_and(|since| version >= since)
    }
}

/// A message schema: a metadata record (with its apiKey) or a KRaft control record's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Schema {
    pub name: &'static str,
    /// The versions Kafka 4.3.1 defines (`"validVersions": "lo-hi"`).
    pub versions: (u16, u16),
    pub fields: &'static [Field],
}
