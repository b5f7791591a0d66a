//! Reading a Terraform-CLI resource's live workspace (`/tmp/<uid>/terraform.tfstate`) from the
//! provider pod through the exec subresource (kube's websocket exec).

use super::connect::Connection;
use super::providers::ProviderPod;
use crate::evidence::timeline::{WorkspaceState, tfstate_id};
use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, AttachParams};
use tokio::io::AsyncReadExt;

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

/// Reads the workspace of MR `uid` from one pod.
pub async fn read(conn: &Connection, pod: &ProviderPod, uid: &str) -> Result<WorkspaceState, String> {
    let pods: Api<Pod> = Api::namespaced(conn.client.clone(), &pod.namespace);
    let path = format!("/tmp/{uid}/terraform.tfstate");
    let params = AttachParams::default().container(&pod.container).stdin(false).stdout(true).stderr(true);
    let mut attached = match pods.exec(&pod.name, vec!["cat".to_string(), path.clone()], &params).await {
        Ok(a) => a,
        Err(kube::Error::Api(s)) if s.code == 403 => {
            return Err(format!(
                "no permission to exec into {}/{} (needs create on pods/exec)",
                pod.namespace, pod.name
            ));
        }
        Err(e) => {
            return Err(format!("cannot exec into {}/{}: {}", pod.namespace, pod.name, super::connect::error_text(&e)));
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
        let msg = status.and_then(|s| s.message).unwrap_or_default();
        return Err(explain(&err, &msg));
    }
    let (id, lineage) = tfstate_id(&out).map_err(|e| format!("{path} is not a Terraform state: {e}"))?;
    Ok(WorkspaceState { pod: format!("{}/{}", pod.namespace, pod.name), id, lineage })
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
