//! The palette's contrast (WCAG 2.1 SC 1.4.3 and 1.4.11), read from www/style.css: text 4.5:1
//! and graphics needed to read the drawing 3:1 against the background they sit on, by the
//! WCAG relative-luminance formula. Each pair below names the CSS rules it reads, so changing a
//! colour in the stylesheet is checked here. (Message and epoch colours are not checked on their
//! own: every dot and cell is edged in a dark colour checked here, and kinds and epochs are also
//! written beside them.)

use std::collections::BTreeMap;

/// A colour in a rule: selector and property.
type At = (&'static str, &'static str);

/// Text and what it sits on.
const TEXT: [(At, At); 33] = [
    ((":root", "color"), (":root", "background")),
    ((".tagline", "color"), (":root", "background")),
    ((".hint", "color"), (".panel", "background")),
    (("button", "color"), ("button", "background")),
    (("button.tab, button.secondary", "color"), ("button.tab, button.secondary", "background")),
    (("button.tab.active", "color"), ("button.tab.active", "background")),
    ((".node .small", "fill"), (".node .shape", "fill")),
    ((".node .vote", "fill"), ("svg.cluster", "background")),
    ((".node.role-down text", "fill"), (".node.role-down .shape", "fill")),
    ((".log .tiny", "fill"), ("svg.cluster", "background")),
    ((".epoch-mark", "fill"), (".epoch-mark", "stroke")),
    ((".message-label", "fill"), (".message-label", "stroke")),
    ((".message-note", "fill"), (".message-note", "stroke")),
    ((".cut-mark", "fill"), ("svg.cluster", "background")),
    ((".legend", "color"), (":root", "background")),
    ((".how-to-read", "color"), (":root", "background")),
    ((".invariants li.ok .mark", "color"), (".panel", "background")),
    ((".invariants li.broken", "color"), (".panel", "background")),
    ((".log .lines li.notable", "color"), (".panel", "background")),
    ((".violation-banner", "color"), (".violation-banner", "background")),
    ((".tour-head", "color"), (".panel", "background")),
    ((".tour-head .chapter", "color"), (".panel", "background")),
    ((".pace", "color"), (".pace", "background")),
    ((":root", "color"), (".race-headline", "background")),
    ((":root", "color"), (".notices", "background")),
    ((":root", "color"), ("kbd", "background")),
    ((".chart .axis", "fill"), (".panel", "background")),
    ((".chart-legend text", "fill"), (".panel", "background")),
    ((".zk-ensemble .ensemble-title", "fill"), (".zk-ensemble .ensemble-box", "fill")),
    ((".zk-server .small", "fill"), (".zk-server .shape", "fill")),
    ((".tiny-note", "fill"), (".zk-ensemble .ensemble-box", "fill")),
    ((".znode.gone .znode-value", "fill"), (".znode-box", "fill")),
    ((".partition-grid .grid-label", "fill"), (".panel", "background")),
];

/// Graphics needed to read the drawing, and what they sit on.
const GRAPHICS: [(At, At); 20] = [
    ((".link", "stroke"), ("svg.cluster", "background")),
    ((".link.cut", "stroke"), ("svg.cluster", "background")),
    ((".node .shape", "stroke"), ("svg.cluster", "background")),
    ((".node.role-leader .shape", "stroke"), ("svg.cluster", "background")),
    ((".node.role-candidate .shape", "stroke"), ("svg.cluster", "background")),
    ((".node.role-prospective .shape", "stroke"), ("svg.cluster", "background")),
    ((".node.role-unattached .shape", "stroke"), (".node.role-unattached .shape", "fill")),
    ((".node.role-down .shape", "stroke"), (".node.role-down .shape", "fill")),
    ((".node .shape.fenced", "stroke"), (".node .shape", "fill")),
    ((".node:focus-visible .shape", "stroke"), ("svg.cluster", "background")),
    ((":focus-visible", "outline"), (":root", "background")),
    ((":focus-visible", "outline"), (".panel", "background")),
    ((".timeout", "stroke"), ("svg.cluster", "background")),
    ((".log .hw", "stroke"), ("svg.cluster", "background")),
    ((".log .cell", "stroke"), ("svg.cluster", "background")),
    ((".message circle.halo", "fill"), ("svg.cluster", "background")),
    ((".chart .series.kraft", "stroke"), (".panel", "background")),
    ((".chart .series.zk", "stroke"), (".panel", "background")),
    ((".zk-ensemble .ensemble-box", "stroke"), ("svg.zk-cluster", "background")),
    ((".zk-server .shape", "stroke"), (".zk-ensemble .ensemble-box", "fill")),
];

/// The top-level rules of a stylesheet (media queries left out): selector to declarations,
/// later rules overriding earlier ones.
fn rules(css: &str) -> BTreeMap<String, BTreeMap<String, String>> {
    let mut text = String::new();
    let mut rest = css;
    while let Some(start) = rest.find("/*") {
        text.push_str(&rest[..start]);
        rest = rest[start..].find("*/").map_or("", |end| &rest[start + end + 2..]);
    }
    text.push_str(rest);
    let mut rules: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    let (mut depth, mut head, mut body) = (0, String::new(), String::new());
    for c in text.chars() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    let selector = head.split_whitespace().collect::<Vec<_>>().join(" ");
                    if !selector.starts_with('@') {
                        let declarations = rules.entry(selector).or_default();
                        for declaration in body.split(';') {
                            if let Some((property, value)) = declaration.split_once(':') {
                                declarations.insert(property.trim().to_string(), value.trim().to_string());
                            }
                        }
                    }
                    head.clear();
                    body.clear();
                }
            }
            _ if depth == 0 => head.push(c),
            _ if depth == 1 => body.push(c),
            _ => {}
        }
    }
    rules
}

/// The colour at `at`, following `var(--name)` to `:root` and picking the colour out of an
/// `outline` shorthand.
fn colour(rules: &BTreeMap<String, BTreeMap<String, String>>, (selector, property): At) -> [f64; 3] {
    let value = rules
        .get(selector)
        .and_then(|r| r.get(property))
        .unwrap_or_else(|| panic!("style.css has no `{property}` in `{selector}`"));
    let token =
        value.split_whitespace().find(|t| t.starts_with('#') || t.starts_with("var(")).unwrap_or(value);
    let hex = match token.strip_prefix("var(").and_then(|v| v.strip_suffix(')')) {
        Some(name) => rules[":root"].get(name).unwrap_or_else(|| panic!("no {name} in :root")).clone(),
        None => token.to_string(),
    };
    parse_hex(&hex).unwrap_or_else(|| panic!("`{selector}` {property}: `{value}` is not a #hex colour"))
}

fn parse_hex(hex: &str) -> Option<[f64; 3]> {
    let digits = hex.strip_prefix('#')?;
    let digits: String = match digits.len() {
        3 => digits.chars().flat_map(|c| [c, c]).collect(),
        6 => digits.to_string(),
        _ => return None,
    };
    let channel = |i: usize| u8::from_str_radix(&digits[i..i + 2], 16).ok().map(|v| f64::from(v) / 255.0);
    Some([channel(0)?, channel(2)?, channel(4)?])
}

/// WCAG 2.1 relative luminance.
fn luminance([r, g, b]: [f64; 3]) -> f64 {
    let linear = |c: f64| if c <= 0.040_45 { c / 12.92 } else { ((c + 0.055) / 1.055).powf(2.4) };
    0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)
}

/// WCAG 2.1 contrast ratio, 1 to 21.
fn contrast(a: [f64; 3], b: [f64; 3]) -> f64 {
    let (la, lb) = (luminance(a), luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

fn failures(pairs: &[(At, At)], minimum: f64) -> Vec<String> {
    let css = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/www/style.css")).unwrap();
    let rules = rules(&css);
    pairs
        .iter()
        .filter_map(|&(fg, bg)| {
            let ratio = contrast(colour(&rules, fg), colour(&rules, bg));
            (ratio < minimum).then(|| format!("{} {} on {} {}: {ratio:.2}:1", fg.0, fg.1, bg.0, bg.1))
        })
        .collect()
}

#[test]
fn the_contrast_formula_matches_wcag_examples() {
    let (black, white) = ([0.0; 3], [1.0; 3]);
    assert!((contrast(black, white) - 21.0).abs() < 1e-9);
    assert!((contrast(white, white) - 1.0).abs() < 1e-9);
    // #767676 on white is the well-known lightest grey that passes 4.5:1.
    assert!((contrast(parse_hex("#767676").unwrap(), white) - 4.54).abs() < 0.01);
    assert_eq!(parse_hex("#fff"), Some(white));
}

#[test]
fn text_has_4_5_to_1_against_its_background() {
    let failed = failures(&TEXT, 4.5);
    assert!(failed.is_empty(), "text below 4.5:1:\n{}", failed.join("\n"));
}

#[test]
fn graphics_have_3_to_1_against_their_background() {
    let failed = failures(&GRAPHICS, 3.0);
    assert!(failed.is_empty(), "graphics below 3:1:\n{}", failed.join("\n"));
}
