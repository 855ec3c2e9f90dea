//! SVG as data: an element tree the drawings are built as, natively. The page turns it into its
//! DOM (`web::svg_html`); a still (the page's export, `kraftscope render`) writes it as markup.
//! One drawing code for both, so the picture on screen and the picture exported cannot differ.

/// SVG's XML namespace, which a file of its own names on its root.
pub const SVG_NAMESPACE: &str = "http://www.w3.org/2000/svg";

/// One SVG element: its tag, attributes in order, children, and the key the page's diff keeps
/// it by (not written out).
#[derive(Clone, Debug, PartialEq)]
pub struct El {
    pub tag: &'static str,
    pub attrs: Vec<(&'static str, String)>,
    pub children: Vec<Child>,
    pub key: Option<String>,
}

/// An element's child: an element, text, or the slot of an optional part that is absent now.
#[derive(Clone, Debug, PartialEq)]
pub enum Child {
    El(El),
    Text(String),
    /// Nothing is drawn or written, but the place is kept: the page's diff matches children by
    /// position, so a crown or a cross appearing does not shift (and re-patch) every part after
    /// it, as an `if` in Yew's `html!` keeps an empty place.
    Empty,
}

impl Child {
    /// `el`, or its kept place when there is none.
    pub fn slot(el: Option<El>) -> Child {
        el.map_or(Child::Empty, Child::El)
    }
}

impl El {
    pub fn new(tag: &'static str) -> El {
        El { tag, attrs: Vec::new(), children: Vec::new(), key: None }
    }

    /// With an attribute.
    pub fn attr(mut self, name: &'static str, value: impl ToString) -> El {
        self.attrs.push((name, value.to_string()));
        self
    }

    /// With attribute `name` set to what `value` makes of its value so far ("" if it had none).
    pub fn set(mut self, name: &'static str, value: impl FnOnce(&str) -> String) -> El {
        match self.attrs.iter_mut().find(|(n, _)| *n == name) {
            Some((_, old)) => *old = value(old),
            None => self.attrs.push((name, value(""))),
        }
        self
    }

    /// With an attribute where there is a value.
    pub fn attr_if(self, name: &'static str, value: Option<impl ToString>) -> El {
        match value {
            Some(value) => self.attr(name, value),
            None => self,
        }
    }

    /// With a child element.
    pub fn child(mut self, child: El) -> El {
        self.children.push(Child::El(child));
        self
    }

    /// With a child element where there is one, its place kept where there is none.
    pub fn child_if(mut self, child: Option<El>) -> El {
        self.children.push(Child::slot(child));
        self
    }

    /// With child elements.
    pub fn children(mut self, children: impl IntoIterator<Item = El>) -> El {
        self.children.extend(children.into_iter().map(Child::El));
        self
    }

    /// With these children.
    pub fn with(mut self, children: Vec<Child>) -> El {
        self.children.extend(children);
        self
    }

    /// With a text child.
    pub fn text(mut self, text: impl ToString) -> El {
        self.children.push(Child::Text(text.to_string()));
        self
    }

    /// With a `<title>`: the tooltip, and a name for assistive technology.
    pub fn title(self, title: impl ToString) -> El {
        self.child(El::new("title").text(title))
    }

    /// Kept by this key in the page's diff.
    pub fn keyed(mut self, key: impl ToString) -> El {
        self.key = Some(key.to_string());
        self
    }

    /// The element as markup: attributes in order, text escaped, empty elements closed in place.
    pub fn markup(&self) -> String {
        let mut out = String::new();
        self.write(&mut out);
        out
    }

    /// The element as an SVG file of its own, styled by `css` (the page's stylesheet, so that
    /// it looks as on screen): the namespace on the root, the style its first child.
    pub fn document(&self, css: &str) -> String {
        let (head, tail) = self.document_around_style();
        format!("{head}{}{tail}", css.replace("]]>", "]]]]><![CDATA[>"))
    }

    /// [`El::document`] before and after its stylesheet, for the page, whose exporter fetches
    /// the stylesheet itself (`www/still.js`).
    pub fn document_around_style(&self) -> (String, String) {
        let mut head = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        self.open(&mut head, &[("xmlns", SVG_NAMESPACE)]);
        head.push_str("><style><![CDATA[\n");
        let mut tail = String::from("]]></style>");
        self.rest(&mut tail);
        tail.push('\n');
        (head, tail)
    }

    fn write(&self, out: &mut String) {
        self.open(out, &[]);
        if self.children.iter().all(|c| *c == Child::Empty) {
            out.push_str("/>");
        } else {
            out.push('>');
            self.rest(out);
        }
    }

    /// The start tag up to its `>`, with `first` before the element's own attributes.
    fn open(&self, out: &mut String, first: &[(&str, &str)]) {
        out.push('<');
        out.push_str(self.tag);
        let own = self.attrs.iter().map(|(n, v)| (*n, v.as_str()));
        for (name, value) in first.iter().copied().chain(own) {
            out.push(' ');
            out.push_str(name);
            out.push_str("=\"");
            escape(value, true, out);
            out.push('"');
        }
    }

    /// The children and the end tag.
    fn rest(&self, out: &mut String) {
        for child in &self.children {
            match child {
                Child::El(el) => el.write(out),
                Child::Text(text) => escape(text, false, out),
                Child::Empty => {}
            }
        }
        out.push_str("</");
        out.push_str(self.tag);
        out.push('>');
    }
}

/// XML's escapes: `&`, `<` and `>` everywhere, `"` in attribute values.
fn escape(text: &str, attribute: bool, out: &mut String) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' if attribute => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Child, El};

    #[test]
    fn markup_escapes_and_closes_empty_elements() {
        let el = El::new("g")
            .attr("aria-label", "a \"b\" & <c>")
            .child(El::new("circle").attr("r", 8.5))
            .child(El::new("text").text("x < y & z").title("t"))
            .attr_if("data-none", None::<&str>)
            .child_if(None)
            .keyed("k");
        assert_eq!(
            el.markup(),
            "<g aria-label=\"a &quot;b&quot; &amp; &lt;c&gt;\"><circle r=\"8.5\"/><text>x &lt; y &amp; z<title>t</title></text></g>"
        );
        assert_eq!(el.key.as_deref(), Some("k"));
        assert_eq!(el.children.last(), Some(&Child::Empty), "an absent part keeps its place");
        assert_eq!(El::new("g").child_if(None).markup(), "<g/>", "and writes nothing");
        let set =
            El::new("svg").attr("class", "a").set("class", |c| format!("{c} b")).set("id", |_| "i".into());
        assert_eq!(set.markup(), "<svg class=\"a b\" id=\"i\"/>");
    }

    #[test]
    fn a_document_names_the_namespace_and_carries_its_style() {
        let doc =
            El::new("svg").attr("viewBox", "0 0 10 10").child(El::new("g")).document("a > b { x: 1 } ]]>");
        assert_eq!(
            doc,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 10 10\"><style><![CDATA[\na > b { x: 1 } ]]]]><![CDATA[>]]></style><g/></svg>\n"
        );
    }
}
