//! The three `crossplane.io/external-create-*` annotations, read the way crossplane-runtime reads them.

use super::gotime::GoTime;
use super::managed::{ManagedResource, keys};

/// upjet's `defaultAsyncTimeout` (`pkg/controller/external_async_tfpluginsdk.go` and
/// `pkg/terraform/workspace.go`): every async create, update or delete runs under a context whose
/// deadline is one hour after the operation's start. It lives beside the marks because it bounds
/// what a mark can mean: the rules judge deadlines with it, and the cloud-audit matching uses it
/// to end an MR's create window.
pub const ASYNC_TIMEOUT_SECS: i64 = 3600;

/// The reconciler's exact error text at the create-incomplete gate (`errCreateIncomplete` in
/// crossplane-runtime's `pkg/reconciler/managed/reconciler.go`): Synced's message while it stops there.
pub(crate) const ERR_CREATE_INCOMPLETE: &str = "cannot determine creation result - remove the crossplane.io/external-create-pending annotation if it is safe to proceed";

/// One create annotation: the raw value (for evidence and malformed-value reports) and the
/// instant crossplane-runtime derives from it (zero when absent or unparsable).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mark {
    /// Annotation key.
    pub key: &'static str,
    /// Raw annotation value, if present.
    pub raw: Option<String>,
    /// What `time.Parse(time.RFC3339, raw)` yields; [`GoTime::ZERO`] on failure or absence.
    pub at: GoTime,
}

impl Mark {
    fn read(mr: &ManagedResource, key: &'static str) -> Mark {
        let raw = mr.annotation(key).map(str::to_owned);
        let at = GoTime::parse_or_zero(raw.as_deref());
        Mark { key, raw, at }
    }

    /// Present but rejected by Go's parser: crossplane silently reads it as the zero time.
    pub(crate) fn is_malformed(&self) -> bool {
        self.raw.is_some() && self.at.is_zero() && GoTime::parse_rfc3339(self.raw.as_deref().unwrap_or("")).is_none()
    }

    /// Whether crossplane sees a (non-zero) time here.
    pub fn is_set(&self) -> bool {
        !self.at.is_zero()
    }
}

/// The create history crossplane-runtime records on an MR.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CreateMarks {
    /// `crossplane.io/external-create-pending`.
    pub pending: Mark,
    /// `crossplane.io/external-create-succeeded`.
    pub succeeded: Mark,
    /// `crossplane.io/external-create-failed`.
    pub failed: Mark,
}

impl CreateMarks {
    /// Reads the three marks of an MR.
    pub fn of(mr: &ManagedResource) -> CreateMarks {
        CreateMarks {
            pending: Mark::read(mr, keys::CREATE_PENDING),
            succeeded: Mark::read(mr, keys::CREATE_SUCCEEDED),
            failed: Mark::read(mr, keys::CREATE_FAILED),
        }
    }

    /// The later of succeeded and failed, exactly as `meta.ExternalCreateIncomplete` picks it:
    /// succeeded, replaced by failed only if failed is strictly after it.
    pub(crate) fn latest_result(&self) -> GoTime {
        if self.failed.at.after(&self.succeeded.at) { self.failed.at } else { self.succeeded.at }
    }

    /// crossplane-runtime's `meta.ExternalCreateIncomplete`: pending is set and strictly after the
    /// latest result. Equal seconds count as complete, which is why a fast async create that wrote
    /// pending and succeeded in the same second is not blocked.
    pub fn incomplete(&self) -> bool {
        !self.pending.at.is_zero() && self.pending.at.after(&self.latest_result())
    }

    /// The last create attempt failed: failed is set, not before pending, and after succeeded.
    pub(crate) fn last_create_failed(&self) -> bool {
        self.failed.is_set() && !self.failed.at.before(&self.pending.at) && self.failed.at.after(&self.succeeded.at)
    }

    /// Every mark present on the object, oldest first (unparsable ones last, as crossplane sees them at zero).
    pub fn timeline(&self) -> Vec<&Mark> {
        let mut marks: Vec<&Mark> =
            [&self.pending, &self.succeeded, &self.failed].into_iter().filter(|m| m.raw.is_some()).collect();
        marks.sort_by_key(|m| (m.at.is_zero(), m.at));
        marks
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::Mr;

    fn marks(p: Option<&str>, s: Option<&str>, f: Option<&str>) -> CreateMarks {
        let mut b = Mr::new("Bucket", "b");
        if let Some(v) = p {
            b = b.annotation(keys::CREATE_PENDING, v);
        }
        if let Some(v) = s {
            b = b.annotation(keys::CREATE_SUCCEEDED, v);
        }
        if let Some(v) = f {
            b = b.annotation(keys::CREATE_FAILED, v);
        }
        CreateMarks::of(&b.build())
    }

    #[test]
    fn incomplete_follows_crossplane_runtime() {
        let t0 = "2024-11-30T10:53:06Z";
        let t1 = "2024-11-30T10:53:07Z";
        let t1_offset = "2024-11-30T12:53:07+02:00";
        let cases: &[(&str, Option<&str>, Option<&str>, Option<&str>, bool)] = &[
            ("nothing", None, None, None, false),
            ("pending only", Some(t0), None, None, true),
            ("pending == succeeded (same second)", Some(t0), Some(t0), None, false),
            ("pending after succeeded", Some(t1), Some(t0), None, true),
            ("pending after succeeded, other offset", Some(t1_offset), Some(t0), None, true),
            ("pending before succeeded", Some(t0), Some(t1), None, false),
            ("pending == failed", Some(t0), None, Some(t0), false),
            ("pending after failed", Some(t1), None, Some(t0), true),
            ("failed later than succeeded, pending between", Some(t1), Some(t0), Some("2024-11-30T10:53:08Z"), false),
            ("succeeded later than failed, pending after both", Some("2024-11-30T10:53:09Z"), Some(t1), Some(t0), true),
            ("unparsable pending is zero", Some("yesterday"), None, None, false),
            ("unparsable succeeded is zero", Some(t0), Some("2024-11-30 10:53:06"), None, true),
            ("empty pending", Some(""), None, None, false),
            ("fractional pending after whole-second succeeded", Some("2024-11-30T10:53:06.5Z"), Some(t0), None, true),
            ("one-digit hour accepted by Go", Some("2024-11-30T9:53:06Z"), Some("2024-11-30T09:53:06Z"), None, false),
        ];
        for (name, p, s, f, want) in cases {
            assert_eq!(marks(*p, *s, *f).incomplete(), *want, "{name}");
        }
    }

    #[test]
    fn last_create_failed() {
        let cases: &[(&str, Option<&str>, Option<&str>, Option<&str>, bool)] = &[
            ("no failed", Some("2024-01-01T00:00:00Z"), None, None, false),
            ("failed == pending", Some("2024-01-01T00:00:00Z"), None, Some("2024-01-01T00:00:00Z"), true),
            ("failed after pending", Some("2024-01-01T00:00:00Z"), None, Some("2024-01-01T00:00:05Z"), true),
            ("failed before new pending", Some("2024-01-01T00:01:00Z"), None, Some("2024-01-01T00:00:05Z"), false),
            (
                "succeeded after failed",
                Some("2024-01-01T00:01:00Z"),
                Some("2024-01-01T00:01:00Z"),
                Some("2024-01-01T00:00:05Z"),
                false,
            ),
            ("unparsable failed", Some("2024-01-01T00:00:00Z"), None, Some("bad"), false),
        ];
        for (name, p, s, f, want) in cases {
            assert_eq!(marks(*p, *s, *f).last_create_failed(), *want, "{name}");
        }
    }

    #[test]
    fn malformed_detection_and_timeline() {
        let m = marks(Some("2024-01-01T00:00:05Z"), Some("tomorrow"), Some("2024-01-01T00:00:01Z"));
        assert!(m.succeeded.is_malformed() && !m.pending.is_malformed() && !m.failed.is_malformed());
        let order: Vec<_> = m.timeline().iter().map(|k| k.key).collect();
        assert_eq!(order, vec![keys::CREATE_FAILED, keys::CREATE_PENDING, keys::CREATE_SUCCEEDED]);
        // Go's zero time written literally is valid, not malformed.
        assert!(!marks(Some("0001-01-01T00:00:00Z"), None, None).pending.is_malformed());
    }
}
