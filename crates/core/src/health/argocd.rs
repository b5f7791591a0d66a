//! The Argo CD health check: one Lua script for every upjet group, as the `argocd-cm` entry that
//! installs it (`resource.customizations`, the only form of key that takes a wildcard group).

use crate::reconcile_timeout::ReconcileTimeout;

/// The Lua health script, kept as a file of its own so that it can be reviewed as Lua.
pub(crate) const HEALTH_LUA: &str = include_str!("argocd.lua");

#[cfg(test)]
/// The group every upjet provider's managed kinds end in (`ec2.aws.upbound.io`,
/// `ec2.aws.m.upbound.io`, …): Argo CD's built-in check covers it as `_.upbound.io/_`.
pub(crate) const DEFAULT_GROUP: &str = "*.upbound.io";

/// The `argocd-cm` key whose value maps `GROUP/KIND` globs to customizations. Argo CD's
/// `resource.customizations.health.<group>_<kind>` keys cannot hold a `*` (a ConfigMap key is
/// `[-._a-zA-Z0-9]+`), so a wildcard group needs this one.
pub(crate) const CUSTOMIZATIONS_KEY: &str = "resource.customizations";

/// Why a group glob was refused.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum GroupError {
    /// Empty, or holding a character no API group has (a `/` would also split Argo CD's key).
    #[error("{0:?} is not an API group or a glob of one (letters, digits, '.', '-' and '*')")]
    Invalid(String),
}

/// The script's line that holds the providers' reconcile timeout (upjet's by default).
const TIMEOUT_LINE: &str = "local RECONCILE_TIMEOUT_SECONDS = 180";

/// The Lua health script for providers whose reconcilers time out after `timeout`.
pub fn script(timeout: ReconcileTimeout) -> String {
    HEALTH_LUA.replacen(TIMEOUT_LINE, &format!("local RECONCILE_TIMEOUT_SECONDS = {}", timeout.secs()), 1)
}

/// The value of [`CUSTOMIZATIONS_KEY`]: each group glob (every kind of it, `GROUP/*`) mapped to
/// the Lua script (for providers whose reconcilers time out after `timeout`). The keys are
/// quoted: YAML reads a key that begins with `*` as an alias.
pub fn customizations(groups: &[String], timeout: ReconcileTimeout) -> Result<String, GroupError> {
    let lua = script(timeout);
    let mut text = String::new();
    for group in groups {
        let valid =
            !group.is_empty() && group.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '*'));
        if !valid {
            return Err(GroupError::Invalid(group.clone()));
        }
        text.push_str(&format!("\"{group}/*\":\n  health.lua: |\n"));
        for line in lua.lines() {
            if line.is_empty() {
                text.push('\n');
            } else {
                text.push_str(&format!("    {line}\n"));
            }
        }
    }
    Ok(text)
}

/// The `argocd-cm` data entry as it is written under `data:`, a block scalar.
pub fn data_entry(customizations: &str) -> String {
    let mut text = format!("{CUSTOMIZATIONS_KEY}: |\n");
    for line in customizations.lines() {
        if line.is_empty() {
            text.push('\n');
        } else {
            text.push_str(&format!("  {line}\n"));
        }
    }
    text
}

/// The ConfigMap that carries the entry, for `kubectl patch configmap argocd-cm -n NS --type
/// merge --patch-file`: a merge patch of it sets this one key and leaves the others alone.
pub fn config_map(namespace: &str, customizations: &str) -> serde_json::Value {
    serde_json::json!({
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": "argocd-cm", "namespace": namespace},
        "data": {CUSTOMIZATIONS_KEY: customizations},
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_script_carries_the_reconcile_timeout_it_is_printed_with() {
        assert!(HEALTH_LUA.contains(TIMEOUT_LINE), "the line the timeout replaces");
        assert_eq!(script(ReconcileTimeout::UPJET), HEALTH_LUA);
        let one_minute = script(ReconcileTimeout::from_secs(60));
        assert!(one_minute.contains("local RECONCILE_TIMEOUT_SECONDS = 60\n") && !one_minute.contains(TIMEOUT_LINE));
    }

    use super::*;
    use crate::placeholder::KNOWN;

    /// The script's placeholder table is a copy (the sandbox cannot be handed Rust data): it must
    /// list exactly the stubs the rule book knows.
    #[test]
    fn the_script_lists_every_known_placeholder_and_no_other() {
        let start = HEALTH_LUA.find("local PLACEHOLDERS = {").expect("the table");
        let table = &HEALTH_LUA[start..start + HEALTH_LUA[start..].find("\n}").expect("its end")];
        let listed: Vec<&str> = table.split("[\"").skip(1).map(|s| &s[..s.find('"').expect("quote")]).collect();
        let known: Vec<&str> = KNOWN.iter().map(|p| p.value).collect();
        assert_eq!(listed, known);
    }

    /// The script's deadline is upjet's, the one the rules judge with.
    #[test]
    fn the_script_uses_upjets_async_deadline() {
        let line = format!("local ASYNC_TIMEOUT_SECONDS = {}", crate::create_marks::ASYNC_TIMEOUT_SECS);
        assert!(HEALTH_LUA.contains(&line), "{line}");
    }

    #[test]
    fn one_quoted_glob_key_per_group_with_the_script_indented_under_it() {
        let text = customizations(&["*.upbound.io".into(), "*.edixos.io".into()], ReconcileTimeout::UPJET).unwrap();
        assert!(text.starts_with("\"*.upbound.io/*\":\n  health.lua: |\n    -- Health of"), "{text}");
        assert!(text.contains("\n\"*.edixos.io/*\":\n  health.lua: |\n"), "{text}");
        assert_eq!(text.matches("local os = require(\"os\")").count(), 2);
    }

    #[test]
    fn a_group_with_a_slash_or_a_space_is_refused() {
        for bad in ["", "aws.upbound.io/v1", "a b", "\"x\""] {
            assert_eq!(customizations(&[bad.into()], ReconcileTimeout::UPJET), Err(GroupError::Invalid(bad.into())));
        }
    }

    /// What `-o yaml` prints must read back as the same script, whatever YAML makes of blocks.
    #[test]
    fn the_entry_and_the_config_map_read_back_as_the_script() {
        let c = customizations(&[DEFAULT_GROUP.into()], ReconcileTimeout::UPJET).unwrap();
        let entry: serde_json::Value = serde_saphyr::from_str(&data_entry(&c)).unwrap();
        let map: serde_json::Value = serde_saphyr::from_str(entry[CUSTOMIZATIONS_KEY].as_str().unwrap()).unwrap();
        assert_eq!(map["*.upbound.io/*"]["health.lua"].as_str(), Some(HEALTH_LUA));
        let cm: serde_json::Value =
            serde_saphyr::from_str(&serde_saphyr::to_string(&config_map("argocd", &c)).unwrap()).unwrap();
        assert_eq!(cm["data"][CUSTOMIZATIONS_KEY].as_str(), Some(c.as_str()));
    }
}
