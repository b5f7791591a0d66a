//! The composition tree of a live cluster, read once per run: the XRDs say which kinds are XRs
//! and claims, then every object of those kinds is listed (`upjet_cluster::composition`), reduced
//! page by page to what the tree keeps (`upjet_evidence::composition`). A kind whose list fails is
//! left unlisted: an MR whose XR is of that kind is then neither gone nor orphaned, only unknown.

use futures::StreamExt;
use upjet_cluster::composition as list;
use upjet_cluster::connect::Connection;
use upjet_core::composition::{Composite, Composites, Xrd};
use upjet_evidence::composition::{composites, xrds};

/// How many XR and claim kinds are listed at once.
const CONCURRENT_KINDS: usize = 4;

/// The XRDs, XRs and claims of the cluster, and a note per list that failed (none when the
/// cluster serves no XRD: no Crossplane, or one without compositions).
pub(crate) async fn read_live(conn: &Connection) -> (Composites, Vec<String>) {
    let mut notes = Vec::new();
    let defined: Vec<Xrd> = match list::xrds(conn, |items| xrds(items).0).await {
        Ok(Some(all)) => all,
        Ok(None) => return (Composites::default(), notes),
        Err(e) if e.status_code() == Some(403) => {
            notes.push("composition tree not read: not allowed to list CompositeResourceDefinitions".into());
            return (Composites::default(), notes);
        }
        Err(e) => {
            notes.push(format!("composition tree not read: cannot list CompositeResourceDefinitions: {}", e.reason()));
            return (Composites::default(), notes);
        }
    };
    let mut index = Composites::of_xrds(&defined);
    let kinds: Vec<(String, String, String, String)> = defined
        .iter()
        .filter(|x| !x.version.is_empty())
        .flat_map(|x| {
            let xr = (x.group.clone(), x.version.clone(), x.plural.clone(), x.kind.clone());
            let claim = x
                .claim
                .as_ref()
                .map(|(kind, plural)| (x.group.clone(), x.version.clone(), plural.clone(), kind.clone()));
            std::iter::once(xr).chain(claim)
        })
        .collect();
    let lists = futures::stream::iter(kinds.into_iter().map(|(group, version, plural, kind)| async move {
        let got = list::objects(conn, (&group, &version, &plural), |items| composites(items).0).await;
        (group, plural, kind, got)
    }))
    .buffer_unordered(CONCURRENT_KINDS)
    .collect::<Vec<_>>()
    .await;
    for (group, plural, kind, got) in lists {
        match got {
            Ok(objects) => {
                index.listed(&group, &kind);
                add_all(&mut index, objects);
            }
            Err(e) => notes.push(format!("composition tree: cannot list {plural}.{group}: {}", e.reason())),
        }
    }
    (index, notes)
}

/// Adds the objects listed to the index.
fn add_all(index: &mut Composites, objects: Vec<Composite>) {
    for c in objects {
        index.add(c);
    }
}
