//! One animation frame loop per component: at most one frame requested, none while idle (so a
//! paused page fires nothing), and the real time between frames, capped after a long pause.

use gloo::render::{AnimationFrame, request_animation_frame};
use yew::html::Scope;
use yew::prelude::*;

/// Longest real time one frame may account for (after the tab was hidden, say).
const MAX_FRAME_MS: f64 = 100.0;

/// The frame handle of a component and the time of its last frame.
#[derive(Default)]
pub struct FrameClock {
    frame: Option<AnimationFrame>,
    last: Option<f64>,
}

impl FrameClock {
    /// Keep one frame requested while `running` (delivered as `msg(timestamp)`); drop it otherwise.
    pub fn keep<C: Component>(&mut self, running: bool, link: &Scope<C>, msg: fn(f64) -> C::Message) {
        if !running {
            self.frame = None;
            self.last = None;
        } else if self.frame.is_none() {
            let link = link.clone();
            self.frame = Some(request_animation_frame(move |ts| link.send_message(msg(ts))));
        }
    }

    /// A frame arrived at `ts`: real milliseconds since the previous one (0 for the first).
    pub fn tick(&mut self, ts: f64) -> f64 {
        self.frame = None;
        let elapsed = self.last.map_or(0.0, |last| (ts - last).clamp(0.0, MAX_FRAME_MS));
        self.last = Some(ts);
        elapsed
    }
}
