//! Kafka's variable-length integers (`ByteUtils`): unsigned LEB128 varints, and zig-zag signed
//! varints (32-bit) and varlongs (64-bit), used by `DefaultRecord` and the flexible message
//! format (compact lengths, tagged fields).

/// Append `value` as an unsigned varint (`ByteUtils.writeUnsignedVarint`).
pub(crate) fn put_unsigned(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push((value as u8 & 0x7F) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// Append `value` zig-zag encoded (`ByteUtils.writeVarint` and `writeVarlong`).
pub(crate) fn put_signed(out: &mut Vec<u8>, value: i64) {
    put_unsigned(out, ((value << 1) ^ (value >> 63)) as u64);
}

/// The zig-zag decoding of `raw`.
pub(crate) fn unzigzag(raw: u64) -> i64 {
    (raw >> 1) as i64 ^ -((raw & 1) as i64)
}

/// The encoded size of an unsigned varint (`ByteUtils.sizeOfUnsignedVarint`).
pub fn unsigned_size(value: u64) -> usize {
    let bits = 64 - (value | 1).leading_zeros() as usize;
    bits.div_ceil(7)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zig_zag_maps_small_magnitudes_to_small_codes() {
        let mut out = Vec::new();
        for v in [0i64, -1, 1, -2, 63, -64, 64] {
            put_signed(&mut out, v);
        }
        assert_eq!(out, [0, 1, 2, 3, 126, 127, 128, 1]);
        for v in [0i64, -1, 1, i64::MIN, i64::MAX, 300] {
            assert_eq!(unzigzag(((v << 1) ^ (v >> 63)) as u64), v);
        }
        assert_eq!((unsigned_size(0), unsigned_size(127), unsigned_size(128)), (1, 1, 2));
        assert_eq!(unsigned_size(u64::MAX), 10);
    }
}
