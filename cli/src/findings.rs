//! `check`'s readiness findings, grouped: the same advice for several tools (one
//! required `project` input in five tools) is one warning naming the tools, not five;
//! and located at `file:line:col` for OpenAPI documents too, whose findings the readiness
//! report places with a JSON pointer (`spec.json#/paths/~1pets/get`).

use std::collections::HashMap;

use toolwright_codegen::Analysis;
use toolwright_codegen::contract::readiness::Finding;

/// One piece of advice and every tool it applies to, in the order first met.
pub struct Group<'a> {
    pub code: &'static str,
    pub message: &'a str,
    pub tools: Vec<&'a str>,
    /// Where the first tool is declared.
    pub source: Option<String>,
}

/// Groups `findings` by code and message, keeping the order of first appearance;
/// `positions` (tool → `file:line:col`) replaces a finding's pointer where it has one.
pub fn group<'a>(
    findings: impl IntoIterator<Item = &'a Finding>,
    positions: &HashMap<String, String>,
) -> Vec<Group<'a>> {
    let mut groups: Vec<Group<'a>> = Vec::new();
    for finding in findings {
        match groups
            .iter_mut()
            .find(|g| g.code == finding.code && g.message == finding.message)
        {
            Some(group) => group.tools.push(&finding.tool),
            None => groups.push(Group {
                code: finding.code,
                message: &finding.message,
                tools: vec![&finding.tool],
                source: positions
                    .get(&finding.tool)
                    .cloned()
                    .or_else(|| finding.source.clone()),
            }),
        }
    }
    groups
}

/// `file:line:col` of each OpenAPI operation (the tools whose operation carries no
/// location of its own), from one more parse of each such document: the same positions
/// the inspection report and the drift check use.
pub fn positions(analysis: &Analysis) -> HashMap<String, String> {
    let mut out = HashMap::new();
    for api in &analysis.apis {
        let Some(file) = api.source.as_ref().map(|l| &l.file) else {
            continue;
        };
        if api.operations.iter().all(|op| op.source.is_some()) {
            continue;
        }
        let Some(raw) = toolwright_codegen::source::openapi::raw(file) else {
            continue;
        };
        for op in api.operations.iter().filter(|op| op.source.is_none()) {
            let key = (op.path.clone(), op.method.as_str().to_ascii_lowercase());
            if let Some(span) = raw.operations.get(&key) {
                let (line, col) = file.line_col(span.start);
                out.insert(op.name.clone(), format!("{}:{line}:{col}", file.path));
            }
        }
    }
    out
}

impl Group<'_> {
    /// rustc-style: the advice, the tools it concerns, where the first is declared.
    pub fn render(&self) -> String {
        let mut text = format!("warning[readiness::{}]: {}\n", self.code, self.message);
        match self.tools.as_slice() {
            [one] => text.push_str(&format!("  = tool: `{one}`\n")),
            many => text.push_str(&format!(
                "  = {} tools: {}\n",
                many.len(),
                many.iter()
                    .map(|t| format!("`{t}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        }
        if let Some(source) = &self.source {
            let first = if self.tools.len() > 1 {
                " (the first)"
            } else {
                ""
            };
            text.push_str(&format!("  --> {source}{first}\n"));
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finding(code: &'static str, tool: &str, message: &str) -> Finding {
        Finding {
            severity: "warning",
            code,
            tool: tool.into(),
            message: message.into(),
            source: Some(format!("a.md:{}:1", tool.len())),
        }
    }

    #[test]
    fn the_same_advice_for_several_tools_is_one_group() {
        let findings = [
            finding("unfillable", "get_issue", "`project` has no producer"),
            finding("permissive", "get_issue", "`body` takes any value"),
            finding("unfillable", "close_issue", "`project` has no producer"),
            finding("unfillable", "close_issue", "`number` has no producer"),
        ];
        let groups = group(&findings, &HashMap::new());
        assert_eq!(groups.len(), 3);
        assert_eq!(groups[0].tools, ["get_issue", "close_issue"]);
        assert_eq!(
            groups[0].render(),
            "warning[readiness::unfillable]: `project` has no producer\n  = 2 tools: `get_issue`, `close_issue`\n  --> a.md:9:1 (the first)\n"
        );
        assert_eq!(
            groups[2].render(),
            "warning[readiness::unfillable]: `number` has no producer\n  = tool: `close_issue`\n  --> a.md:11:1\n"
        );
    }
}
