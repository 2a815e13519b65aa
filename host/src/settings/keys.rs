//! Keys matched without regard to case, as .NET's configuration matches them.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

/// The entry for `name` (without regard to case), else the `*` entry.
pub(super) fn by_name<'a, T>(map: &'a BTreeMap<String, T>, name: &str) -> Option<&'a T> {
    map.iter().find(|(key, _)| key.eq_ignore_ascii_case(name)).map(|(_, value)| value).or_else(|| map.get("*"))
}

/// Looks a key up without regard to ASCII case.
pub fn get_ci<'a>(map: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
    map.get(key).or_else(|| map.iter().find(|(name, _)| name.eq_ignore_ascii_case(key)).map(|(_, value)| value))
}
