//! HTML building blocks of the report site: escaping, the page shell with its inline style,
//! tables and the colour of a comparison with the paper.

/// `s` with `& < > " '` escaped: safe as element text and as a quoted attribute value.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The whole style sheet, inline in every page (no file to lose, nothing fetched).
const STYLE: &str = "body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',sans-serif;\
margin:0 auto;max-width:1250px;padding:0 1.2em 3em;color:#1d232a;line-height:1.45;background:#fff}\
h1{font-size:1.6em;margin:.6em 0 .3em}h2{font-size:1.3em;margin-top:1.6em;border-bottom:1px solid #d5dae0}\
h3{font-size:1.05em;margin-top:1.2em}nav{padding:.6em 0;border-bottom:1px solid #d5dae0;font-size:.95em}\
a{color:#0b5cad}code{background:#f1f3f5;padding:0 .2em;border-radius:3px;font-size:.92em}\
.wide{overflow-x:auto;margin:.5em 0}table{border-collapse:collapse;font-size:.88em;margin:.2em 0}\
th,td{border:1px solid #cfd6dd;padding:.25em .5em;text-align:left;vertical-align:top}\
th{background:#eef1f4}td:first-child,th:first-child{white-space:nowrap}td.num{text-align:right;white-space:nowrap}\
td small{color:#3d4650;display:block}.legend,.stamp{color:#4a545e;font-size:.85em;max-width:60em}\
.ok{background:#d7f0d2}.near{background:#fdf0c4}.far{background:#f7d4d0}.none{background:#f3f4f6}\
.chosen{outline:2px solid #1f6feb;outline-offset:-2px;font-weight:600}\
.swatch{display:inline-block;padding:0 .5em;border:1px solid #cfd6dd;margin-right:.4em}\
pre{background:#f6f8fa;border:1px solid #d5dae0;padding:.7em;overflow-x:auto;font-size:.85em;line-height:1.35}\
img{max-width:100%;height:auto;border:1px solid #e1e5e9}figure{margin:0}\
.gallery{display:grid;grid-template-columns:repeat(auto-fill,minmax(560px,1fr));gap:1.2em;margin:1em 0}\
figcaption{font-size:.85em;color:#4a545e}dl{display:grid;grid-template-columns:max-content auto;gap:.2em 1em}\
dt{font-weight:600}dd{margin:0}details{margin:.4em 0}summary{cursor:pointer;color:#0b5cad}";

/// A whole page: `title`, a navigation line (except on the index) and `body`.
pub fn page(title: &str, body: &str) -> String {
    let nav = if title == INDEX_TITLE {
        String::new()
    } else {
        "<nav><a href=\"index.html\">Index</a> · <a href=\"scorecard.html\">Reproduction \
         scorecard</a> · <a href=\"figures.html\">Other figures</a></nav>\n"
            .to_string()
    };
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n{nav}<h1>{}</h1>\n{body}\n</body>\n</html>\n",
        esc(title),
        esc(title)
    )
}

/// The index page's title (the one page without a navigation line).
pub const INDEX_TITLE: &str = "sslab results";

/// A link to a file of the site (`href` relative, escaped here) with plain `text`.
pub fn link(href: &str, text: &str) -> String {
    format!("<a href=\"{}\">{}</a>", esc(href), esc(text))
}

/// A table inside a horizontally scrolling box: header texts (escaped here) and rows given
/// as their cells' HTML (`<td>…</td>` each).
pub fn table(header: &[&str], rows: &[String]) -> String {
    let head: String = header.iter().map(|h| format!("<th>{}</th>", esc(h))).collect();
    let body: String = rows.iter().map(|r| format!("<tr>{r}</tr>\n")).collect();
    format!("<div class=\"wide\"><table>\n<tr>{head}</tr>\n{body}</table></div>\n")
}

/// Plain text as one table cell.
pub fn td(text: &str) -> String {
    format!("<td>{}</td>", esc(text))
}

/// The colour class of our cell against the paper's: `ok` within 2 of the paper's std (ours
/// where the paper gives none), `near` within 4, `far` beyond, `none` when not comparable.
pub fn tier(z: Option<f64>) -> &'static str {
    match z.map(f64::abs) {
        Some(a) if a <= 2.0 => "ok",
        Some(a) if a <= 4.0 => "near",
        Some(_) => "far",
        None => "none",
    }
}

/// The legend of the comparison colours.
pub fn tier_legend() -> String {
    "<p class=\"legend\"><span class=\"swatch ok\">within 2 std</span><span class=\"swatch near\">\
     2–4 std</span><span class=\"swatch far\">beyond 4 std</span><span class=\"swatch none\">not \
     comparable</span> distance (ours − paper) in the paper's std, in ours where the paper gives \
     none.</p>\n"
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped_for_elements_and_attributes() {
        assert_eq!(
            esc("<script>alert('x&y')</script>\""),
            "&lt;script&gt;alert(&#39;x&amp;y&#39;)&lt;/script&gt;&quot;"
        );
        assert_eq!(link("a b.html", "<b>"), "<a href=\"a b.html\">&lt;b&gt;</a>");
        assert_eq!(
            [tier(Some(-1.9)), tier(Some(3.0)), tier(Some(9.0)), tier(None)],
            ["ok", "near", "far", "none"]
        );
        assert!(page("<x>", "").contains("<title>&lt;x&gt;</title>"));
    }
}
