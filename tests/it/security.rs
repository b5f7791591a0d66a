//! Security behaviour: kubeconfig exec credential plugins work, TLS is verified unless asked not
//! to, impersonation flags parse, and cluster text cannot rewrite the terminal.

use crate::support::{Cluster, Mr};
use predicates::prelude::*;

fn cluster() -> Cluster {
    Cluster::builder().crd_files("provider-upjet-gcp", &["dns.gcp.upbound.io_recordsets.yaml"]).start()
}

#[test]
fn exec_credential_plugins_are_run() {
    let c = cluster();
    let marker = c.dir().join("plugin-ran");
    let kubeconfig = c.dir().join("exec-kubeconfig");
    let script = format!(
        "touch {} && echo '{{\"apiVersion\":\"client.authentication.k8s.io/v1\",\"kind\":\"ExecCredential\",\"status\":{{\"token\":\"from-plugin\"}}}}'",
        marker.display()
    );
    let text = format!(
        "apiVersion: v1\nkind: Config\nclusters:\n- name: test\n  cluster:\n    server: {}\ncontexts:\n- name: test\n  context: {{cluster: test, user: plugin}}\ncurrent-context: test\nusers:\n- name: plugin\n  user:\n    exec:\n      apiVersion: client.authentication.k8s.io/v1\n      command: /bin/sh\n      args: [\"-c\", {:?}]\n      interactiveMode: Never\n",
        c.server.url, script
    );
    std::fs::write(&kubeconfig, text).unwrap();
    c.upjet().arg("doctor").env("KUBECONFIG", &kubeconfig).assert().code(0);
    assert!(marker.exists(), "the exec credential plugin was invoked");
}

#[test]
fn tls_is_verified_by_default() {
    let c = cluster();
    // The test server speaks plain HTTP: an https URL fails the TLS handshake, and must not be
    // silently downgraded.
    let https = c.dir().join("https-kubeconfig");
    std::fs::write(&https, c.server.kubeconfig(None).replace("http://", "https://")).unwrap();
    c.upjet().arg("doctor").env("KUBECONFIG", &https).assert().code(3).stderr(
        predicate::str::contains("API server at https://127.0.0.1").and(predicate::str::contains("panicked").not()),
    );
}

#[test]
fn impersonation_and_server_flags_are_accepted() {
    let c = cluster();
    c.upjet().args(["doctor", "--as", "alice", "--as-group", "sre", "--as-group", "oncall"]).assert().code(0);
    c.upjet()
        .args(["doctor", "--server", "not a url"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--server \"not a url\" is not a URL"));
}

#[test]
fn crafted_names_cannot_rewrite_the_terminal() {
    let c = cluster();
    let mut mr = Mr::provisioned("dns.gcp.upbound.io/v1beta2", "RecordSet", "evil").create_incomplete().json();
    mr["status"]["conditions"][1]["message"] = serde_json::json!("create failed: \u{1b}]0;pwned\u{7}\u{1b}[2J boom");
    mr["metadata"]["annotations"]["crossplane.io/external-name"] = serde_json::json!("x\u{1b}[31mred");
    c.add(mr);
    for args in [vec!["doctor", "-o", "wide"], vec!["doctor", "recordset.dns.gcp.upbound.io/evil"]] {
        let out = c.upjet().args(&args).output();
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(!text.contains('\u{1b}') && !text.contains('\u{7}'), "{args:?} printed a control character:\n{text}");
        assert!(text.contains("\\u{1b}"), "{args:?} shows the escape visibly:\n{text}");
    }
}
