//! A small `--flag value` parser: every value is checked and every mistake is a clear message.

use std::collections::BTreeMap;
use std::str::FromStr;

/// Flags given as `--name value` or `--name` (a switch).
pub struct Args {
    values: BTreeMap<String, Option<String>>,
}

impl Args {
    /// Parse `args`; `switches` are flags that take no value.
    pub(crate) fn parse(args: &[String], switches: &[&str]) -> Result<Args, String> {
        let mut values = BTreeMap::new();
        let mut iter = args.iter();
        while let Some(arg) = iter.next() {
            let name = arg.strip_prefix("--").ok_or_else(|| format!("unexpected argument '{arg}'"))?;
            let value = if switches.contains(&name) {
                None
            } else {
                Some(iter.next().ok_or_else(|| format!("--{name} needs a value"))?.clone())
            };
            values.insert(name.to_string(), value);
        }
        Ok(Args { values })
    }

    /// Fail on any flag not in `known`.
    pub(crate) fn only(&self, known: &[&str]) -> Result<(), String> {
        match self.values.keys().find(|k| !known.contains(&k.as_str())) {
            Some(unknown) => Err(format!("unknown option --{unknown} (known: --{})", known.join(", --"))),
            None => Ok(()),
        }
    }

    /// Whether a switch was given.
    pub(crate) fn has(&self, name: &str) -> bool {
        self.values.contains_key(name)
    }

    /// The raw value of `--name`.
    pub(crate) fn text(&self, name: &str) -> Option<&str> {
        self.values.get(name).and_then(|v| v.as_deref())
    }

    /// `--name` parsed as `T`, or `default` when absent.
    pub(crate) fn get<T: FromStr>(&self, name: &str, default: T) -> Result<T, String> {
        match self.text(name) {
            None => Ok(default),
            Some(text) => text.parse().map_err(|_| format!("--{name}: '{text}' is not a valid value")),
        }
    }

    /// `--name` as a comma-separated list of `T` (`_` allowed as a digit separator), or
    /// `default` parsed the same way when absent.
    pub(crate) fn list<T: FromStr>(&self, name: &str, default: &str) -> Result<Vec<T>, String> {
        let text = self.text(name).unwrap_or(default);
        text.split(',')
            .map(|s| {
                s.trim().replace('_', "").parse().map_err(|_| format!("--{name}: '{s}' is not a valid value"))
            })
            .collect()
    }
}
