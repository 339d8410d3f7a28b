//! The values a fit reports by name: their results.csv columns, the parameter columns they
//! fill, collisions, and the row log that keeps them for `--resume` and merges.

use super::log::{RowLog, read};
use super::{ResultRow, read_results, test_row, write_results};
use crate::engine::Reported;

const OLD_HEADER: &str = "experiment,config_hash,dataset,split,split_seed,method,kind,params,alpha_l,alpha_u,lambda_policy,lambda,error,prbep,test_error,test_prbep,n_labeled,n_unlabeled,dim,status,message,fit_seconds";

fn number(name: &str, x: f64) -> (String, Reported) {
    (name.to_string(), Reported::Number(x))
}

fn label(name: &str, s: &str) -> (String, Reported) {
    (name.to_string(), Reported::Label(s.to_string()))
}

/// A row with `values` reported and `swept` keys (and no NaN, to compare rows).
fn reporting(values: Vec<(String, Reported)>, swept: &[(&str, &str)]) -> ResultRow {
    let mut row = ResultRow {
        lambda_policy: String::new(),
        lambda: None,
        prbep: 0.5,
        swept: swept.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
        ..test_row("d", "m", 0, 0.25)
    };
    row.report(values).unwrap();
    row
}

fn tempdir(tag: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("sslab-reported-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn a_new_name_gets_its_own_column_after_lambda_and_reads_back() {
    let qlds = vec![
        number("alpha_l", 0.5),
        number("alpha_u", 2.0),
        label("lambda_policy", "cv"),
        number("lambda", 0.125),
        number("gamma", 0.1),
    ];
    let a = reporting(qlds, &[("gamma", "1"), ("n", "3")]);
    assert_eq!((a.alpha_l, a.alpha_u, a.lambda), (Some(0.5), Some(2.0), Some(0.125)));
    assert_eq!(
        (a.lambda_policy.as_str(), a.reported.clone()),
        ("cv", vec![("gamma".into(), "0.1".into())])
    );
    let b = reporting(vec![number("gamma", 1e-5), number("k", 5.0)], &[("n", "4")]);
    let dir = tempdir("columns");
    let path = dir.join("results.csv");
    write_results(&path, &[a.clone(), b.clone()]).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let (head, tail) = OLD_HEADER.split_once(",error,").unwrap();
    // The swept `gamma` collides with the reported one and takes the prefix.
    let header = format!("{head},gamma,k,error,{tail},swept.gamma,n");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], header);
    assert!(lines[1].contains(",cv,0.125,0.1,,0.25,0.5,"), "{}", lines[1]);
    assert!(lines[2].contains(",,,0.00001,5.0,0.25,0.5,"), "{}", lines[2]);
    assert_eq!(read_results(&path).unwrap(), vec![a, b]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn rows_reporting_only_the_parameter_columns_keep_the_old_header_and_cells() {
    let row =
        reporting(vec![label("lambda_policy", "fixed"), number("lambda", 3.3668506161082243)], &[]);
    let dir = tempdir("old");
    let path = dir.join("results.csv");
    write_results(&path, &[row]).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text.lines().next(), Some(OLD_HEADER));
    assert!(text.lines().nth(1).unwrap().contains(",,,fixed,3.3668506161082243,0.25,"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_name_of_another_fixed_column_or_a_wrong_type_fails_the_row() {
    let mut row = test_row("d", "m", 0, 0.25);
    let e = row.report(vec![number("dim", 3.0)]).unwrap_err().to_string();
    assert!(e.contains("`dim`, the name of a fixed result column"), "{e}");
    let e = row.report(vec![label("lambda", "big")]).unwrap_err().to_string();
    assert!(e.contains("`lambda`, a column that takes a number"), "{e}");
    let e = row.report(vec![number("lambda_policy", 1.0)]).unwrap_err().to_string();
    assert!(e.contains("`lambda_policy`"), "{e}");
}

#[test]
fn the_row_log_keeps_reported_values_for_resume() {
    let dir = tempdir("log");
    let path = dir.join("rows.log");
    let plain = reporting(vec![number("lambda", 1.0)], &[]);
    let tuned = ResultRow {
        split: 1,
        ..reporting(vec![number("gamma", 0.5), label("solver", "a,b")], &[])
    };
    let (log, previous) = RowLog::open(&path, "h", false).unwrap();
    assert!(previous.is_empty());
    log.append(&plain).unwrap();
    log.append(&tuned).unwrap();
    assert_eq!(read(&path, "h").unwrap(), vec![plain.clone(), tuned.clone()]);
    let (_, resumed) = RowLog::open(&path, "h", true).unwrap();
    assert_eq!(resumed, vec![plain, tuned]);
    std::fs::remove_dir_all(&dir).unwrap();
}
