//! The native drawings' SVG trees (`drawing::svg`) as Yew's virtual DOM, keys kept.

use yew::prelude::*;
use yew::virtual_dom::{Key, VTag, VText};

use crate::drawing::svg::{Child, El};

/// `el` as a node of the page.
pub fn html(el: &El) -> Html {
    tag(el).into()
}

/// `el` with `more` after its own children: a drawing whose parts are components of the page.
pub fn html_with(el: &El, more: Html) -> Html {
    let mut tag = tag(el);
    tag.add_child(more);
    tag.into()
}

/// `el` with `node_ref` on it: a drawing that measures its own frame (the ZooKeeper-mode one).
#[cfg(feature = "full")]
pub fn html_ref(el: &El, node_ref: NodeRef) -> Html {
    let mut tag = tag(el);
    tag.node_ref = node_ref;
    tag.into()
}

/// Children as nodes of the page.
pub fn children(children: &[Child]) -> Html {
    children.iter().map(child).collect()
}

fn child(child: &Child) -> Html {
    match child {
        Child::El(el) => html(el),
        Child::Text(text) => VText::new(text.clone()).into(),
        Child::Empty => Html::default(),
    }
}

fn tag(el: &El) -> VTag {
    let mut tag = VTag::new(el.tag);
    for (name, value) in &el.attrs {
        tag.add_attribute(name, value.clone());
    }
    tag.add_children(el.children.iter().map(child));
    tag.key = el.key.as_deref().map(Key::from);
    tag
}
