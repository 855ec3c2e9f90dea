//! Kiosk mode (`?kiosk=1`) for booths and lecture halls: a gloo-timers timeout holds each tour
//! step for its reading time, then asks for the next one. The timeout is dropped while the page
//! is hidden and armed afresh when it is shown again; any key or click hands control back.

use std::cell::RefCell;
use std::rc::Rc;

use gloo::events::{EventListener, EventListenerOptions};
use gloo_timers::callback::Timeout;
use yew::Callback;

/// What kiosk mode asks the page: the step to show next, or `None` when a key or click ended it.
pub type KioskRequest = Option<usize>;

/// The step held: when to ask for which next step, and the running timeout.
struct Hold {
    next: usize,
    ms: u64,
    timer: Option<Timeout>,
}

/// Kiosk mode while it is kept; dropping it stops the timer and the listeners.
pub struct Kiosk {
    hold: Rc<RefCell<Hold>>,
    on: Callback<KioskRequest>,
    _listeners: [EventListener; 3],
}

impl Kiosk {
    /// Start kiosk mode; `on` hears the steps to show and the hand-back.
    pub fn start(on: Callback<KioskRequest>) -> Kiosk {
        let hold = Rc::new(RefCell::new(Hold { next: 0, ms: 0, timer: None }));
        let window = gloo::utils::window();
        // Capture phase, so a key or click ends kiosk mode before anything else handles it.
        let capture = EventListenerOptions::run_in_capture_phase();
        let hand_back = |kind: &'static str| {
            let on = on.clone();
            EventListener::new_with_options(&window, kind, capture, move |_| on.emit(None))
        };
        let visibility = {
            let (hold, on) = (hold.clone(), on.clone());
            EventListener::new(&gloo::utils::document(), "visibilitychange", move |_| {
                if gloo::utils::document().hidden() {
                    hold.borrow_mut().timer = None;
                } else {
                    arm(&hold, &on);
                }
            })
        };
        Kiosk { hold, _listeners: [hand_back("keydown"), hand_back("pointerdown"), visibility], on }
    }

    /// Show the current step for `ms`, then ask for step `next`.
    pub fn hold(&self, next: usize, ms: u64) {
        {
            let mut hold = self.hold.borrow_mut();
            (hold.next, hold.ms) = (next, ms);
        }
        if !gloo::utils::document().hidden() {
            arm(&self.hold, &self.on);
        }
    }
}

/// (Re)start the timeout for the step held.
fn arm(hold: &Rc<RefCell<Hold>>, on: &Callback<KioskRequest>) {
    let (next, ms, on) = (hold.borrow().next, hold.borrow().ms, on.clone());
    let timer = Timeout::new(ms.min(u64::from(u32::MAX)) as u32, move || on.emit(Some(next)));
    hold.borrow_mut().timer = Some(timer);
}
