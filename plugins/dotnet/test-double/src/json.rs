//! A JSON object that keeps its keys in file order, so that fixtures print in the order they
//! are written (serde_json's own map sorts its keys unless an extra feature pulls in indexmap).

use std::fmt;

use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, Serializer};

/// An ordered JSON object.
#[derive(Clone, Debug, Default)]
pub struct Ordered<V>(pub Vec<(String, V)>);

impl<V> Ordered<V> {
    /// The value of `key`.
    pub fn get(&self, key: &str) -> Option<&V> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }
}

impl<V: Serialize> Serialize for Ordered<V> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

impl<'de, V: Deserialize<'de>> Deserialize<'de> for Ordered<V> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct OrderedVisitor<V>(std::marker::PhantomData<V>);

        impl<'de, V: Deserialize<'de>> Visitor<'de> for OrderedVisitor<V> {
            type Value = Ordered<V>;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON object")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Self::Value, A::Error> {
                let mut entries = Vec::new();
                while let Some((k, v)) = access.next_entry()? {
                    entries.push((k, v));
                }
                Ok(Ordered(entries))
            }
        }

        deserializer.deserialize_map(OrderedVisitor(std::marker::PhantomData))
    }
}

#[cfg(test)]
mod tests {
    use super::Ordered;

    #[test]
    fn keeps_key_order_both_ways() {
        let parsed: Ordered<String> = serde_json::from_str(r#"{"b":"1","a":"2"}"#).unwrap();
        assert_eq!(parsed.get("a").map(String::as_str), Some("2"));
        assert_eq!(serde_json::to_string(&parsed).unwrap(), r#"{"b":"1","a":"2"}"#);
    }
}
