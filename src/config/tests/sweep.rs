//! Sweeps: expansion order and size, names, swept values, and errors at the bad value.

use std::path::Path;

use super::{err, parse};

fn config(dataset: &str, method: &str) -> String {
    format!(
        "[experiment]\nname = \"s\"\nseed = 1\nsplits = 2\n\n[[datasets]]\nkind = \"synthetic\"\nunlabeled_per_class = 20\n{dataset}\n\n[[methods]]\n{method}\n"
    )
}

#[test]
fn an_entry_expands_to_the_product_of_its_swept_keys_first_key_slowest() {
    let src = config(
        "name = \"g\"\ndim = { sweep = [4, 8, 16] }\nmean_norm = 2\nlabeled_per_class = { sweep = [2, 5] }",
        "kind = \"qlds\"\nalpha_l = 1\nalpha_u = { sweep = [0.1, 0.5] }",
    );
    let e = parse(&src, Path::new("c.toml")).unwrap();
    let names: Vec<&str> = e.datasets.iter().map(|d| d.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "g[dim=4,labeled_per_class=2]",
            "g[dim=4,labeled_per_class=5]",
            "g[dim=8,labeled_per_class=2]",
            "g[dim=8,labeled_per_class=5]",
            "g[dim=16,labeled_per_class=2]",
            "g[dim=16,labeled_per_class=5]"
        ]
    );
    assert_eq!(
        e.datasets[3].swept,
        [("dim".to_string(), "8".to_string()), ("labeled_per_class".to_string(), "5".to_string())]
    );
    assert_eq!(e.datasets[3].shape().unwrap(), (2 * 5 + 2 * 20, 8));
    let methods: Vec<&str> = e.methods.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(methods, ["QLDS(1,0.1)[alpha_u=0.1]", "QLDS(1,0.5)[alpha_u=0.5]"]);
    assert_eq!(e.swept_keys(), ["dim", "labeled_per_class", "alpha_u"]);
    assert_eq!(e.swept(&e.datasets[5].name, &e.methods[1].name).len(), 3);
}

#[test]
fn names_come_from_placeholders_and_labels_and_zipped_keys_move_together() {
    let src = config(
        "name = \"g-{dim}\"\ndim = { sweep = [4, 8], zip = \"size\", names = [\"small\", \"large\"] }\nmean_norm = { sweep = [1, 3], zip = \"size\" }\nlabeled_per_class = 3",
        "kind = \"ls_svm\"",
    );
    let e = parse(&src, Path::new("c.toml")).unwrap();
    let got: Vec<(&str, &str)> =
        e.datasets.iter().map(|d| (d.name.as_str(), d.swept[1].1.as_str())).collect();
    assert_eq!(got, [("g-small", "1"), ("g-large", "3")]);
    // A list value (not a sweep) is left alone; a sweep of lists labels them with `+`.
    let src = config(
        "name = \"g-{labeled_per_class}\"\ndim = 4\nmean_norm = 2\nlabeled_per_class = { sweep = [[2, 3], [4, 4]] }",
        "kind = \"ls_svm\"",
    );
    let e = parse(&src, Path::new("c.toml")).unwrap();
    assert_eq!(e.datasets.iter().map(|d| d.name.as_str()).collect::<Vec<_>>(), ["g-2+3", "g-4+4"]);
    assert_eq!(e.datasets[0].swept[0].1, "[2, 3]");
}

#[test]
fn bad_sweeps_name_the_file_line_key_and_position() {
    let bad_value = config(
        "name = \"g\"\ndim = 4\nmean_norm = 2\nlabeled_per_class = { sweep = [2, 0, 5] }",
        "kind = \"ls_svm\"",
    );
    let msg = err(&bad_value);
    assert!(msg.starts_with("cfg.toml:12:"), "{msg}");
    assert!(msg.contains("labeled_per_class") && msg.contains("sweep value 2 of 3"), "{msg}");
    let bad_type = config(
        "name = \"g\"\ndim = 4\nmean_norm = 2\nlabeled_per_class = 3",
        "kind = \"qlds\"\nalpha_l = { sweep = [0.5, \"x\"] }\nalpha_u = 0.5",
    );
    let msg = err(&bad_type);
    assert!(
        msg.starts_with("cfg.toml:16:") && msg.contains("methods[0].alpha_l, sweep value 2 of 2"),
        "{msg}"
    );
    let cases = [
        ("dim = { sweep = [] }", "datasets[0].dim.sweep: expected a non-empty list"),
        ("dim = { sweep = [4], step = 2 }", "datasets[0].dim.step: not a sweep key"),
        ("dim = { sweep = [4, 8], names = [\"a\"] }", "datasets[0].dim.names: expected 2 strings"),
        (
            "dim = { sweep = [4, 8], zip = \"z\" }\nmean_norm = { sweep = [1, 2, 3], zip = \"z\" }",
            "zip group `z` has 2 values (dim) but this sweep has 3",
        ),
    ];
    for (keys, want) in cases {
        let mean = if keys.contains("mean_norm") { "" } else { "\nmean_norm = 2" };
        let src = config(
            &format!("name = \"g\"\n{keys}{mean}\nlabeled_per_class = 3"),
            "kind = \"ls_svm\"",
        );
        let msg = err(&src);
        assert!(msg.contains(want), "{keys}: {msg}");
    }
    let hundred: Vec<String> = (1..=101).map(|v| v.to_string()).collect();
    let huge = config(
        &format!(
            "name = \"g\"\ndim = {{ sweep = [{0}] }}\nmean_norm = 2\nlabeled_per_class = {{ sweep = [{0}] }}",
            hundred.join(", ")
        ),
        "kind = \"ls_svm\"",
    );
    assert!(
        err(&huge)
            .contains("datasets[0]: its sweeps expand to 10201 entries; at most 10000 per config"),
        "{}",
        err(&huge)
    );
    let placeholder = config(
        "name = \"g-{m}\"\ndim = { sweep = [4, 8] }\nmean_norm = 2\nlabeled_per_class = 3",
        "kind = \"ls_svm\"",
    );
    assert!(err(&placeholder).contains("placeholder `{m}` is not a swept key (swept: dim)"));
    let kind = config(
        "name = \"g\"\ndim = 4\nmean_norm = 2\nlabeled_per_class = 3",
        "kind = { sweep = [\"qlds\", \"ls_svm\"] }",
    );
    assert!(err(&kind).contains("methods[0].kind: cannot be swept"));
    let twice = config(
        "name = \"g\"\ndim = 4\nmean_norm = 2\nlabeled_per_class = 3",
        "kind = \"ls_svm\"\n\n[[methods]]\nkind = \"ls_svm\"",
    );
    assert!(err(&twice).contains("name `LS-SVM` is used twice"));
}
