//! Short names for the wasm module's imports. wasm-bindgen names each JS shim the module imports
//! after the function and a 16-hex-digit hash (`__wbg_Error_208446807d0d1e30`); the name is
//! written twice, as a key of the glue's import object and in the wasm's import section, and
//! hashes hardly compress: renaming the 200-odd imports to one or two letters saves about 5 KiB
//! of the first screen gzipped. Only the import section's names change (the other sections are
//! copied byte for byte), and only keys the glue holds exactly once are renamed.

use crate::util::Result;

/// The import section's id in a wasm binary.
const IMPORT_SECTION: u8 = 2;

/// `wasm` and `js` with every import of the wasm renamed to a short name, in both.
pub fn shorten(wasm: &[u8], js: &str) -> Result<(Vec<u8>, String)> {
    let sections = sections(wasm)?;
    let Some(imports) = sections.iter().find(|s| s.id == IMPORT_SECTION) else {
        return Ok((wasm.to_vec(), js.to_string()));
    };
    let entries = parse_imports(&wasm[imports.body.clone()])?;
    let mut js = js.to_string();
    let mut body = Vec::new();
    write_leb(&mut body, entries.len() as u64);
    for (index, entry) in entries.iter().enumerate() {
        let short = short_name(index);
        js = rename_key(&js, &entry.name, &short)?;
        write_name(&mut body, &entry.module);
        write_name(&mut body, &short);
        body.extend_from_slice(&entry.rest);
    }
    let mut out = wasm[..8].to_vec();
    for section in &sections {
        if section.id == IMPORT_SECTION {
            out.push(IMPORT_SECTION);
            write_leb(&mut out, body.len() as u64);
            out.extend_from_slice(&body);
        } else {
            out.extend_from_slice(&wasm[section.whole.clone()]);
        }
    }
    Ok((out, js))
}

/// The `index`th short name: `a`..`z`, `A`..`Z`, then two letters, and so on.
fn short_name(mut index: usize) -> String {
    const LETTERS: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    let mut name = Vec::new();
    loop {
        name.push(LETTERS[index % LETTERS.len()]);
        index /= LETTERS.len();
        if index == 0 {
            break;
        }
        index -= 1;
    }
    String::from_utf8(name).expect("ASCII letters")
}

/// `js` with the object key `name:` renamed to `short:`; an error unless it occurs exactly once
/// as a whole identifier (a name used elsewhere in the glue must not be renamed blindly).
fn rename_key(js: &str, name: &str, short: &str) -> Result<String> {
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$';
    let found: Vec<usize> = js
        .match_indices(name)
        .map(|(at, _)| at)
        .filter(|at| {
            let before = js[..*at].chars().next_back().is_none_or(|c| !is_ident(c));
            let after = js[at + name.len()..].chars().next().is_none_or(|c| !is_ident(c));
            before && after
        })
        .collect();
    match found.as_slice() {
        [at] if js[at + name.len()..].starts_with(':') => {
            Ok(format!("{}{short}{}", &js[..*at], &js[at + name.len()..]))
        }
        _ => Err(format!(
            "cannot shorten the wasm import {name}: the JS glue holds it {} times, not once as a key",
            found.len()
        )
        .into()),
    }
}

struct Section {
    id: u8,
    /// The section's bytes, id and size included.
    whole: std::ops::Range<usize>,
    body: std::ops::Range<usize>,
}

fn sections(wasm: &[u8]) -> Result<Vec<Section>> {
    if wasm.len() < 8 || &wasm[..4] != b"\0asm" {
        return Err("not a wasm module".into());
    }
    let mut at = 8;
    let mut out = Vec::new();
    while at < wasm.len() {
        let start = at;
        let id = wasm[at];
        let (size, body_start) = read_leb(wasm, at + 1)?;
        let end = body_start.checked_add(size as usize).filter(|end| *end <= wasm.len());
        let end = end.ok_or("a wasm section runs past the end of the module")?;
        out.push(Section { id, whole: start..end, body: body_start..end });
        at = end;
    }
    Ok(out)
}

struct Import {
    module: String,
    name: String,
    /// The import's kind and type, copied as they are.
    rest: Vec<u8>,
}

fn parse_imports(body: &[u8]) -> Result<Vec<Import>> {
    let (count, mut at) = read_leb(body, 0)?;
    let mut imports = Vec::new();
    for _ in 0..count {
        let (module, next) = read_name(body, at)?;
        let (name, next) = read_name(body, next)?;
        let end = skip_import_desc(body, next)?;
        imports.push(Import { module, name, rest: body[next..end].to_vec() });
        at = end;
    }
    Ok(imports)
}

/// The end of an import's description: a function (type index), table (reference type and
/// limits), memory (limits) or global (value type and mutability).
fn skip_import_desc(body: &[u8], at: usize) -> Result<usize> {
    let kind = *body.get(at).ok_or("truncated import")?;
    let limits = |at: usize| -> Result<usize> {
        let flags = *body.get(at).ok_or("truncated limits")?;
        let (_, next) = read_leb(body, at + 1)?;
        if flags & 1 == 1 {
            Ok(read_leb(body, next)?.1)
        } else {
            Ok(next)
        }
    };
    match kind {
        0 => Ok(read_leb(body, at + 1)?.1),
        1 => limits(at + 2),
        2 => limits(at + 1),
        3 => Ok(at + 3),
        other => Err(format!("unknown wasm import kind {other}").into()),
    }
}

fn read_leb(bytes: &[u8], mut at: usize) -> Result<(u64, usize)> {
    let (mut value, mut shift) = (0u64, 0);
    loop {
        let byte = *bytes.get(at).ok_or("truncated LEB128 number")?;
        at += 1;
        value |= u64::from(byte & 0x7f) << shift;
        if byte & 0x80 == 0 {
            return Ok((value, at));
        }
        shift += 7;
        if shift > 63 {
            return Err("LEB128 number too long".into());
        }
    }
}

fn read_name(bytes: &[u8], at: usize) -> Result<(String, usize)> {
    let (len, start) = read_leb(bytes, at)?;
    let end = start.checked_add(len as usize).filter(|end| *end <= bytes.len()).ok_or("truncated name")?;
    let name = std::str::from_utf8(&bytes[start..end]).map_err(|_| "an import name is not UTF-8")?;
    Ok((name.to_string(), end))
}

fn write_leb(out: &mut Vec<u8>, mut value: u64) {
    loop {
        let byte = (value & 0x7f) as u8;
        value >>= 7;
        if value == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

fn write_name(out: &mut Vec<u8>, name: &str) {
    write_leb(out, name.len() as u64);
    out.extend_from_slice(name.as_bytes());
}

#[cfg(test)]
mod tests {
    use super::{short_name, shorten, write_leb, write_name};

    /// A module importing two functions of type 0 from `./m.js`, then a custom section.
    fn module(names: &[&str]) -> Vec<u8> {
        let mut body = Vec::new();
        write_leb(&mut body, names.len() as u64);
        for name in names {
            write_name(&mut body, "./m.js");
            write_name(&mut body, name);
            body.extend_from_slice(&[0, 0]);
        }
        let mut wasm = b"\0asm\x01\0\0\0".to_vec();
        wasm.extend_from_slice(&[1, 4, 1, 0x60, 0, 0]);
        wasm.push(2);
        write_leb(&mut wasm, body.len() as u64);
        wasm.extend_from_slice(&body);
        wasm.extend_from_slice(&[0, 3, 1, b'x', 7]);
        wasm
    }

    #[test]
    fn imports_are_renamed_in_the_module_and_the_glue_alike() {
        let js = "const i = { __wbg_f_0123: function() {}, __wbg_g_4567: (a) => a }; wasm.__wbg_f_0123_x();";
        let (wasm, glue) = shorten(&module(&["__wbg_f_0123", "__wbg_g_4567"]), js).expect("shortened");
        assert_eq!(wasm, module(&["a", "b"]), "only the names change");
        assert_eq!(glue, "const i = { a: function() {}, b: (a) => a }; wasm.__wbg_f_0123_x();");
    }

    #[test]
    fn a_name_the_glue_uses_twice_or_not_as_a_key_is_refused() {
        let twice = "const i = { __wbg_f: 1 }; __wbg_f();";
        let err = shorten(&module(&["__wbg_f"]), twice).expect_err("used twice");
        assert!(err.to_string().contains("holds it 2 times"), "{err}");
        assert!(shorten(&module(&["__wbg_f"]), "__wbg_f();").is_err(), "not a key");
    }

    #[test]
    fn short_names_are_distinct_letters() {
        let names: Vec<String> = (0..3000).map(short_name).collect();
        assert_eq!((names[0].as_str(), names[51].as_str(), names[52].as_str()), ("a", "Z", "aa"));
        let distinct: std::collections::BTreeSet<&String> = names.iter().collect();
        assert_eq!(distinct.len(), names.len());
        assert!(names.iter().all(|n| n.chars().all(|c| c.is_ascii_alphabetic())));
    }
}
