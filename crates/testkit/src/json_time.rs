//! What every timestamp in the REST answers looks like: protobuf's JSON
//! form, RFC 3339 in UTC with `Z` and 0, 3, 6 or 9 fractional digits.

use serde_json::Value;

/// Panics unless `value` (found at `at`) is a timestamp in protobuf's JSON
/// form, e.g. `"2026-11-28T16:47:12.884965142Z"` or `"2026-03-01T00:00:00Z"`.
pub fn assert_json_timestamp(at: &str, value: &Value) {
    let Some(text) = value.as_str() else {
        panic!("{at}: {value} is not a string");
    };
    let (date_time, fraction) = match text.strip_suffix('Z') {
        Some(t) => t.split_once('.').unwrap_or((t, "")),
        None => panic!("{at}: {text} does not end in Z"),
    };
    let shape = date_time.len() == 19
        && date_time.char_indices().all(|(i, c)| match i {
            4 | 7 => c == '-',
            10 => c == 'T',
            13 | 16 => c == ':',
            _ => c.is_ascii_digit(),
        });
    assert!(shape, "{at}: {text} is not YYYY-MM-DDTHH:MM:SS");
    assert!(
        [0, 3, 6, 9].contains(&fraction.len()) && fraction.bytes().all(|b| b.is_ascii_digit()),
        "{at}: {text} has a fraction of {} digits",
        fraction.len()
    );
}
