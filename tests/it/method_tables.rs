//! A method's key → value table given without a file (`Entry::table`, the Python
//! estimators' parameters) is checked as the same table in a config file, its errors naming
//! the key alone; a graph-only method can be given its graph (`check_given`) and fits the
//! caller's rows (a split without a data source) on it.

use std::path::Path;
use std::sync::Mutex;

use ndarray::{Array1, Array2};
use sslab::Error;
use sslab::data::{Features, Problem};
use sslab::engine::{Entry, Scores, Split, Store};
use sslab::methods::FAMILIES;
use sslab::methods::sparse_graph::{Graph, SparseGraphFamily, Symmetrise};
use toml::Value;

/// The error of `kind` with `key = value` as a table and as a config file's only method.
fn both_errors(kind: &str, key: &str, value: Value) -> (String, String) {
    let family = FAMILIES.iter().find(|f| f.kinds().contains(&kind)).unwrap();
    let entry = Entry::table(kind, [(key.to_string(), value.clone())]).unwrap();
    let table = match family.check(&entry) {
        Err(Error::Table(m)) => m,
        other => panic!("{kind} {key}: {other:?}"),
    };
    let src = format!(
        "[experiment]\nname = \"t\"\nseed = 1\nsplits = 1\n\n[[datasets]]\nname = \"g\"\n\
         kind = \"synthetic\"\ndim = 3\nmean_norm = 2.0\nlabeled_per_class = 2\n\
         unlabeled_per_class = 5\n\n[[methods]]\nkind = \"{kind}\"\n{key} = {value}\n"
    );
    let file = match sslab::config::parse(&src, Path::new("c.toml")) {
        Err(Error::Config { path, line, message }) => {
            assert_eq!((path.as_path(), line), (Path::new("c.toml"), 16), "{message}");
            message
        }
        other => panic!("{kind} {key}: {other:?}"),
    };
    (table, file)
}

#[test]
fn a_table_is_checked_as_a_config_file_with_errors_naming_the_key_alone() {
    let cases = [
        ("tsvm", "lambda", Value::Float(-1.0), "lambda: must be finite and > 0, got -1"),
        ("tsvm", "lambd", Value::Float(1.0), "lambd: not a parameter of `tsvm` (did you mean"),
        ("qlds", "select", Value::String("xx".into()), "select: unknown `xx`"),
        ("tv_rls", "gamma", Value::String("x".into()), "gamma: expected a number"),
        ("lap_rls", "k", Value::Integer(0), "k: must be ≥ 1, got 0"),
        ("laplace", "symmetrise", Value::String("none".into()), "symmetrise: laplace needs"),
    ];
    for (kind, key, value, start) in cases {
        let (table, file) = both_errors(kind, key, value);
        assert!(table.starts_with(start), "{kind}: {table}");
        assert_eq!(file, format!("methods[0].{table}"), "{kind}");
    }
    let entry = Entry::table("tsvm", [("lambda".to_string(), Value::Float(0.5))]).unwrap();
    let name = FAMILIES.iter().find(|f| f.kinds().contains(&"tsvm")).unwrap().check(&entry);
    assert_eq!(name.unwrap().name, "TSVM(S=10000, dual CD)");
}

/// Two cliques of five nodes (0–4 and 5–9, weight 1) joined by the edge 4–5 (weight 0.01),
/// as CSR arrays; `one_way` drops the edges from the second clique to the first.
fn cliques(one_way: bool) -> (Vec<usize>, Vec<u32>, Vec<f32>) {
    let (mut indptr, mut indices, mut weights) = (vec![0], Vec::new(), Vec::new());
    for i in 0..10u32 {
        for j in 0..10u32 {
            let w = match (i / 5 == j / 5, i.min(j) == 4 && i.max(j) == 5) {
                _ if i == j || (one_way && i >= 5 && j < 5) => continue,
                (true, _) => 1.0,
                (false, true) => 0.01,
                (false, false) => continue,
            };
            indices.push(j);
            weights.push(w);
        }
        indptr.push(indices.len());
    }
    (indptr, indices, weights)
}

#[test]
fn a_given_graph_takes_max_unless_told_and_refuses_knn_keys() {
    let rules = Mutex::new(Vec::new());
    let (indptr, indices, weights) = cliques(true);
    let build = |rule| {
        rules.lock().unwrap().push(rule);
        Graph::from_csr(&indptr, &indices, &weights, rule)
    };
    let table = |pairs: &[(&str, &str)]| {
        let values = pairs.iter().map(|(k, v)| (k.to_string(), Value::String(v.to_string())));
        Entry::table("laplace", values).unwrap()
    };
    SparseGraphFamily.check_given(&table(&[]), &build).unwrap();
    SparseGraphFamily.check_given(&table(&[("symmetrise", "mean")]), &build).unwrap();
    assert_eq!(*rules.lock().unwrap(), [Symmetrise::Max, Symmetrise::Mean]);
    let knn = SparseGraphFamily.check_given(&table(&[("weighting", "binary")]), &build);
    assert!(
        matches!(&knn, Err(Error::Table(m)) if m == "weighting: describes a kNN graph, but the graph is given"),
        "{knn:?}"
    );
    let file = SparseGraphFamily.check_given(&table(&[("graph", "w.npz")]), &build);
    assert!(matches!(&file, Err(Error::Table(m)) if m.starts_with("graph: the graph is given")));
}

#[test]
fn a_given_graph_labels_the_callers_rows_in_their_order() {
    let (indptr, indices, weights) = cliques(false);
    let build = |rule| Graph::from_csr(&indptr, &indices, &weights, rule);
    let method = SparseGraphFamily
        .check_given(&Entry::table("laplace", []).unwrap(), &build)
        .unwrap()
        .method;
    // Labeled: row 9 (class 0, +1) and row 0 (class 1); the rest unlabeled, in order.
    let order: Vec<usize> = [9, 0].into_iter().chain(1..9).collect();
    let none = |n: usize| Features::Dense(Array2::zeros((n, 0)));
    let problem = Problem {
        x_l: none(2),
        y_l: Array1::from(vec![1.0, -1.0]),
        x_u: none(8),
        y_u: Array1::from_elem(8, f64::NAN),
        classes_l: vec![0, 1],
        classes_u: vec![0; 8],
        n_classes: 2,
    };
    let stores = [Store::default(), Store::default()];
    let split = |problem, rows| Split {
        problem,
        source: None,
        rows,
        dataset_store: &stores[0],
        split_store: &stores[1],
        test: None,
        seed: 0,
        index: 0,
    };
    let Scores::Binary(s) = method.fit(&split(&problem, Some(&order))).unwrap().scores else {
        panic!("two classes give one score column")
    };
    let signs: Vec<bool> = s.iter().map(|&v| v > 0.0).collect();
    assert_eq!(signs, [false, false, false, false, true, true, true, true], "{s}");
    let short = order[..9].to_vec();
    let fewer =
        Problem { x_u: none(7), y_u: Array1::zeros(7), classes_u: vec![0; 7], ..problem.clone() };
    let e = method.fit(&split(&fewer, Some(&short))).unwrap_err().to_string();
    assert_eq!(e, "the given graph has 10 nodes for 9 rows");
}
