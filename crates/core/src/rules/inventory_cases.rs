//! Table-test support for the inventory rules: an MR, the objects tagged for it, and whether the
//! rule fires and which ID it suggests.

use super::{MrEvidence, findings_with};
use crate::finding::{Code, Finding};
use crate::inventory::id_form::Prediction;
use crate::inventory::{MrInventory, TaggedObject, Tracking};
use crate::managed::ProviderConfigKey;
use crate::testing::Mr;

/// (case, MR, tagged objects, `None`: no finding / `Some(suggestedId)`: one finding)
pub type Case = (&'static str, fn() -> Mr, fn() -> Vec<TaggedObject>, Option<Option<&'static str>>);

/// An object: its ID, whether the MR tracks it, and the external-name the peers predict.
pub fn obj(id: &str, tracked: bool, predicted: Option<&str>) -> TaggedObject {
    TaggedObject {
        id: id.into(),
        source: "inv.json".into(),
        tracking: if tracked { Tracking::Tracked } else { Tracking::Untracked },
        prediction: predicted.map_or(Prediction::Unproven, |p| Prediction::Id(p.into())),
        provider_config: Some(ProviderConfigKey::cluster_scoped("default")),
        without_namespace_tag: false,
    }
}

/// An object whose ID no form ties to the MR's (an SQS queue's ARN against its URL).
pub fn unknown(id: &str) -> TaggedObject {
    TaggedObject { tracking: Tracking::Unknown, ..obj(id, false, None) }
}

/// Every rule's findings for an MR with these tagged objects.
pub(crate) fn findings_for(mr: &Mr, objects: Vec<TaggedObject>) -> Vec<Finding> {
    let inventory = MrInventory {
        objects,
        rule: "external-name = the cloud ID, agreed by 1 of 1 healthy tagged peers".into(),
        gone: None,
    };
    let ev = MrEvidence { inventory: Some(inventory), ..MrEvidence::default() };
    findings_with(&mr.build(), Some(&ev), super::cases::at())
}

/// Checks that `code` fires (with that suggestion) or not, case by case.
pub(crate) fn check_inventory_cases(code: Code, cases: &[Case]) {
    for (name, mr, objects, want) in cases {
        let got: Vec<Option<String>> =
            findings_for(&mr(), objects()).into_iter().filter(|f| f.code == code).map(|f| f.suggested_id).collect();
        let want: Vec<Option<String>> = want.iter().map(|s| s.map(str::to_owned)).collect();
        assert_eq!(got, want, "case: {name}");
    }
}
