//! Whether the page is on screen: its tab visible (visibilitychange) and its root inside the
//! viewport (an IntersectionObserver; an embed scrolled out of view is not). Frame loops park
//! while it is off screen and are woken when it comes back.

use std::cell::RefCell;

use gloo::events::EventListener;
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use web_sys::{IntersectionObserver, IntersectionObserverEntry};

/// The observer of the page's visibility in its embedding page, and its callback.
type Observer = (IntersectionObserver, Closure<dyn FnMut(js_sys::Array)>);

/// The page's state and the frame loops waiting for it to come back on screen.
struct Screen {
    hidden: bool,
    intersecting: bool,
    parked: Vec<Box<dyn FnOnce()>>,
    _visibility: EventListener,
    _observer: Option<Observer>,
}

thread_local! {
    static SCREEN: RefCell<Option<Screen>> = const { RefCell::new(None) };
}

/// Whether the page is on screen now (watching starts with the first call).
pub fn on_screen() -> bool {
    with_screen(|screen| !screen.hidden && screen.intersecting)
}

/// Run `wake` once, when the page is next on screen.
pub fn park(wake: Box<dyn FnOnce()>) {
    with_screen(|screen| screen.parked.push(wake));
}

fn with_screen<T>(f: impl FnOnce(&mut Screen) -> T) -> T {
    SCREEN.with(|cell| {
        let mut screen = cell.borrow_mut();
        f(screen.get_or_insert_with(watch))
    })
}

fn watch() -> Screen {
    let document = gloo::utils::document();
    let visibility = EventListener::new(&document, "visibilitychange", |_| {
        update(|screen| screen.hidden = gloo::utils::document().hidden());
    });
    let callback = Closure::<dyn FnMut(js_sys::Array)>::new(|entries: js_sys::Array| {
        let last = entries.iter().filter_map(|e| e.dyn_into::<IntersectionObserverEntry>().ok()).next_back();
        if let Some(entry) = last {
            update(|screen| screen.intersecting = entry.is_intersecting());
        }
    });
    let observer = IntersectionObserver::new(callback.as_ref().unchecked_ref()).ok().and_then(|observer| {
        observer.observe(&document.document_element()?);
        Some((observer, callback))
    });
    Screen {
        hidden: document.hidden(),
        intersecting: true,
        parked: Vec::new(),
        _visibility: visibility,
        _observer: observer,
    }
}

/// Change the state; when the page is back on screen, wake every parked frame loop (outside the
/// borrow, as waking may park again).
fn update(change: impl FnOnce(&mut Screen)) {
    let woken = SCREEN.with(|cell| {
        let mut cell = cell.borrow_mut();
        let Some(screen) = cell.as_mut() else { return Vec::new() };
        change(screen);
        if screen.hidden || !screen.intersecting { Vec::new() } else { std::mem::take(&mut screen.parked) }
    });
    for wake in woken {
        wake();
    }
}
