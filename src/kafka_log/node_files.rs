//! The files of a KRaft node's `__cluster_metadata-0` directory and of the log directory above
//! it, recognised by name, and the three that are not record batches read by content:
//! `quorum-state` (JSON, `FileQuorumStateStore`, data versions 0 and 1), `meta.properties`
//! (Java properties, `MetaProperties`) and `leader-epoch-checkpoint` (`CheckpointFile` of
//! `LeaderEpochCheckpointFile`'s entries). Kafka 4.3.1. Each problem names the byte it is at.

use std::fmt;

/// The largest `quorum-state` or `meta.properties` read (Kafka's are under 300 bytes).
pub const MAX_SMALL_FILE: usize = 64 * 1024;
/// How deep the JSON of a `quorum-state` file may nest (Kafka's nests two levels).
const MAX_DEPTH: usize = 8;

/// What a file of a node's directories is, by its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeFile {
    /// `<base offset>.log`: a segment of the metadata log.
    Segment,
    /// `<end offset>-<epoch>.checkpoint`: a snapshot.
    Snapshot,
    /// `bootstrap.checkpoint`: the records `kafka-storage format` wrote (metadata.version, SCRAM).
    Bootstrap,
    /// `quorum-state`: the node's epoch, leader and vote.
    QuorumState,
    /// `meta.properties`: the node id, cluster id and directory id.
    MetaProperties,
    /// `leader-epoch-checkpoint`: where each leader epoch starts in the log.
    LeaderEpochCheckpoint,
    /// A file of Kafka's that holds no metadata records, with what it is.
    Skipped(&'static str),
    /// A file Kafka does not write there.
    Unknown,
}

impl NodeFile {
    /// The kind of the file at `path` (its last `/`-separated part is its name).
    pub fn of(path: &str) -> NodeFile {
        let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
        let digits = |s: &str, n: usize| s.len() == n && s.bytes().all(|b| b.is_ascii_digit());
        let stem = |suffix: &str| name.strip_suffix(suffix);
        match name {
            "quorum-state" => return NodeFile::QuorumState,
            "meta.properties" => return NodeFile::MetaProperties,
            "bootstrap.checkpoint" => return NodeFile::Bootstrap,
            "leader-epoch-checkpoint" => return NodeFile::LeaderEpochCheckpoint,
            "partition.metadata" => return NodeFile::Skipped("the partition's topic id"),
            "recovery-point-offset-checkpoint"
            | "replication-offset-checkpoint"
            | "log-start-offset-checkpoint"
            | "cleaner-offset-checkpoint" => {
                return NodeFile::Skipped("per-partition offsets of the log directory");
            }
            _ => {}
        }
        if stem(".log").is_some_and(|s| digits(s, 20)) {
            NodeFile::Segment
        } else if stem(".checkpoint")
            .and_then(|s| s.split_once('-'))
            .is_some_and(|(o, e)| digits(o, 20) && digits(e, 10))
        {
            NodeFile::Snapshot
        } else if stem(".index").is_some_and(|s| digits(s, 20)) {
            NodeFile::Skipped("the segment's offset index")
        } else if stem(".timeindex").is_some_and(|s| digits(s, 20)) {
            NodeFile::Skipped("the segment's time index")
        } else if stem(".snapshot").is_some_and(|s| digits(s, 20)) {
            NodeFile::Skipped("producer state")
        } else if [".deleted", ".cleaned", ".swap", ".tmp", ".partial"].iter().any(|s| name.ends_with(s)) {
            NodeFile::Skipped("a file Kafka is writing or deleting")
        } else {
            NodeFile::Unknown
        }
    }
}

/// What is wrong with a small file, and at which byte.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileError {
    pub byte: usize,
    pub what: String,
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "byte {}: {}", self.byte, self.what)
    }
}

fn error<T>(byte: usize, what: impl Into<String>) -> Result<T, FileError> {
    Err(FileError { byte, what: what.into() })
}

/// A `quorum-state` file (`QuorumStateData`): version 0 (Kafka 2.8 to 3.x) has the cluster id,
/// the applied offset and the voters; version 1 (KIP-853, Kafka 3.9+) the voted directory id.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(not(target_arch = "wasm32"), derive(serde::Serialize))]
pub struct QuorumState {
    pub data_version: i64,
    /// The leader it knows of in its epoch (-1 in the file: none).
    pub leader_id: Option<i64>,
    pub leader_epoch: i64,
    /// Whom it voted for in its epoch (-1: no one).
    pub voted_id: Option<i64>,
    pub voted_directory_id: Option<String>,
    /// Version 0 only: the voters (`currentVoters`), when written.
    pub current_voters: Option<Vec<i64>>,
}

/// A JSON value, as much of JSON as a `quorum-state` file uses.
#[derive(Clone, Debug, PartialEq)]
enum Json {
    Null,
    Bool,
    Number(i64),
    Text(String),
    Array(Vec<(usize, Json)>),
    Object(Vec<(String, usize, Json)>),
}

/// A JSON reader over bytes that names the byte of every problem.
struct JsonReader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl JsonReader<'_> {
    fn skip_space(&mut self) {
        while self.bytes.get(self.at).is_some_and(|b| b.is_ascii_whitespace()) {
            self.at += 1;
        }
    }

    fn expect(&mut self, byte: u8) -> Result<(), FileError> {
        self.skip_space();
        match self.bytes.get(self.at) {
            Some(&b) if b == byte => {
                self.at += 1;
                Ok(())
            }
            Some(&b) => error(self.at, format!("expected '{}', found '{}'", byte as char, b.escape_ascii())),
            None => error(self.at, format!("the file ends where '{}' was expected", byte as char)),
        }
    }

    fn value(&mut self, depth: usize) -> Result<Json, FileError> {
        self.skip_space();
        if depth > MAX_DEPTH {
            return error(self.at, format!("nested deeper than {MAX_DEPTH} levels"));
        }
        let start = self.at;
        match self.bytes.get(self.at) {
            None => error(self.at, "the file ends where a value was expected"),
            Some(b'{') => {
                self.at += 1;
                let mut fields = Vec::new();
                if self.peek() == Some(b'}') {
                    self.at += 1;
                    return Ok(Json::Object(fields));
                }
                loop {
                    self.skip_space();
                    let key_at = self.at;
                    let key = self.string()?;
                    self.expect(b':')?;
                    self.skip_space();
                    let value_at = self.at;
                    let value = self.value(depth + 1)?;
                    if fields.iter().any(|(k, _, _)| *k == key) {
                        return error(key_at, format!("the field {key:?} appears twice"));
                    }
                    fields.push((key, value_at, value));
                    match self.separator(b'}')? {
                        true => return Ok(Json::Object(fields)),
                        false => continue,
                    }
                }
            }
            Some(b'[') => {
                self.at += 1;
                let mut items = Vec::new();
                if self.peek() == Some(b']') {
                    self.at += 1;
                    return Ok(Json::Array(items));
                }
                loop {
                    self.skip_space();
                    let item_at = self.at;
                    items.push((item_at, self.value(depth + 1)?));
                    if self.separator(b']')? {
                        return Ok(Json::Array(items));
                    }
                }
            }
            Some(b'"') => Ok(Json::Text(self.string()?)),
            Some(b'-' | b'0'..=b'9') => {
                self.at += 1;
                while self.bytes.get(self.at).is_some_and(|b| b.is_ascii_digit() || b"+-.eE".contains(b)) {
                    self.at += 1;
                }
                let text = std::str::from_utf8(&self.bytes[start..self.at]).unwrap_or_default();
                match text.parse::<i64>() {
                    Ok(n) => Ok(Json::Number(n)),
                    Err(_) => error(start, format!("{text} is not a whole number that fits 64 bits")),
                }
            }
            Some(_) => {
                for (word, value) in [("true", Json::Bool), ("false", Json::Bool), ("null", Json::Null)] {
                    if self.bytes[self.at..].starts_with(word.as_bytes()) {
                        self.at += word.len();
                        return Ok(value);
                    }
                }
                error(start, format!("'{}' cannot start a JSON value", self.bytes[start].escape_ascii()))
            }
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.skip_space();
        self.bytes.get(self.at).copied()
    }

    /// After an item: `,` (false: more follow) or `close` (true: the end).
    fn separator(&mut self, close: u8) -> Result<bool, FileError> {
        match self.peek() {
            Some(b',') => {
                self.at += 1;
                Ok(false)
            }
            Some(b) if b == close => {
                self.at += 1;
                Ok(true)
            }
            Some(b) => {
                error(self.at, format!("expected ',' or '{}', found '{}'", close as char, b.escape_ascii()))
            }
            None => error(self.at, format!("the file ends before its closing '{}'", close as char)),
        }
    }

    /// A string (Kafka writes ASCII: names, base64 ids); escapes other than `\"` and `\\` are
    /// refused.
    fn string(&mut self) -> Result<String, FileError> {
        self.expect(b'"')?;
        let mut text = Vec::new();
        loop {
            match self.bytes.get(self.at) {
                None => return error(self.at, "the file ends inside a string"),
                Some(b'"') => {
                    self.at += 1;
                    return String::from_utf8(text).or_else(|_| error(self.at, "a string is not UTF-8"));
                }
                Some(b'\\') => match self.bytes.get(self.at + 1) {
                    Some(&b @ (b'"' | b'\\' | b'/')) => {
                        text.push(b);
                        self.at += 2;
                    }
                    _ => return error(self.at, "an escape other than \\\" \\\\ or \\/ in a string"),
                },
                Some(&b) if b < 0x20 => return error(self.at, "a control character inside a string"),
                Some(&b) => {
                    text.push(b);
                    self.at += 1;
                }
            }
        }
    }
}

/// Read a `quorum-state` file as `FileQuorumStateStore.readStateFromFile` does: its first line
/// is a JSON object with `data_version` 0 or 1, read with that version's fields.
pub fn quorum_state(bytes: &[u8]) -> Result<QuorumState, FileError> {
    if bytes.len() > MAX_SMALL_FILE {
        return error(MAX_SMALL_FILE, format!("{} bytes: too large for a quorum-state file", bytes.len()));
    }
    let line = bytes.split(|&b| b == b'\n').next().unwrap_or_default();
    if line.iter().all(u8::is_ascii_whitespace) {
        return error(0, "empty: no JSON object on the first line");
    }
    let mut reader = JsonReader { bytes: line, at: 0 };
    let Json::Object(fields) = reader.value(0)? else {
        return error(0, "the first line is not a JSON object");
    };
    if reader.peek().is_some() {
        return error(reader.at, "more after the JSON object on the first line");
    }
    let field = |name: &str| fields.iter().find(|(k, _, _)| k == name).map(|(_, at, v)| (*at, v));
    let int = |name: &str| -> Result<Option<i64>, FileError> {
        match field(name) {
            None => Ok(None),
            Some((_, Json::Number(n))) => Ok(Some(*n)),
            Some((at, _)) => error(at, format!("{name} is not a number")),
        }
    };
    let Some(version) = int("data_version")? else {
        return error(0, "no data_version field (FileQuorumStateStore requires one)");
    };
    if !(0..=1).contains(&version) {
        let at = field("data_version").map_or(0, |(at, _)| at);
        return error(at, format!("data_version {version} is not 0 or 1, the versions Kafka 4.3.1 reads"));
    }
    let required = |name: &str| int(name)?.map_or_else(|| error(0, format!("no {name} field")), Ok);
    let id = |n: i64| (n >= 0).then_some(n);
    let voted_directory_id = match field("votedDirectoryId") {
        Some((_, Json::Text(text))) => Some(text.clone()),
        Some((_, Json::Null)) | None => None,
        Some((at, _)) => return error(at, "votedDirectoryId is not a string"),
    };
    let current_voters = match field("currentVoters") {
        None | Some((_, Json::Null)) => None,
        Some((_, Json::Array(items))) => Some(
            items
                .iter()
                .map(|(at, item)| match item {
                    Json::Object(voter) => match voter.iter().find(|(k, _, _)| k == "voterId") {
                        Some((_, _, Json::Number(n))) => Ok(*n),
                        _ => error(*at, "a voter without a numeric voterId"),
                    },
                    _ => error(*at, "a voter that is not an object"),
                })
                .collect::<Result<Vec<i64>, FileError>>()?,
        ),
        Some((at, _)) => return error(at, "currentVoters is not a list"),
    };
    Ok(QuorumState {
        data_version: version,
        leader_id: id(required("leaderId")?),
        leader_epoch: required("leaderEpoch")?,
        voted_id: id(required("votedId")?),
        voted_directory_id,
        current_voters,
    })
}

/// A `meta.properties` file (`MetaProperties`): version 1 (KRaft) names `node.id`, version 0
/// (ZooKeeper mode) `broker.id`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(not(target_arch = "wasm32"), derive(serde::Serialize))]
pub struct MetaProperties {
    pub version: i64,
    pub node_id: Option<i64>,
    pub cluster_id: Option<String>,
    /// `directory.id` (Kafka 3.7+): with the node id, the replica's key in a voter set.
    pub directory_id: Option<String>,
}

/// Read a `meta.properties` file: `key=value` lines (Java's `Properties.store`), `#` comments.
pub fn meta_properties(bytes: &[u8]) -> Result<MetaProperties, FileError> {
    if bytes.len() > MAX_SMALL_FILE {
        return error(MAX_SMALL_FILE, format!("{} bytes: too large for a meta.properties file", bytes.len()));
    }
    let Ok(text) = std::str::from_utf8(bytes) else {
        let valid = std::str::from_utf8(bytes).err().map_or(0, |e| e.valid_up_to());
        return error(valid, "not text (UTF-8)");
    };
    let mut props: Vec<(&str, String, usize)> = Vec::new();
    let mut at = 0;
    for line in text.split('\n') {
        let start = at;
        at += line.len() + 1;
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with('!') {
            continue;
        }
        let Some((key, value)) = trimmed.split_once(['=', ':']) else {
            return error(start, format!("a line that is not key=value: {trimmed:?}"));
        };
        props.push((key.trim(), value.trim().replace('\\', ""), start));
    }
    let get = |key: &str| props.iter().find(|(k, _, _)| *k == key);
    let number = |key: &str| -> Result<Option<i64>, FileError> {
        match get(key) {
            None => Ok(None),
            Some((_, value, start)) => match value.parse() {
                Ok(n) => Ok(Some(n)),
                Err(_) => error(*start, format!("{key} {value:?} is not a number")),
            },
        }
    };
    let Some(version) = number("version")? else {
        return error(0, "no version property");
    };
    let id_key = match version {
        0 => "broker.id",
        1 => "node.id",
        _ => {
            let start = get("version").map_or(0, |(_, _, start)| *start);
            return error(start, format!("version {version} is not 0 or 1"));
        }
    };
    Ok(MetaProperties {
        version,
        node_id: number(id_key)?,
        cluster_id: get("cluster.id").map(|(_, v, _)| v.clone()),
        directory_id: get("directory.id").map(|(_, v, _)| v.clone()),
    })
}

/// One entry of a `leader-epoch-checkpoint`: the epoch and the offset it starts at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(not(target_arch = "wasm32"), derive(serde::Serialize))]
pub struct EpochEntry {
    pub epoch: i64,
    pub start_offset: i64,
}

/// Read a `leader-epoch-checkpoint` as `CheckpointFile.CheckpointReadBuffer.read` does: a
/// version line (0), a count line, then that many `epoch offset` lines.
pub fn leader_epoch_checkpoint(bytes: &[u8]) -> Result<Vec<EpochEntry>, FileError> {
    let Ok(text) = std::str::from_utf8(bytes) else {
        let valid = std::str::from_utf8(bytes).err().map_or(0, |e| e.valid_up_to());
        return error(valid, "not text (UTF-8)");
    };
    let mut lines = Vec::new();
    let mut at = 0;
    for line in text.split('\n') {
        lines.push((at, line.trim_end_matches('\r')));
        at += line.len() + 1;
    }
    if lines.last().is_some_and(|(_, l)| l.is_empty()) {
        lines.pop();
    }
    let Some(&(_, version)) = lines.first() else { return error(0, "empty: no version line") };
    if version.trim() != "0" {
        return error(0, format!("version {version:?} is not 0, the version Kafka writes"));
    }
    let Some(&(count_at, count)) = lines.get(1) else { return Ok(Vec::new()) };
    let Ok(count) = count.trim().parse::<usize>() else {
        return error(count_at, format!("the entry count {count:?} is not a number"));
    };
    let mut entries = Vec::new();
    for &(line_at, line) in &lines[2..] {
        let mut parts = line.split_whitespace();
        match (parts.next().map(str::parse), parts.next().map(str::parse), parts.next()) {
            (Some(Ok(epoch)), Some(Ok(start_offset)), None) => {
                entries.push(EpochEntry { epoch, start_offset })
            }
            _ => return error(line_at, format!("a line that is not 'epoch offset': {line:?}")),
        }
    }
    if entries.len() != count {
        return error(at.min(bytes.len()), format!("{count} entries announced, {} found", entries.len()));
    }
    Ok(entries)
}
