//! A decoding problem with where it is: the file, the byte position and the base offset of the
//! batch it is in (when the batch header could be read).

use std::fmt;

/// What is wrong with a file, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError {
    pub file: String,
    /// Byte position in the file.
    pub position: usize,
    /// The base offset of the batch the problem is in.
    pub base_offset: Option<i64>,
    pub message: String,
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: byte {}", self.file, self.position)?;
        if let Some(offset) = self.base_offset {
            write!(f, " (batch at offset {offset})")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for DecodeError {}
