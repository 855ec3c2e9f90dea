//! A bounds-checked reader over a byte slice: every read checks the bytes left first, so a
//! length field can never make the decoder read past its input or allocate more than the input
//! holds. Positions are absolute in the file, for error messages.

use super::varint::unzigzag;

/// What went wrong at a byte position of the input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// The byte position in the file.
    pub at: usize,
    pub what: String,
}

/// A reader over `data`, whose first byte is at file position `origin`.
#[derive(Clone, Debug)]
pub struct Cursor<'a> {
    data: &'a [u8],
    pos: usize,
    origin: usize,
}

impl<'a> Cursor<'a> {
    /// A cursor over `data`, which starts at byte `origin` of its file.
    pub(crate) fn new(data: &'a [u8], origin: usize) -> Cursor<'a> {
        Cursor { data, pos: 0, origin }
    }

    /// The file position of the next byte.
    pub(crate) fn position(&self) -> usize {
        self.origin + self.pos
    }

    /// Bytes not read yet.
    pub(crate) fn remaining(&self) -> usize {
        self.data.len() - self.pos
    }

    /// An error at the current position.
    pub(crate) fn error(&self, what: impl Into<String>) -> ParseError {
        ParseError { at: self.position(), what: what.into() }
    }

    /// The next `len` bytes, or an error naming `what` when fewer are left.
    pub(crate) fn take(&mut self, len: usize, what: &str) -> Result<&'a [u8], ParseError> {
        if len > self.remaining() {
            return Err(self.short(len, what));
        }
        let bytes = &self.data[self.pos..self.pos + len];
        self.pos += len;
        Ok(bytes)
    }

    /// The error of a read of `len` bytes past the end, out of the hot path.
    #[cold]
    #[inline(never)]
    fn short(&self, len: usize, what: &str) -> ParseError {
        self.error(format!("{what}: needs {len} bytes, only {} left", self.remaining()))
    }

    /// A cursor over the next `len` bytes, which this one skips.
    pub(crate) fn sub(&mut self, len: usize, what: &str) -> Result<Cursor<'a>, ParseError> {
        let origin = self.position();
        Ok(Cursor::new(self.take(len, what)?, origin))
    }

    fn array<const N: usize>(&mut self, what: &str) -> Result<[u8; N], ParseError> {
        let mut out = [0u8; N];
        out.copy_from_slice(self.take(N, what)?);
        Ok(out)
    }

    pub(crate) fn i8(&mut self, what: &str) -> Result<i8, ParseError> {
        Ok(i8::from_be_bytes(self.array(what)?))
    }

    pub(crate) fn i16(&mut self, what: &str) -> Result<i16, ParseError> {
        Ok(i16::from_be_bytes(self.array(what)?))
    }

    pub(crate) fn u16(&mut self, what: &str) -> Result<u16, ParseError> {
        Ok(u16::from_be_bytes(self.array(what)?))
    }

    pub(crate) fn i32(&mut self, what: &str) -> Result<i32, ParseError> {
        Ok(i32::from_be_bytes(self.array(what)?))
    }

    pub(crate) fn u32(&mut self, what: &str) -> Result<u32, ParseError> {
        Ok(u32::from_be_bytes(self.array(what)?))
    }

    pub(crate) fn i64(&mut self, what: &str) -> Result<i64, ParseError> {
        Ok(i64::from_be_bytes(self.array(what)?))
    }

    pub(crate) fn f64(&mut self, what: &str) -> Result<f64, ParseError> {
        Ok(f64::from_be_bytes(self.array(what)?))
    }

    pub(crate) fn uuid(&mut self, what: &str) -> Result<[u8; 16], ParseError> {
        self.array(what)
    }

    /// An unsigned varint of at most `max_bytes` bytes (`ByteUtils.readUnsignedVarint`: 5 bytes
    /// for 32 bits; `readUnsignedVarlong`: 10 for 64).
    #[inline]
    fn unsigned(&mut self, max_bytes: usize, what: &str) -> Result<u64, ParseError> {
        // Most varints of a metadata log (lengths, counts, small ids) are one byte.
        if let Some(&byte) = self.data.get(self.pos)
            && byte < 0x80
        {
            self.pos += 1;
            return Ok(u64::from(byte));
        }
        self.long_unsigned(max_bytes, what)
    }

    /// A varint of two bytes or more (or none left).
    #[inline(never)]
    fn long_unsigned(&mut self, max_bytes: usize, what: &str) -> Result<u64, ParseError> {
        let start = self.position();
        let mut value = 0u64;
        for i in 0..max_bytes {
            let byte = self.take(1, what)?[0];
            value |= u64::from(byte & 0x7F) << (7 * i);
            if byte & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(ParseError { at: start, what: format!("{what}: varint longer than {max_bytes} bytes") })
    }

    /// An unsigned 32-bit varint (`ByteUtils.readUnsignedVarint`).
    #[inline]
    pub(crate) fn unsigned_varint(&mut self, what: &str) -> Result<u32, ParseError> {
        let start = self.position();
        let value = self.unsigned(5, what)?;
        match u32::try_from(value) {
            Ok(value) => Ok(value),
            Err(_) => Err(overflow(start, what)),
        }
    }

    /// A zig-zag 32-bit varint (`ByteUtils.readVarint`).
    #[inline]
    pub(crate) fn varint(&mut self, what: &str) -> Result<i32, ParseError> {
        Ok(unzigzag(u64::from(self.unsigned_varint(what)?)) as i32)
    }

    /// A zig-zag 64-bit varlong (`ByteUtils.readVarlong`).
    pub(crate) fn varlong(&mut self, what: &str) -> Result<i64, ParseError> {
        Ok(unzigzag(self.unsigned(10, what)?))
    }
}

/// A 32-bit varint's overflow, out of the hot path.
#[cold]
#[inline(never)]
fn overflow(at: usize, what: &str) -> ParseError {
    ParseError { at, what: format!("{what}: varint overflows 32 bits") }
}

#[cfg(test)]
mod tests {
    use super::Cursor;

    #[test]
    fn reads_past_the_end_are_errors_at_the_right_position() {
        let mut c = Cursor::new(&[0x00, 0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01], 100);
        assert_eq!(c.i16("a").unwrap(), 1);
        let error = c.unsigned_varint("len").unwrap_err();
        assert_eq!(error.at, 102);
        assert!(error.what.contains("longer than 5"), "{}", error.what);
        let mut c = Cursor::new(&[1, 2, 3], 10);
        let error = c.take(4, "key").unwrap_err();
        assert_eq!((error.at, error.what.as_str()), (10, "key: needs 4 bytes, only 3 left"));
    }
}
