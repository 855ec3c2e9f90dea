//! A QR code of a link, as modules to draw: class mode shows one so phones in the room can open
//! the question (`qrcode` encodes; error correction M, as phones' cameras read well).

use std::fmt::Write;

use qrcode::{Color, EcLevel, QrCode};

/// The modules a QR code draws with, around the code, so readers find it.
pub const QUIET_ZONE: usize = 4;

/// A QR code: `width` modules a side, and its dark modules as an SVG path in module units
/// (offset by the quiet zone).
#[derive(Clone, Debug, PartialEq)]
pub struct Qr {
    pub width: usize,
    pub path: String,
}

impl Qr {
    /// The code of `text`, if it fits in a QR code.
    pub fn of(text: &str) -> Option<Qr> {
        let code = QrCode::with_error_correction_level(text.as_bytes(), EcLevel::M).ok()?;
        let width = code.width();
        let dark: Vec<bool> = code.to_colors().into_iter().map(|c| c == Color::Dark).collect();
        let mut path = String::new();
        for i in (0..dark.len()).filter(|&i| dark[i]) {
            let _ = write!(path, "M{} {}h1v1h-1z", i % width + QUIET_ZONE, i / width + QUIET_ZONE);
        }
        Some(Qr { width, path })
    }

    /// The modules a side with the quiet zone: the drawing's view box.
    pub fn side(&self) -> usize {
        self.width + 2 * QUIET_ZONE
    }
}
