//! Reading a Terraform-CLI resource's live workspace (`/tmp/<uid>/terraform.tfstate`) from the
//! provider pod through the exec subresource (kube's websocket exec). The file is parsed by
//! `evidence::workspace`.

use super::connect::Connection;
use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, AttachParams};
use tokio::io::AsyncReadExt;
use upjet_core::shell::ShellCommand;

/// The command that lets the user exec into the provider pods of `namespace`.
fn bind_workspace(namespace: &str) -> ShellCommand {
    ShellCommand::kubectl("create")
        .word("rolebinding")
        .word("kubectl-upjet-workspace")
        .opt("-n", namespace)
        .word("--clusterrole=kubectl-upjet-workspace")
        .word("--user=<you>")
}

/// Why the workspace file could not be read from a pod.
#[derive(Debug, thiserror::Error)]
pub enum WorkspaceError {
    /// RBAC denies `create` on `pods/exec`.
    #[error(
        "no permission to exec into {namespace}/{pod}: missing permission: create on pods/exec (the core group) in namespace {namespace}; the ClusterRole kubectl-upjet-workspace (deploy/clusterrole-workspace.yaml) grants it: {}",
        bind_workspace(.namespace)
    )]
    Forbidden {
        /// The pod's namespace.
        namespace: String,
        /// The pod.
        pod: String,
    },
    /// The exec request itself failed.
    #[error("cannot exec into {namespace}/{pod}: {reason}")]
    Exec {
        /// The pod's namespace.
        namespace: String,
        /// The pod.
        pod: String,
        /// The API error, in one line.
        reason: String,
    },
    /// `cat` ran but printed nothing or failed.
    #[error("{}", explain(stderr, status_message))]
    Failed {
        /// What `cat` wrote to stderr.
        stderr: String,
        /// The exec status message.
        status_message: String,
    },
}

/// Where upjet keeps the workspace of MR `uid` (upjet pkg/terraform/files.go).
pub fn tfstate_path(uid: &str) -> String {
    format!("/tmp/{uid}/terraform.tfstate")
}

/// Why the workspace could not be read, in one line.
pub fn explain(stderr: &str, status_message: &str) -> String {
    let text = format!("{stderr} {status_message}").to_lowercase();
    if text.contains("no such file") {
        "no workspace file: the resource is not reconciled by the Terraform CLI, or the pod restarted since (nothing under /tmp survives a restart)".into()
    } else if text.contains("executable file not found") || text.contains("not found in $path") {
        "the provider image has no `cat` (distroless): the workspace cannot be read through exec".into()
    } else {
        format!("reading the workspace failed: {}", format!("{stderr} {status_message}").trim())
    }
}

/// Reads the `terraform.tfstate` of MR `uid` from one container of one pod.
pub async fn read(
    conn: &Connection,
    namespace: &str,
    pod: &str,
    container: &str,
    uid: &str,
) -> Result<String, WorkspaceError> {
    let pods: Api<Pod> = Api::namespaced(conn.client.clone(), namespace);
    let params = AttachParams::default().container(container).stdin(false).stdout(true).stderr(true);
    let mut attached = match pods.exec(pod, vec!["cat".to_string(), tfstate_path(uid)], &params).await {
        Ok(a) => a,
        Err(kube::Error::Api(s)) if s.code == 403 => {
            return Err(WorkspaceError::Forbidden { namespace: namespace.into(), pod: pod.into() });
        }
        // A websocket exec refused before the protocol switch carries only its HTTP status.
        Err(kube::Error::UpgradeConnection(e)) if e.to_string().contains("403") => {
            return Err(WorkspaceError::Forbidden { namespace: namespace.into(), pod: pod.into() });
        }
        Err(e) => {
            let reason = super::connect::error_text(&e);
            return Err(WorkspaceError::Exec { namespace: namespace.into(), pod: pod.into(), reason });
        }
    };
    let (mut out, mut err) = (String::new(), String::new());
    if let Some(mut s) = attached.stdout() {
        let _ = s.read_to_string(&mut out).await;
    }
    if let Some(mut s) = attached.stderr() {
        let _ = s.read_to_string(&mut err).await;
    }
    let status = match attached.take_status() {
        Some(s) => s.await,
        None => None,
    };
    let failed = status.as_ref().is_some_and(|s| s.status.as_deref() == Some("Failure"));
    if failed || out.is_empty() {
        let status_message = status.and_then(|s| s.message).unwrap_or_default();
        return Err(WorkspaceError::Failed { stderr: err, status_message });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    #[test]
    fn explanations() {
        assert!(
            super::explain("cat: can't open '/tmp/x/terraform.tfstate': No such file or directory", "")
                .starts_with("no workspace file")
        );
        assert!(super::explain("", "exec: \"cat\": executable file not found in $PATH").contains("distroless"));
        assert!(super::explain("boom", "").contains("boom"));
    }
}
