//! Fitting a split of more than two classes with a binary method: K binary problems (class
//! k against the rest, +1 against −1), one fit each, the K score columns side by side as
//! per-class scores (the prediction is their argmax) and the K models as one
//! [`OneVsRest`] model. Each class's problem has a store of its own (kept in the split's
//! store, so the methods of a split share it), since what a method caches may depend on
//! the labels. Binary splits, and the kinds that handle more classes themselves, fit as
//! they are: [`fit`] is the one entry point of the runner, the tuning and Python.

use ndarray::{Array1, Array2};

use super::model::OneVsRest;
use super::{Fitted, Method, Model, Reported, Scores, Split, Store};
use crate::data::Problem;
use crate::error::{Error, Result};

/// Fits `method` on the split: as it is when the split has two classes or `native` (its
/// kind handles more classes), else by [`Method::fit_multiclass`] or one-vs-rest.
pub fn fit(method: &dyn Method, native: bool, split: &Split) -> Result<Fitted> {
    if native || split.problem.n_classes <= 2 {
        return method.fit(split);
    }
    method.fit_multiclass(split).unwrap_or_else(|| one_vs_rest(method, split))
}

/// Class `k` against the rest of `p`: class k is +1 (class id 0), every other class −1
/// (class id 1); an unknown truth (NaN) stays unknown.
pub fn binary_problem(p: &Problem, k: usize) -> Problem {
    let mut b = Problem {
        x_l: p.x_l.clone(),
        y_l: Array1::zeros(0),
        x_u: p.x_u.clone(),
        y_u: Array1::zeros(0),
        classes_l: Vec::new(),
        classes_u: Vec::new(),
        n_classes: 2,
    };
    relabel(&mut b, p, k);
    b
}

/// Gives `b` (the rows of `p`) the labels of class `k` against the rest.
fn relabel(b: &mut Problem, p: &Problem, k: usize) {
    let sign = |c: usize, y: f64| match (y.is_nan(), c == k) {
        (true, _) => f64::NAN,
        (false, true) => 1.0,
        (false, false) => -1.0,
    };
    b.y_l = p.classes_l.iter().zip(&p.y_l).map(|(c, y)| sign(*c, *y)).collect();
    b.y_u = p.classes_u.iter().zip(&p.y_u).map(|(c, y)| sign(*c, *y)).collect();
    b.classes_l = p.classes_l.iter().map(|c| usize::from(*c != k)).collect();
    b.classes_u = p.classes_u.iter().map(|c| usize::from(*c != k)).collect();
}

/// One binary fit per class, gathered: per-class scores (unlabeled and test rows), the
/// [`OneVsRest`] model (when every class's fit left one, of any kind), the summed measured
/// time (when every fit measured its own) and the reported parameters ([`merge_reported`]).
pub fn one_vs_rest(method: &dyn Method, split: &Split) -> Result<Fitted> {
    let p = split.problem;
    let k = p.n_classes;
    let mut sub = binary_problem(p, 0);
    let mut fits = Vec::with_capacity(k);
    for class in 0..k {
        relabel(&mut sub, p, class);
        let key = format!("one-vs-rest class {class}");
        let store = split.split_store.get(&key, || Ok(Store::default()))?;
        let view = Split { problem: &sub, split_store: &store, ..*split };
        let fitted = method
            .fit(&view)
            .map_err(|e| Error::Data(format!("class {class} against the rest: {e}")))?;
        fits.push(fitted);
    }
    let scores = per_class(fits.iter().map(|f| &f.scores), p.n_unlabeled())?;
    let mut out = Fitted::new(scores);
    if fits.iter().all(|f| f.test.is_some()) {
        let rows = split.test.map_or(0, |t| t.nrows());
        out.test = Some(per_class(fits.iter().filter_map(|f| f.test.as_ref()), rows)?);
    }
    if fits.iter().all(|f| f.model.is_some()) {
        let models = fits.iter_mut().filter_map(|f| f.model.take()).collect();
        out.model = Some(Model::OneVsRest(OneVsRest::new(models)?));
    }
    out.seconds = fits.iter().map(|f| f.seconds).sum();
    out.reported = merge_reported(fits.iter().map(|f| f.reported.as_slice()));
    Ok(out)
}

/// The binary score columns, one per class, as per-class scores of `rows` rows.
fn per_class<'a>(columns: impl Iterator<Item = &'a Scores>, rows: usize) -> Result<Scores> {
    let columns: Vec<&Scores> = columns.collect();
    let mut out = Array2::zeros((rows, columns.len()));
    for (k, s) in columns.into_iter().enumerate() {
        match s {
            Scores::Binary(s) if s.len() == rows => out.column_mut(k).assign(s),
            _ => {
                return Err(Error::Data(format!(
                    "class {k} against the rest: the fit gave no binary score for each of {rows} rows"
                )));
            }
        }
    }
    Ok(Scores::PerClass(out))
}

/// The parameters of the K fits, by the first fit's names in its order: a value the K fits
/// share under its name, values that differ under `NAME_per_class` as the label of the K
/// values in class order separated by `;` (e.g. `alpha_l_per_class` = `0.5;2;0.5`).
pub fn merge_reported<'a>(
    fits: impl Iterator<Item = &'a [(String, Reported)]>,
) -> Vec<(String, Reported)> {
    let fits: Vec<_> = fits.collect();
    let Some(first) = fits.first() else { return Vec::new() };
    first
        .iter()
        .map(|(name, value)| {
            let values: Vec<Option<&Reported>> =
                fits.iter().map(|f| f.iter().find(|(n, _)| n == name).map(|(_, v)| v)).collect();
            if values.iter().all(|v| *v == Some(value)) {
                return (name.clone(), value.clone());
            }
            let text = |v: &Option<&Reported>| match v {
                Some(Reported::Number(x)) => x.to_string(),
                Some(Reported::Label(s)) => s.clone(),
                None => String::new(),
            };
            let joined = values.iter().map(text).collect::<Vec<_>>().join(";");
            (format!("{name}_per_class"), Reported::Label(joined))
        })
        .collect()
}
