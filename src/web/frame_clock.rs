//! One animation frame loop per component: at most one frame requested, none while idle (so a
//! paused page fires nothing) or off screen (a hidden tab, an embed scrolled out of view), and
//! the real time between frames, capped after a long pause.

use std::cell::Cell;
use std::rc::Rc;

use gloo::render::{AnimationFrame, request_animation_frame};
use yew::html::Scope;
use yew::prelude::*;

use super::on_screen;

/// Longest real time one frame may account for (after the tab was hidden, say).
const MAX_FRAME_MS: f64 = 100.0;

/// The page's clock in milliseconds (`performance.now()`), the time base of animation frames.
pub fn now_ms() -> f64 {
    gloo::utils::window().performance().map_or(0.0, |p| p.now())
}

/// The frame handle of a component and the time of its last frame.
#[derive(Default)]
pub struct FrameClock {
    frame: Option<AnimationFrame>,
    last: Option<f64>,
    /// Whether the loop should run, and whether it waits for the page to come back on screen.
    running: Rc<Cell<bool>>,
    parked: Rc<Cell<bool>>,
}

impl FrameClock {
    /// Keep one frame requested while `running` (delivered as `msg(timestamp)`); drop it otherwise.
    /// Off screen no frame is requested: the loop parks, and resumes (with a frame of no elapsed
    /// time) when the page is back on screen.
    pub fn keep<C: Component>(&mut self, running: bool, link: &Scope<C>, msg: fn(f64) -> C::Message) {
        self.running.set(running);
        if !running {
            self.frame = None;
            self.last = None;
        } else if self.frame.is_none() && on_screen::on_screen() {
            let link = link.clone();
            self.frame = Some(request_animation_frame(move |ts| link.send_message(msg(ts))));
        } else if self.frame.is_none() && !self.parked.replace(true) {
            self.last = None;
            let (link, running, parked) = (link.clone(), self.running.clone(), self.parked.clone());
            on_screen::park(Box::new(move || {
                parked.set(false);
                if running.get() {
                    link.send_message(msg(now_ms()));
                }
            }));
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
