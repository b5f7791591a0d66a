//! Which of upjet's external clients reconciles an MR, as far as the cluster shows: it decides
//! whether an external-name learned after an async create is saved without `LateInitialize`.
//!
//! upjet's Terraform CLI client (`pkg/controller/external.go`, upjet v0.x and still there for the
//! kinds a provider lists for it) writes the critical annotations itself: its `Observe` calls
//! `resource.SetCriticalAnnotations` and, when the policies hold neither `LateInitialize` nor
//! `*`, saves them with its own `kube.Update`. Its in-process clients (upjet v1 and later:
//! `external_tfpluginsdk.go`, `external_tfpluginfw.go`, the Terraform plugin SDK and framework)
//! set the external-name during `Observe` and leave the write to crossplane-runtime's
//! late-initialization update, which those policies forbid: the name is lost at the next restart.

use super::managed::ManagedResource;

/// The client upjet runs an MR's kind with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Client {
    /// The Terraform CLI client (a workspace per MR under `/tmp`).
    TerraformCli,
    /// An in-process client (Terraform plugin SDK v2 or plugin framework, no Terraform CLI).
    InProcess,
    /// Nothing read shows which.
    Unknown,
}

/// Which client upjet runs an MR with, and what shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UpjetClient {
    /// The client.
    pub client: Client,
    /// What shows it, in words; empty when nothing does.
    pub shown_by: String,
}

/// What the provider's log shows of the client for one MR: one of its lines, by client.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoggedClient {
    /// The client that logs such lines.
    pub client: Client,
    /// The line, as an excerpt.
    pub line: String,
}

impl UpjetClient {
    /// The client, from the strongest sign first: the MR's own `AsyncOperation` condition (only
    /// the CLI client writes it: its `Observe` sets Ongoing or Finished, and the in-process
    /// clients' controllers are generated with status updates off), a line of the provider's log
    /// about this MR (`Running terraform` and the workspace's lines are the CLI client's, the
    /// async tracker's and `Instance state not found in cache` the in-process clients'), then
    /// the provider's package (`package`: the image its pods run).
    pub fn of(mr: &ManagedResource, logged: Option<&LoggedClient>, package: Option<&str>) -> UpjetClient {
        if let Some(c) = mr.condition("AsyncOperation") {
            let shown_by = format!(
                "its AsyncOperation condition ({}/{}), which only upjet's Terraform CLI client writes",
                c.status, c.reason
            );
            return UpjetClient { client: Client::TerraformCli, shown_by };
        }
        if let Some(l) = logged.filter(|l| l.client != Client::Unknown) {
            return UpjetClient { client: l.client, shown_by: format!("its provider's log ({})", l.line) };
        }
        if let Some(image) = package.filter(|p| family_v1_or_later(p)) {
            let shown_by = format!(
                "its provider's package {image}: v1 or later of an upjet provider family, built on upjet v1 or later, whose kinds run in-process unless the provider lists them for the Terraform CLI"
            );
            return UpjetClient { client: Client::InProcess, shown_by };
        }
        UpjetClient::unknown()
    }

    /// Nothing shows the client.
    pub fn unknown() -> UpjetClient {
        UpjetClient { client: Client::Unknown, shown_by: String::new() }
    }
}

/// Upbound's upjet provider families: the family package and one package per service
/// (`provider-aws-sqs`).
const UPBOUND_FAMILIES: [&str; 7] = [
    "provider-aws",
    "provider-azure",
    "provider-gcp",
    "provider-azuread",
    "provider-family-aws",
    "provider-family-azure",
    "provider-family-gcp",
];

/// Whether an image is v1 or later of one of the upjet provider families that Upbound and
/// crossplane-contrib publish (`upbound/provider-aws-sqs:v1.2.0`,
/// `crossplane-contrib/provider-upjet-aws:v2.0.0`): those majors are built on upjet v1 or later.
/// An image pinned by digest, or any other provider, says nothing.
pub(crate) fn family_v1_or_later(image: &str) -> bool {
    let Some((path, tag)) = image.rsplit_once(':') else { return false };
    if path.contains('@') || tag.contains('/') {
        return false;
    }
    let mut parts = path.rsplit('/');
    let (Some(name), Some(org)) = (parts.next(), parts.next()) else { return false };
    let family = match org {
        "upbound" => UPBOUND_FAMILIES
            .iter()
            .any(|f| name == *f || name.strip_prefix(f).is_some_and(|service| service.starts_with('-'))),
        "crossplane-contrib" => name.starts_with("provider-upjet-"),
        _ => false,
    };
    let major = tag.strip_prefix('v').and_then(|v| v.split('.').next()).and_then(|m| m.parse::<u32>().ok());
    family && major.is_some_and(|m| m >= 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::Mr;

    #[test]
    fn the_package_says_v1_only_for_the_upjet_families() {
        for (image, want) in [
            ("xpkg.upbound.io/upbound/provider-aws-sqs:v1.2.0", true),
            ("xpkg.upbound.io/upbound/provider-gcp-dns:v0.37.0", false),
            ("index.docker.io/ulucinar/provider-gcp-dns:v0.39.0-6984467f", false),
            ("xpkg.crossplane.io/crossplane-contrib/provider-upjet-aws:v2.0.0", true),
            ("xpkg.upbound.io/upbound/provider-family-aws:v1.14.0", true),
            ("xpkg.upbound.io/upbound/provider-aws-sqs@sha256:0123", false),
            ("xpkg.upbound.io/crossplane-contrib/provider-kubernetes:v0.15.0", false),
            ("localhost:5000/provider-aws", false),
        ] {
            assert_eq!(family_v1_or_later(image), want, "{image}");
        }
    }

    #[test]
    fn the_strongest_sign_wins() {
        let cli_line = LoggedClient { client: Client::TerraformCli, line: "Running terraform".into() };
        let sdk_line = LoggedClient { client: Client::InProcess, line: "Async create starting...".into() };
        let v1 = Some("xpkg.upbound.io/upbound/provider-aws-sqs:v1.2.0");
        let creating = Mr::new("Queue", "q").cond("AsyncOperation", "False", "Ongoing", "").build();
        let bare = Mr::new("Queue", "q").build();
        assert_eq!(UpjetClient::of(&creating, Some(&sdk_line), v1).client, Client::TerraformCli);
        assert_eq!(UpjetClient::of(&bare, Some(&cli_line), v1).client, Client::TerraformCli);
        assert_eq!(UpjetClient::of(&bare, None, v1).client, Client::InProcess);
        assert_eq!(UpjetClient::of(&bare, Some(&sdk_line), None).client, Client::InProcess);
        assert_eq!(
            UpjetClient::of(&bare, None, Some("xpkg.upbound.io/upbound/provider-aws-sqs:v0.47.0")),
            UpjetClient::unknown()
        );
    }
}
