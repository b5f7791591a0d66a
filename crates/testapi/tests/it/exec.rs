//! The pod exec subresource over websocket, as kube-rs speaks it.

use futures_util::StreamExt;
use serde_json::{Value, json};
use testapi::{ExecOutput, TestApi};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

async fn exec(addr: std::net::SocketAddr, path: &str, protocols: &str) -> (String, Vec<u8>, Vec<u8>, Value) {
    let mut req = format!("ws://{addr}{path}").into_client_request().unwrap();
    req.headers_mut().insert("Sec-WebSocket-Protocol", protocols.parse().unwrap());
    req.headers_mut().insert("Authorization", "Bearer test-token".parse().unwrap());
    let stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let (mut ws, resp) = tokio_tungstenite::client_async(req, stream).await.unwrap();
    let proto = resp.headers()["sec-websocket-protocol"].to_str().unwrap().to_string();
    let (mut out, mut err, mut status) = (vec![], vec![], Value::Null);
    while let Some(m) = ws.next().await {
        match m.unwrap() {
            Message::Binary(b) if b.len() > 1 => match b[0] {
                1 => out.extend_from_slice(&b[1..]),
                2 => err.extend_from_slice(&b[1..]),
                3 => status = serde_json::from_slice(&b[1..]).unwrap(),
                c => panic!("unexpected channel {c}"),
            },
            Message::Close(_) => break,
            _ => {}
        }
    }
    (proto, out, err, status)
}

#[tokio::test]
async fn exec_cat_tfstate_v5_and_v4() {
    let api = TestApi::new();
    api.insert(json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "provider-gcp-1", "namespace": "crossplane-system"},
        "spec": {"containers": [{"name": "package-runtime"}]}}));
    let big = "x".repeat(3 << 20);
    api.set_exec_file("crossplane-system", "provider-gcp-1", "/tmp/abc/terraform.tfstate", r#"{"version":4}"#);
    api.set_exec_file("crossplane-system", "provider-gcp-1", "/tmp/big", &big);
    api.on_exec(|r| {
        (r.command.first().map(String::as_str) == Some("whoami"))
            .then(|| ExecOutput { stdout: format!("{}\n", r.container).into_bytes(), ..Default::default() })
    });
    let srv = api.start().await.unwrap();
    let base = "/api/v1/namespaces/crossplane-system/pods/provider-gcp-1/exec?stdout=true&stderr=true";

    let (proto, out, err, status) = exec(
        srv.addr,
        &format!("{base}&command=cat&command=%2Ftmp%2Fabc%2Fterraform.tfstate"),
        "v5.channel.k8s.io, v4.channel.k8s.io",
    )
    .await;
    assert_eq!(proto, "v5.channel.k8s.io");
    assert_eq!(out, br#"{"version":4}"#);
    assert!(err.is_empty());
    assert_eq!(status["status"], "Success");

    let (proto, out, _, status) =
        exec(srv.addr, &format!("{base}&container=package-runtime&command=cat&command=/tmp/big"), "v4.channel.k8s.io")
            .await;
    assert_eq!(proto, "v4.channel.k8s.io");
    assert_eq!(out.len(), big.len());
    assert_eq!(status["status"], "Success");

    let (_, out, err, status) = exec(
        srv.addr,
        &format!("{base}&command=sh&command=-c&command=cat%20/tmp/missing/terraform.tfstate"),
        "v5.channel.k8s.io",
    )
    .await;
    assert!(out.is_empty());
    assert_eq!(String::from_utf8(err).unwrap(), "cat: /tmp/missing/terraform.tfstate: No such file or directory\n");
    assert_eq!(status["status"], "Failure");
    assert_eq!(status["reason"], "NonZeroExitCode");
    assert_eq!(status["details"]["causes"][0], json!({"reason": "ExitCode", "message": "1"}));

    let (_, out, _, _) = exec(srv.addr, &format!("{base}&command=whoami"), "v5.channel.k8s.io").await;
    assert_eq!(out, b"package-runtime\n");

    // errors before the upgrade are plain Status responses
    let mut req =
        format!("ws://{}/api/v1/namespaces/crossplane-system/pods/nope/exec?command=ls&stdout=true", srv.addr)
            .into_client_request()
            .unwrap();
    req.headers_mut().insert("Sec-WebSocket-Protocol", "v5.channel.k8s.io".parse().unwrap());
    let stream = tokio::net::TcpStream::connect(srv.addr).await.unwrap();
    match tokio_tungstenite::client_async(req, stream).await {
        Err(tokio_tungstenite::tungstenite::Error::Http(resp)) => assert_eq!(resp.status(), 404),
        other => panic!("expected 404, got {other:?}"),
    }
    assert_eq!(api.stats().class("exec"), 5);
}
