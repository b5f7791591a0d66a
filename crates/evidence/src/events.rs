//! The Kubernetes Events of one MR, with the `external-name` annotation crossplane-runtime's event
//! recorder adds (pkg/event/event.go): a trace of every external-name the MR had while its events
//! lived (one hour by default).

use serde::{Deserialize, Serialize};

/// A Kubernetes Event of the MR, with the `external-name` annotation crossplane's recorder adds.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
pub struct EventRecord {
    /// `Normal` or `Warning`.
    #[serde(rename = "type")]
    pub type_: String,
    /// Reason, e.g. `CannotInitializeManagedResource`.
    pub reason: String,
    /// Message.
    pub message: String,
    /// First occurrence.
    pub first: Option<String>,
    /// Last occurrence.
    pub last: Option<String>,
    /// Occurrences.
    pub count: i64,
    /// The `external-name` annotation on the Event.
    pub external_name: Option<String>,
}

/// Parses a core/v1 EventList.
pub fn parse_events(body: &str) -> Result<Vec<EventRecord>, serde_json::Error> {
    #[derive(Deserialize)]
    struct L {
        #[serde(default)]
        items: Vec<E>,
    }
    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct E {
        #[serde(default)]
        metadata: M,
        #[serde(default, rename = "type")]
        type_: String,
        #[serde(default)]
        reason: String,
        #[serde(default)]
        message: String,
        #[serde(default)]
        first_timestamp: Option<String>,
        #[serde(default)]
        last_timestamp: Option<String>,
        #[serde(default)]
        event_time: Option<String>,
        #[serde(default)]
        count: Option<i64>,
    }
    #[derive(Deserialize, Default)]
    struct M {
        #[serde(default)]
        annotations: Option<std::collections::HashMap<String, String>>,
    }
    let list: L = serde_json::from_str(body)?;
    Ok(list
        .items
        .into_iter()
        .map(|e| EventRecord {
            type_: e.type_,
            reason: e.reason,
            message: e.message,
            first: e.first_timestamp.clone().or(e.event_time.clone()),
            last: e.last_timestamp.or(e.event_time).or(e.first_timestamp),
            count: e.count.unwrap_or(1),
            external_name: e.metadata.annotations.and_then(|a| a.get("external-name").cloned()),
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_parse_with_the_recorder_annotation() {
        let body = r#"{"items":[{"metadata":{"annotations":{"external-name":"rs-1"}},"type":"Warning","reason":"CannotInitializeManagedResource",
            "message":"cannot determine creation result","firstTimestamp":"2024-11-30T11:00:06Z","lastTimestamp":"2024-11-30T11:05:00Z","count":4},
            {"metadata":{},"type":"Normal","reason":"CreatedExternalResource","message":"Successfully requested creation","eventTime":"2024-11-30T11:00:00.123456Z"}]}"#;
        let ev = parse_events(body).unwrap();
        assert_eq!(ev[0].external_name.as_deref(), Some("rs-1"));
        assert_eq!((ev[0].count, ev[1].count), (4, 1));
        assert_eq!(ev[1].first.as_deref(), Some("2024-11-30T11:00:00.123456Z"));
    }
}
