//! Comparing a logged ID with the live external-name when upjet redacted part of it.

/// Whether a logged ID denotes the same cloud object as the current external-name.
/// Exists because upjet's CLI mode replaces ProviderConfig values in Terraform output
/// with `REDACTED` (store.go `filterSensitiveInformation`), so
/// `projects/REDACTED/managedZones/z/rrsets/a./A` must match
/// `projects/my-project/managedZones/z/rrsets/a./A`. Each `REDACTED` matches any
/// non-empty text; everything else must be equal.
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
