//! What a record of the metadata log carries: a KRaft control record (its type from the key,
//! `ControlRecordType`; its value read at the version `ControlRecordUtils` reads) or a metadata
//! record framed by `AbstractApiMessageSerde` (frame version 1, apiKey, version, message).

use std::borrow::Cow;

use super::codec;
use super::cursor::{Cursor, ParseError};
use super::schema::Schema;
use super::schemas;
use super::value::Value;
use super::varint::put_unsigned;

/// `ControlRecordType`: the control record types of KRaft (ABORT and COMMIT are
/// transactions', never in the metadata log).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum ControlType {
    LeaderChange,
    SnapshotHeader,
    SnapshotFooter,
    KRaftVersion,
    KRaftVoters,
}

impl ControlType {
    /// `ControlRecordType.fromTypeId`.
    pub(crate) fn from_id(id: i16) -> Option<ControlType> {
        Some(match id {
            2 => ControlType::LeaderChange,
            3 => ControlType::SnapshotHeader,
            4 => ControlType::SnapshotFooter,
            5 => ControlType::KRaftVersion,
            6 => ControlType::KRaftVoters,
            _ => return None,
        })
    }

    /// The type id in the record key.
    pub(crate) fn id(self) -> i16 {
        match self {
            ControlType::LeaderChange => 2,
            ControlType::SnapshotHeader => 3,
            ControlType::SnapshotFooter => 4,
            ControlType::KRaftVersion => 5,
            ControlType::KRaftVoters => 6,
        }
    }

    /// The value's schema.
    pub fn schema(self) -> &'static Schema {
        match self {
            ControlType::LeaderChange => &schemas::LEADER_CHANGE,
            ControlType::SnapshotHeader => &schemas::SNAPSHOT_HEADER,
            ControlType::SnapshotFooter => &schemas::SNAPSHOT_FOOTER,
            ControlType::KRaftVersion => &schemas::KRAFT_VERSION,
            ControlType::KRaftVoters => &schemas::KRAFT_VOTERS,
        }
    }
}

/// `ControlRecordUtils.*_CURRENT_VERSION`: every control value is read and written at 0.
pub const CONTROL_VALUE_VERSION: u16 = 0;
/// `AbstractApiMessageSerde.DEFAULT_FRAME_VERSION`.
const FRAME_VERSION: u32 = 1;

/// A record's decoded content.
#[derive(Clone, Debug, PartialEq)]
pub enum Payload {
    Control {
        kind: ControlType,
        value: Value,
    },
    /// A control type Kafka 4.3.1 does not define for KRaft (`ControlRecordType.UNKNOWN`, which
    /// Kafka ignores).
    UnknownControl {
        type_id: i16,
    },
    Metadata {
        api_key: u16,
        version: u16,
        value: Value,
    },
    /// A metadata apiKey Kafka 4.3.1 does not define: named by its number and counted.
    UnknownMetadata {
        api_key: u16,
        version: u16,
    },
}

impl Payload {
    /// Decode a control record from its key and value (`ControlRecordType.parseTypeId`).
    pub(crate) fn control(
        key: Option<&[u8]>,
        value: Option<&[u8]>,
        key_at: usize,
        value_at: usize,
    ) -> Result<Payload, ParseError> {
        let key =
            key.ok_or_else(|| ParseError { at: key_at, what: "control record without a key".into() })?;
        let mut k = Cursor::new(key, key_at);
        let key_version = k.i16("control key version")?;
        if key_version < 0 {
            return Err(ParseError {
                at: key_at,
                what: format!("control key version {key_version} is negative"),
            });
        }
        let type_id = k.i16("control type")?;
        let Some(kind) = ControlType::from_id(type_id) else {
            return Ok(Payload::UnknownControl { type_id });
        };
        let value = value.ok_or_else(|| ParseError {
            at: value_at,
            what: format!("{kind:?} control record without a value"),
        })?;
        let mut v = Cursor::new(value, value_at);
        let value = codec::decode(&mut v, kind.schema(), CONTROL_VALUE_VERSION)?;
        Ok(Payload::Control { kind, value })
    }

    /// Decode a metadata record's value (`AbstractApiMessageSerde.read`).
    pub(crate) fn metadata(value: Option<&[u8]>, at: usize) -> Result<Payload, ParseError> {
        let value = value.ok_or_else(|| ParseError { at, what: "metadata record without a value".into() })?;
        let mut c = Cursor::new(value, at);
        let frame = c.unsigned_varint("frame version")?;
        if frame != FRAME_VERSION {
            return Err(ParseError { at, what: format!("metadata frame version {frame} (only 1 exists)") });
        }
        let short = |c: &mut Cursor<'_>, what: &str| -> Result<u16, ParseError> {
            let at = c.position();
            let raw = c.unsigned_varint(what)?;
            u16::try_from(raw)
                .ok()
                .filter(|v| *v <= i16::MAX as u16)
                .ok_or_else(|| ParseError { at, what: format!("{what} {raw} is too large") })
        };
        let api_key = short(&mut c, "record type")?;
        let version = short(&mut c, "record version")?;
        let Some(schema) = schemas::metadata(api_key) else {
            return Ok(Payload::UnknownMetadata { api_key, version });
        };
        let value = codec::decode(&mut c, schema, version)?;
        Ok(Payload::Metadata { api_key, version, value })
    }

    /// The record type's name: Kafka's schema name, or the apiKey / control type id.
    pub(crate) fn type_name(&self) -> Cow<'static, str> {
        match self {
            Payload::Control { kind, .. } => Cow::Borrowed(kind.schema().name),
            Payload::UnknownControl { type_id } => Cow::Owned(format!("UnknownControl({type_id})")),
            Payload::Metadata { api_key, .. } | Payload::UnknownMetadata { api_key, .. } => {
                match schemas::metadata(*api_key) {
                    Some(schema) => Cow::Borrowed(schema.name),
                    None => Cow::Owned(format!("UnknownRecord(apiKey {api_key})")),
                }
            }
        }
    }

    /// Whether this is a control record.
    pub(crate) fn is_control(&self) -> bool {
        matches!(self, Payload::Control { .. } | Payload::UnknownControl { .. })
    }

    /// The control record key of `kind` (`ControlRecordType.recordKey`: version 0, type).
    pub(crate) fn control_key(kind: ControlType) -> [u8; 4] {
        let id = kind.id().to_be_bytes();
        [0, 0, id[0], id[1]]
    }

    /// The encoded value of this record (control value or framed metadata record).
    pub(crate) fn encode_value(&self) -> Vec<u8> {
        let mut out = Vec::new();
        match self {
            Payload::Control { kind, value } => {
                codec::encode(&mut out, kind.schema(), CONTROL_VALUE_VERSION, value)
            }
            Payload::Metadata { api_key, version, value } => {
                put_unsigned(&mut out, u64::from(FRAME_VERSION));
                put_unsigned(&mut out, u64::from(*api_key));
                put_unsigned(&mut out, u64::from(*version));
                if let Some(schema) = schemas::metadata(*api_key) {
                    codec::encode(&mut out, schema, *version, value);
                }
            }
            Payload::UnknownControl { .. } | Payload::UnknownMetadata { .. } => {}
        }
        out
    }
}
