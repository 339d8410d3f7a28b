//! The TV-SVM paper's USPS experiments (Tables 1 and 2) from `configs/tv_usps.toml`:
//! 4 vs 9 and {0, 1, 4, 9}, m labeled points per class, `runs` random draws, error on the
//! unlabeled points; writes `results/tv_usps/{results.csv,tables.md}` and prints the wall
//! time and peak memory. Run with `make tv-usps` (data from $SSLAB_DATA_DIR, default
//! `data/`). Optional arguments: `--config PATH`, `--seed N` (tuning on other seeds),
//! `--runs N`, `--task NAME`, `--out DIR`.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Instant;

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::Deserialize;
use sslab::data::load::{data_dir, load_named};
use sslab::data::registry::Registry;
use sslab::methods::graph::{GraphKind, GraphMethod, GraphParams, Prepared, Weighting, argmax_rows};
use sslab::protocol::derive_seed;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Config {
    seed: u64,
    runs: usize,
    labels_per_class: Vec<usize>,
    tasks: Vec<Task>,
    methods: Vec<MethodCfg>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Task {
    name: String,
    digits: Vec<String>,
    /// The paper's errors (%) per label count, in `labels_per_class` order, per method name.
    published: BTreeMap<String, Vec<f64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MethodCfg {
    kind: String,
    name: Option<String>,
    eta: Option<f64>,
    lambda: Option<f64>,
    gamma: Option<f64>,
    mu: Option<f64>,
    r1: Option<f64>,
    r2: Option<f64>,
    c: Option<f64>,
    iterations: Option<usize>,
    rof_iterations: Option<usize>,
    k: Option<usize>,
    weighting: Option<String>,
    kernel_scale: Option<f64>,
}

impl MethodCfg {
    fn build(&self) -> Result<(String, GraphMethod), String> {
        let kind = GraphKind::from_name(&self.kind).ok_or_else(|| format!("unknown method kind `{}`", self.kind))?;
        let mut p = GraphParams::new(kind);
        p.eta = self.eta.unwrap_or(p.eta);
        p.lambda = self.lambda.unwrap_or(p.lambda);
        p.gamma = self.gamma.unwrap_or(p.gamma);
        p.mu = self.mu.unwrap_or(p.mu);
        p.r1 = self.r1.unwrap_or(p.r1);
        p.r2 = self.r2.unwrap_or(p.r2);
        p.c = self.c.unwrap_or(p.c);
        p.iterations = self.iterations.unwrap_or(p.iterations);
        p.rof.max_iter = self.rof_iterations.unwrap_or(p.rof.max_iter);
        p.graph.k = self.k.unwrap_or(p.graph.k);
        p.kernel.scale = self.kernel_scale.unwrap_or(p.kernel.scale);
        if let Some(w) = &self.weighting {
            p.graph.weighting = [Weighting::SelfTuning, Weighting::Gaussian, Weighting::Binary]
                .into_iter()
                .find(|x| x.name() == w)
                .ok_or_else(|| format!("unknown weighting `{w}`"))?;
        }
        let name = self.name.clone().unwrap_or_else(|| kind.label().to_string());
        Ok((name.clone(), p.check().map_err(|e| format!("method `{name}`: {e}"))?))
    }
}

struct Row {
    task: String,
    m: usize,
    run: usize,
    seed: u64,
    method: String,
    error: f64,
    seconds: f64,
}

fn arg(name: &str) -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1).cloned())
}

fn peak_rss_mib() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|kb| kb.parse::<f64>().ok())
        .map_or(f64::NAN, |kb| kb / 1024.0)
}

fn main() -> Result<(), String> {
    let started = Instant::now();
    let path = PathBuf::from(arg("--config").unwrap_or_else(|| "configs/tv_usps.toml".into()));
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut cfg: Config = toml::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    if let Some(s) = arg("--seed") {
        cfg.seed = s.parse().map_err(|_| "--seed: not an integer")?;
    }
    if let Some(r) = arg("--runs") {
        cfg.runs = r.parse().map_err(|_| "--runs: not an integer")?;
    }
    if let Some(t) = arg("--task") {
        cfg.tasks.retain(|task| task.name == t);
    }
    let out = PathBuf::from(arg("--out").unwrap_or_else(|| "results/tv_usps".into()));
    let methods: Vec<(String, GraphMethod)> = cfg.methods.iter().map(MethodCfg::build).collect::<Result<_, _>>()?;
    let registry = Registry::builtin().map_err(|e| e.to_string())?;
    let usps = load_named(&registry, "usps", &data_dir(), None).map_err(|e| e.to_string())?;
    faer::set_global_parallelism(faer::Par::Seq);
    let mut rows = Vec::new();
    for task in &cfg.tasks {
        let ids: Vec<usize> = task.digits.iter().map(|d| usps.class_id(d)).collect::<Result<_, _>>().map_err(|e| e.to_string())?;
        let data = usps.select_classes(&ids).map_err(|e| e.to_string())?;
        let x = data.x.to_dense().into_owned();
        let by_class = data.class_rows();
        let binary = ids.len() == 2;
        // Kernel, graph and label-independent smoothers once per task and setting; each
        // draw permutes them (labeled points first) instead of recomputing.
        let mut bases: Vec<((f64, usize, &'static str), Prepared)> = Vec::new();
        for (_, method) in &methods {
            let p = method.params();
            let key = (p.kernel.scale, p.graph.k, p.graph.weighting.name());
            let pos = match bases.iter().position(|(k, _)| *k == key) {
                Some(i) => i,
                None => {
                    let base = Prepared::from_rows(x.view(), vec![], &p.kernel, Some(&p.graph)).map_err(|e| e.to_string())?;
                    bases.push((key, base));
                    bases.len() - 1
                }
            };
            if let Some((l, r, g)) = method.smoother_key(!binary) {
                bases[pos].1.cache_smoother(l, r, g).map_err(|e| e.to_string())?;
            }
        }
        let jobs: Vec<(usize, usize)> = cfg.labels_per_class.iter().flat_map(|&m| (0..cfg.runs).map(move |r| (m, r))).collect();
        let task_rows: Vec<Vec<Row>> = jobs
            .par_iter()
            .map(|&(m, run)| -> Result<Vec<Row>, String> {
                let seed = derive_seed(cfg.seed, &format!("{}/{m}", task.name), run);
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                let mut labeled = Vec::new();
                for rows in &by_class {
                    let mut rows = rows.clone();
                    rows.shuffle(&mut rng);
                    labeled.extend_from_slice(&rows[..m]);
                }
                let mut is_labeled = vec![false; x.nrows()];
                labeled.iter().for_each(|&i| is_labeled[i] = true);
                let mut order = labeled.clone();
                order.extend((0..x.nrows()).filter(|&i| !is_labeled[i]));
                let classes: Vec<usize> = order.iter().map(|&i| data.classes[i]).collect();
                let nl = labeled.len();
                let y: Vec<f64> = classes[..nl].iter().map(|&c| if binary { if c == 0 { 1.0 } else { -1.0 } } else { c as f64 }).collect();
                let mut preps: Vec<Option<Prepared>> = vec![None; bases.len()];
                let mut out = Vec::new();
                for (name, method) in &methods {
                    let p = method.params();
                    let key = (p.kernel.scale, p.graph.k, p.graph.weighting.name());
                    let pos = bases.iter().position(|(k, _)| *k == key).ok_or("no base for method")?;
                    let t = Instant::now();
                    if preps[pos].is_none() {
                        preps[pos] = Some(bases[pos].1.reorder(&order, y.clone()).map_err(|e| e.to_string())?);
                    }
                    let prep = preps[pos].as_ref().ok_or("missing prepared data")?;
                    let wrong = if binary {
                        let f = method.fit_prepared(prep).map_err(|e| format!("{name}: {e}"))?;
                        (nl..f.len()).filter(|&i| (f[i] >= 0.0) != (classes[i] == 0)).count()
                    } else {
                        let s = method.fit_multiclass(prep, &classes[..nl], ids.len()).map_err(|e| format!("{name}: {e}"))?;
                        argmax_rows(&s).iter().zip(&classes).skip(nl).filter(|(a, b)| a != b).count()
                    };
                    out.push(Row {
                        task: task.name.clone(),
                        m,
                        run,
                        seed,
                        method: name.clone(),
                        error: 100.0 * wrong as f64 / (classes.len() - nl) as f64,
                        seconds: t.elapsed().as_secs_f64(),
                    });
                }
                Ok(out)
            })
            .collect::<Result<_, _>>()?;
        rows.extend(task_rows.into_iter().flatten());
    }
    std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    let mut csv = String::from("task,labels_per_class,run,seed,method,error_percent,fit_seconds\n");
    for r in &rows {
        writeln!(csv, "{},{},{},{},{},{:.4},{:.3}", r.task, r.m, r.run, r.seed, r.method, r.error, r.seconds).ok();
    }
    std::fs::write(out.join("results.csv"), csv).map_err(|e| e.to_string())?;
    let tables = tables(&cfg, &methods, &rows, &path);
    std::fs::write(out.join("tables.md"), &tables).map_err(|e| e.to_string())?;
    println!("{tables}");
    println!(
        "wall time {:.1} s, peak memory (VmHWM) {:.0} MiB, {} threads",
        started.elapsed().as_secs_f64(),
        peak_rss_mib(),
        rayon::current_num_threads()
    );
    Ok(())
}

/// One markdown table per task: ours (mean ± std over runs) next to the paper's number.
fn tables(cfg: &Config, methods: &[(String, GraphMethod)], rows: &[Row], path: &std::path::Path) -> String {
    let mut s = format!(
        "<!-- generated by benches/tv_usps.rs from {}, seed {}, {} runs -->\n",
        path.display(),
        cfg.seed,
        cfg.runs
    );
    for task in &cfg.tasks {
        writeln!(s, "\n### {} (digits {}): error % on the unlabeled points, ours (mean ± std) / paper\n", task.name, task.digits.join(", ")).ok();
        write!(s, "| method |").ok();
        cfg.labels_per_class.iter().for_each(|m| { write!(s, " {m} per class |").ok(); });
        write!(s, "\n|---|").ok();
        cfg.labels_per_class.iter().for_each(|_| { write!(s, "---|").ok(); });
        s.push('\n');
        for (name, _) in methods {
            write!(s, "| {name} |").ok();
            for (j, m) in cfg.labels_per_class.iter().enumerate() {
                let e: Vec<f64> = rows.iter().filter(|r| r.task == task.name && r.m == *m && &r.method == name).map(|r| r.error).collect();
                let mean = e.iter().sum::<f64>() / e.len().max(1) as f64;
                let std = (e.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (e.len().max(2) - 1) as f64).sqrt();
                let paper = task.published.get(name).and_then(|v| v.get(j)).map_or("–".to_string(), |p| format!("{p}"));
                write!(s, " {mean:.2} ± {std:.2} / {paper} |").ok();
            }
            s.push('\n');
        }
    }
    s
}
