//! The watch's metric families in Prometheus's text exposition format (version 0.0.4), the
//! format `promtool check metrics` checks. The `prometheus` crate's encoder writes it (escaping,
//! `# HELP`/`# TYPE` lines); families without a series are left out, as a registry does.

use prometheus::proto;
use upjet_core::watch::exposition::{Family, MetricType};

/// The `Content-Type` of the text format.
pub const CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";

fn to_proto(family: &Family) -> proto::MetricFamily {
    let mut mf = proto::MetricFamily::default();
    mf.set_name(family.name.to_string());
    mf.set_help(family.help.to_string());
    mf.set_field_type(match family.kind {
        MetricType::Gauge => proto::MetricType::GAUGE,
        MetricType::Counter => proto::MetricType::COUNTER,
    });
    let metrics = family
        .series
        .iter()
        .map(|s| {
            let mut m = proto::Metric::default();
            m.set_label(
                s.labels
                    .iter()
                    .map(|(k, v)| {
                        let mut l = proto::LabelPair::default();
                        l.set_name(k.to_string());
                        l.set_value(v.clone());
                        l
                    })
                    .collect(),
            );
            match family.kind {
                MetricType::Gauge => {
                    let mut g = proto::Gauge::default();
                    g.set_value(s.value);
                    m.set_gauge(g);
                }
                MetricType::Counter => {
                    let mut c = proto::Counter::default();
                    c.set_value(s.value);
                    m.set_counter(c);
                }
            }
            m
        })
        .collect();
    mf.set_metric(metrics);
    mf
}

/// The families as one scrape's text.
pub fn encode(families: &[Family]) -> String {
    let protos: Vec<proto::MetricFamily> = families.iter().filter(|f| !f.series.is_empty()).map(to_proto).collect();
    prometheus::TextEncoder::new().encode_to_string(&protos).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use upjet_core::watch::exposition::Series;

    #[test]
    fn gauges_counters_and_escaped_labels() {
        let families = vec![
            Family {
                name: "upjet_findings",
                help: "Findings present now.",
                kind: MetricType::Gauge,
                series: vec![Series { labels: vec![("code", "Say \"hi\"\n".into())], value: 2.0 }],
            },
            Family { name: "upjet_empty", help: "None.", kind: MetricType::Gauge, series: vec![] },
            Family {
                name: "upjet_watch_events_total",
                help: "Events.",
                kind: MetricType::Counter,
                series: vec![Series { labels: vec![], value: 7.0 }],
            },
        ];
        insta::assert_snapshot!(encode(&families), @r#"
        # HELP upjet_findings Findings present now.
        # TYPE upjet_findings gauge
        upjet_findings{code="Say \"hi\"\n"} 2
        # HELP upjet_watch_events_total Events.
        # TYPE upjet_watch_events_total counter
        upjet_watch_events_total 7
        "#);
    }
}
