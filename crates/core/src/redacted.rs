//! Whether an ID a provider logged names the object an MR tracks, when the log masked part of it.
//! Its own module because both the rules and the change log's reading (`domain::changelog`, which
//! the rules' evidence holds) compare IDs so: in either, it would make the two import each other.

/// Whether a logged ID names the same cloud object as the ID an MR tracks. upjet's Terraform-CLI
/// mode replaces ProviderConfig values in Terraform output with `REDACTED` (pkg/terraform/store.go
/// `filterSensitiveInformation`), so `projects/REDACTED/managedZones/z/rrsets/a./A` must match
/// `projects/my-project/managedZones/z/rrsets/a./A`: each `REDACTED` matches one or more
/// characters of `current`, everything else must be equal. The log reader (evidence) and the
/// rules share this one definition.
pub fn same_id(logged: &str, current: &str) -> bool {
    if logged == current {
        return true;
    }
    if !logged.contains("REDACTED") {
        return false;
    }
    let parts: Vec<&str> = logged.split("REDACTED").collect();
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !current.starts_with(first) || !current[first.len()..].ends_with(last) {
        return false;
    }
    if current.len() < first.len() + last.len() {
        return false;
    }
    let mut rest = &current[first.len()..current.len() - last.len()];
    // Middle literal parts must appear in order, each wildcard taking ≥ 1 char.
    for mid in &parts[1..parts.len() - 1] {
        if rest.is_empty() {
            return false;
        }
        let search = &rest[rest.char_indices().nth(1).map_or(rest.len(), |(i, _)| i)..];
        match search.find(mid) {
            Some(pos) => {
                let start = rest.len() - search.len() + pos;
                rest = &rest[start + mid.len()..];
            }
            None => return false,
        }
    }
    !rest.is_empty()
}

#[cfg(test)]
mod tests {
    use super::same_id;

    const CASES: &[(&str, &str, bool)] = &[
        ("vpc-1", "vpc-1", true),
        ("vpc-1", "vpc-2", false),
        ("projects/REDACTED/zones/z", "projects/p1/zones/z", true),
        ("projects/REDACTED/zones/z", "projects//zones/z", false),
        ("a/REDACTED/b/REDACTED/c", "a/x/b/y/c", true),
        ("a/REDACTED/b/REDACTED/c", "a/x/c", false),
    ];

    #[test]
    fn redacted_ids_match_one_or_more_characters() {
        for (logged, current, want) in CASES {
            assert_eq!(same_id(logged, current), *want, "{logged} vs {current}");
        }
    }
}
