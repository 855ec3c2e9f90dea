//! The command line: `quorum-sizing`, `elections --voters` and `failover --detail` and `--csv`
//! print a row or a block per setting and refuse bad settings with a message; `--help` after
//! any command prints the usage; output into a closed pipe ends without a panic.

use std::process::Command;

fn kraftscope(args: &[&str]) -> (i32, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_kraftscope")).args(args).output().unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (output.status.code().unwrap_or(-1), text(&output.stdout), text(&output.stderr))
}

#[test]
fn the_sizing_table_has_a_row_per_voter_count_and_link() {
    let (code, out, err) =
        kraftscope(&["quorum-sizing", "--voters", "2,3,4", "--latency", "1-5,20-40", "--trials", "5"]);
    assert_eq!(code, 0, "{err}");
    let rows: Vec<Vec<&str>> = out
        .lines()
        .skip(2)
        .take_while(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
        .map(|l| l.split_whitespace().collect())
        .collect();
    let heads: Vec<(&str, &str, &str, &str)> = rows.iter().map(|r| (r[0], r[1], r[2], r[3])).collect();
    assert_eq!(
        heads,
        [("2", "2", "0", "1-5"), ("3", "2", "1", "1-5"), ("4", "3", "1", "1-5")]
            .into_iter()
            .chain([("2", "2", "0", "20-40"), ("3", "2", "1", "20-40"), ("4", "3", "1", "20-40")])
            .collect::<Vec<_>>(),
        "{out}"
    );
    // Two voters have no leaderless time to measure: the dead one must return.
    assert!(rows[0].ends_with(&["-", "-"]) && out.contains("tolerates no failure"), "{out}");
    let commit_p50 = |row: &[&str]| row[5].parse::<f64>().unwrap();
    assert!(commit_p50(&rows[4]) > commit_p50(&rows[1]) + 30.0, "slower links commit later:\n{out}");
}

#[test]
fn elections_take_a_list_of_voter_counts() {
    let (code, out, err) = kraftscope(&["elections", "--voters", "1,3,5", "--trials", "20"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("20 trials, 1 voter,") && out.contains("tolerate no failure"), "{out}");
    assert_eq!(out.matches("time from killing the leader to a new leader").count(), 2, "{out}");
}

#[test]
fn bad_settings_are_refused_with_a_message() {
    for (args, message) in [
        (&["quorum-sizing", "--latency", "5-1"][..], "must have MIN <= MAX"),
        (&["quorum-sizing", "--latency", "fast"][..], "is not MIN-MAX milliseconds"),
        (&["quorum-sizing", "--voters", "3,10"][..], "--voters: 10 is not between 1 and 9"),
        (&["elections", "--voters", "0"][..], "--voters: 0 is not between 1 and 9"),
        (&["quorum-sizing", "--trials", "0"][..], "--trials must be between"),
    ] {
        let (code, _, err) = kraftscope(args);
        assert_eq!(code, 2, "{args:?}");
        assert!(err.contains(message), "{args:?}: {err}");
    }
}

/// `kraftscope failover --mode zk --detail` splits the failover's writes as Kafka 2.4's state
/// machines make them: at RF 3 on 5 brokers the dead broker held a replica of 3 partitions in 5
/// and led 1 in 5.
#[test]
fn failover_detail_splits_the_writes_by_state_machine() {
    let (code, out, err) = kraftscope(&["failover", "--mode", "zk", "--partitions", "100000", "--detail"]);
    assert_eq!(code, 0, "{err}");
    let line = out.lines().find(|l| l.contains("znode writes")).unwrap_or_else(|| panic!("{out}"));
    let number_before = |words: &str| -> u64 {
        let head = &line[..line.find(words).unwrap_or_else(|| panic!("no '{words}' in {line}"))];
        head.split_whitespace().last().and_then(|n| n.parse().ok()).unwrap_or_else(|| panic!("{line}"))
    };
    let (writes, isr, leaders) =
        (number_before("znode writes"), number_before("dead replicas"), number_before("new leaders"));
    let claims = number_before("claims");
    assert_eq!((isr, leaders), (60_000, 20_000), "{line}");
    assert_eq!(writes, isr + leaders + claims, "{line}");
    assert!((1..=4).contains(&claims), "{line}");
}

/// `kraftscope failover --csv` gives partition availability on both sides after the chart's
/// four columns (the page reads those and ignores the rest), then the combined-node curve.
#[test]
fn failover_csv_gives_partition_availability_on_both_sides() {
    let (code, out, err) = kraftscope(&["failover", "--csv", "--partitions", "1000", "--kraft-trials", "3"]);
    assert_eq!(code, 0, "{err}");
    let mut lines = out.lines();
    let header: Vec<&str> = lines.next().unwrap_or_default().split(',').collect();
    let row: Vec<&str> = lines.next().unwrap_or_default().split(',').collect();
    let field = |name: &str| -> u64 {
        let at = header.iter().position(|h| *h == name).unwrap_or_else(|| panic!("no {name} in {header:?}"));
        row[at].parse().unwrap_or_else(|_| panic!("{name} = {:?}", row[at]))
    };
    assert_eq!(header[..4], ["partitions", "kraft_ms", "zk_ms", "kraft_p99_ms"]);
    assert_eq!((field("kraft_leaderless_partitions"), field("zk_leaderless_partitions")), (0, 200));
    assert!(field("zk_leaders_back_ms") <= field("zk_ms"), "{out}");
    assert!(field("zk_leaders_back_ms") > field("kraft_ms"), "{out}");
    assert_eq!(field("kraft_combined_leaderless_partitions"), 200, "the combined node led a fifth");
    assert!(field("kraft_combined_leaders_back_ms") > field("kraft_combined_ms") + 8_000, "{out}");
}

/// `--help` after any command prints the usage (it used to say "--help needs a value").
#[test]
fn help_after_any_command_prints_the_usage() {
    for command in ["check", "run", "failover", "elections", "quorum-sizing", "inspect"] {
        let (code, out, err) = kraftscope(&[command, "--help"]);
        assert_eq!(code, 0, "{command} --help: {err}");
        assert!(
            out.starts_with("usage:") && out.contains(&format!("kraftscope {command}")),
            "{command}: {out}"
        );
    }
}

/// Output into a pipe closed early (`kraftscope elections | head -1`) ends the process without a
/// panic.
#[test]
#[cfg(unix)]
fn a_closed_pipe_ends_the_output_without_a_panic() {
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_kraftscope"))
        .args(["elections", "--trials", "200"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let output = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert_ne!(output.status.code(), Some(101), "not a panic's exit code");
}

/// README's quorum-sizing table is `kraftscope quorum-sizing`'s output (less its wall-time line),
/// indented four spaces: the test fails when they drift, and `KRAFTSCOPE_REWRITE=1` writes the
/// command's output into README.
#[test]
fn the_readme_sizing_table_is_the_command_output() {
    let (code, out, err) = kraftscope(&["quorum-sizing"]);
    assert_eq!(code, 0, "{err}");
    let table: String = out
        .lines()
        .filter(|line| !line.starts_with("measured in "))
        .map(|line| format!("    {line}\n"))
        .collect();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/README.md");
    let readme = std::fs::read_to_string(path).unwrap();
    let start = readme.find("    200 trials per row;").expect("README holds the quorum-sizing table");
    let end = start + readme[start..].find("\n\n").expect("a blank line ends the table") + 1;
    if std::env::var("KRAFTSCOPE_REWRITE").is_ok_and(|v| v == "1") {
        std::fs::write(path, format!("{}{table}{}", &readme[..start], &readme[end..])).unwrap();
        return;
    }
    assert_eq!(
        readme[start..end],
        table,
        "README's quorum-sizing table is not `kraftscope quorum-sizing`'s output (rewrite it with \
         KRAFTSCOPE_REWRITE=1 cargo test --release --test suite sizing_command::, then reread its prose)"
    );
}
