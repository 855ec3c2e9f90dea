//! `kraftscope run`: play a built-in scenario (or a script file) and print its trace.

use kraftscope::scenario::{Detail, ScenarioRun, catalog, script};

use super::args::Args;

pub fn run(args: &Args) -> Result<bool, String> {
    args.only(&["scenario", "file", "seed", "notable"])?;
    let seed: u64 = args.get("seed", 1)?;
    let text = match (args.text("scenario"), args.text("file")) {
        (Some(name), None) => catalog::find(name)?.to_string(),
        (None, Some(path)) => {
            std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?
        }
        _ => {
            let names: Vec<&str> = catalog::SCENARIOS.iter().map(|(n, _)| *n).collect();
            return Err(format!("give --scenario NAME or --file PATH (scenarios: {})", names.join(", ")));
        }
    };
    let detail = if args.has("notable") { Detail::Notable } else { Detail::Full };
    let blocks = script::parse(&text)?;
    let mut run = ScenarioRun::new(seed, detail);
    for block in &blocks {
        println!("> {}", block.directive());
        let lines =
            run.execute(block).map_err(|e| format!("line {} ({}): {e}", block.line, block.directive()))?;
        for line in lines {
            println!("{line}");
        }
    }
    Ok(true)
}
