//! The tree `crossplane resource trace -o json` (or `-o yaml`) prints, unfolded into its objects
//! so that a snapshot reader takes it as it takes a List.
//!
//! crossplane `cmd/crank/beta/trace/internal/printer/json.go` marshals its `resource.Resource`
//! (`cmd/crank/beta/trace/internal/resource/resource.go`): `{"object": {…}, "error": …,
//! "children": [{…}, …]}`, the root (a claim or an XR) first, each child a composed resource or a
//! nested XR with its own children, and with `--show-connection-secrets` the connection Secrets
//! among them.

use serde_json::Value;

/// Whether a document is a trace: an object under `object`, not a Kubernetes object itself.
pub fn is_trace(doc: &Value) -> bool {
    doc.get("kind").is_none() && doc.get("object").is_some_and(|o| o.get("kind").is_some())
}

/// The objects of a trace document, root first, depth-first: each node's `object`, then its
/// children's. The core API's objects (a connection Secret) are left out: they are neither MRs
/// nor XRs.
pub fn trace_objects(doc: &Value) -> Vec<Value> {
    let mut out = Vec::new();
    let mut stack = vec![doc];
    while let Some(node) = stack.pop() {
        if let Some(obj) = node.get("object").filter(|o| o.get("kind").is_some()) {
            let core = obj.get("apiVersion").and_then(Value::as_str).is_some_and(|a| !a.contains('/'));
            if !core {
                out.push(obj.clone());
            }
        }
        if let Some(children) = node.get("children").and_then(Value::as_array) {
            stack.extend(children.iter().rev());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A trace of a claim: claim → XR → an MR, a nested XR with its own MR, and a connection
    /// Secret, as `crossplane resource trace -o json --show-connection-secrets` prints it.
    #[test]
    fn a_trace_is_its_objects_depth_first_without_secrets() {
        let obj =
            |api: &str, kind: &str, name: &str| json!({"apiVersion": api, "kind": kind, "metadata": {"name": name}});
        let doc = json!({"object": obj("platform.example.org/v1alpha1", "Database", "orders"), "children": [
            {"object": obj("platform.example.org/v1alpha1", "XDatabase", "orders-x"), "children": [
                {"object": obj("rds.aws.upbound.io/v1beta1", "Instance", "orders-x-1")},
                {"object": obj("platform.example.org/v1alpha1", "XNetwork", "orders-n"), "children": [
                    {"object": obj("ec2.aws.upbound.io/v1beta1", "VPC", "orders-n-1")}]},
                {"object": obj("v1", "Secret", "orders-conn")}]}]});
        assert!(is_trace(&doc) && !is_trace(&obj("v1", "List", "x")));
        let names: Vec<String> =
            trace_objects(&doc).iter().map(|o| o["metadata"]["name"].as_str().unwrap().to_string()).collect();
        assert_eq!(names, ["orders", "orders-x", "orders-x-1", "orders-n", "orders-n-1"]);
    }
}
