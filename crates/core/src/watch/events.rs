//! The Kubernetes Events `watch --events` records on an MR when an error finding appears,
//! deduplicated the way client-go's event recorder does (`tools/record/events_cache.go`), so that
//! a finding that appears again and again is one Event whose `count` grows, not a flood:
//!
//! - the event key is the source, the involved object (kind, namespace, name, uid, apiVersion),
//!   the type, the reason and the message (`getEventKey`): a repeat of a key is a patch of the
//!   Event first created for it with `count` + 1, `lastTimestamp` now and the message
//!   (`eventObserve`), and when that Event expired meanwhile (404) it is created again;
//! - events that differ only by message are aggregated once ten of them were seen within ten
//!   minutes (`EventAggregatorByReasonFunc`, `defaultAggregateMaxEvents`,
//!   `defaultAggregateIntervalInSeconds`): the message becomes `(combined from similar events): …`
//!   and the aggregate's key is the one counted;
//! - a new Event is named `<object name>.<unix nanos in hex>` in the object's namespace, or in
//!   `default` for a cluster-scoped object (`makeEvent`).
//!
//! Pure: the shell sends what [`Correlator::record`] answers.

use crate::gotime::GoTime;
use serde_json::{Value, json};
use std::collections::{BTreeSet, HashMap};

/// The component the Events are reported as coming from.
pub(crate) const COMPONENT: &str = "kubectl-upjet-watch";

/// At most this many keys are remembered (client-go's `maxLruCacheEntries`).
const MAX_KEYS: usize = 4096;
/// Messages per reason and object before they are aggregated.
const AGGREGATE_MAX_EVENTS: usize = 10;
/// Seconds after which a similar event counts as new.
const AGGREGATE_INTERVAL_SECS: i64 = 600;

/// The object an Event is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Involved {
    /// `apiVersion`.
    pub api_version: String,
    /// `kind`.
    pub kind: String,
    /// Namespace, when namespaced.
    pub namespace: Option<String>,
    /// Name.
    pub name: String,
    /// UID.
    pub uid: String,
}

/// One Event to record: a `Warning` about `involved` with `reason` and `message`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Draft {
    /// The MR.
    pub involved: Involved,
    /// The reason (a finding's code).
    pub reason: String,
    /// The message.
    pub message: String,
}

/// What to send to the API server.
#[derive(Clone, Debug, PartialEq)]
pub enum Write {
    /// Create this Event in `namespace`.
    Create {
        /// Where.
        namespace: String,
        /// The Event.
        event: Value,
    },
    /// Patch the Event `name` with `patch` (a merge patch of `count`, `lastTimestamp` and
    /// `message`); create `event` instead when it no longer exists.
    Patch {
        /// Where.
        namespace: String,
        /// The Event's name.
        name: String,
        /// The patch.
        patch: Value,
        /// The whole Event, for the create after a 404.
        event: Value,
    },
}

#[derive(Clone, Debug)]
struct Logged {
    count: u64,
    first: String,
    name: String,
    last: GoTime,
}

#[derive(Clone, Debug)]
struct Aggregate {
    messages: BTreeSet<String>,
    last: GoTime,
}

/// The recorder's memory: per event key its Event, per reason and object the messages seen.
#[derive(Debug, Default)]
pub struct Correlator {
    logged: HashMap<String, Logged>,
    aggregates: HashMap<String, Aggregate>,
}

impl Correlator {
    /// What recording `draft` at `now` sends: a new Event, or a patch of the one already
    /// recorded for the same key.
    pub fn record(&mut self, draft: &Draft, now: GoTime) -> Write {
        let i = &draft.involved;
        let object = [COMPONENT, &i.kind, i.namespace.as_deref().unwrap_or(""), &i.name, &i.uid, &i.api_version];
        let aggregate_key = [&object[..], &["Warning", &draft.reason]].concat().join("\u{1f}");
        let mut message = draft.message.clone();
        let mut key = [aggregate_key.as_str(), &draft.message].join("\u{1f}");
        let agg = self
            .aggregates
            .entry(aggregate_key.clone())
            .or_insert_with(|| Aggregate { messages: BTreeSet::new(), last: now });
        if agg.last.add_secs(AGGREGATE_INTERVAL_SECS).before(&now) {
            agg.messages.clear();
        }
        agg.messages.insert(draft.message.clone());
        agg.last = now;
        if agg.messages.len() >= AGGREGATE_MAX_EVENTS {
            message = format!("(combined from similar events): {}", draft.message);
            key = aggregate_key;
        }
        let stamp = GoTime::from_unix(now.unix_secs(), 0).to_string();
        let namespace = i.namespace.clone().unwrap_or_else(|| "default".into());
        let previous = self.logged.get(&key).cloned();
        let (name, first, count) = match &previous {
            Some(p) => (p.name.clone(), p.first.clone(), p.count + 1),
            None => {
                let nanos = GoTime::from_unix(0, 0).nanos_until(&now);
                (format!("{}.{nanos:x}", i.name), stamp.clone(), 1)
            }
        };
        let event = json!({
            "apiVersion": "v1", "kind": "Event",
            "metadata": {"name": name, "namespace": namespace},
            "involvedObject": {"apiVersion": i.api_version, "kind": i.kind, "namespace": i.namespace,
                               "name": i.name, "uid": i.uid},
            "reason": draft.reason, "message": message, "type": "Warning",
            "source": {"component": COMPONENT},
            "firstTimestamp": first, "lastTimestamp": stamp, "count": count,
            "reportingComponent": COMPONENT, "reportingInstance": "",
        });
        self.remember(key, Logged { count, first, name: name.clone(), last: now });
        match previous {
            None => Write::Create { namespace, event },
            Some(_) => {
                let patch = json!({"count": count, "lastTimestamp": stamp, "message": message});
                Write::Patch { namespace, name, patch, event }
            }
        }
    }

    /// Keeps `logged` under `key`, forgetting the least recently seen key past the cap.
    fn remember(&mut self, key: String, logged: Logged) {
        self.logged.insert(key, logged);
        if self.logged.len() > MAX_KEYS
            && let Some(oldest) = self.logged.iter().min_by_key(|(_, l)| l.last.unix_secs()).map(|(k, _)| k.clone())
        {
            self.logged.remove(&oldest);
        }
        if self.aggregates.len() > MAX_KEYS
            && let Some(oldest) = self.aggregates.iter().min_by_key(|(_, a)| a.last.unix_secs()).map(|(k, _)| k.clone())
        {
            self.aggregates.remove(&oldest);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn draft(message: &str) -> Draft {
        Draft {
            involved: Involved {
                api_version: "s3.aws.upbound.io/v1beta1".into(),
                kind: "Bucket".into(),
                namespace: None,
                name: "stuck".into(),
                uid: "u1".into(),
            },
            reason: "CreateIncomplete".into(),
            message: message.into(),
        }
    }

    fn at(secs: i64) -> GoTime {
        GoTime::from_unix(1_732_960_800 + secs, 0)
    }

    #[test]
    fn a_repeat_patches_the_first_event_with_a_growing_count() {
        let mut c = Correlator::default();
        let Write::Create { namespace, event } = c.record(&draft("m"), at(0)) else { panic!("a new event") };
        assert_eq!(namespace, "default", "a cluster-scoped object's events live in default");
        let name = event["metadata"]["name"].as_str().unwrap().to_string();
        assert!(name.starts_with("stuck."), "{name}");
        assert_eq!((event["count"].as_u64(), event["reason"].as_str()), (Some(1), Some("CreateIncomplete")));
        let Write::Patch { name: patched, patch, event, .. } = c.record(&draft("m"), at(30)) else { panic!("patch") };
        assert_eq!(patched, name);
        assert_eq!(patch, json!({"count": 2, "lastTimestamp": "2024-11-30T10:00:30Z", "message": "m"}));
        assert_eq!(
            event["firstTimestamp"], "2024-11-30T10:00:00Z",
            "the first time is kept for the create after a 404"
        );
        assert!(matches!(c.record(&draft("other"), at(31)), Write::Create { .. }), "another message, another event");
    }

    #[test]
    fn ten_messages_of_one_reason_within_ten_minutes_are_combined() {
        let mut c = Correlator::default();
        for n in 0..9 {
            assert!(matches!(c.record(&draft(&format!("m{n}")), at(n)), Write::Create { .. }));
        }
        let Write::Create { event, .. } = c.record(&draft("m9"), at(9)) else { panic!("the aggregate is new") };
        assert_eq!(event["message"], "(combined from similar events): m9");
        let Write::Patch { patch, .. } = c.record(&draft("m10"), at(10)) else { panic!("the aggregate is patched") };
        assert_eq!(patch["count"], 2);
        assert!(matches!(c.record(&draft("m11"), at(10 + 601)), Write::Create { .. }), "a quiet interval starts over");
    }
}
