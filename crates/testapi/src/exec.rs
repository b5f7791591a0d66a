//! The pod `exec` subresource over websocket (`v5.channel.k8s.io`, falling back
//! to `v4.channel.k8s.io`), answering simple commands (`cat`, `ls`, `test -f`,
//! `echo`, also wrapped in `sh -c`) from a per-pod file map, or from a test's
//! exec hook.

use crate::Inner;
use crate::reqinfo::ReqInfo;
use crate::resp::Resp;
use bytes::Bytes;
use futures_util::{SinkExt, StreamExt};
use http_body_util::Full;
use hyper::body::Incoming;
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;
use std::collections::BTreeMap;
use std::sync::Arc;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::protocol::{CloseFrame, Role, frame::coding::CloseCode};
use tokio_tungstenite::tungstenite::{Message, handshake::derive_accept_key};

/// What an exec'd command produced.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExecOutput {
    /// Bytes written to stdout.
    pub stdout: Vec<u8>,
    /// Bytes written to stderr.
    pub stderr: Vec<u8>,
    /// Exit code (0 = success; non-zero is reported as `NonZeroExitCode`).
    pub exit_code: i32,
}

/// The request of an exec session, as given to an exec hook.
#[derive(Debug, Clone)]
pub struct ExecRequest {
    /// Pod namespace.
    pub namespace: String,
    /// Pod name.
    pub pod: String,
    /// Container (resolved: the pod's only container when not given).
    pub container: String,
    /// The command and its arguments.
    pub command: Vec<String>,
}

/// Whether the request asks for a websocket upgrade.
pub(crate) fn is_upgrade(req: &Request<Incoming>) -> bool {
    req.headers()
        .get(hyper::header::UPGRADE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.eq_ignore_ascii_case("websocket"))
}

fn to_response(r: Resp) -> Response<Full<Bytes>> {
    Response::builder().status(r.code).header("content-type", r.ctype).body(Full::new(r.body)).expect("response")
}

/// Serves an exec session: validates, answers 101, then runs the command on the upgraded connection.
pub(crate) fn handle(
    inner: Arc<Inner>,
    mut req: Request<Incoming>,
    info: &ReqInfo,
    pod: &(String, String),
) -> Response<Full<Bytes>> {
    let (ns, name) = pod.clone();
    let command: Vec<String> = info.query.iter().filter(|(k, _)| k == "command").map(|(_, v)| v.clone()).collect();
    // Pod and container checks happen before the upgrade, as in Kubernetes.
    let def = match crate::ops::def_for(&inner, "v1", "Pod") {
        Ok(d) => d,
        Err(e) => return to_response(Resp::bad_request(&e)),
    };
    let pod_obj =
        def.store.map.read().expect("store lock").get(&(ns.clone(), name.clone())).map(|e| e.to_value("v1", "Pod"));
    let Some(pod_obj) = pod_obj else {
        return to_response(Resp::not_found(&def, &name));
    };
    let container = match pick_container(info, &pod_obj, &name) {
        Ok(c) => c,
        Err(e) => return to_response(e),
    };
    if command.is_empty() {
        return to_response(Resp::bad_request("you must specify at least 1 command"));
    }
    let (protocol, key) = match negotiate(&req) {
        Ok(p) => p,
        Err(e) => return to_response(e),
    };
    let exec_req = crate::exec::ExecRequest { namespace: ns, pod: name, container, command };
    let output = run(&inner, &exec_req);
    let channels = (info.q("stdout") == Some("true"), info.q("stderr") == Some("true"));
    let on_upgrade = hyper::upgrade::on(&mut req);
    tokio::spawn(async move {
        let Ok(upgraded) = on_upgrade.await else { return };
        let ws = WebSocketStream::from_raw_socket(TokioIo::new(upgraded), Role::Server, None).await;
        stream(ws, &output, channels, &exec_req.command).await;
    });
    Response::builder()
        .status(101)
        .header(hyper::header::UPGRADE, "websocket")
        .header(hyper::header::CONNECTION, "Upgrade")
        .header(hyper::header::SEC_WEBSOCKET_ACCEPT, key)
        .header(hyper::header::SEC_WEBSOCKET_PROTOCOL, protocol)
        .body(Full::new(Bytes::new()))
        .expect("response")
}

/// The container an exec runs in: the one asked for, or the pod's only one.
fn pick_container(info: &ReqInfo, pod_obj: &serde_json::Value, name: &str) -> Result<String, Resp> {
    let containers: Vec<String> = pod_obj
        .pointer("/spec/containers")
        .and_then(|v| v.as_array())
        .map(|a| a.iter().filter_map(|c| c.get("name").and_then(|n| n.as_str()).map(String::from)).collect())
        .unwrap_or_default();
    match info.q("container").filter(|c| !c.is_empty()) {
        Some(c) if containers.iter().any(|x| x == c) => Ok(c.to_string()),
        Some(c) => Err(Resp::bad_request(&format!("container {c} is not valid for pod {name}"))),
        None if containers.len() == 1 => Ok(containers[0].clone()),
        None if containers.is_empty() => Err(Resp::bad_request(&format!("pod {name} does not have a container"))),
        None => Err(Resp::bad_request(&format!(
            "a container name must be specified for pod {name}, choose one of: [{}]",
            containers.join(" ")
        ))),
    }
}

/// The websocket subprotocol both sides speak, and the `Sec-WebSocket-Accept` answer.
fn negotiate(req: &Request<Incoming>) -> Result<(&'static str, String), Resp> {
    let offered: Vec<String> = req
        .headers()
        .get_all(hyper::header::SEC_WEBSOCKET_PROTOCOL)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(',').map(|p| p.trim().to_string()).collect::<Vec<_>>())
        .collect();
    let protocol = ["v5.channel.k8s.io", "v4.channel.k8s.io"].into_iter().find(|p| offered.iter().any(|o| o == p));
    let Some(protocol) = protocol else {
        return Err(Resp::bad_request("websocket subprotocol must be one of v5.channel.k8s.io, v4.channel.k8s.io"));
    };
    let Some(key) = req.headers().get(hyper::header::SEC_WEBSOCKET_KEY).map(|k| derive_accept_key(k.as_bytes())) else {
        return Err(Resp::bad_request("missing Sec-WebSocket-Key"));
    };
    Ok((protocol, key))
}

/// Sends a command's output on the stdout and stderr channels, then its status, then closes.
async fn stream(
    mut ws: WebSocketStream<TokioIo<hyper::upgrade::Upgraded>>,
    output: &ExecOutput,
    channels: (bool, bool),
    command: &[String],
) {
    let frame = |ch: u8, data: &[u8]| {
        let mut v = Vec::with_capacity(data.len() + 1);
        v.push(ch);
        v.extend_from_slice(data);
        Message::binary(v)
    };
    if channels.0 && !output.stdout.is_empty() {
        for chunk in output.stdout.chunks(1 << 20) {
            if ws.send(frame(1, chunk)).await.is_err() {
                return;
            }
        }
    }
    if channels.1 && !output.stderr.is_empty() && ws.send(frame(2, &output.stderr)).await.is_err() {
        return;
    }
    let status = if output.exit_code == 0 {
        r#"{"metadata":{},"status":"Success"}"#.to_string()
    } else {
        serde_json::json!({
            "metadata": {}, "status": "Failure",
            "message": format!("command terminated with non-zero exit code: error executing command [{}], exit code {}", command.join(" "), output.exit_code),
            "reason": "NonZeroExitCode",
            "details": {"causes": [{"reason": "ExitCode", "message": output.exit_code.to_string()}]},
        })
        .to_string()
    };
    if ws.send(frame(3, status.as_bytes())).await.is_err() {
        return;
    }
    // A normal-closure code: client-go treats a code-less close (1005) as an error.
    let _ = ws.close(Some(CloseFrame { code: CloseCode::Normal, reason: "".into() })).await;
    // Drain until the client acknowledges the close (bounded).
    let _ =
        tokio::time::timeout(std::time::Duration::from_secs(5), async { while let Some(Ok(_)) = ws.next().await {} })
            .await;
}

/// Runs a command: the test's hooks first, then the built-in file commands.
fn run(inner: &Inner, req: &ExecRequest) -> ExecOutput {
    let hooks: Vec<_> = inner.exec_hooks.read().expect("exec hooks lock").clone();
    for h in hooks {
        if let Some(out) = h(req) {
            return out;
        }
    }
    let files = inner
        .exec_files
        .lock()
        .expect("exec lock")
        .get(&(req.namespace.clone(), req.pod.clone()))
        .cloned()
        .unwrap_or_default();
    let argv: Vec<String> = match req.command.as_slice() {
        [sh, c, script, ..] if matches!(sh.as_str(), "sh" | "/bin/sh" | "bash" | "/bin/bash") && c == "-c" => {
            script.split_whitespace().map(String::from).collect()
        }
        other => other.to_vec(),
    };
    builtin(&argv, &files)
}

fn builtin(argv: &[String], files: &BTreeMap<String, String>) -> ExecOutput {
    let mut out = ExecOutput::default();
    let Some(cmd) = argv.first() else { return out };
    let name = cmd.rsplit('/').next().unwrap_or(cmd);
    match name {
        "cat" => {
            for p in &argv[1..] {
                match files.get(p) {
                    Some(c) => out.stdout.extend_from_slice(c.as_bytes()),
                    None => {
                        out.stderr.extend_from_slice(format!("cat: {p}: No such file or directory\n").as_bytes());
                        out.exit_code = 1;
                    }
                }
            }
        }
        "ls" => {
            for p in argv[1..].iter().filter(|a| !a.starts_with('-')) {
                let dir = format!("{}/", p.trim_end_matches('/'));
                let entries: std::collections::BTreeSet<&str> = files
                    .keys()
                    .filter_map(|f| f.strip_prefix(&dir))
                    .map(|r| r.split('/').next().unwrap_or(r))
                    .collect();
                if files.contains_key(p) {
                    out.stdout.extend_from_slice(format!("{p}\n").as_bytes());
                } else if entries.is_empty() {
                    out.stderr.extend_from_slice(format!("ls: {p}: No such file or directory\n").as_bytes());
                    out.exit_code = 1;
                } else {
                    for e in entries {
                        out.stdout.extend_from_slice(format!("{e}\n").as_bytes());
                    }
                }
            }
        }
        "test" | "[" => {
            let ok = match argv.get(1..).unwrap_or_default() {
                [f, p, ..] if f == "-f" || f == "-e" || f == "-s" => {
                    files.get(p).is_some_and(|c| f != "-s" || !c.is_empty())
                }
                _ => false,
            };
            out.exit_code = if ok { 0 } else { 1 };
        }
        "echo" => out.stdout.extend_from_slice(format!("{}\n", argv[1..].join(" ")).as_bytes()),
        "true" => {}
        "false" => out.exit_code = 1,
        _ => {
            out.stderr.extend_from_slice(format!("sh: {cmd}: not found\n").as_bytes());
            out.exit_code = 127;
        }
    }
    out
}
