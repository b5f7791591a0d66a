//! The simulated provider the bulk benchmarks share (adopt, promote): every write to an MR queues
//! a reconcile answered after a random delay, as an Observe of a cloud that holds `NAME-id` for
//! every MR `NAME`.

use serde_json::{Value, json};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};
use testapi::TestApi;

const EXT: &str = "crossplane.io/external-name";
const PAUSED: &str = "crossplane.io/paused";
const PENDING: &str = "crossplane.io/external-create-pending";
const RRA: &str = "crossplane.io/reconcile-requested-at";

pub fn set_cond(obj: &mut Value, t: &str, status: &str, reason: &str, message: &str) {
    if !obj["status"]["conditions"].is_array() {
        obj["status"]["conditions"] = json!([]);
    }
    let conds = obj["status"]["conditions"].as_array_mut().unwrap();
    conds.retain(|c| c["type"] != t);
    conds.push(json!({"type": t, "status": status, "reason": reason, "message": message,
                      "lastTransitionTime": "2024-11-30T12:00:00Z"}));
}

pub fn ann<'a>(obj: &'a Value, k: &str) -> Option<&'a str> {
    obj["metadata"]["annotations"].get(k).and_then(Value::as_str)
}

/// One reconcile, answered: the cloud holds `NAME-id` for every MR `NAME`.
fn reconcile(obj: &mut Value) {
    if ann(obj, PAUSED) == Some("true") {
        return;
    }
    if let Some(t) = ann(obj, RRA).map(str::to_owned) {
        obj["status"]["lastHandledReconcileAt"] = json!(t);
    }
    if ann(obj, PENDING).is_some() {
        set_cond(obj, "Synced", "False", "ReconcileError", "cannot determine creation result");
        return;
    }
    let want = format!("{}-id", obj["metadata"]["name"].as_str().unwrap_or_default());
    if ann(obj, EXT) == Some(want.as_str()) {
        obj["status"]["atProvider"]["id"] = json!(want);
        set_cond(obj, "Ready", "True", "Available", "");
        set_cond(obj, "Synced", "True", "ReconcileSuccess", "");
    } else {
        set_cond(obj, "Synced", "False", "ReconcileError", "observe failed: external resource does not exist");
    }
}

/// The provider: paused MRs are answered at once; every other write queues a reconcile that is
/// answered after a random delay, by one scheduler thread. Returns the total delay drawn (ms).
pub fn provider(api: &TestApi, kind: (&'static str, &'static str), delay: (u64, u64)) -> Arc<AtomicU64> {
    provider_in(api, kind, None, delay)
}

/// [`provider`] for the MRs of one kind in `namespace` (`None`: cluster-scoped).
pub fn provider_in(
    api: &TestApi,
    (api_version, kind): (&'static str, &'static str),
    namespace: Option<&'static str>,
    (lo, hi): (u64, u64),
) -> Arc<AtomicU64> {
    let drawn = Arc::new(AtomicU64::new(0));
    let (tx, rx) = mpsc::channel::<(Instant, String)>();
    let tx = Mutex::new(tx);
    let seed = AtomicU64::new(0x9e37_79b9_7f4a_7c15);
    let total = drawn.clone();
    api.on_write(move |obj| {
        if ann(obj, PAUSED) == Some("true") {
            set_cond(obj, "Synced", "False", "ReconcilePaused", "Reconciliation is paused");
            return;
        }
        // xorshift: reproducible delays without another dependency.
        let mut x = seed.load(Ordering::Relaxed);
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        seed.store(x, Ordering::Relaxed);
        let ms = lo + x % (hi - lo + 1);
        total.fetch_add(ms, Ordering::Relaxed);
        let name = obj["metadata"]["name"].as_str().unwrap_or_default().to_string();
        let _ = tx.lock().unwrap().send((Instant::now() + Duration::from_millis(ms), name));
    });
    let api = api.clone();
    std::thread::spawn(move || {
        let mut due: BinaryHeap<Reverse<(Instant, String)>> = BinaryHeap::new();
        loop {
            let wait = due.peek().map(|Reverse((t, _))| t.saturating_duration_since(Instant::now()));
            let got = match wait {
                Some(w) => rx.recv_timeout(w).map_err(|e| e == mpsc::RecvTimeoutError::Disconnected),
                None => rx.recv().map_err(|_| true),
            };
            match got {
                Ok(item) => due.push(Reverse(item)),
                Err(true) => return,
                Err(false) => {}
            }
            while due.peek().is_some_and(|Reverse((t, _))| *t <= Instant::now()) {
                let Reverse((_, name)) = due.pop().unwrap();
                api.modify(api_version, kind, namespace, &name, reconcile);
            }
        }
    });
    drawn
}
