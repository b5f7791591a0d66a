//! Other MRs that already track an ID, for the duplicate guardrail.

use std::collections::HashMap;
use std::sync::Arc;
use upjet_cluster::connect::Connection;
use upjet_cluster::kinds::ApiKind;
use upjet_cluster::scan::{self, ScanOptions};
use upjet_core::managed::ManagedResource;

/// Other MRs of the given kinds by external-name (for the duplicate guardrail), best effort.
pub(super) async fn external_names(
    conn: &Arc<Connection>,
    kinds: Vec<ApiKind>,
) -> (HashMap<String, Vec<ManagedResource>>, Vec<String>) {
    let opts = ScanOptions { namespace: None, label_selector: None, page_size: 500, concurrency: 4 };
    let results = scan::scan(conn.clone(), kinds, opts, |mr| mr.external_name().is_some().then_some(mr), |_| {}).await;
    let mut by_name: HashMap<String, Vec<ManagedResource>> = HashMap::new();
    let mut problems = Vec::new();
    for r in results {
        if let Some(e) = r.error {
            problems.push(format!("{}: {e}", r.kind.resource_name()));
        }
        for mr in r.kept {
            if let Some(n) = mr.external_name().map(str::to_owned) {
                by_name.entry(n).or_default().push(mr);
            }
        }
    }
    (by_name, problems)
}
