//! `google.protobuf.Timestamp` with its JSON form as the protobuf JSON
//! mapping writes it: RFC 3339 in UTC with `Z`, and 0, 3, 6 or 9
//! fractional digits (`"2026-11-28T16:47:12.884965142Z"`,
//! `"2026-03-01T00:00:00Z"`). pbjson-types writes `+00:00` instead, so every
//! message of the API names this type for its timestamps (`extern_path` in
//! the build script). Reading accepts any RFC 3339 offset, as before.

use chrono::{DateTime, SecondsFormat, Utc};
use serde::de::Visitor;

/// A point in time: whole seconds since the Unix epoch and the nanoseconds
/// past them (0 to 999,999,999), as in `google/protobuf/timestamp.proto`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, prost::Message)]
pub struct Timestamp {
    #[prost(int64, tag = "1")]
    pub seconds: i64,
    #[prost(int32, tag = "2")]
    pub nanos: i32,
}

impl prost::Name for Timestamp {
    const NAME: &'static str = "Timestamp";
    const PACKAGE: &'static str = "google.protobuf";
}

impl From<pbjson_types::Timestamp> for Timestamp {
    fn from(t: pbjson_types::Timestamp) -> Self {
        Self {
            seconds: t.seconds,
            nanos: t.nanos,
        }
    }
}

impl From<Timestamp> for pbjson_types::Timestamp {
    fn from(t: Timestamp) -> Self {
        Self {
            seconds: t.seconds,
            nanos: t.nanos,
        }
    }
}

impl TryFrom<Timestamp> for DateTime<Utc> {
    type Error = &'static str;

    fn try_from(t: Timestamp) -> Result<Self, Self::Error> {
        let nanos = u32::try_from(t.nanos).map_err(|_| "negative nanoseconds")?;
        DateTime::from_timestamp(t.seconds, nanos).ok_or("invalid or out-of-range datetime")
    }
}

impl serde::Serialize for Timestamp {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let t = DateTime::<Utc>::try_from(*self).map_err(serde::ser::Error::custom)?;
        // AutoSi: no fraction for whole seconds, else 3, 6 or 9 digits.
        serializer.serialize_str(&t.to_rfc3339_opts(SecondsFormat::AutoSi, true))
    }
}

struct TimestampVisitor;

impl Visitor<'_> for TimestampVisitor {
    type Value = Timestamp;

    fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("a date string")
    }

    fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<Timestamp, E> {
        let t: DateTime<Utc> = DateTime::parse_from_rfc3339(s).map_err(E::custom)?.into();
        let nanos = i32::try_from(t.timestamp_subsec_nanos()).map_err(E::custom)?;
        Ok(Timestamp {
            seconds: t.timestamp(),
            nanos,
        })
    }
}

impl<'de> serde::Deserialize<'de> for Timestamp {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_str(TimestampVisitor)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn json(seconds: i64, nanos: i32) -> String {
        serde_json::to_string(&Timestamp { seconds, nanos }).unwrap()
    }

    #[test]
    fn written_in_utc_with_z_and_whole_groups_of_digits() {
        assert_eq!(json(1_700_000_000, 0), r#""2023-11-14T22:13:20Z""#);
        assert_eq!(
            json(1_700_000_000, 5_000_000),
            r#""2023-11-14T22:13:20.005Z""#
        );
        assert_eq!(
            json(1_700_000_000, 5_000),
            r#""2023-11-14T22:13:20.000005Z""#
        );
        assert_eq!(
            json(1_700_000_000, 884_965_142),
            r#""2023-11-14T22:13:20.884965142Z""#
        );
    }

    #[test]
    fn any_offset_is_read_and_a_bad_date_refused() {
        let t: Timestamp = serde_json::from_str(r#""2016-11-08T21:07:09+05:00""#).unwrap();
        let z: Timestamp = serde_json::from_str(r#""2016-11-08T16:07:09Z""#).unwrap();

        assert_eq!(t, z);
        assert_eq!((t.seconds, t.nanos), (1_478_621_229, 0));
        assert!(serde_json::from_str::<Timestamp>(r#""yesterday""#).is_err());
    }

    #[test]
    fn out_of_range_nanoseconds_are_not_written() {
        let t = Timestamp {
            seconds: 0,
            nanos: -1,
        };
        assert!(serde_json::to_string(&t).is_err());
    }
}
