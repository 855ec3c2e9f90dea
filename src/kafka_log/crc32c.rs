//! CRC-32C (Castagnoli), the checksum of record batch v2 (Kafka's `Crc32C`, used by
//! `DefaultRecordBatch.isValid` over the bytes from the attributes to the batch's end).

/// The reflected Castagnoli polynomial (`java.util.zip.CRC32C`, which `Crc32C` wraps).
const POLYNOMIAL: u32 = 0x82F6_3B78;

/// The byte-at-a-time lookup table, built at compile time.
const TABLE: [u32; 256] = {
    let mut table = [0u32; 256];
    let mut i = 0;
    while i < 256 {
        let mut crc = i as u32;
        let mut bit = 0;
        while bit < 8 {
            crc = if crc & 1 != 0 { (crc >> 1) ^ POLYNOMIAL } else { crc >> 1 };
            bit += 1;
        }
        table[i] = crc;
        i += 1;
    }
    table
};

/// The CRC-32C of `bytes`.
pub fn crc32c(bytes: &[u8]) -> u32 {
    !bytes.iter().fold(!0u32, |crc, &b| TABLE[((crc ^ u32::from(b)) & 0xFF) as usize] ^ (crc >> 8))
}

#[cfg(test)]
mod tests {
    use super::crc32c;

    #[test]
    fn matches_the_published_check_values() {
        // RFC 3720 appendix B.4 and the CRC catalogue's check value for "123456789".
        assert_eq!(crc32c(b"123456789"), 0xE306_9283);
        assert_eq!(crc32c(&[0u8; 32]), 0x8A91_36AA);
        assert_eq!(crc32c(&[0xFFu8; 32]), 0x62A8_AB43);
        assert_eq!(crc32c(b""), 0);
    }
}
