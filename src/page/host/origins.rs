//! Which host pages may command an embed: the `origins=` URL parameter, a comma-separated list
//! of web origins (`https://docs.example.com,http://localhost:8000`). Only messages from these
//! origins are read, and events are posted to these origins only.

/// The origins allowed to send commands, normalised as browsers report `MessageEvent.origin`
/// (lower-case scheme and host, no default port, no trailing slash).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Origins(Vec<String>);

/// Most origins one list may name (a docs site, its staging copy, a local preview...).
const MAX_ORIGINS: usize = 16;

impl Origins {
    /// Parse a comma-separated list; an entry that is not an origin is named in the error.
    pub fn parse(list: &str) -> Result<Origins, String> {
        let mut origins: Vec<String> = Vec::new();
        for entry in list.split(',').map(str::trim).filter(|e| !e.is_empty()) {
            let origin = origin(entry)?;
            if !origins.contains(&origin) {
                origins.push(origin);
            }
        }
        if origins.is_empty() {
            return Err("no origin given (expected e.g. https://docs.example.com)".into());
        }
        if origins.len() > MAX_ORIGINS {
            return Err(format!("{} origins, more than the {MAX_ORIGINS} one list may name", origins.len()));
        }
        Ok(Origins(origins))
    }

    /// Whether a message from `origin` (as `MessageEvent.origin` gives it) may command the page.
    pub fn allows(&self, origin: &str) -> bool {
        self.0.iter().any(|o| o == origin)
    }

    /// Whether no origin is allowed (the API is off).
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The allowed origins, in the order given.
    pub fn iter(&self) -> impl Iterator<Item = &str> {
        self.0.iter().map(String::as_str)
    }
}

/// One origin, normalised: `scheme://host[:port]` with an http or https scheme.
fn origin(entry: &str) -> Result<String, String> {
    let bad =
        |why: &str| format!("'{entry}' is not an origin ({why}; expected e.g. https://docs.example.com)");
    let lower = entry.to_ascii_lowercase();
    let (scheme, rest) = lower.split_once("://").ok_or_else(|| bad("no scheme"))?;
    let default_port = match scheme {
        "https" => "443",
        "http" => "80",
        _ => return Err(bad("the scheme must be http or https")),
    };
    let authority = rest.strip_suffix('/').unwrap_or(rest);
    if authority.contains(['/', '?', '#', '@']) {
        return Err(bad("an origin has no path, query, fragment or user"));
    }
    let (host, port) = match authority.find(']') {
        Some(end) => {
            let rest = &authority[end + 1..];
            (&authority[..=end], (!rest.is_empty()).then(|| rest.strip_prefix(':').unwrap_or("?")))
        }
        None => authority.rsplit_once(':').map_or((authority, None), |(host, port)| (host, Some(port))),
    };
    let ipv6 = host.len() > 2
        && host.starts_with('[')
        && host.ends_with(']')
        && host[1..host.len() - 1].chars().all(|c| c.is_ascii_hexdigit() || c == ':' || c == '.');
    let host_ok =
        !host.is_empty() && (ipv6 || host.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '.'));
    if !host_ok {
        return Err(bad("the host is empty or has characters a host cannot have"));
    }
    match port {
        None => Ok(format!("{scheme}://{host}")),
        Some(port) if port.parse::<u16>().is_ok_and(|p| p > 0) => {
            let port = port.trim_start_matches('0');
            Ok(if port == default_port {
                format!("{scheme}://{host}")
            } else {
                format!("{scheme}://{host}:{port}")
            })
        }
        Some(_) => Err(bad("the port must be 1 to 65535")),
    }
}

#[cfg(test)]
mod tests {
    use super::Origins;

    #[test]
    fn origins_are_normalised_as_browsers_report_them() {
        let origins = Origins::parse(
            "HTTPS://Docs.Example.com/, http://localhost:8000,https://a.b:443,http://[::1]:9,http://[::1]",
        )
        .expect("valid list");
        assert_eq!(
            origins.iter().collect::<Vec<_>>(),
            [
                "https://docs.example.com",
                "http://localhost:8000",
                "https://a.b",
                "http://[::1]:9",
                "http://[::1]"
            ]
        );
        assert!(origins.allows("http://localhost:8000"));
        assert!(!origins.allows("http://localhost:8001"));
        assert!(!origins.allows("https://docs.example.com.evil.test"));
        assert!(!origins.allows("null"));
    }

    #[test]
    fn each_bad_entry_is_named_with_what_is_wrong() {
        for (list, named, why) in [
            ("docs.example.com", "'docs.example.com'", "no scheme"),
            ("ftp://x.org", "'ftp://x.org'", "http or https"),
            ("https://x.org/docs", "'https://x.org/docs'", "no path"),
            ("https://x.org:99999", "'https://x.org:99999'", "port"),
            ("https://", "'https://'", "host is empty"),
            ("https://a b", "'https://a b'", "characters"),
            ("https://ok.org,*", "'*'", "no scheme"),
        ] {
            let error = Origins::parse(list).expect_err(list);
            assert!(error.contains(named) && error.contains(why), "{list}: {error}");
        }
        assert!(Origins::parse(" , ").expect_err("empty").contains("no origin"));
        let many: Vec<String> = (0..17).map(|i| format!("https://h{i}.org")).collect();
        assert!(Origins::parse(&many.join(",")).expect_err("too many").contains("17 origins"));
    }
}
