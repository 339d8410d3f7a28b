//! Before a run's fits: each method computes what every split of a dataset shares
//! ([`Method::prepare`](crate::engine::Method::prepare), e.g. the kNN graph of all of a
//! dataset's rows) on all of the run's threads. Computed inside the first fit instead, it
//! ran on one thread while the fits of the other threads waited for it.

use std::collections::HashSet;
use std::sync::Arc;

use super::draw_for;
use super::log::{TaskKey, todo};
use super::tune::Choices;
use crate::config::Experiment;
use crate::engine::Store;
use crate::error::Result;

/// Calls every method's `prepare` on the first unfinished split of each dataset entry of
/// `tasks` (its rows drawn without their features), under the fits' guards (`limit`, the
/// memory limit; panics caught). A method's error is not reported here: the store keeps no
/// failure, so each fit meets it again and records it in its row.
pub fn prepare(
    exp: &Experiment,
    tasks: &[(usize, usize)],
    finished: &HashSet<TaskKey>,
    stores: &[Arc<Store>],
    choices: &Choices,
    limit: f64,
) -> Result<()> {
    let mut seen = HashSet::new();
    for &(d, split) in tasks {
        if todo(exp, finished, d, split).is_empty() || !seen.insert(d) {
            continue;
        }
        let spec = &exp.datasets[d];
        let drawn = draw_for(spec, exp.seed, split, |_| false)?;
        let split_store = Store::default();
        let view = drawn.view(spec, exp.seed, split, &stores[d], &split_store);
        for m in 0..exp.methods.len() {
            if let Ok((method, _)) = choices.method(exp, d, m) {
                let _ = super::fit::prepare(method, &view, limit);
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The dataset store's value count (its Debug form).
    fn values(store: &Store) -> String {
        format!("{store:?}")
    }

    #[test]
    fn the_graph_of_all_rows_is_built_once_for_unfinished_tasks_within_the_memory_limit() {
        let dir = std::env::temp_dir().join(format!("sslab-prepare-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let rows: String =
            (0..16).map(|i| format!("{} 1:{}\n", i % 2 + 1, i % 2 * 4 + i)).collect();
        std::fs::write(dir.join("d.svm"), rows).unwrap();
        let src = format!(
            "[experiment]\nname = \"p\"\nseed = 3\nsplits = 2\n\n[[datasets]]\nname = \"d\"\n\
             kind = \"svmlight\"\npath = \"{}\"\nlabeled_per_class = 2\nunlabeled = \"rest\"\n\n\
             [[methods]]\nkind = \"laplace\"\nk = 4\n\n\
             [[methods]]\nkind = \"qlds\"\nalpha_l = 1.0\nalpha_u = 0.5\n",
            dir.join("d.svm").display()
        );
        let exp = crate::config::parse(&src, &dir.join("c.toml")).unwrap();
        let tasks = [(0, 0), (0, 1)];
        let store = vec![Arc::new(Store::default())];
        prepare(&exp, &tasks, &HashSet::new(), &store, &Choices::default(), f64::INFINITY).unwrap();
        assert_eq!(values(&store[0]), "Store(1 values)", "laplace's graph, nothing for qlds");
        let finished: HashSet<TaskKey> = tasks
            .iter()
            .flat_map(|&(_, s)| {
                exp.methods.iter().map(move |m| ("d".to_string(), s, m.name.clone()))
            })
            .collect();
        let fresh = vec![Arc::new(Store::default())];
        prepare(&exp, &tasks, &finished, &fresh, &Choices::default(), f64::INFINITY).unwrap();
        assert_eq!(values(&fresh[0]), "Store(0 values)", "every task finished");
        let limited = vec![Arc::new(Store::default())];
        prepare(&exp, &tasks, &HashSet::new(), &limited, &Choices::default(), 0.0).unwrap();
        assert_eq!(values(&limited[0]), "Store(0 values)", "above the memory limit");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
