//! The page's stylesheet as it is served: `cargo xtask dist` writes it so, and `kraftscope
//! render` embeds it so in a still, as the page's export does.

/// The stylesheet a still embeds, as the page serves it: `www/style.css`, then `www/later.css`,
/// each minified. A still looks as the drawing does on screen.
pub fn still_sheet() -> String {
    minify(include_str!("../../www/style.css")) + &minify(include_str!("../../www/later.css"))
}

/// The stylesheet without comments and without the whitespace its syntax does not need (about
/// 0.9 KiB of the first screen gzipped). Whitespace is collapsed to one space, then dropped only
/// next to `{`, `}`, `;` and after `:` and `,`, which never changes a selector's meaning (a
/// space before `:` is a descendant combinator and stays).
pub fn minify(css: &str) -> String {
    let mut without_comments = String::with_capacity(css.len());
    let mut rest = css;
    while let Some(start) = rest.find("/*") {
        without_comments.push_str(&rest[..start]);
        rest = rest[start..].find("*/").map_or("", |end| &rest[start + end + 2..]);
    }
    without_comments.push_str(rest);
    let mut out = without_comments.split_whitespace().collect::<Vec<_>>().join(" ");
    for (spaced, tight) in
        [("{ ", "{"), (" {", "{"), ("; ", ";"), (" }", "}"), ("} ", "}"), (": ", ":"), (", ", ",")]
    {
        out = out.replace(spaced, tight);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::minify;

    #[test]
    fn minified_css_keeps_selectors_and_values() {
        let css = "/* a comment */\n.a :focus-visible {\n  color: red; /* why */\n  font-family: \"Segoe UI\", sans-serif;\n}\n@media (max-width: 600px) { .b > .c { margin: 0 1px; } }\n";
        assert_eq!(
            minify(css),
            ".a :focus-visible{color:red;font-family:\"Segoe UI\",sans-serif;}@media (max-width:600px){.b > .c{margin:0 1px;}}"
        );
    }
}
