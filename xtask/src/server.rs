//! A tiny static file server for dist/ (loopback only, GET/HEAD, one thread per connection).

use std::fs;
use std::io::{self, BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;
use std::thread;

/// Binds to 127.0.0.1:`port`; port 0 picks a free port.
pub fn bind(port: u16) -> io::Result<TcpListener> {
    TcpListener::bind(("127.0.0.1", port))
        .map_err(|err| io::Error::new(err.kind(), format!("cannot listen on 127.0.0.1:{port}: {err}")))
}

/// Serves files under `root` at URL prefix `mount` (which starts and ends with '/') forever.
pub fn serve(listener: TcpListener, root: PathBuf, mount: &'static str) -> ! {
    let root = Arc::new(root);
    loop {
        match listener.accept() {
            Ok((stream, _)) => {
                let root = Arc::clone(&root);
                thread::spawn(move || {
                    if let Err(err) = handle(stream, &root, mount) {
                        eprintln!("server: {err}");
                    }
                });
            }
            Err(err) => eprintln!("server: accept failed: {err}"),
        }
    }
}

fn handle(stream: TcpStream, root: &Path, mount: &str) -> io::Result<()> {
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request_line = String::new();
    reader.read_line(&mut request_line)?;
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header)? == 0 || header.trim().is_empty() {
            break;
        }
    }
    let mut parts = request_line.split_whitespace();
    let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
    let path = target.split(['?', '#']).next().unwrap_or("");
    let mut out = stream;
    if method != "GET" && method != "HEAD" {
        return respond(&mut out, "405 Method Not Allowed", "text/plain", &[], method);
    }
    if path == mount.trim_end_matches('/') {
        let headers = format!("Location: {mount}\r\n");
        return respond_with(&mut out, "301 Moved Permanently", "text/plain", &headers, &[], method);
    }
    match path.strip_prefix(mount).and_then(|rel| resolve(root, rel)) {
        Some(file) => match fs::read(&file) {
            Ok(body) => respond(&mut out, "200 OK", mime_type(&file), &body, method),
            Err(_) => not_found(&mut out, path, method),
        },
        None => not_found(&mut out, path, method),
    }
}

/// Maps a URL path below the mount point to a file, refusing anything outside `root`.
fn resolve(root: &Path, rel: &str) -> Option<PathBuf> {
    let rel = Path::new(rel);
    if !rel.components().all(|part| matches!(part, Component::Normal(_))) {
        return None;
    }
    let file = root.join(rel);
    Some(if file.is_dir() { file.join("index.html") } else { file })
}

fn mime_type(file: &Path) -> &'static str {
    match file.extension().and_then(|ext| ext.to_str()) {
        Some("html") => "text/html; charset=utf-8",
        Some("js" | "mjs") => "text/javascript; charset=utf-8",
        Some("wasm") => "application/wasm",
        Some("css") => "text/css; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("ico") => "image/x-icon",
        Some("json") => "application/json",
        Some("txt") => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

fn not_found(out: &mut TcpStream, path: &str, method: &str) -> io::Result<()> {
    eprintln!("server: 404 {path}");
    respond(out, "404 Not Found", "text/plain", b"not found\n", method)
}

fn respond(out: &mut TcpStream, status: &str, mime: &str, body: &[u8], method: &str) -> io::Result<()> {
    respond_with(out, status, mime, "", body, method)
}

fn respond_with(
    out: &mut TcpStream,
    status: &str,
    mime: &str,
    extra_headers: &str,
    body: &[u8],
    method: &str,
) -> io::Result<()> {
    write!(
        out,
        "HTTP/1.1 {status}\r\nContent-Type: {mime}\r\nContent-Length: {}\r\n\
         Cache-Control: no-cache\r\nConnection: close\r\n{extra_headers}\r\n",
        body.len()
    )?;
    if method != "HEAD" {
        out.write_all(body)?;
    }
    out.flush()
}
