//! A small map of strings kept as one sorted list: an MR's `crossplane.io/*` annotations and its
//! `forProvider` scalars.
//!
//! Exists for memory: a `BTreeMap<String, String>` allocates a node of eleven slots (about half a
//! KiB) for even one entry, and a fleet-wide run (an inventory or a cloud record tied to every
//! MR) keeps two such maps for each of tens of thousands of MRs. These maps hold a handful of
//! entries, so a sorted list looked up by binary search is as fast and a fraction of the size.
//! The API is the part of `BTreeMap`'s the code uses, in the same order.

use std::borrow::Borrow;

/// Keys in order, each once.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct StrMap(Vec<(String, String)>);

impl StrMap {
    /// An empty map.
    pub fn new() -> StrMap {
        StrMap(Vec::new())
    }

    fn find<Q: Ord + ?Sized>(&self, key: &Q) -> Result<usize, usize>
    where
        String: Borrow<Q>,
    {
        self.0.binary_search_by(|(k, _)| k.borrow().cmp(key))
    }

    /// The value of `key`.
    pub fn get<Q: Ord + ?Sized>(&self, key: &Q) -> Option<&String>
    where
        String: Borrow<Q>,
    {
        self.find(key).ok().map(|i| &self.0[i].1)
    }

    /// Whether `key` is set.
    pub fn contains_key<Q: Ord + ?Sized>(&self, key: &Q) -> bool
    where
        String: Borrow<Q>,
    {
        self.find(key).is_ok()
    }

    /// Sets `key`, returning the value it replaced.
    pub fn insert(&mut self, key: String, value: String) -> Option<String> {
        match self.find(key.as_str()) {
            Ok(i) => Some(std::mem::replace(&mut self.0[i].1, value)),
            Err(i) => {
                self.0.insert(i, (key, value));
                None
            }
        }
    }

    /// Removes `key`, returning its value.
    pub fn remove<Q: Ord + ?Sized>(&mut self, key: &Q) -> Option<String>
    where
        String: Borrow<Q>,
    {
        self.find(key).ok().map(|i| self.0.remove(i).1)
    }

    /// How many keys are set.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether no key is set.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The entries in key order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (&String, &String)> + ExactSizeIterator {
        self.0.iter().map(|(k, v)| (k, v))
    }

    /// The keys in order.
    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &String> + ExactSizeIterator {
        self.0.iter().map(|(k, _)| k)
    }

    /// The values in key order.
    pub fn values(&self) -> impl DoubleEndedIterator<Item = &String> + ExactSizeIterator {
        self.0.iter().map(|(_, v)| v)
    }

    /// Frees the room a growing list keeps beyond its entries.
    pub(crate) fn shrink_to_fit(&mut self) {
        self.0.shrink_to_fit();
    }
}

impl FromIterator<(String, String)> for StrMap {
    fn from_iter<I: IntoIterator<Item = (String, String)>>(iter: I) -> StrMap {
        let mut m = StrMap::new();
        for (k, v) in iter {
            m.insert(k, v);
        }
        m.shrink_to_fit();
        m
    }
}

impl<'a> IntoIterator for &'a StrMap {
    type Item = (&'a String, &'a String);
    type IntoIter =
        std::iter::Map<std::slice::Iter<'a, (String, String)>, fn(&'a (String, String)) -> (&'a String, &'a String)>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.iter().map(|(k, v)| (k, v))
    }
}

/// Streams a JSON object into a map: the entries whose key `keep` accepts and whose value `V`
/// reads as text (into `Some`); every other entry is skipped while decoding, never stored, so a
/// megabyte-long annotation or a nested policy costs nothing. `null` is an empty map. `expecting`
/// names the object in a decode error.
pub(crate) fn deserialize_kept<'de, D, V>(
    d: D,
    expecting: &'static str,
    keep: fn(&str) -> bool,
) -> Result<StrMap, D::Error>
where
    D: serde::Deserializer<'de>,
    V: serde::Deserialize<'de> + Into<Option<String>>,
{
    struct Kept<V> {
        expecting: &'static str,
        keep: fn(&str) -> bool,
        value: std::marker::PhantomData<V>,
    }
    impl<'de, V: serde::Deserialize<'de> + Into<Option<String>>> serde::de::Visitor<'de> for Kept<V> {
        type Value = StrMap;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str(self.expecting)
        }
        fn visit_unit<E>(self) -> Result<StrMap, E> {
            Ok(StrMap::new())
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<StrMap, A::Error> {
            let mut out = StrMap::new();
            while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
                if !(self.keep)(&key) {
                    map.next_value::<serde::de::IgnoredAny>()?;
                } else if let Some(value) = map.next_value::<V>()?.into() {
                    out.insert(key.into_owned(), value);
                }
            }
            out.shrink_to_fit();
            Ok(out)
        }
    }
    d.deserialize_any(Kept::<V> { expecting, keep, value: std::marker::PhantomData })
}

impl<Q: Ord + ?Sized> std::ops::Index<&Q> for StrMap
where
    String: Borrow<Q>,
{
    type Output = String;

    fn index(&self, key: &Q) -> &String {
        self.get(key).expect("no entry for the key")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    /// The same operations on a `BTreeMap` and on a `StrMap` give the same answers.
    #[test]
    fn behaves_as_the_btree_map_it_replaces() {
        let ops = [("b", "1"), ("a", "2"), ("c", "3"), ("a", "4"), ("", "5")];
        let (mut tree, mut list) = (BTreeMap::new(), StrMap::new());
        for (k, v) in ops {
            assert_eq!(tree.insert(k.to_string(), v.to_string()), list.insert(k.to_string(), v.to_string()));
        }
        assert_eq!(tree.iter().collect::<Vec<_>>(), list.iter().collect::<Vec<_>>());
        assert_eq!(
            (tree.len(), tree.get("a"), tree.contains_key("z")),
            (list.len(), list.get("a"), list.contains_key("z"))
        );
        assert_eq!(tree.remove("b"), list.remove("b"));
        assert_eq!(tree.remove("b"), list.remove("b"));
        assert_eq!(tree.keys().collect::<Vec<_>>(), list.keys().collect::<Vec<_>>());
        let collected: StrMap = ops.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        assert_eq!(collected["a"], "4");
        assert!(StrMap::default().is_empty());
    }
}
