//! `-o html`: one self-contained page (inline CSS, JS and SVG; nothing fetched), for the
//! post-mortem document after an incident: `doctor`'s findings as a sortable, filterable table
//! under the summary, and `history`'s timeline as a picture with the evidence below it.
//!
//! Everything the page shows comes from the cluster, a snapshot or a log, so every text is
//! escaped ([`escape`]) before it is written, attribute values included. The page's own script
//! counts errors in `data-js-errors` on the root element (a first script installs
//! `window.onerror`) and sets `data-js-ready` once it has run, so a headless browser's DOM dump
//! shows whether the page ran cleanly.

pub mod doctor;
pub mod history;

use super::markup::{self, Markup};
use std::io::{self, Write};

/// The page's style sheet.
const STYLE: &str = include_str!("page.css");
/// The error counter, run before any other script of the page.
const CATCH: &str = include_str!("catch.js");

/// Text or an attribute value, escaped for HTML (`output::markup`).
pub fn escape(s: &str) -> String {
    markup::escape(s, Markup::Html)
}

/// Writes one page: `title` (escaped here), `body` (already escaped HTML) and the page's own
/// script, with the style sheet and the error counter inline.
pub(super) fn page(out: &mut dyn Write, title: &str, body: &str, script: &str) -> io::Result<()> {
    write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\
         <title>{}</title><style>{STYLE}</style><script>{CATCH}</script></head>\n<body>\n{body}\n<script>{script}</script>\n</body></html>\n",
        escape(title)
    )
}
