//! `kraftscope check` reports a failing seed with its swarm parameters and the command that
//! reproduces it, and that command fails the same way.

use std::process::Command;

fn check(args: &[&str]) -> (bool, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_kraftscope")).arg("check").args(args).output().unwrap();
    (output.status.success(), String::from_utf8_lossy(&output.stdout).into_owned())
}

#[test]
fn a_failing_seed_prints_its_swarm_and_a_command_that_reproduces_it() {
    let (passed, out) = check(&["--seeds", "20", "--sabotage", "hw-on-minority", "--quiet"]);
    assert!(!passed, "a sabotaged sweep fails:\n{out}");
    let first = out.lines().find(|l| l.starts_with("VIOLATION in seed ")).expect("a violation is reported");
    let seed = first["VIOLATION in seed ".len()..].split(':').next().unwrap();
    let swarm = format!("  swarm: seed {seed}: format=");
    assert!(
        out.lines().any(|l| l.starts_with(&swarm) && l.contains(" voters=") && l.contains(" faults=")),
        "swarm parameters:\n{out}"
    );
    let reproduce = format!("  reproduce with: kraftscope check --seed {seed} --sabotage hw-on-minority");
    assert!(out.lines().any(|l| l == reproduce), "reproduce command:\n{out}");
    let summary = out.lines().last().unwrap();
    assert!(summary.starts_with("checked 20 seeds: ") && summary.contains(" violations in "), "{summary}");

    let (passed, again) = check(&["--seed", seed, "--sabotage", "hw-on-minority", "--quiet"]);
    assert!(!passed, "the printed command fails again:\n{again}");
    let invariant = first.split_once(": ").unwrap().1;
    assert!(again.lines().any(|l| l.ends_with(invariant)), "the same violation:\n{again}");
}

#[test]
fn a_clean_sweep_reports_zero_violations_and_its_wall_time() {
    let (passed, out) = check(&["--seeds", "5", "--quiet"]);
    assert!(passed, "{out}");
    let summary = out.lines().last().unwrap();
    assert!(
        summary.starts_with("checked 5 seeds: 0 violations in ") && summary.ends_with("thread(s)"),
        "{summary}"
    );
}
