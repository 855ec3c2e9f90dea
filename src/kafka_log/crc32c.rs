//! CRC-32C (Castagnoli), the checksum of record batch v2 (Kafka's `Crc32C`, used by
//! `DefaultRecordBatch.isValid` over the bytes from the attributes to the batch's end).

/// The reflected Castagnoli polynomial (`java.util.zip.CRC32C`, which `Crc32C` wraps).
const POLYNOMIAL: u32 = 0x82F6_3B78;

/// Slicing-by-8 tables: `SLICES[k][i]` is the CRC of byte `i` followed by `k` zero bytes, so
/// `SLICES[0]` is the byte-at-a-time table. Built on first use rather than stored: even the 1 KB
/// byte table alone is random to gzip, and the page's wasm would carry it whole.
fn slices() -> &'static [[u32; 256]; 8] {
    static SLICES: std::sync::OnceLock<[[u32; 256]; 8]> = std::sync::OnceLock::new();
    SLICES.get_or_init(|| {
        let mut slices = [[0u32; 256]; 8];
        for (byte, slot) in slices[0].iter_mut().enumerate() {
            *slot = (0..8)
                .fold(byte as u32, |crc, _| if crc & 1 != 0 { (crc >> 1) ^ POLYNOMIAL } else { crc >> 1 });
        }
        let bytewise = slices[0];
        for k in 1..8 {
            let previous = slices[k - 1];
            for (slot, value) in slices[k].iter_mut().zip(previous) {
                *slot = (value >> 8) ^ bytewise[(value & 0xFF) as usize];
            }
        }
        slices
    })
}

/// The CRC-32C of `bytes`: with the processor's CRC32 instruction where it has one (x86-64's
/// SSE 4.2, natively), else eight bytes a step through the tables (the page's WebAssembly).
pub fn crc32c(bytes: &[u8]) -> u32 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("sse4.2") {
        // SAFETY: the processor was just found to have SSE 4.2, which `hardware` requires.
        return unsafe { hardware(bytes) };
    }
    tables(bytes)
}

/// The CRC-32C of `bytes` with SSE 4.2's `crc32` instruction (the Castagnoli polynomial),
/// eight bytes a step.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse4.2")]
fn hardware(bytes: &[u8]) -> u32 {
    use std::arch::x86_64::{_mm_crc32_u8, _mm_crc32_u64};
    let mut chunks = bytes.chunks_exact(8);
    let mut crc = u64::from(!0u32);
    for chunk in &mut chunks {
        let word = u64::from_le_bytes([
            chunk[0], chunk[1], chunk[2], chunk[3], chunk[4], chunk[5], chunk[6], chunk[7],
        ]);
        crc = _mm_crc32_u64(crc, word);
    }
    let crc = chunks.remainder().iter().fold(crc as u32, |crc, &b| _mm_crc32_u8(crc, b));
    !crc
}

/// The CRC-32C of `bytes`, eight bytes a step through the slicing tables.
fn tables(bytes: &[u8]) -> u32 {
    let t = slices();
    let mut crc = !0u32;
    let mut chunks = bytes.chunks_exact(8);
    for chunk in &mut chunks {
        let low = u32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]) ^ crc;
        let high = u32::from_le_bytes([chunk[4], chunk[5], chunk[6], chunk[7]]);
        crc = t[7][(low & 0xFF) as usize]
            ^ t[6][(low >> 8 & 0xFF) as usize]
            ^ t[5][(low >> 16 & 0xFF) as usize]
            ^ t[4][(low >> 24) as usize]
            ^ t[3][(high & 0xFF) as usize]
            ^ t[2][(high >> 8 & 0xFF) as usize]
            ^ t[1][(high >> 16 & 0xFF) as usize]
            ^ t[0][(high >> 24) as usize];
    }
    !chunks.remainder().iter().fold(crc, |crc, &b| t[0][((crc ^ u32::from(b)) & 0xFF) as usize] ^ (crc >> 8))
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
        assert_eq!(super::tables(b"123456789"), 0xE306_9283, "the tables the page's WebAssembly uses");
    }

    #[test]
    fn eight_bytes_a_step_matches_one_byte_a_step() {
        let bytewise = |b: &[u8]| {
            !b.iter().fold(!0u32, |c, &x| super::slices()[0][((c ^ u32::from(x)) & 0xFF) as usize] ^ (c >> 8))
        };
        let data: Vec<u8> = (0..1000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 11) as u8).collect();
        for len in [0, 1, 7, 8, 9, 15, 16, 17, 999, 1000] {
            assert_eq!(super::tables(&data[..len]), bytewise(&data[..len]), "length {len}");
            assert_eq!(
                crc32c(&data[..len]),
                bytewise(&data[..len]),
                "length {len}: the instruction, where it runs"
            );
        }
    }
}
