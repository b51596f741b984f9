//! Rendering in rustc's layout through annotate-snippets (plain text: the output goes to
//! cargo warnings, terminals and test snapshots alike).

use std::borrow::Cow;

use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};

use super::{Diagnostic, Severity};

/// Lines longer than this (bytes) are shown as a window around the finding.
const LONG_LINE: usize = 2_000;
/// Bytes shown on each side of the finding (and of its span) in such a window.
const CONTEXT: usize = 60;

/// Renders one finding as plain text, without a trailing newline.
pub fn render(d: &Diagnostic) -> String {
    render_with(d, false)
}

/// Renders one finding, coloured with ANSI escapes when `styled` (for terminals).
pub fn render_with(d: &Diagnostic, styled: bool) -> String {
    let level = match d.severity {
        Severity::Error => Level::ERROR,
        Severity::Warning => Level::WARNING,
    };
    let mut group = Group::with_title(level.primary_title(&d.message).id(d.code));
    let mut header = None;
    if let Some(loc) = &d.location {
        // Show the finding's own line(s) only, so large files render fast.
        let span = loc.file.char_span(&loc.span);
        let (first, column) = loc.file.line_col(span.start);
        let start = loc.file.offset(first, 1);
        let end = loc.file.offset(first + 1, 1);
        let end = end.max(span.end);
        let text = &loc.file.text;
        let long = end - start > LONG_LINE;
        // The excerpt shows the text from `from` on, after `lead` bytes of its own.
        let (excerpt, from, lead) = if long {
            // A minified document is one line of megabytes: laying it out for every
            // finding made reading one quadratic. Show a window around the span, and
            // give the position in the whole line separately.
            let window = loc.file.char_span(
                &(span.start.saturating_sub(CONTEXT).max(start)
                    ..(span.end.min(span.start + CONTEXT) + CONTEXT).min(end)),
            );
            let lead = if window.start > start { "..." } else { "" };
            let tail = if window.end < end { "..." } else { "" };
            let excerpt = format!("{lead}{}{tail}", &text[window.clone()]);
            (Cow::Owned(excerpt), window.start, lead.len())
        } else {
            (Cow::Borrowed(&text[start..end]), start, 0)
        };
        let span_start = (lead + span.start - from).min(excerpt.len());
        let span_end = (lead + span.end.saturating_sub(from)).clamp(span_start, excerpt.len());
        let mut annotation = AnnotationKind::Primary.span(span_start..span_end);
        if let Some(label) = &d.label {
            annotation = annotation.label(label);
        }
        // The renderer counts the column in the excerpt: a window's header is
        // corrected to the column in the whole line below.
        if long {
            let shown = excerpt[..span_start].chars().count() + 1;
            header = Some((
                format!("{}:{first}:{shown}", loc.file.path),
                format!("{}:{first}:{column}", loc.file.path),
            ));
        }
        group = group.element(
            Snippet::source(excerpt)
                .line_start(first)
                .path(&loc.file.path)
                .annotation(annotation),
        );
    }
    if let Some(help) = &d.help {
        group = group.element(Level::HELP.message(help));
    }
    let renderer = if styled {
        Renderer::styled()
    } else {
        Renderer::plain()
    };
    let rendered = renderer.render(&[group]).trim_end().to_owned();
    match header {
        Some((shown, real)) => rendered.replacen(&shown, &real, 1),
        None => rendered,
    }
}
