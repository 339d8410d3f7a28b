//! "Did you mean": the closest known name to a misspelt one, by edit distance (insertions,
//! deletions, substitutions and swaps of neighbours each count 1).

/// ` (did you mean `x`?)` for the candidate closest to `word` within a third of its length
/// (at least 1, ties to the first listed), else the empty string.
pub fn did_you_mean<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> String {
    let limit = (word.chars().count() / 3).max(1);
    let best = candidates
        .into_iter()
        .map(|c| (distance(word, c), c))
        .filter(|&(d, c)| d <= limit && c != word)
        .min_by_key(|&(d, _)| d);
    best.map_or(String::new(), |(_, c)| format!(" (did you mean `{c}`?)"))
}

/// The message of a serde error with a suggestion added when it names an unknown field
/// among listed ones (``unknown field `x`, expected one of `a`, `b` ``).
pub fn serde_message(message: &str) -> String {
    let Some(rest) = message.strip_prefix("unknown field `") else { return message.to_string() };
    let Some((word, expected)) = rest.split_once('`') else { return message.to_string() };
    let known = expected.split('`').skip(1).step_by(2);
    format!("{message}{}", did_you_mean(word, known))
}

/// The integer of a serde error about an integer beyond TOML's 64-bit range (``integer `N`
/// as i128``, ``invalid value: integer `N`, expected i64``, ``u64 value was too large``
/// with the value's text `written`), if the error is one.
pub fn too_large<'a>(message: &'a str, written: &'a str) -> Option<&'a str> {
    if message.contains("value was too large") {
        return Some(written.trim());
    }
    let (_, rest) = message.split_once("integer `")?;
    let (n, after) = rest.split_once('`')?;
    (after.starts_with(" as i128") || after.starts_with(", expected i64")).then_some(n)
}

/// The message for the integer `n` under `key` out of range: a seed lies in 0..=2⁶³−1,
/// any other integer in TOML's 64-bit range.
pub fn out_of_range(key: &str, n: &str) -> String {
    match key.ends_with("seed") {
        true => format!("{key}: {n} is out of range: a seed is an integer in 0..={}", i64::MAX),
        false => format!(
            "{key}: {n} is out of range: integers in a config lie in {}..={}",
            i64::MIN,
            i64::MAX
        ),
    }
}

/// A serde type error (``invalid type: string "one", expected f64``) in words:
/// `expected a number, got the string "one"`; other messages unchanged.
pub fn type_message(message: &str) -> String {
    let Some(rest) = message.strip_prefix("invalid type: ") else { return message.to_string() };
    let Some((got, expected)) = rest.rsplit_once(", expected ") else {
        return message.to_string();
    };
    let expected = match expected {
        "f64" | "f32" => "a number",
        "i64" | "u64" | "usize" | "u32" | "i32" | "u8" => "a whole number",
        "a string" | "string" | "a borrowed string" => "a string",
        "a sequence" => "a list",
        "a boolean" | "bool" => "true or false",
        other => other,
    };
    let got = match got {
        "sequence" => "a list".to_string(),
        "map" => "a table".to_string(),
        g if g.starts_with("string ") => format!("the {g}"),
        g => g.to_string(),
    };
    format!("expected {expected}, got {got}")
}

/// Optimal-string-alignment distance between `a` and `b`, over characters.
fn distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut d = vec![vec![0; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for j in 0..=b.len() {
        d[0][j] = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            d[i][j] = (d[i - 1][j] + 1).min(d[i][j - 1] + 1).min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d[i][j] = d[i][j].min(d[i - 2][j - 2] + 1);
            }
        }
    }
    d[a.len()][b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances_by_hand_and_suggestions() {
        assert_eq!(distance("kitten", "sitting"), 3);
        assert_eq!(distance("mean_nrom", "mean_norm"), 1);
        assert_eq!(distance("", "abc"), 3);
        assert_eq!(did_you_mean("lap_rlss", ["lap_rls", "lap_svm"]), " (did you mean `lap_rls`?)");
        assert_eq!(did_you_mean("xyz", ["lap_rls"]), "");
        assert_eq!(
            serde_message("unknown field `preprocesss`, expected one of `name`, `preprocess`"),
            "unknown field `preprocesss`, expected one of `name`, `preprocess` (did you mean `preprocess`?)"
        );
        assert_eq!(serde_message("invalid type"), "invalid type");
        assert_eq!(
            type_message("invalid type: string \"one\", expected f64"),
            "expected a number, got the string \"one\""
        );
        assert_eq!(
            type_message("invalid type: sequence, expected i64"),
            "expected a whole number, got a list"
        );
    }
}
