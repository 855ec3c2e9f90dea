//! Reading an `f64` exactly as `str::parse` does, without the standard library's parser in the
//! page's WebAssembly: its correctly rounding algorithm carries a 10 KB table of powers of five
//! that gzip cannot shrink (about 12 KB of the gzipped wasm with its code). In the browser,
//! JavaScript's `parseFloat`, which rounds as correctly, converts what Rust's syntax accepts; the
//! syntax is checked here on both sides, so the native tests cover what the page accepts.

/// `s.parse::<f64>().ok()`: an optional sign, then `inf`, `infinity` or `nan` in any case, or
/// digits with an optional point and an optional exponent (`1`, `1.`, `.5`, `2.5E-3`).
pub(crate) fn parse(s: &str) -> Option<f64> {
    let unsigned = s.strip_prefix(['+', '-']).unwrap_or(s);
    let special = if unsigned.eq_ignore_ascii_case("inf") || unsigned.eq_ignore_ascii_case("infinity") {
        f64::INFINITY
    } else if unsigned.eq_ignore_ascii_case("nan") {
        f64::NAN
    } else if is_decimal(unsigned) {
        return convert(s);
    } else {
        return None;
    };
    Some(if s.starts_with('-') { -special } else { special })
}

/// At least one digit, with an optional point among them, then an optional exponent: `e` or
/// `E`, an optional sign and at least one digit.
fn is_decimal(s: &str) -> bool {
    let digits = |part: &str| part.bytes().all(|b| b.is_ascii_digit());
    let (mantissa, exponent) = match s.split_once(['e', 'E']) {
        Some((mantissa, exponent)) => (mantissa, Some(exponent)),
        None => (s, None),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let mantissa_ok = digits(whole) && digits(fraction) && !(whole.is_empty() && fraction.is_empty());
    mantissa_ok
        && exponent.is_none_or(|e| {
            let e = e.strip_prefix(['+', '-']).unwrap_or(e);
            !e.is_empty() && digits(e)
        })
}

/// A decimal number of Rust's syntax (signed), to the nearest `f64`.
#[cfg(not(target_arch = "wasm32"))]
fn convert(decimal: &str) -> Option<f64> {
    decimal.parse().ok()
}

/// A decimal number of Rust's syntax (signed), to the nearest `f64`: JavaScript's `parseFloat`
/// reads every such string whole and means the same number by it.
#[cfg(target_arch = "wasm32")]
fn convert(decimal: &str) -> Option<f64> {
    Some(js_sys::parse_float(decimal))
}

#[cfg(test)]
mod tests {
    use super::parse;

    #[test]
    fn reads_what_str_parse_reads() {
        let cases = [
            "0",
            "-0",
            "+0",
            "1",
            "1.",
            ".5",
            "-.5",
            "+5.",
            "1.5",
            "0.25",
            "007",
            "3071",
            "1e5",
            "1E5",
            "1e+05",
            "2.5E-3",
            "1e400",
            "-1e400",
            "1e-400",
            "0e99999999999",
            "0.1000000000000000055511151231257827",
            "9007199254740993",
            "2.2250738585072011e-308",
            "inf",
            "-inf",
            "+INF",
            "Infinity",
            "-infinity",
            "nan",
            "NaN",
            "-nan",
            "",
            "+",
            "-",
            ".",
            "e5",
            ".e5",
            "1e",
            "1e+",
            "1e+-5",
            "1.2.3",
            "1..",
            "..1",
            "1_000",
            " 1",
            "1 ",
            "0x10",
            "1f",
            "in",
            "infinit",
            "nana",
            "--1",
            "+-1",
            "١",
            "1e5.0",
        ];
        for case in cases {
            let expected = case.parse::<f64>().ok();
            let got = parse(case);
            assert_eq!(got.map(f64::to_bits), expected.map(f64::to_bits), "{case:?}");
        }
    }
}
