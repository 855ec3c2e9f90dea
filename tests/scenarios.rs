//! Scenario tests: each file under `tests/scenarios/` is run and its output compared with the
//! expected output in the file. `KRAFTSCOPE_REWRITE=1 cargo test --test scenarios` rewrites the
//! expectations after a reviewed change.

use kraftscope::scenario::catalog::SCENARIOS;
use kraftscope::scenario::{Detail, run_script, script};

const SEED: u64 = 1;

#[test]
fn every_scenario_file_is_in_the_catalog() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/scenarios");
    let mut files: Vec<String> = std::fs::read_dir(dir)
        .expect("tests/scenarios exists")
        .filter_map(|e| e.ok()?.file_name().into_string().ok()?.strip_suffix(".txt").map(String::from))
        .collect();
    files.sort();
    let catalog: Vec<&str> = SCENARIOS.iter().map(|(n, _)| *n).collect();
    assert_eq!(files, catalog);
}

#[test]
fn scenarios_produce_their_expected_traces() {
    let rewrite = std::env::var("KRAFTSCOPE_REWRITE").is_ok_and(|v| v == "1");
    let mut mismatches = Vec::new();
    for (name, _) in SCENARIOS {
        let path = format!("{}/tests/scenarios/{name}.txt", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).expect("readable scenario");
        let blocks = script::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let outputs = run_script(&text, SEED, Detail::Notable).unwrap_or_else(|e| panic!("{name}: {e}"));
        if rewrite {
            std::fs::write(&path, script::render(&blocks, &outputs)).expect("writable scenario");
            continue;
        }
        for (block, output) in blocks.iter().zip(&outputs) {
            if &block.expected != output {
                mismatches.push(format!(
                    "{name}.txt line {} `{}`:\n--- expected\n{}\n--- got\n{}",
                    block.line,
                    block.directive(),
                    block.expected.join("\n"),
                    output.join("\n")
                ));
            }
        }
    }
    assert!(
        mismatches.is_empty(),
        "{}\n(reproduce: kraftscope run --seed {SEED} --scenario NAME; rewrite: KRAFTSCOPE_REWRITE=1)",
        mismatches.join("\n\n")
    );
}

#[test]
fn the_same_seed_gives_the_same_trace_and_another_seed_another() {
    let text = kraftscope::scenario::catalog::find("leader_crash").unwrap();
    let a = run_script(text, 7, Detail::Full).unwrap();
    let b = run_script(text, 7, Detail::Full).unwrap();
    let c = run_script(text, 8, Detail::Full).unwrap();
    assert_eq!(a, b);
    assert_ne!(a, c);
}
