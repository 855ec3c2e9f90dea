//! Property tests of every parser (URL query parameters, share strings, scenario files, CLI
//! flags, host-page commands, origin lists, session files) with generated inputs and mutations of valid ones (byte flips, truncations, deletions,
//! splices of valid fragments): none may panic, and every rejection names the offending part.
//! Cases per property come from KRAFTSCOPE_FUZZ_CASES (256 by default, so `cargo test` stays
//! fast), drawn from KRAFTSCOPE_FUZZ_SEED (1 by default, so a run repeats exactly); the full run
//! is `KRAFTSCOPE_FUZZ_CASES=100000 cargo test --release --test suite fuzz_parsers::`.

#[path = "../src/cli/args.rs"]
mod args;

use crate::fuzz;

use fuzz::config;
use std::sync::OnceLock;

use proptest::prelude::*;
use proptest::sample::select;

use args::Args;
use kraftscope::harness::MS;
use kraftscope::page::host::{Message, Origins};
use kraftscope::page::params::PageParams;
use kraftscope::page::session_file::{Header, SessionFile};
use kraftscope::scenario::{Detail, ScriptError, catalog, run_script, script};
use kraftscope::session::action::{NotAnAction, RecordedActionError};
use kraftscope::session::{Action, RecordedAction, Session, Settings};
use kraftscope::util::rng::Rng;

/// One change to a valid input.
#[derive(Clone, Debug)]
enum Mutation {
    /// XOR one byte with a non-zero mask.
    Flip {
        at: usize,
        mask: u8,
    },
    Truncate {
        at: usize,
    },
    Delete {
        at: usize,
        len: usize,
    },
    /// Insert a fragment of some valid input.
    Splice {
        at: usize,
        fragment: usize,
    },
}

fn mutations() -> impl Strategy<Value = Vec<Mutation>> {
    let one = prop_oneof![
        (any::<usize>(), 1u8..=255).prop_map(|(at, mask)| Mutation::Flip { at, mask }),
        any::<usize>().prop_map(|at| Mutation::Truncate { at }),
        (any::<usize>(), 1usize..24).prop_map(|(at, len)| Mutation::Delete { at, len }),
        (any::<usize>(), any::<usize>()).prop_map(|(at, fragment)| Mutation::Splice { at, fragment }),
    ];
    prop::collection::vec(one, 1..5)
}

/// `valid` with `mutations` applied; splices take pieces of `valid_inputs`.
fn mutate(valid: &str, mutations: &[Mutation], valid_inputs: &[String]) -> String {
    let fragments: Vec<&str> =
        valid_inputs.iter().flat_map(|v| v.split_inclusive(['&', '~', '.', '=', '\n', ' ', ','])).collect();
    let mut bytes = valid.as_bytes().to_vec();
    for mutation in mutations {
        let len = bytes.len();
        let position = |at: usize| at % (len + 1);
        match *mutation {
            Mutation::Flip { at, mask } if len > 0 => bytes[at % len] ^= mask,
            Mutation::Flip { .. } => {}
            Mutation::Truncate { at } => bytes.truncate(position(at)),
            Mutation::Delete { at, len: n } => {
                let from = position(at);
                bytes.drain(from..(from + n).min(len));
            }
            Mutation::Splice { at, fragment } => {
                let from = position(at);
                bytes.splice(from..from, fragments[fragment % fragments.len()].bytes());
            }
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Whether the URL notice `error` names the share-string token `token`: the whole token, or its
/// action code.
fn names_token(error: &str, token: &str) -> bool {
    error.contains(&format!("'{token}'"))
        || token
            .splitn(3, '.')
            .nth(2)
            .is_some_and(|action| error.contains(&format!("'{action}' is not an action")))
}

/// Whether the parse error `error` is about `token`: the whole token, or its action code.
fn is_about_token(error: &RecordedActionError, token: &str) -> bool {
    match error {
        RecordedActionError::Shape(text) | RecordedActionError::NotANumber { text, .. } => text == token,
        RecordedActionError::Action(NotAnAction(code)) => token.splitn(3, '.').nth(2) == Some(code.as_str()),
    }
}

/// Shared links of sessions paused at several moments, and hand-written page URLs.
fn valid_queries() -> &'static [String] {
    static QUERIES: OnceLock<Vec<String>> = OnceLock::new();
    QUERIES.get_or_init(|| {
        let mut queries: Vec<String> = [
            "?embed=1&scenario=failover&seed=7&autoplay=1&controls=min&partitions=20000&speed=2.5",
            "?tour=3&present=1",
            "?voters=5&brokers=9&speed=1&t=4000",
            "?sabotage=hw-on-minority,forget-vote&latency=5-40&drop=10&snapshot=4096&prevote=0",
            "?scenario=leader-crash&seed=3&controls=none&panic=0",
            "?embed=1&origins=https%3A%2F%2Fdocs.example.com,http://localhost:8000&kiosk=1&tour=2&hold=500",
        ]
        .map(String::from)
        .to_vec();
        for seed in 1..4 {
            let mut rng = Rng::new(seed);
            let mut session = Session::new(Settings { seed, ..Settings::default() });
            for action in
                [Action::KillLeader, Action::CreateTopic { partitions: 3, replication: 2 }, Action::Heal]
            {
                session.advance_to(session.now() + rng.range(500, 4_000) * MS, rng.range(1, 50) as usize);
                let _ = session.act(action);
                session.step();
                queries.push(format!("?{}", PageParams::share_query(&session)));
            }
        }
        queries
    })
}

/// Parse a query: every notice names one of its keys, and the settings are usable.
fn check_query(query: &str) -> PageParams {
    let keys: Vec<String> = PageParams::pairs(query).map(|(key, _)| key).collect();
    let (params, notices) = PageParams::parse(query);
    assert!(notices.len() <= keys.len(), "{query:?}: {notices:?}");
    for notice in &notices {
        let named = keys
            .iter()
            .any(|k| notice.starts_with(&format!("{k}:")) || notice.starts_with(&format!("'{k}'")));
        assert!(named, "{query:?}: the notice '{notice}' names none of its keys {keys:?}");
        if notice.starts_with("actions:") && notice.contains("not") {
            let values: Vec<String> =
                PageParams::pairs(query).filter(|(k, _)| k == "actions").map(|(_, v)| v).collect();
            let named = values.iter().any(|v| v.split('~').any(|token| names_token(notice, token)));
            assert!(named, "{query:?}: '{notice}' names no token of the actions");
        }
    }
    assert_eq!(params.settings.validate(), Ok(()), "{query:?}");
    params
}

const KEYS: [&str; 28] = [
    "seed",
    "voters",
    "controllers",
    "brokers",
    "prevote",
    "drop",
    "snapshot",
    "latency",
    "sabotage",
    "scenario",
    "tour",
    "speed",
    "autoplay",
    "embed",
    "present",
    "controls",
    "partitions",
    "t",
    "at",
    "fp",
    "actions",
    "panic",
    "origins",
    "kiosk",
    "hold",
    "files",
    "",
    "colour",
];

fn query_value() -> impl Strategy<Value = String> {
    prop_oneof![
        "[0-9]{0,22}",
        "-?[0-9]{1,6}(\\.[0-9]{0,8})?(-[0-9]{0,4})?",
        "[0-9]{1,9}\\.[0-9]{1,6}\\.[a-z][0-9]{0,3}(-[0-9]{1,3}){0,2}(~[0-9]{1,9}\\.[0-9]{1,6}\\.[a-z][0-9-]{0,6}){0,3}",
        "[a-z%+,~.0-9-]{0,16}",
        "(https?://[a-z0-9.:\\[\\]/-]{0,14},?){1,3}",
        any::<String>(),
    ]
}

proptest! {
    #![proptest_config(config(1))]

    #[test]
    fn generated_queries_never_panic_and_each_notice_names_its_key(
        pairs in prop::collection::vec((prop_oneof![select(&KEYS[..]).prop_map(String::from), "[a-z%+]{0,8}"], query_value()), 0..8),
        raw in any::<String>(),
    ) {
        let query: Vec<String> = pairs.iter().map(|(k, v)| format!("{k}={}", v.replace('&', ""))).collect();
        check_query(&query.join("&"));
        check_query(&raw);
    }

    #[test]
    fn mutated_page_urls_and_share_links_never_panic_and_name_the_damage(
        index in any::<usize>(),
        mutations in mutations(),
    ) {
        let valid = valid_queries();
        check_query(&mutate(&valid[index % valid.len()], &mutations, valid));
    }

    #[test]
    fn share_string_actions_parse_or_name_the_bad_token(
        token in prop_oneof![
            "[0-9]{0,12}\\.[0-9]{0,6}\\.[a-z][0-9]{0,4}(-[0-9]{0,4}){0,3}",
            "[a-z0-9.-]{0,16}",
            any::<String>(),
        ],
        index in any::<usize>(),
        mutations in mutations(),
    ) {
        let codes: Vec<String> = valid_queries()
            .iter()
            .flat_map(|q| PageParams::pairs(q).filter(|(k, _)| k == "actions").map(|(_, v)| v).collect::<Vec<_>>())
            .flat_map(|v| v.split('~').map(String::from).collect::<Vec<_>>())
            .collect();
        let mutated = mutate(&codes[index % codes.len()], &mutations, &codes);
        for token in [token, mutated] {
            match token.parse::<RecordedAction>() {
                Ok(recorded) => prop_assert_eq!(recorded.to_string().parse::<RecordedAction>(), Ok(recorded)),
                Err(error) => prop_assert!(is_about_token(&error, &token), "{:?}: '{}' is not about it", token, error),
            }
            if let Err(error) = token.parse::<Action>() {
                prop_assert_eq!(error, NotAnAction(token.clone()));
            }
        }
    }
}

proptest! {
    // Opening a link replays up to ten simulated minutes: a fiftieth of the cases.
    #![proptest_config(config(50))]

    #[test]
    fn a_damaged_share_link_still_opens_naming_what_did_not_match(
        index in any::<usize>(),
        mutations in mutations(),
    ) {
        let valid = valid_queries();
        let params = check_query(&mutate(&valid[index % valid.len()], &mutations, valid));
        let (session, problem) = params.open_session(params.settings.clone());
        if let Some(problem) = problem {
            prop_assert!(problem.starts_with("at:") || problem.starts_with("fp:"), "{}", problem);
        }
        if let Some(problem) = session.replay_problem() {
            prop_assert!(problem.contains("recorded action(s) from"), "{}", problem);
        }
    }
}

/// Found by the property above: a link whose seed was lost (`eed=3`) asks for event 42 at
/// 120.104 ms, but this timeline's event 42 comes earlier, with more events due before that time.
/// The session stops at its event 42 instead of skipping them, and says so.
#[test]
fn a_link_from_another_timeline_stops_at_its_event_and_says_so() {
    let query = "eed=3&voters=3&quorum=initial-controllers&brokers=3&prevote=1&latency=10-30&drop=0&snapshot=0&at=120104.42.0&c375a785&autoplay=0";
    let params = check_query(query);
    let (session, problem) = params.open_session(params.settings.clone());
    assert_eq!(session.events(), 42);
    assert!(session.now() < 120_104, "stopped at its event 42, at {} us", session.now());
    let problem = problem.expect("the mismatch is named");
    let expected =
        format!("at: the link asks for event 42 at 120104 us; here it is event 42 at {} us", session.now());
    assert!(problem.starts_with(&expected), "{problem}");
}

/// Parse a scenario file: every block points at its directive's line, and an error names the
/// line and the directive.
fn check_script(text: &str) {
    let lines: Vec<&str> = text.lines().collect();
    match script::parse(text) {
        Ok(blocks) => {
            for block in blocks {
                assert!(lines[block.line - 1].trim().starts_with(&block.command), "{text:?}: {block:?}");
            }
        }
        Err(error) => {
            let named = error.line.checked_sub(1).and_then(|i| lines.get(i));
            assert_eq!(named.map(|l| l.trim()), Some(error.directive.as_str()), "{text:?}: {error}");
        }
    }
}

fn valid_scripts() -> Vec<String> {
    catalog::SCENARIOS.iter().map(|(_, text)| text.to_string()).collect()
}

const DIRECTIVES: [&str; 16] = [
    "cluster",
    "run",
    "crash",
    "restart",
    "isolate",
    "partition",
    "heal",
    "write",
    "resign",
    "status",
    "brokers",
    "partitions",
    "create-topic",
    "delete-topic",
    "shutdown",
    "----",
];

proptest! {
    #![proptest_config(config(1))]

    #[test]
    fn generated_and_mutated_scenario_files_parse_or_name_the_line(
        lines in prop::collection::vec(prop_oneof![
            (select(&DIRECTIVES[..]), "( [a-z-]{1,8}=[0-9a-z,|-]{0,8}){0,3}").prop_map(|(d, a)| format!("{d}{a}")),
            Just("----".to_string()),
            Just(String::new()),
            "# [ -~]{0,20}",
            "[ -~]{0,30}",
            any::<String>(),
        ], 0..12),
        index in any::<usize>(),
        mutations in mutations(),
    ) {
        check_script(&lines.join("\n"));
        let valid = valid_scripts();
        check_script(&mutate(&valid[index % valid.len()], &mutations, &valid));
    }
}

proptest! {
    // Running a script simulates seconds of a cluster: a hundredth of the cases.
    #![proptest_config(config(100))]

    #[test]
    fn a_mutated_scenario_runs_or_names_the_line_and_directive(
        index in any::<usize>(),
        mutations in mutations(),
    ) {
        let valid = valid_scripts();
        let text = mutate(&valid[index % valid.len()], &mutations, &valid);
        if let Err(error) = run_script(&text, 1, Detail::Notable) {
            let line = match &error {
                ScriptError::Parse(missing) => Some(missing.line),
                ScriptError::Directive { line, .. } => Some(*line),
                ScriptError::Unknown(_) => None,
            };
            let line = line.and_then(|n| text.lines().nth(n.checked_sub(1)?));
            prop_assert!(line.is_some_and(|l| !l.trim().is_empty()), "{:?}: '{}' names no line of it", text, error);
        }
    }
}

/// Each command's switches, known flags and numeric flags.
const COMMANDS: [(&[&str], &[&str], &[&str]); 3] = [
    (
        &["quiet"],
        &["seeds", "seed", "first-seed", "sabotage", "threads", "quiet"],
        &["seeds", "seed", "first-seed", "threads"],
    ),
    (&["notable"], &["scenario", "file", "seed", "notable"], &["seed"]),
    (&["csv", "detail"], &["partitions", "mode", "csv", "detail", "zk-preset", "seed"], &["seed"]),
];

/// Parse a command line as each command would: every error names the argument or flag at fault.
fn check_args(argv: &[String]) {
    for (switches, known, numeric) in COMMANDS {
        let args = match Args::parse(argv, switches) {
            Ok(args) => args,
            Err(error) => {
                let named = argv.iter().any(|a| {
                    error == format!("unexpected argument '{a}'") || error == format!("{a} needs a value")
                });
                assert!(named, "{argv:?}: '{error}' names none of the arguments");
                continue;
            }
        };
        if let Err(error) = args.only(known) {
            let named = argv.iter().any(|a| error.starts_with(&format!("unknown option {a} (known: ")));
            assert!(named, "{argv:?}: '{error}' names none of the flags");
        }
        for switch in switches.iter().filter(|s| args.has(s)) {
            assert!(argv.contains(&format!("--{switch}")), "{argv:?}");
        }
        for name in numeric {
            if let Err(error) = args.get::<u64>(name, 0) {
                let value = args.text(name).unwrap_or_default();
                assert_eq!(error, format!("--{name}: '{value}' is not a valid value"), "{argv:?}");
            }
        }
        let items = args.text("partitions").unwrap_or("1").split(',').collect::<Vec<_>>();
        match args.list::<u64>("partitions", "1") {
            Ok(values) => assert_eq!(values.len(), items.len(), "{argv:?}: one value per item"),
            Err(error) => {
                let named =
                    items.iter().any(|item| error == format!("--partitions: '{item}' is not a valid value"));
                assert!(named, "{argv:?}: '{error}' names none of the list's items");
            }
        }
    }
}

const VALID_COMMAND_LINES: [&str; 5] = [
    "--seeds\n1000\n--quiet",
    "--seed\n42\n--sabotage\nhw-on-minority,forget-vote\n--threads\n2",
    "--scenario\nleader_crash\n--seed\n3\n--notable",
    "--partitions\n1000,10000\n--mode\nkraft\n--csv\n--zk-preset\nsync-2017",
    "--file\ntests/scenarios/observers.txt\n--first-seed\n7\n--seeds\n5",
];

proptest! {
    #![proptest_config(config(1))]

    #[test]
    fn generated_and_mutated_command_lines_parse_or_name_the_flag(
        argv in prop::collection::vec(prop_oneof![
            select(&["--seeds", "--seed", "--first-seed", "--sabotage", "--threads", "--quiet", "--scenario", "--file",
                     "--notable", "--partitions", "--mode", "--csv", "--zk-preset"][..]).prop_map(String::from),
            "--[a-z-]{0,12}",
            "-?[0-9]{0,22}",
            "[0-9a-z,._-]{0,12}",
            any::<String>(),
        ], 0..8),
        index in any::<usize>(),
        mutations in mutations(),
    ) {
        check_args(&argv);
        let valid: Vec<String> = VALID_COMMAND_LINES.map(String::from).to_vec();
        let mutated = mutate(&valid[index % valid.len()], &mutations, &valid);
        check_args(&mutated.split('\n').map(String::from).collect::<Vec<_>>());
    }
}

/// Valid host-page command messages, one of each command.
const VALID_COMMANDS: [&str; 13] = [
    r#"{"command":"play"}"#,
    r#"{"command":"pause"}"#,
    r#"{"command":"step"}"#,
    r#"{"command":"seek","ms":4000}"#,
    r#"{"command":"kill-leader"}"#,
    r#"{"command":"crash","node":2}"#,
    r#"{"command":"restart","node":101}"#,
    r#"{"command":"isolate","node":3}"#,
    r#"{"command":"heal"}"#,
    r#"{"command":"resign"}"#,
    r#"{"command":"set-speed","speed":0.25}"#,
    r#"{"command":"load-scenario","scenario":"leader-crash"}"#,
    r#"{"command":"tour-step","step":4}"#,
];

/// Read a command message as the page does: a refusal names the command or what is missing.
fn check_command(json: &str) {
    let Ok(message) = serde_json::from_str::<Message>(json) else { return };
    let name = message.command.clone();
    if let Err(error) = message.command() {
        assert!(
            error.starts_with(&format!("{name}: "))
                || error.starts_with(&format!("'{name}' is not a command")),
            "{json:?}: '{error}' does not name the command"
        );
    }
}

/// A valid session file: a session with a kill, an isolation and a topic, paused mid-run.
fn valid_session_file() -> &'static str {
    static FILE: OnceLock<String> = OnceLock::new();
    FILE.get_or_init(|| {
        let mut session = Session::new(Settings { seed: 11, ..Settings::default() });
        for (at_ms, action) in
            [(3_000, Action::KillLeader), (6_000, Action::Isolate(101)), (8_000, Action::Heal)]
        {
            session.advance_to(at_ms * MS, usize::MAX);
            let _ = session.act(action);
        }
        session.advance_to(9_000 * MS, usize::MAX);
        let file = SessionFile::of(&session, Some(4), "fuzz", "notes");
        serde_json::to_string_pretty(&file).expect("serialises")
    })
}

/// The fields a session file's refusal may start with.
const FILE_FIELDS: [&str; 10] = [
    "format:",
    "version:",
    "name:",
    "notes:",
    "settings:",
    "actions",
    "at_us:",
    "applied_actions:",
    "fingerprint:",
    "tour_step:",
];

proptest! {
    #![proptest_config(config(1))]

    #[test]
    fn generated_and_mutated_command_messages_are_read_or_name_the_command(
        name in prop_oneof![select(&["play", "seek", "crash", "set-speed", "load-scenario", "tour-step"][..]).prop_map(String::from), "[a-z-]{0,12}"],
        field in select(&["ms", "node", "speed", "scenario", "step", "other"][..]),
        value in prop_oneof!["-?[0-9]{1,22}(\\.[0-9]{1,4})?", "\"[a-z0-9-]{0,12}\"", Just("null".to_string()), Just("[]".to_string())],
        index in any::<usize>(),
        mutations in mutations(),
    ) {
        check_command(&format!(r#"{{"command":"{name}","{field}":{value}}}"#));
        let valid: Vec<String> = VALID_COMMANDS.map(String::from).to_vec();
        check_command(&mutate(&valid[index % valid.len()], &mutations, &valid));
    }

    #[test]
    fn origin_lists_parse_or_name_the_bad_entry(list in prop_oneof!["(https?://[a-zA-Z0-9.:\\[\\]/@?#-]{0,16},?){0,4}", any::<String>()]) {
        match Origins::parse(&list) {
            Ok(origins) => prop_assert!(origins.iter().all(|o| o.starts_with("http://") || o.starts_with("https://"))),
            Err(error) => {
                let named = list.split(',').map(str::trim).any(|entry| error.contains(&format!("'{entry}' is not an origin")));
                prop_assert!(named || error.starts_with("no origin") || error.contains("origins, more than"), "{:?}: {}", list, error);
            }
        }
    }

    #[test]
    fn mutated_session_files_are_refused_naming_the_field_or_open(mutations in mutations()) {
        let valid = valid_session_file().to_string();
        let text = mutate(&valid, &mutations, std::slice::from_ref(&valid));
        let Ok(header) = serde_json::from_str::<Header>(&text) else { return Ok(()) };
        if let Err(error) = header.check() {
            prop_assert!(error.starts_with("format:") || error.starts_with("version:"), "{}", error);
            return Ok(());
        }
        let Ok(file) = serde_json::from_str::<SessionFile>(&text) else { return Ok(()) };
        let mut params = PageParams::default();
        match file.apply_to(&mut params) {
            Ok(_) => prop_assert_eq!(params.settings.validate(), Ok(())),
            Err(error) => {
                prop_assert!(FILE_FIELDS.iter().any(|f| error.starts_with(f)), "'{}' names no field", error);
                prop_assert_eq!(params, PageParams::default());
            }
        }
    }
}
