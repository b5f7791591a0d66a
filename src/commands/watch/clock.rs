//! The watch's sense of time: a clock that starts at `Settings::now` (pinned in tests) and runs
//! with the real one, and the sleep until the next create in flight comes due.

use crate::settings::Settings;
use upjet_core::gotime::GoTime;

/// The watch's clock: the real clock shifted so that it starts at `Settings::now` (pinned by
/// `UPJET_NOW` in tests, the real time otherwise).
#[derive(Clone, Copy)]
pub(crate) struct Clock {
    read: fn() -> chrono::DateTime<chrono::Utc>,
    offset_nanos: i64,
}

impl Clock {
    pub(super) fn of(settings: &Settings) -> Clock {
        let real = go_time((settings.clock)());
        Clock { read: settings.clock, offset_nanos: real.nanos_until(&settings.now) }
    }

    /// Now, on the watch's clock.
    pub(crate) fn now(&self) -> GoTime {
        let t = (self.read)() + chrono::Duration::nanoseconds(self.offset_nanos);
        go_time(t)
    }

    /// How long until `at` on the watch's clock (zero when it has passed).
    pub(super) fn until(&self, at: GoTime) -> std::time::Duration {
        std::time::Duration::from_nanos(self.now().nanos_until(&at).max(0) as u64)
    }
}

fn go_time(t: chrono::DateTime<chrono::Utc>) -> GoTime {
    GoTime::from_unix(t.timestamp(), t.timestamp_subsec_nanos())
}

/// Sleeps as long as asked, or for ever when nothing is due.
pub(super) async fn sleep_for(wait: Option<std::time::Duration>) {
    match wait {
        Some(wait) => tokio::time::sleep(wait).await,
        None => std::future::pending().await,
    }
}
