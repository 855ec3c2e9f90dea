//! How large a drawing's frame is: its width, and the greatest height the page's CSS gives the
//! drawing in it (`max-height`), read once the frame is on screen (the drawing is then drawn
//! again to fit) and again after each resize, not each frame once it is read (a read after the
//! DOM changed would force a layout). The cluster drawing, the ZooKeeper-mode drawing and the partition
//! grids size themselves by it.

use yew::prelude::*;

/// The frame's node (to put on the element whose width counts) and its size in CSS pixels:
/// (0, 0) until it is read; an infinite height where the CSS sets none. A frame read while
/// hidden (0 wide: a view not shown yet) is read again after each render until it shows.
/// Each drawing marks its frame `data-fitted="false"` while it is drawn for an unread width, so
/// the browser tests wait for the drawing that fits.
#[hook]
pub fn use_frame_size(resizes: u32) -> (NodeRef, (f64, f64)) {
    let frame = use_node_ref();
    let measured = use_state_eq(|| (0.0, 0.0));
    let read_at = use_mut_ref(|| None::<u32>);
    {
        let (frame, measured) = (frame.clone(), measured.clone());
        use_effect(move || {
            if *read_at.borrow() != Some(resizes)
                && let Some(element) = frame.cast::<web_sys::Element>()
            {
                let width = f64::from(element.client_width());
                if width > 0.0 {
                    *read_at.borrow_mut() = Some(resizes);
                }
                measured.set((width, greatest_height(&element)));
            }
        });
    }
    (frame, *measured)
}

/// The greatest height the page's CSS gives the drawing in `frame` (or `frame` itself where it
/// is the drawing), in CSS pixels: infinite where it sets none.
fn greatest_height(frame: &web_sys::Element) -> f64 {
    let drawing = frame.first_element_child().unwrap_or_else(|| frame.clone());
    let max_height = web_sys::window()
        .and_then(|window| window.get_computed_style(&drawing).ok().flatten())
        .and_then(|style| style.get_property_value("max-height").ok());
    // JavaScript's parseFloat ("480px" is 480, "none" NaN): Rust's float parsing would weigh
    // 17 KB on the first screen.
    match max_height.map(|value| js_sys::parse_float(&value)) {
        Some(px) if px.is_finite() => px,
        _ => f64::INFINITY,
    }
}
