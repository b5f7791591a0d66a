//! Repairs on composed MRs: adopt refuses an MR whose external-name the composition sets (its
//! next compose would put the old ID back), names the XR and what to change there, and writes
//! nothing; an MR whose composition leaves the external-name alone is adopted, and the next
//! compose keeps the adopted ID. The composite's writes are forced server-side applies.

use crate::support::adopt::*;
use crate::support::compose::{COMPOSITE_MANAGER, compose};
use crate::support::{Cluster, Mr, Upjet};
use serde_json::{Value, json};

const PATH: &str = "/apis/dns.gcp.upbound.io/v1beta2/recordsets/www";

fn cluster() -> Cluster {
    Cluster::builder()
        .crd_files("provider-upjet-gcp", &["dns.gcp.upbound.io_recordsets.yaml", "gcp.upbound.io_providerconfigs.yaml"])
        .start()
}

/// The MR as the composition renders it for XZone `zone-1`, with `external_name` when the
/// composition patches one onto it.
fn rendered(external_name: Option<&str>) -> Value {
    let mut obj = Mr::provisioned(RS, "RecordSet", "www").without_annotation(EXT).json();
    obj.as_object_mut().unwrap().remove("status");
    obj["metadata"].as_object_mut().unwrap().remove("finalizers");
    obj["metadata"]["labels"] = json!({"crossplane.io/composite": "zone-1"});
    obj["metadata"]["annotations"] = json!({"crossplane.io/composition-resource-name": "record"});
    if let Some(id) = external_name {
        obj["metadata"]["annotations"][EXT] = json!(id);
    }
    obj["metadata"]["ownerReferences"] = json!([{"apiVersion": "example.org/v1", "kind": "XZone", "name": "zone-1",
        "uid": "0b5e-zone-1", "controller": true, "blockOwnerDeletion": true}]);
    obj
}

/// Composes the MR, then gives it the state the provider left: an orphan at the create gate.
fn composed_orphan(c: &Cluster, external_name: Option<&str>) {
    let (code, body) = compose(&c.server.url, PATH, &rendered(external_name));
    assert_eq!(code, 201, "{body}");
    let orphan = Mr::provisioned(RS, "RecordSet", "www")
        .without_annotation(EXT)
        .create_incomplete()
        .at_provider_id("www-A")
        .json();
    c.api.modify(RS, "RecordSet", None, "www", |o| {
        o["status"] = orphan["status"].clone();
        o["metadata"]["finalizers"] = json!(["finalizer.managedresource.crossplane.io"]);
        for k in [PENDING, SUCCEEDED] {
            o["metadata"]["annotations"][k] = orphan["metadata"]["annotations"][k].clone();
        }
    });
}

fn get(c: &Cluster) -> Value {
    c.api.get(RS, "RecordSet", None, "www").expect("stored")
}

/// `adopt TARGET --id ID --yes` against `c`, its backups in the cluster's folder; the caller says
/// what it expects and runs it.
fn adopt(c: &Cluster, id: &str) -> Upjet {
    let backups = c.dir().join("backups");
    let mut cmd = c.upjet();
    cmd.args(["adopt", TARGET, "--id", id, "--yes", "--timeout", "30s"]).arg("--backup-dir").arg(&backups);
    cmd
}

#[test]
fn adopt_refuses_an_mr_whose_external_name_the_composition_sets_and_names_the_xr() {
    let c = cluster();
    composed_orphan(&c, Some("www-old"));
    let before = get(&c);
    let owner = &before["metadata"]["managedFields"][0];
    assert_eq!((owner["manager"].as_str(), owner["operation"].as_str()), (Some(COMPOSITE_MANAGER), Some("Apply")));
    adopt(&c, "www-A")
        .status(5)
        .stderr_contains("recordset.dns.gcp.upbound.io/www's identity belongs to its composition")
        .stderr_contains("the composition of XZone/zone-1 sets metadata.annotations[crossplane.io/external-name]")
        .stderr_contains("have it set the ID")
        .run();
    let after = get(&c);
    assert_eq!(a(&after, EXT), Some("www-old"));
    assert_eq!(after["metadata"]["resourceVersion"], before["metadata"]["resourceVersion"], "nothing was written");
}

#[test]
fn adopt_goes_ahead_when_the_composition_leaves_the_external_name_alone_and_the_next_compose_keeps_it() {
    let c = cluster();
    composed_orphan(&c, None);
    let _seen = provider(&c.api, Provider { cloud: vec!["www-A".into()], handles_token: true });
    adopt(&c, "www-A").stderr_contains("adopted recordset.dns.gcp.upbound.io/www: external-name \"www-A\"").run();
    assert_eq!(a(&get(&c), EXT), Some("www-A"));
    let (code, body) = compose(&c.server.url, PATH, &rendered(None));
    assert_eq!(code, 200, "{body}");
    assert_eq!(a(&get(&c), EXT), Some("www-A"), "the composition never owned it: the compose keeps it");

    // Had the composition set it, the same compose would take the field back: what adopt refuses.
    let (code, body) = compose(&c.server.url, PATH, &rendered(Some("www-old")));
    assert_eq!(code, 200, "{body}");
    assert_eq!(a(&get(&c), EXT), Some("www-old"));
}

/// An XR created again composes a new MR for the same resource with no external-name; adopt with
/// no `--id` takes the ID the ID journal recorded for its predecessor in that slot (another UID,
/// the same XR and resource name), and says where it came from.
#[test]
fn adopt_offers_a_recreated_xrs_new_mr_the_id_its_predecessor_held() {
    let c = cluster();
    composed_orphan(&c, None);
    let _seen = provider(&c.api, Provider { cloud: vec!["www-A".into()], handles_token: true });
    let journal = c.dir().join("journal");
    std::fs::create_dir_all(&journal).unwrap();
    let predecessor = json!({"time": "2024-11-30T09:00:00Z", "uid": "0b5e-earlier-www", "group": "dns.gcp.upbound.io",
        "kind": "RecordSet", "name": "zone-1-7f2c1", "source": "external-name", "id": "www-A",
        "composite": "zone-1", "resource": "record"});
    let other_slot = json!({"time": "2024-11-30T09:30:00Z", "uid": "0b5e-earlier-mx", "group": "dns.gcp.upbound.io",
        "kind": "RecordSet", "name": "zone-1-mx", "source": "external-name", "id": "mx-A",
        "composite": "zone-1", "resource": "mx"});
    std::fs::write(journal.join("journal.jsonl"), format!("{predecessor}\n{other_slot}\n")).unwrap();
    let backups = c.dir().join("backups");
    c.upjet()
        .args(["adopt", TARGET, "--yes", "--timeout", "30s", "--journal"])
        .arg(&journal)
        .arg("--backup-dir")
        .arg(&backups)
        .stderr_contains("the ID journal holds www-A for zone-1-7f2c1")
        .stderr_contains("using www-A from the ID journal")
        .stderr_contains("adopted recordset.dns.gcp.upbound.io/www: external-name \"www-A\"")
        .run();
    assert_eq!(a(&get(&c), EXT), Some("www-A"));
}

const XZONE_CRD: &str = "apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: xzones.example.org
spec:
  group: example.org
  names: {kind: XZone, listKind: XZoneList, plural: xzones, singular: xzone, categories: [composite]}
  scope: Cluster
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
";

/// `--pause-composite`: the XR is backed up and paused while the adoption writes the ID (no
/// compose can put the old one back meanwhile), its pause is put back as it was, and the user is
/// told what the composition must carry; an XR paused before stays paused.
#[test]
fn pause_composite_pauses_the_xr_for_the_adoption_and_puts_its_pause_back() {
    use std::sync::{Arc, Mutex};
    for was_paused in [false, true] {
        let c = cluster();
        c.api.add_crd_yaml(XZONE_CRD).unwrap();
        let mut xr =
            json!({"apiVersion": "example.org/v1", "kind": "XZone", "metadata": {"name": "zone-1"}, "spec": {}});
        if was_paused {
            xr["metadata"]["annotations"] = json!({"crossplane.io/paused": "true"});
        }
        c.api.insert(xr);
        composed_orphan(&c, Some("www-old"));
        let _seen = provider(&c.api, Provider { cloud: vec!["www-A".into()], handles_token: true });
        let xr_paused_at_write = Arc::new(Mutex::new(Vec::new()));
        let (api, seen) = (c.api.clone(), xr_paused_at_write.clone());
        c.api.on_write(move |obj| {
            if obj["kind"] == "RecordSet" && obj["metadata"]["annotations"][EXT] == "www-A" {
                let xr = api.get("example.org/v1", "XZone", None, "zone-1").unwrap();
                seen.lock().unwrap().push(xr["metadata"]["annotations"]["crossplane.io/paused"] == "true");
            }
        });
        let backups = c.dir().join("backups");
        let err = c
            .upjet()
            .args(["adopt", TARGET, "--id", "www-A", "--yes", "--pause-composite", "--timeout", "30s", "--backup-dir"])
            .arg(&backups)
            .stderr_contains("backed up xzone.example.org/zone-1 to ")
            .stderr_contains(
                "the composition of XZone/zone-1 still sets metadata.annotations[crossplane.io/external-name]",
            )
            .stderr_contains("adopted recordset.dns.gcp.upbound.io/www: external-name \"www-A\"")
            .run()
            .stderr;
        assert_eq!(a(&get(&c), EXT), Some("www-A"));
        let writes = xr_paused_at_write.lock().unwrap().clone();
        assert!(
            !writes.is_empty() && writes.iter().all(|p| *p),
            "the XR was paused at every write of the ID: {writes:?}"
        );
        let xr = c.api.get("example.org/v1", "XZone", None, "zone-1").unwrap();
        let paused_now = xr["metadata"]["annotations"]["crossplane.io/paused"] == "true";
        assert_eq!(paused_now, was_paused, "its pause is as it was: {err}");
        assert_eq!(
            err.contains("paused xzone.example.org/zone-1 (crossplane.io/paused: \"true\") for the adoption"),
            !was_paused,
            "an XR paused before is not paused again: {err}"
        );
        let backed_up = std::fs::read_dir(&backups).unwrap().count();
        assert_eq!(backed_up, 2, "the MR's and the XR's backups");
    }
}

/// A restore whose undo would write a field the composition now sets is refused the same way:
/// the next compose would revert it.
#[test]
fn restore_refuses_to_undo_a_field_the_composition_now_sets() {
    let c = cluster();
    composed_orphan(&c, None);
    let _seen = provider(&c.api, Provider { cloud: vec!["www-A".into()], handles_token: true });
    let o =
        adopt(&c, "www-A").stderr_contains("adopted recordset.dns.gcp.upbound.io/www: external-name \"www-A\"").run();
    let backup = backup_path(&o.stderr).expect("adopt names its backup");
    let (code, body) = compose(&c.server.url, PATH, &rendered(Some("www-A")));
    assert_eq!(code, 200, "{body}");
    let before = get(&c);
    c.upjet()
        .args(["restore", "--yes"])
        .arg(&backup)
        .status(5)
        .stderr_contains("identity belongs to its composition")
        .run();
    assert_eq!(get(&c)["metadata"]["resourceVersion"], before["metadata"]["resourceVersion"], "nothing was written");
}
