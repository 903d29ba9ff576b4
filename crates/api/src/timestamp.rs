//! Instants in the API's form, `google.protobuf.Timestamp`: ticket times,
//! clock deadlines, game ends and rating changes all read the same way.

use time::OffsetDateTime;

/// `t` as a protobuf timestamp (whole seconds since the Unix epoch and
/// the nanoseconds past them).
pub fn timestamp(t: OffsetDateTime) -> skit_proto::Timestamp {
    skit_proto::Timestamp {
        seconds: t.unix_timestamp(),
        // Below 10^9, so it always fits.
        nanos: i32::try_from(t.nanosecond()).unwrap_or(0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_and_nanoseconds_since_the_epoch() {
        let t =
            OffsetDateTime::from_unix_timestamp_nanos(1_700_000_000_123_456_789).expect("in range");

        let stamp = timestamp(t);

        assert_eq!(stamp.seconds, 1_700_000_000);
        assert_eq!(stamp.nanos, 123_456_789);
        let before_epoch =
            timestamp(OffsetDateTime::UNIX_EPOCH - time::Duration::milliseconds(1500));
        assert_eq!(
            (before_epoch.seconds, before_epoch.nanos),
            (-2, 500_000_000)
        );
    }
}
