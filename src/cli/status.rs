//! `sslab status`: what a run folder (OUT/<name>) holds: per shard (or for the whole run),
//! the fits done and missing, and the command that completes the unfinished ones.

use std::collections::HashSet;
use std::path::PathBuf;

use sslab::protocol::status;
use sslab::{Error, Result};

#[derive(clap::Args)]
pub struct Args {
    /// The run folder (OUT/<name>, holding the config copy `config.toml` and the row logs).
    dir: PathBuf,
}

pub fn run(a: Args) -> Result<()> {
    let config = a.dir.join("config.toml");
    if !config.exists() {
        return Err(Error::Data(format!(
            "{}: no config.toml (written by `sslab run`): not a run folder",
            a.dir.display()
        )));
    }
    let exp = sslab::config::load(&config)?;
    let logs = status::logs(&a.dir)?;
    let mut finished = HashSet::new();
    for log in &logs {
        finished.extend(status::done(&status::read(log, &exp.hash)?));
    }
    let count = status::shard_count(&logs);
    let shards = status::shards(&exp, count, &finished)?;
    let (done, total): (usize, usize) =
        shards.iter().fold((0, 0), |(d, t), s| (d + s.done, t + s.done + s.missing.len()));
    println!(
        "{}: experiment `{}` (hash {}), {done} of {total} fits done{}",
        a.dir.display(),
        exp.name,
        exp.hash,
        count.map_or(String::new(), |n| format!(", {n} shards"))
    );
    for s in &shards {
        let name = s.shard.map_or("whole run".into(), |s| format!("shard {}/{}", s.index, s.count));
        let size = s.done + s.missing.len();
        if s.missing.is_empty() {
            println!("  {name}: done ({size} fits)");
            continue;
        }
        println!("  {name}: {} of {size} fits done, {} missing:", s.done, s.missing.len());
        for line in status::describe_missing(s, 10) {
            println!("    {line}");
        }
        println!("    complete with: {}", status::command(&a.dir, s.shard));
    }
    let results = a.dir.join("results.csv");
    match (done == total, results.exists(), count) {
        (true, true, _) => println!("  results.csv written"),
        (true, false, Some(_)) => {
            println!("  every shard is done: `sslab merge {}` writes results.csv", a.dir.display())
        }
        (true, false, None) => {
            println!("  results.csv missing: `{}` writes it", status::command(&a.dir, None))
        }
        (false, ..) => {}
    }
    Ok(())
}
