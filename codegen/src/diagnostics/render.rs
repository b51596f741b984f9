//! Rendering in rustc's layout through annotate-snippets (plain text: the output goes to
//! cargo warnings, terminals and test snapshots alike).

use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};

use super::{Diagnostic, Severity};

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
    if let Some(loc) = &d.location {
        // Show the finding's own line(s) only, so large files render fast.
        let span = loc.file.char_span(&loc.span);
        let (first, _) = loc.file.line_col(span.start);
        let start = loc.file.offset(first, 1);
        let end = loc.file.offset(first + 1, 1);
        let end = end.max(span.end);
        let excerpt = &loc.file.text[start..end];
        let span_start = span.start - start;
        let span_end = (span.end - start).clamp(span_start, excerpt.len());
        let mut annotation = AnnotationKind::Primary.span(span_start..span_end);
        if let Some(label) = &d.label {
            annotation = annotation.label(label);
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
    renderer.render(&[group]).trim_end().to_owned()
}
