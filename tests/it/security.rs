//! Security behaviour: kubeconfig exec credential plugins work, TLS is verified unless asked not
//! to, impersonation flags parse, and cluster text cannot rewrite the terminal.

use crate::support::NO_GUARD;
use crate::support::{Cluster, Mr};

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
    c.upjet()
        .arg("doctor")
        .env("KUBECONFIG", &kubeconfig)
        .stderr(format!("{NO_GUARD}\n1 kinds scanned, 0 managed resources, 0 errors, 0 warnings, 0 info\n"))
        .run();
    assert!(marker.exists(), "the exec credential plugin was invoked");
}

#[test]
fn tls_is_verified_by_default() {
    let c = cluster();
    // The test server speaks plain HTTP: an https URL fails the TLS handshake, and must not be
    // silently downgraded.
    let https = c.dir().join("https-kubeconfig");
    std::fs::write(&https, c.server.kubeconfig(None).replace("http://", "https://")).unwrap();
    let run = c
        .upjet()
        .arg("doctor")
        .env("KUBECONFIG", &https)
        .status(3)
        .stderr_contains("API server at https://127.0.0.1")
        .run();
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
}

#[test]
fn impersonation_and_server_flags_are_accepted() {
    let c = cluster();
    c.upjet()
        .args(["doctor", "--as", "alice", "--as-group", "sre", "--as-group", "oncall"])
        .stderr(format!("{NO_GUARD}\n1 kinds scanned, 0 managed resources, 0 errors, 0 warnings, 0 info\n"))
        .run();
    c.upjet()
        .args(["doctor", "--server", "not a url"])
        .status(2)
        .stderr_contains("--server \"not a url\" is not a URL")
        .run();
}

#[test]
fn crafted_names_cannot_rewrite_the_terminal() {
    let c = cluster();
    let mut mr = Mr::provisioned("dns.gcp.upbound.io/v1beta2", "RecordSet", "evil").create_incomplete().json();
    mr["status"]["conditions"][1]["message"] = serde_json::json!("create failed: \u{1b}]0;pwned\u{7}\u{1b}[2J boom");
    mr["metadata"]["annotations"]["crossplane.io/external-name"] = serde_json::json!("x\u{1b}[31mred");
    c.add(mr);
    // The list prints its notes and summary on stderr; one MR's page prints nothing there.
    for (args, notes) in
        [(vec!["doctor", "-o", "wide"], true), (vec!["doctor", "recordset.dns.gcp.upbound.io/evil"], false)]
    {
        let mut run = c.upjet();
        run.args(&args).status(1);
        if notes {
            run.stderr_contains("1 kinds scanned, 1 managed resources, 1 errors, 2 warnings, 0 info");
        }
        let out = run.run();
        assert!(!out.stderr.contains('\u{1b}') && !out.stderr.contains('\u{7}'), "{args:?}: {}", out.stderr);
        let text = out.stdout;
        assert!(!text.contains('\u{1b}') && !text.contains('\u{7}'), "{args:?} printed a control character:\n{text}");
        assert!(text.contains("\\u{1b}"), "{args:?} shows the escape visibly:\n{text}");
    }
}
