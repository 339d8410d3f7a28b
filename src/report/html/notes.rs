//! Markdown (the reproduction notes, `summary.md`, the times table) as HTML: raw HTML in the
//! source is shown as text, links are kept only where they lead somewhere in the site or
//! outside it (web addresses), images become their alt text.

use pulldown_cmark::{CowStr, Event, HeadingLevel, Options, Parser, Tag, TagEnd, html};

/// The HTML of `md`, headings `shift` levels lower (to sit under a page's own); `target`
/// maps a link's destination to the site's (None: text only).
pub fn markdown(md: &str, shift: usize, target: &dyn Fn(&str) -> Option<String>) -> String {
    let mut kept = Vec::new();
    let events = Parser::new_ext(md, Options::ENABLE_TABLES).filter_map(|e| match e {
        Event::Html(s) | Event::InlineHtml(s) => Some(Event::Text(s)),
        Event::Start(Tag::Link { link_type, dest_url, title, id }) => {
            let to = target(&dest_url);
            kept.push(to.is_some());
            to.map(|to| {
                Event::Start(Tag::Link { link_type, dest_url: CowStr::from(to), title, id })
            })
        }
        Event::End(TagEnd::Link) => kept.pop().unwrap_or(false).then_some(e),
        Event::Start(Tag::Image { .. }) | Event::End(TagEnd::Image) => None,
        Event::Start(Tag::Heading { level, id, classes, attrs }) => {
            Some(Event::Start(Tag::Heading { level: lower(level, shift), id, classes, attrs }))
        }
        Event::End(TagEnd::Heading(level)) => {
            Some(Event::End(TagEnd::Heading(lower(level, shift))))
        }
        e => Some(e),
    });
    let mut out = String::new();
    html::push_html(&mut out, events);
    // Tables of notes can be wider than the page.
    out.replace("<table>", "<div class=\"wide\"><table>").replace("</table>", "</table></div>")
}

/// `level` moved `shift` levels down, at most to h6.
fn lower(level: HeadingLevel, shift: usize) -> HeadingLevel {
    HeadingLevel::try_from((level as usize + shift).min(6)).unwrap_or(HeadingLevel::H6)
}

/// Web addresses stay links; everything else is left to `site` (a file of the site).
pub fn web_or(dest: &str, site: &dyn Fn(&str) -> Option<String>) -> Option<String> {
    if dest.starts_with("https://") || dest.starts_with("http://") {
        Some(dest.to_string())
    } else {
        site(dest)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_html_is_text_and_unknown_links_are_text() {
        let md = "# T\n\nSee <script>x()</script> and [a](../x.md), [b](qlds.md#t), ![i](p.png)\n\n| a | b |\n|---|---|\n| 1 | <b> |\n";
        let site = |d: &str| d.strip_suffix(".md#t").map(|s| format!("notes-{s}.html"));
        let h = markdown(md, 1, &|d| web_or(d, &site));
        assert!(h.starts_with("<h2>T</h2>"), "{h}");
        assert!(h.contains("&lt;script&gt;x()&lt;/script&gt;"), "{h}");
        assert!(!h.contains("<script"));
        assert!(h.contains(" and a, <a href=\"notes-qlds.html\">b</a>, i"), "{h}");
        assert!(
            h.contains("<div class=\"wide\"><table>") && h.contains("<td>&lt;b&gt;</td>"),
            "{h}"
        );
    }
}
