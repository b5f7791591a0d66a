//! Whether a cluster can enforce what `guard` prints, from its API server's `/version`:
//! ValidatingAdmissionPolicy is served as `admissionregistration.k8s.io/v1` from Kubernetes
//! v1.30, MutatingAdmissionPolicy (`--mutate`) from v1.36. An older server refuses the objects
//! (or, worse, a server where the API is off serves nothing), so `guard` says so before printing.

use std::fmt;

/// The oldest Kubernetes release that serves ValidatingAdmissionPolicy v1.
pub(crate) const VALIDATING: (u32, u32) = (1, 30);
/// The oldest release that serves MutatingAdmissionPolicy v1 (`--mutate`).
pub(crate) const MUTATING: (u32, u32) = (1, 36);

/// A server's release, as its `/version` says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerVersion {
    /// Major release.
    pub major: u32,
    /// Minor release.
    pub minor: u32,
    /// `gitVersion` as printed (`v1.29.4-eks-036c24b`), to name it.
    pub text: String,
}

/// The leading digits of a version field: managed clusters write `30+` (EKS, GKE).
fn number(s: &str) -> Option<u32> {
    let digits: String = s.trim().trim_start_matches('v').chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

impl ServerVersion {
    /// Reads `/version`'s fields; `major`/`minor` first, else the `gitVersion` (`v1.30.2`).
    pub fn parse(major: &str, minor: &str, git_version: &str) -> Option<ServerVersion> {
        let text = git_version.trim().to_string();
        let from_git = || {
            let mut parts = text.trim_start_matches('v').split('.');
            Some((number(parts.next()?)?, number(parts.next()?)?))
        };
        let (major, minor) = match (number(major), number(minor)) {
            (Some(a), Some(b)) => (a, b),
            _ => from_git()?,
        };
        let text = if text.is_empty() { format!("v{major}.{minor}") } else { text };
        Some(ServerVersion { major, minor, text })
    }

    /// Why this server cannot enforce the printed objects (`mutate`: with `--mutate`'s
    /// MutatingAdmissionPolicy), or `None`.
    pub fn refusal(&self, mutate: bool) -> Option<String> {
        let at = (self.major, self.minor);
        if at < VALIDATING {
            return Some(format!(
                "the cluster runs Kubernetes {self}: ValidatingAdmissionPolicy (admissionregistration.k8s.io/v1) needs v{}.{} or later; pass --from CRDS_DIR to print the policies anyway",
                VALIDATING.0, VALIDATING.1
            ));
        }
        if mutate && at < MUTATING {
            return Some(format!(
                "the cluster runs Kubernetes {self}: --mutate's MutatingAdmissionPolicy (admissionregistration.k8s.io/v1) needs v{}.{} or later; drop --mutate (the validating policies refuse such a create instead)",
                MUTATING.0, MUTATING.1
            ));
        }
        None
    }
}

impl fmt::Display for ServerVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn managed_clusters_versions_are_read_and_judged() {
        // (major, minor, gitVersion) → (major, minor, refused without --mutate, refused with it)
        let cases = [
            ("1", "36", "v1.36.0", Some((1, 36, false, false))),
            ("1", "30+", "v1.30.2-eks-1552ad0", Some((1, 30, false, true))),
            ("1", "29+", "v1.29.8-gke.1031000", Some((1, 29, true, true))),
            ("1", "35", "v1.35.1", Some((1, 35, false, true))),
            ("", "", "v1.31.4+k3s1", Some((1, 31, false, true))),
            ("2", "0", "", Some((2, 0, false, false))),
            ("", "", "", None),
            ("x", "y", "nonsense", None),
        ];
        for (major, minor, git, want) in cases {
            let got = ServerVersion::parse(major, minor, git)
                .map(|v| (v.major, v.minor, v.refusal(false).is_some(), v.refusal(true).is_some()));
            assert_eq!(got, want, "{major} {minor} {git}");
        }
        let old = ServerVersion::parse("1", "29+", "v1.29.8-gke.1031000").unwrap();
        let why = old.refusal(false).unwrap();
        assert!(why.contains("v1.29.8-gke.1031000") && why.contains("v1.30") && why.contains("--from"), "{why}");
        let why = ServerVersion::parse("1", "33", "").unwrap().refusal(true).unwrap();
        assert!(why.contains("Kubernetes v1.33") && why.contains("drop --mutate"), "{why}");
    }
}
