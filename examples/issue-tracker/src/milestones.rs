//! Milestones live in this service, not in the remote tracker: a derive-based resource
//! whose verbs become tools in the same catalog as the adapter's.

use std::collections::BTreeMap;
use std::sync::Mutex;

use serde::{Deserialize, Serialize};
use toolwright::resource::{Query, ResourceError};
use toolwright::{Resource, ToolSchema};

/// A release milestone that groups issues of a project.
#[derive(Debug, Clone, ToolSchema, Serialize, Deserialize)]
#[tool(resource(get, search, create, patch, delete))]
pub struct Milestone {
    /// Short identifier, e.g. `v2.1`.
    #[tool(primary_key, pattern = "^[a-z0-9.-]+$", example = "v2.1")]
    pub slug: String,
    /// Project key the milestone belongs to.
    pub project: String,
    /// What the milestone delivers.
    #[tool(min_length = 1)]
    pub title: String,
    /// Target date, `YYYY-MM-DD`.
    #[tool(format = "date")]
    pub due: Option<String>,
    /// When the milestone was created (RFC 3339), set by the service.
    #[tool(created_time)]
    pub created_at: String,
}

/// An in-memory store; a real service would use its database.
#[derive(Debug, Default)]
pub struct Milestones {
    rows: Mutex<BTreeMap<String, Milestone>>,
}

fn not_found(slug: &str) -> ResourceError {
    ResourceError::not_found(format!("no milestone `{slug}`"))
}

impl Resource for Milestones {
    type Record = Milestone;

    async fn get(&self, slug: String) -> Result<Milestone, ResourceError> {
        let rows = self.rows.lock().expect("lock");
        rows.get(&slug).cloned().ok_or_else(|| not_found(&slug))
    }

    async fn search(&self, query: Query) -> Result<Vec<Milestone>, ResourceError> {
        let rows = self.rows.lock().expect("lock");
        Ok(rows
            .values()
            .filter(|m| serde_json::to_value(m).is_ok_and(|v| query.matches(&v)))
            .cloned()
            .collect())
    }

    async fn create(&self, draft: MilestoneDraft) -> Result<Milestone, ResourceError> {
        let mut rows = self.rows.lock().expect("lock");
        if rows.contains_key(&draft.slug) {
            return Err(ResourceError::conflict(format!(
                "milestone `{}` exists",
                draft.slug
            )));
        }
        let milestone = Milestone {
            slug: draft.slug,
            project: draft.project,
            title: draft.title,
            due: draft.due,
            created_at: "2026-11-30T12:00:00Z".into(),
        };
        rows.insert(milestone.slug.clone(), milestone.clone());
        Ok(milestone)
    }

    async fn patch(&self, slug: String, patch: MilestonePatch) -> Result<Milestone, ResourceError> {
        let mut rows = self.rows.lock().expect("lock");
        let row = rows.get_mut(&slug).ok_or_else(|| not_found(&slug))?;
        if let Some(title) = patch.title {
            row.title = title;
        }
        if let Some(due) = patch.due {
            row.due = Some(due);
        }
        if let Some(project) = patch.project {
            row.project = project;
        }
        Ok(row.clone())
    }

    async fn delete(&self, slug: String) -> Result<(), ResourceError> {
        let mut rows = self.rows.lock().expect("lock");
        rows.remove(&slug).map(drop).ok_or_else(|| not_found(&slug))
    }
}
