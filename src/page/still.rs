//! "Save picture": a still of the live cluster for a slide or a document, as SVG (the file
//! `kraftscope render` writes for the same moment) or as PNG at a slide's size, light or dark,
//! with a caption. The form's choices live here; the browser's exporter (`www/still.js`, loaded
//! only when a picture is saved) draws the PNG and offers the file.

use crate::drawing::cluster::{StillStyle, still};
use crate::drawing::svg::El;
use crate::harness::MS;
use crate::session::Session;
use crate::session::picture::session_picture;

/// What file the picture is saved as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StillFormat {
    Svg,
    /// PNG for a 1080p slide.
    Png1080,
    /// PNG for a 4K slide.
    Png2160,
}

impl StillFormat {
    pub const ALL: [StillFormat; 3] = [StillFormat::Svg, StillFormat::Png1080, StillFormat::Png2160];

    /// How the form names it.
    pub fn label(self) -> &'static str {
        match self {
            StillFormat::Svg => "SVG (any size, text stays text)",
            StillFormat::Png1080 => "PNG 1920 x 1080",
            StillFormat::Png2160 => "PNG 3840 x 2160",
        }
    }

    /// The image's size in pixels (none for SVG, which scales).
    pub fn size(self) -> Option<(u32, u32)> {
        match self {
            StillFormat::Svg => None,
            StillFormat::Png1080 => Some((1920, 1080)),
            StillFormat::Png2160 => Some((3840, 2160)),
        }
    }

    fn extension(self) -> &'static str {
        match self {
            StillFormat::Svg => "svg",
            StillFormat::Png1080 | StillFormat::Png2160 => "png",
        }
    }
}

/// The form's choices, kept from one picture to the next.
#[derive(Clone, Debug, PartialEq)]
pub struct StillForm {
    pub format: StillFormat,
    pub style: StillStyle,
}

impl Default for StillForm {
    fn default() -> Self {
        StillForm { format: StillFormat::Svg, style: StillStyle::default() }
    }
}

/// What the viewer does with the form.
#[derive(Clone, Debug, PartialEq)]
pub enum StillAction {
    Open,
    Close,
    Format(StillFormat),
    Dark(bool),
    Caption(String),
    Save,
}

/// A picture for the browser to save: the drawing (its stylesheet is the served `style.css`,
/// embedded by `El::document`), the file's name, and for PNG the image's size and the colour
/// around the drawing.
#[derive(Clone, Debug, PartialEq)]
pub struct Still {
    pub drawing: El,
    pub name: String,
    pub size: Option<(u32, u32)>,
    pub background: &'static str,
}

impl StillForm {
    /// The picture of `session` now, named after what is shown (`scenario`, or the live
    /// cluster), its seed and its moment.
    pub fn still(&self, session: &Session, scenario: Option<&str>, reduced_motion: bool) -> Still {
        let picture = session_picture(session, reduced_motion);
        let stem = format!(
            "{}-seed{}-{}ms",
            scenario.unwrap_or("cluster"),
            session.settings().seed,
            session.now() / MS
        );
        self.file(still(&picture, reduced_motion, &self.style), stem)
    }

    /// The picture of the failover race now (`drawing::race`), named after its size, seed and
    /// moment since the kill; `None` while the race is being built (nothing to draw yet).
    #[cfg(feature = "full")]
    pub fn race_still(&self, race: &super::RaceView, seed: u64) -> Option<Still> {
        let drawing = race.screen(super::race::RaceFrame::Page).still(&self.style)?;
        let moment = match race.race().and_then(crate::race::FailoverRace::elapsed) {
            Some(elapsed) => format!("{}ms", elapsed / MS),
            None => "before-the-kill".to_string(),
        };
        Some(self.file(drawing, format!("failover-{}p-seed{seed}-{moment}", race.partitions())))
    }

    /// The picture of the pain shown (`PainsView::still`), named after the pain and its
    /// simulated moment.
    #[cfg(feature = "full")]
    pub fn pains_still(&self, view: &super::PainsView) -> Still {
        self.file(view.still(&self.style), format!("{}-{}ms", view.pain.id(), view.now / MS))
    }

    /// The migration shown (`MigrationView::still`), named after its scenario and moment.
    #[cfg(feature = "full")]
    pub fn migration_still(&self, view: &super::migration::MigrationView) -> Still {
        self.file(view.still(&self.style), format!("{}-{}ms", view.scenario, view.now / MS))
    }

    /// The picture of the opened metadata log (`drawing::log::log_still`), named after where its
    /// image stands.
    #[cfg(feature = "full")]
    pub fn log_still(&self, log: &crate::log_reader::OpenedLog) -> Still {
        let drawing = crate::drawing::log::log_still(log, &self.style);
        self.file(drawing, format!("log-{}-of-{}-records", log.position, log.len))
    }

    /// `drawing` as the file the form asks for, named `kraftscope-{stem}`.
    fn file(&self, drawing: El, stem: String) -> Still {
        let dark = if self.style.dark { "-dark" } else { "" };
        Still {
            drawing,
            name: format!("kraftscope-{stem}{dark}.{}", self.format.extension()),
            size: self.format.size(),
            background: if self.style.dark { "#0d1117" } else { "#ffffff" },
        }
    }
}
