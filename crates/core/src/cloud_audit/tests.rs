//! Table tests of attribution: who the provider is, which creates are an MR's, and what is
//! reported instead of guessed. Each case is a fleet (healthy peers and the MRs under test), the
//! calls of a record, and what the check says about each MR, as one line.

use super::*;
use crate::managed::{ManagedResource, keys};
use crate::testing::Mr;

const ROLE: &str = "arn:aws:iam::111122223333:role/provider-aws";

/// A call of the record, built field by field.
#[derive(Clone)]
pub struct Call(CloudCall);

impl Call {
    /// A successful AWS create by the provider's role at `at`.
    pub fn aws(action: &str, at: &str) -> Call {
        Call(CloudCall::aws_test("ec2.amazonaws.com", action, at))
    }
    /// Adds a request value.
    pub fn req(mut self, path: &str, value: &str) -> Call {
        self.0.request.push(Param { path: path.into(), value: value.into() });
        self
    }
    /// Adds a response value.
    pub fn resp(mut self, path: &str, value: &str) -> Call {
        self.0.response.push(Param { path: path.into(), value: value.into() });
        self
    }
    /// Adds a crossplane tag to the request.
    pub fn tag(mut self, key: &str, value: &str) -> Call {
        self.0.tags.set(key, value);
        self
    }
    /// Made by another principal.
    pub fn by(mut self, principal: &str) -> Call {
        self.0.principal = Some(principal.into());
        self
    }
    /// In another account.
    pub fn account(mut self, a: &str) -> Call {
        self.0.account = Some(a.into());
        self
    }
    /// Failed; `exists` when the error says the object exists.
    pub fn failed(mut self, code: &str, exists: bool) -> Call {
        self.0.outcome = Outcome::Failed { code: code.into(), message: String::new(), exists };
        self
    }
    /// The call.
    pub fn build(self) -> CloudCall {
        self.0
    }
}

/// A CIDR of its own for each name.
fn cidr(name: &str) -> String {
    format!("10.{}.0.0/16", name.bytes().map(u32::from).sum::<u32>() % 250)
}

fn vpc(name: &str) -> Mr {
    Mr::new("VPC", name).api_version("ec2.aws.upbound.io/v1beta1").param("cidrBlock", cidr(name))
}

/// A healthy VPC created at 09:00 + `min` minutes, and its create.
fn peer(name: &str, id: &str, min: u32) -> (Mr, Call) {
    let at = format!("2024-11-30T09:{min:02}:00Z");
    let mr = vpc(name).external_name(id).healthy().annotation(keys::CREATE_PENDING, &at).created(&at);
    let call = Call::aws("CreateVpc", &at).req("cidrBlock", &cidr(name)).resp("vpc.vpcId", id);
    (mr, call.tag("crossplane-name", name).tag("crossplane-kind", "vpc.ec2.aws.upbound.io"))
}

/// The create of the lost VPC `name` (no tag unless given), at 10:00 + `min` minutes.
fn lost_create(name: &str, id: &str, min: u32) -> Call {
    let at = format!("2024-11-30T10:{min:02}:00Z");
    Call::aws("CreateVpc", &at).req("cidrBlock", &cidr(name)).resp("vpc.vpcId", id)
}

/// One line per MR: what the check says.
fn summary(a: &MrCloudAudit) -> String {
    let ids = |v: &[Observed]| v.iter().map(|o| o.object().unwrap_or("?").to_string()).collect::<Vec<_>>().join(",");
    let deletes: Vec<String> = a.deletes.iter().map(|d| format!("{}:{:?}", d.id, d.by_provider)).collect();
    let conflicts: Vec<String> = a
        .conflicts
        .iter()
        .map(|c| c.existing.iter().filter_map(Observed::object).collect::<Vec<_>>().join("+"))
        .collect();
    format!(
        "creates=[{}] others=[{}] conflicts=[{}] deletes=[{}] unattributed={}",
        ids(&a.creates),
        ids(&a.others),
        conflicts.join(","),
        deletes.join(","),
        a.unattributed.len()
    )
}

type Case = (
    &'static str,
    fn() -> Vec<Mr>,
    fn() -> Vec<Call>,
    &'static [&'static str],
    &'static [(&'static str, &'static str)],
);

fn peers() -> Vec<Mr> {
    vec![peer("core", "vpc-0core", 1).0, peer("edge", "vpc-0edge", 2).0]
}

fn peer_calls() -> Vec<Call> {
    vec![peer("core", "vpc-0core", 1).1, peer("edge", "vpc-0edge", 2).1]
}

fn lost(name: &str) -> Mr {
    vpc(name).annotation(keys::CREATE_PENDING, "2024-11-30T10:00:00Z")
}

fn fleet(extra: Vec<Mr>) -> Vec<Mr> {
    peers().into_iter().chain(extra).collect()
}

fn record(extra: Vec<Call>) -> Vec<Call> {
    peer_calls().into_iter().chain(extra).collect()
}

const TRACKED: &str = "creates=[vpc-0core] others=[] conflicts=[] deletes=[] unattributed=0";

const CASES: &[Case] = &[
    ("peers' own creates are tied by their ID", || fleet(vec![]), || record(vec![]), &[], &[("core", TRACKED)]),
    (
        "a lost MR's create, named by its tag and fields, gives the cloud's ID",
        || fleet(vec![lost("payments")]),
        || record(vec![lost_create("payments", "vpc-0pay", 1).tag("crossplane-name", "payments")]),
        &[],
        &[("payments", "creates=[vpc-0pay] others=[] conflicts=[] deletes=[] unattributed=0")],
    ),
    (
        "no tag: the learned request field alone names it",
        || fleet(vec![lost("payments")]),
        || record(vec![lost_create("payments", "vpc-0pay", 1)]),
        &[],
        &[("payments", "creates=[vpc-0pay] others=[] conflicts=[] deletes=[] unattributed=0")],
    ),
    (
        "a create outside the window is not this MR's",
        || fleet(vec![lost("payments")]),
        || {
            record(vec![lost_create("payments", "vpc-0pay", 1).tag("crossplane-name", "payments")])
                .into_iter()
                .chain([Call::aws("CreateVpc", "2024-11-30T13:00:00Z")
                    .tag("crossplane-name", "payments")
                    .resp("vpc.vpcId", "vpc-0late")])
                .collect()
        },
        &[],
        &[("payments", "creates=[vpc-0pay] others=[] conflicts=[] deletes=[] unattributed=0")],
    ),
    (
        "two creates across a restart: both are the MR's",
        || fleet(vec![lost("payments").annotation(keys::CREATE_SUCCEEDED, "2024-11-30T10:30:00Z")]),
        || record(vec![lost_create("payments", "vpc-0one", 1), lost_create("payments", "vpc-0two", 30)]),
        &[],
        &[("payments", "creates=[vpc-0one,vpc-0two] others=[] conflicts=[] deletes=[] unattributed=0")],
    ),
    (
        "another principal's create is not the provider's",
        || fleet(vec![lost("payments")]),
        || record(vec![lost_create("payments", "vpc-0pay", 1).by("arn:aws:iam::111122223333:user/alice")]),
        &[],
        &[("payments", "creates=[] others=[vpc-0pay] conflicts=[] deletes=[] unattributed=0")],
    ),
    (
        "a create in another account is reported, not tied",
        || fleet(vec![lost("payments")]),
        || record(vec![lost_create("payments", "vpc-0pay", 1).account("999988887777")]),
        &[],
        &[("payments", "creates=[] others=[] conflicts=[] deletes=[] unattributed=1")],
    ),
    (
        "a request naming two MRs is tied to neither",
        || fleet(vec![lost("pay-a"), lost("pay-b").param("cidrBlock", cidr("pay-a"))]),
        || record(vec![lost_create("pay-a", "vpc-0pay", 1)]),
        &[],
        &[
            ("pay-a", "creates=[] others=[] conflicts=[] deletes=[] unattributed=1"),
            ("pay-b", "creates=[] others=[] conflicts=[] deletes=[] unattributed=1"),
        ],
    ),
    (
        "a field the peers carry that disagrees rules the MR out",
        || fleet(vec![lost("payments")]),
        || {
            record(vec![
                Call::aws("CreateVpc", "2024-11-30T10:01:00Z")
                    .req("cidrBlock", "172.16.0.0/12")
                    .resp("vpc.vpcId", "vpc-0x"),
            ])
        },
        &[],
        &[("payments", "")],
    ),
    (
        "no peer: the identity is unknown, the create is reported",
        || vec![lost("payments")],
        || vec![lost_create("payments", "vpc-0pay", 1).req("tagSpecificationSet.items[].tags[].value", "payments")],
        &[],
        &[("payments", "creates=[] others=[] conflicts=[] deletes=[] unattributed=1")],
    ),
    (
        "no peer, --cloud-principal given: tied by its name, the ID unproven",
        || vec![lost("payments")],
        || vec![lost_create("payments", "vpc-0pay", 1).req("tagSpecificationSet.items[].tags[].value", "payments")],
        &["provider-aws"],
        &[("payments", "creates=[vpc-0pay] others=[] conflicts=[] deletes=[] unattributed=0")],
    ),
    (
        "already exists: the failed create names what it ran into",
        || fleet(vec![lost("payments").annotation(keys::CREATE_FAILED, "2024-11-30T10:20:00Z")]),
        || {
            record(vec![
                lost_create("payments", "vpc-0pay", 1),
                lost_create("payments", "", 20).failed("VpcLimitExceeded.AlreadyExists", true),
            ])
        },
        &[],
        &[("payments", "creates=[vpc-0pay] others=[] conflicts=[vpc-0pay] deletes=[] unattributed=0")],
    ),
    (
        "a delete of the tracked object by someone else",
        || fleet(vec![]),
        || {
            record(vec![
                Call::aws("DeleteVpc", "2024-11-30T11:00:00Z")
                    .req("vpcId", "vpc-0core")
                    .by("arn:aws:iam::111122223333:user/bob"),
            ])
        },
        &[],
        &[("core", "creates=[vpc-0core] others=[] conflicts=[] deletes=[vpc-0core:Some(false)] unattributed=0")],
    ),
    (
        "a CreateTags naming the tracked ID is not a create",
        || fleet(vec![]),
        || {
            record(vec![
                Call::aws("CreateTags", "2024-11-30T09:01:05Z").req("resourcesSet.items[].resourceId", "vpc-0core"),
            ])
        },
        &[],
        &[("core", TRACKED)],
    ),
];

fn run(mrs: &[Mr], calls: Vec<Call>, principals: &[&str]) -> (Vec<ManagedResource>, CloudAuditCheck) {
    let built: Vec<ManagedResource> = mrs.iter().map(Mr::build).collect();
    let refs: Vec<&ManagedResource> = built.iter().collect();
    let calls: Vec<Arc<CloudCall>> = calls.into_iter().map(|c| Arc::new(c.build())).collect();
    let principals: Vec<String> = principals.iter().map(|p| p.to_string()).collect();
    let opts = Options { principals: &principals, window: &Window::of };
    let result = check(&calls, &refs, &opts);
    (built, result)
}

#[test]
fn attribution_table() {
    for (name, mrs, calls, principals, want) in CASES {
        let (built, result) = run(&mrs(), calls(), principals);
        for (mr, line) in *want {
            let mr = built.iter().find(|m| m.name == *mr).unwrap();
            let got = result.for_mr(mr).map(summary).unwrap_or_default();
            assert_eq!(got, *line, "{name}: {mr:?}\n{:#?}\nnotes: {:?}", result.for_mr(mr), result.notes);
        }
    }
}

#[test]
fn peers_teach_identity_kind_and_id_form() {
    let (built, result) =
        run(&fleet(vec![lost("payments")]), record(vec![lost_create("payments", "vpc-0pay", 1)]), &[]);
    let a = result.for_mr(built.iter().find(|m| m.name == "payments").unwrap()).unwrap();
    assert!(a.identity.as_deref().unwrap().starts_with(ROLE), "{:?}", a.identity);
    assert!(a.id_rule.contains("vpc.vpcId") && a.id_rule.contains("2 of 2"), "{}", a.id_rule);
    assert!(a.creates[0].by.contains("forProvider.cidrBlock"), "{}", a.creates[0].by);
    assert!(!a.creates[0].tracked);
}

#[test]
fn a_principal_shared_by_providers_is_noted() {
    let gcp =
        || Mr::new("VPC", "other").api_version("ec2.aws.crossplane.io/v1beta1").external_name("vpc-0other").healthy();
    let mut calls = peer_calls();
    calls.push(Call::aws("CreateVpc", "2024-11-30T09:30:00Z").resp("vpc.vpcId", "vpc-0other"));
    let (_, result) = run(&fleet(vec![gcp()]), calls, &[]);
    assert!(result.notes.iter().any(|n| n.contains("used by several providers")), "{:?}", result.notes);
}

#[test]
fn principals_compare_as_users_give_them() {
    let known = |k: &str| vec![Arc::<str>::from(k)];
    assert!(learn::principal_is(ROLE, &known("provider-aws")));
    assert!(learn::principal_is(ROLE, &known("arn:aws:sts::111122223333:assumed-role/provider-aws/1732960800123")));
    assert!(!learn::principal_is(ROLE, &known("arn:aws:sts::999988887777:assumed-role/provider-aws/s")));
    assert!(learn::principal_is(
        "Provider@Acme-Prod.iam.gserviceaccount.com",
        &known("provider@acme-prod.iam.gserviceaccount.com")
    ));
    assert!(!learn::principal_is(ROLE, &known("arn:aws:iam::111122223333:role/other")));
}
