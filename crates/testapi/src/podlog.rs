//! `GET /api/v1/namespaces/{ns}/pods/{pod}/log` from the logs a test stored.

use crate::Inner;
use crate::crd::ResourceDef;
use crate::reqinfo::ReqInfo;
use crate::resp::Resp;
use bytes::Bytes;

/// `GET /api/v1/namespaces/{ns}/pods/{pod}/log`.
pub(crate) fn pod_log(inner: &Inner, info: &ReqInfo, def: &ResourceDef, ns: &str, pod: &str) -> Resp {
    let pod_obj = def
        .store
        .map
        .read()
        .expect("store lock")
        .get(&(ns.to_string(), pod.to_string()))
        .map(|e| e.to_value("v1", "Pod"));
    let logs = inner.logs.lock().expect("logs lock");
    let mut containers: Vec<String> = match &pod_obj {
        Some(p) => ["containers", "initContainers", "ephemeralContainers"]
            .iter()
            .flat_map(|k| p.pointer(&format!("/spec/{k}")).and_then(|v| v.as_array()).cloned().unwrap_or_default())
            .filter_map(|c| c.get("name").and_then(|n| n.as_str()).map(String::from))
            .collect(),
        None => logs.keys().filter(|(n, p, _, _)| n == ns && p == pod).map(|(_, _, c, _)| c.clone()).collect(),
    };
    containers.dedup();
    if pod_obj.is_none() && containers.is_empty() {
        return Resp::not_found(def, pod);
    }
    let main_containers: Vec<String> = match &pod_obj {
        Some(p) => p
            .pointer("/spec/containers")
            .and_then(|v| v.as_array())
            .cloned()
            .unwrap_or_default()
            .iter()
            .filter_map(|c| c.get("name").and_then(|n| n.as_str()).map(String::from))
            .collect(),
        None => {
            let mut c = containers.clone();
            c.sort();
            c.dedup();
            c
        }
    };
    let container = match info.q("container").filter(|c| !c.is_empty()) {
        Some(c) => {
            if !containers.iter().any(|x| x == c) {
                return Resp::bad_request(&format!("container {c} is not valid for pod {pod}"));
            }
            c.to_string()
        }
        None if main_containers.len() == 1 => main_containers[0].clone(),
        None if main_containers.is_empty() => {
            return Resp::bad_request(&format!("pod {pod} does not have a container"));
        }
        None => {
            return Resp::bad_request(&format!(
                "a container name must be specified for pod {pod}, choose one of: [{}]",
                main_containers.join(" ")
            ));
        }
    };
    let previous = info.flag("previous");
    let log = logs.get(&(ns.to_string(), pod.to_string(), container.clone(), previous)).cloned();
    drop(logs);
    let Some(log) = log else {
        if previous {
            return Resp::bad_request(&format!(
                "previous terminated container \"{container}\" in pod \"{pod}\" not found"
            ));
        }
        return Resp::text(200, Bytes::new());
    };
    Resp::text(200, render(info, &log))
}

/// The log's lines as asked for: since a time, the last N, with timestamps, cut at a byte limit.
fn render(info: &ReqInfo, log: &crate::PodLog) -> Vec<u8> {
    let now = crate::util::now().0;
    let since = info
        .q("sinceSeconds")
        .and_then(|s| s.parse::<i64>().ok())
        .map(|s| now - s)
        .or_else(|| info.q("sinceTime").and_then(crate::util::parse_rfc3339).map(|t| t.0));
    let mut lines: Vec<&((i64, u32), String)> =
        log.lines.iter().filter(|(t, _)| since.is_none_or(|s| t.0 >= s)).collect();
    if let Some(n) = info.q("tailLines").and_then(|s| s.parse::<usize>().ok()) {
        let skip = lines.len().saturating_sub(n);
        lines.drain(..skip);
    }
    let ts = info.flag("timestamps");
    let mut out = String::new();
    for ((secs, nanos), l) in lines {
        if ts {
            out.push_str(&crate::util::format_rfc3339(*secs, Some(*nanos)));
            out.push(' ');
        }
        out.push_str(l);
        out.push('\n');
    }
    let mut bytes = out.into_bytes();
    if let Some(n) = info.q("limitBytes").and_then(|s| s.parse::<usize>().ok()) {
        bytes.truncate(n);
    }
    bytes
}
