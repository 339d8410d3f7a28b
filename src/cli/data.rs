//! `sslab data`: fetch the registered datasets (configs/datasets.toml) into the data
//! directory (`$SSLAB_DATA_DIR`, default `data/`), or list them.

use std::path::PathBuf;

use sslab::data::fetch;
use sslab::data::registry::Registry;
use sslab::{Error, Result};

#[derive(clap::Subcommand)]
pub enum Command {
    /// Copy (from a mirror) or download the original files of NAMES (default: all), checking sha256.
    Fetch {
        names: Vec<String>,
        /// Mirror directory, tried first; then $SSLAB_DATA_MIRROR, then the public original.
        #[arg(long)]
        mirror: Option<PathBuf>,
    },
    /// Show every registered dataset and whether its files are present and intact.
    List,
}

pub fn run(command: Command) -> Result<()> {
    let reg = Registry::builtin()?;
    let dest = sslab::support::data_dir();
    match command {
        Command::Fetch { names, mirror } => {
            for (file, outcome) in fetch::fetch(&reg, &names, &dest, &fetch::mirrors(mirror))? {
                let how = match outcome {
                    fetch::Outcome::Present => "present",
                    fetch::Outcome::Copied => "copied",
                    fetch::Outcome::Downloaded => "downloaded",
                };
                println!("{how:>10}  {}", dest.join(file).display());
            }
            Ok(())
        }
        Command::List => {
            println!(
                "| dataset | format | features | classes | parts | files present | description |\n|---|---|---|---|---|---|---|"
            );
            for (name, e) in &reg.datasets {
                let files = e.files();
                let mut present = 0;
                for f in &files {
                    let entry = reg
                        .files
                        .get(*f)
                        .ok_or_else(|| Error::Data(format!("no [files] entry for `{f}`")))?;
                    present += usize::from(fetch::is_present(f, entry, &dest)?);
                }
                let parts: Vec<&str> = e.parts.iter().map(|p| p.name.as_str()).collect();
                println!(
                    "| {name} | {} | {} | {} | {} | {present}/{} | {} |",
                    format!("{:?}", e.format).to_lowercase(),
                    e.features,
                    e.class_names.join(" "),
                    parts.join(" "),
                    files.len(),
                    e.description
                );
            }
            println!("\ndata directory: {}", dest.display());
            Ok(())
        }
    }
}
