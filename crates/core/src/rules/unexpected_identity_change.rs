//! `UnexpectedIdentityChange`: every Observe fails with Terraform's "Unexpected Identity Change"
//! after a failed create, until the provider restarts, while the cloud object exists.

use super::facts::Facts;
use crate::finding::{Code, Finding};
use crate::managed::keys;
use crate::shell::ShellCommand;

/// The summary terraform-plugin-framework gives the diagnostic when a resource's read returns
/// another identity than the one it was sent (`ReadResource`'s identity check); upjet formats a
/// fatal diagnostic as `Summary: Detail` under `read resource request failed`, and the managed
/// reconciler puts it in Synced behind `observe failed: `.
pub(crate) const UNEXPECTED_IDENTITY_CHANGE: &str = "Unexpected Identity Change";

/// provider-upjet-aws#2135 and #2128: upjet's plugin-framework client (resource identity, upjet
/// v2.3.0) kept the partial identity a failed async create returned (null identifier fields) in
/// its in-memory tracker and sent it as `CurrentIdentity` on every later `ReadResource`; once the
/// object could be read, its real identity differed and the read failed. Only the tracker holds
/// the stale identity, so a restart of the provider's pod clears it (upjet rebuilds its state from
/// the external-name and `status.atProvider`); upjet#698 stopped storing a failed create's
/// identity, shipped for these resources in provider-upjet-aws v2.7.0. A restart rebuilds from the
/// external-name: an MR without one whose ID the cloud assigns is created again after it.
pub(super) fn check(facts: &Facts) -> Option<Finding> {
    let synced = facts.synced_message().filter(|m| m.contains(UNEXPECTED_IDENTITY_CHANGE))?;
    let mr = facts.mr;
    let provider = facts.evidence.and_then(|e| e.provider_starts.as_ref()).map(|s| s.provider.as_str());
    let pods = ShellCommand::kubectl("delete").word("pods").word("-A").word("-l");
    let next = match provider {
        Some(p) => pods.arg(format!("pkg.crossplane.io/provider={p}")),
        None => pods.word("pkg.crossplane.io/provider=PROVIDER").comment_with("the provider serving", mr.group()),
    };
    let unnamed = match mr.external_name() {
        Some(_) => "",
        None => {
            "; the external-name is empty: make sure it names the cloud object before the restart, since upjet rebuilds its state from it and a provider-assigned ID left out is created again"
        }
    };
    let message = format!(
        "every Observe fails with Terraform's \"{UNEXPECTED_IDENTITY_CHANGE}\" although the cloud object exists: upjet kept the partial resource identity of a failed create in the provider's memory and sends it on every read (provider-upjet-aws#2135, #2128), so nothing changes until the provider's pod restarts; restart it, and upgrade the provider (provider-upjet-aws v2.7.0 no longer keeps a failed create's identity){unnamed}"
    );
    Some(
        Finding::new(Code::UnexpectedIdentityChange, message, next)
            .with("synced", first_line(synced))
            .with_opt(keys::EXTERNAL_NAME, mr.external_name())
            .with_opt("atProvider.id", mr.at_provider_id.clone())
            .with_opt("provider", provider),
    )
}

/// The diagnostic's first line: its detail goes on over several (the identities compared).
fn first_line(message: &str) -> &str {
    message.lines().next().unwrap_or(message)
}

#[cfg(test)]
mod tests {
    use super::super::cases::*;
    use crate::finding::Code::*;
    use crate::rules::{MrEvidence, ProviderStarts, findings_with};
    use crate::testing::Mr;

    /// upjet `pkg/controller/external_tfpluginfw.go` `readState`: `errors.Wrap(fatalDiags, "read
    /// resource request failed")` of `getFatalDiagnostics` (`Summary: Detail`); crossplane-runtime
    /// wraps Observe's error as `observe failed: `. The detail, from terraform-plugin-framework's
    /// read, as provider-upjet-aws#2135 and hashicorp/terraform-provider-aws#44240 quote it.
    const SYNCED: &str = "observe failed: read resource request failed: Unexpected Identity Change: During the read operation, the Terraform Provider unexpectedly returned a different identity then the previously stored one.\n\nThis is always a problem with the provider and should be reported to the provider developer.\n\nCurrent Identity: cty.ObjectVal(map[string]cty.Value{\"account_id\":cty.StringVal(\"123\"), \"id\":cty.NullVal(cty.String), \"region\":cty.StringVal(\"us-east-1\")})\n\nNew Identity: cty.ObjectVal(map[string]cty.Value{\"account_id\":cty.StringVal(\"123\"), \"id\":cty.StringVal(\"sgr-0123456789abcdef0\"), \"region\":cty.StringVal(\"us-east-1\")})";

    fn stuck() -> Mr {
        base().cond("Ready", "False", "Creating", "").cond("Synced", "False", "ReconcileError", SYNCED)
    }

    const CASES: &[Case] = &[
        ("observe fails with the identity change", stuck, &[UnexpectedIdentityChange]),
        (
            "another observe failure",
            || {
                base().cond("Ready", "False", "Creating", "").cond(
                    "Synced",
                    "False",
                    "ReconcileError",
                    "observe failed: cannot read resource: timeout",
                )
            },
            &[],
        ),
        ("healthy", || base().healthy(), &[]),
    ];

    #[test]
    fn table() {
        check_cases(CASES);
    }

    #[test]
    fn it_names_the_diagnostic_the_restart_and_the_upgrade() {
        let mr = stuck().build();
        let f = findings_with(&mr, None, at()).into_iter().find(|f| f.code == UnexpectedIdentityChange).unwrap();
        assert!(f.message.contains("\"Unexpected Identity Change\""), "{}", f.message);
        assert!(f.message.contains("provider-upjet-aws v2.7.0"), "{}", f.message);
        assert!(f.message.contains("restart"), "{}", f.message);
        assert!(!f.message.contains("external-name is empty"), "it has one: {}", f.message);
        assert_eq!(
            f.evidence["synced"],
            "observe failed: read resource request failed: Unexpected Identity Change: During the read operation, the Terraform Provider unexpectedly returned a different identity then the previously stored one."
        );
        assert!(f.next.starts_with("kubectl delete pods -A -l pkg.crossplane.io/provider=PROVIDER"), "{}", f.next);
        assert_eq!(f.severity, crate::finding::Severity::Error);

        let starts = MrEvidence {
            provider_starts: Some(ProviderStarts {
                provider: "provider-aws-ec2".into(),
                starts: Vec::new(),
                package: None,
            }),
            ..MrEvidence::default()
        };
        let f =
            findings_with(&mr, Some(&starts), at()).into_iter().find(|f| f.code == UnexpectedIdentityChange).unwrap();
        assert_eq!(f.next, "kubectl delete pods -A -l pkg.crossplane.io/provider=provider-aws-ec2");

        let unnamed =
            Mr::new("SecurityGroupIngressRule", "sgr").cond("Synced", "False", "ReconcileError", SYNCED).build();
        let f = findings_with(&unnamed, None, at()).into_iter().find(|f| f.code == UnexpectedIdentityChange).unwrap();
        assert!(f.message.contains("the external-name is empty"), "{}", f.message);
    }
}
