//! The scenario file format (after etcd-io/raft's datadriven tests): blocks of comment lines,
//! one directive line, a `----` line and the expected output, separated by blank lines.

use std::fmt;

/// One directive with its expected output.
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    /// Comment lines (starting with `#`) above the directive.
    pub comments: Vec<String>,
    /// The 1-based line number of the directive.
    pub line: usize,
    pub command: String,
    pub args: Vec<(String, String)>,
    pub expected: Vec<String>,
}

impl Block {
    /// The value of `key=value`, if given.
    pub(crate) fn arg(&self, key: &str) -> Option<&str> {
        self.args.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    /// The directive line as written.
    pub fn directive(&self) -> String {
        let mut text = self.command.clone();
        for (k, v) in &self.args {
            text.push(' ');
            if v.is_empty() {
                text.push_str(k);
            } else {
                text.push_str(&format!("{k}={v}"));
            }
        }
        text
    }
}

/// A directive line that is not followed by its `----` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MissingSeparator {
    /// The 1-based line number of the directive.
    pub line: usize,
    pub directive: String,
}

impl fmt::Display for MissingSeparator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: expected '----' after the directive '{}'", self.line, self.directive)
    }
}

impl std::error::Error for MissingSeparator {}

/// Parse a scenario file.
pub fn parse(text: &str) -> Result<Vec<Block>, MissingSeparator> {
    let mut blocks = Vec::new();
    let mut lines = text.lines().enumerate().peekable();
    let mut comments = Vec::new();
    while let Some((index, line)) = lines.next() {
        let trimmed = line.trim();
        if trimmed.is_empty() {
            continue;
        }
        if trimmed.starts_with('#') {
            comments.push(trimmed.to_string());
            continue;
        }
        let mut words = trimmed.split_whitespace();
        let command = words.next().unwrap_or_default().to_string();
        let args = words
            .map(|w| match w.split_once('=') {
                Some((k, v)) => (k.to_string(), v.to_string()),
                None => (w.to_string(), String::new()),
            })
            .collect();
        match lines.next() {
            Some((_, "----")) => {}
            _ => {
                return Err(MissingSeparator { line: index + 1, directive: trimmed.to_string() });
            }
        }
        let mut expected = Vec::new();
        while let Some((_, next)) = lines.peek() {
            if next.trim().is_empty() {
                break;
            }
            expected.push(next.to_string());
            lines.next();
        }
        blocks.push(Block {
            comments: std::mem::take(&mut comments),
            line: index + 1,
            command,
            args,
            expected,
        });
    }
    Ok(blocks)
}

/// Write blocks back in the file format, with `outputs` as each block's expected output.
pub fn render(blocks: &[Block], outputs: &[Vec<String>]) -> String {
    let mut text = String::new();
    for (block, output) in blocks.iter().zip(outputs) {
        for comment in &block.comments {
            text.push_str(comment);
            text.push('\n');
        }
        text.push_str(&block.directive());
        text.push_str("\n----\n");
        for line in output {
            text.push_str(line);
            text.push('\n');
        }
        text.push('\n');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::{MissingSeparator, parse, render};

    #[test]
    fn parses_and_renders_back_the_same_text() {
        let text = "# a comment\ncluster voters=3\n----\nok\n\nrun for=100\n----\nline one\nline two\n\n";
        let blocks = parse(text).unwrap();
        assert_eq!(blocks.len(), 2);
        assert_eq!(blocks[0].arg("voters"), Some("3"));
        assert_eq!(blocks[1].expected, ["line one", "line two"]);
        let outputs: Vec<Vec<String>> = blocks.iter().map(|b| b.expected.clone()).collect();
        assert_eq!(render(&blocks, &outputs), text);
    }

    #[test]
    fn a_directive_without_separator_is_an_error() {
        let missing = MissingSeparator { line: 1, directive: "cluster voters=3".into() };
        assert_eq!(parse("cluster voters=3\nrun\n"), Err(missing));
    }
}
