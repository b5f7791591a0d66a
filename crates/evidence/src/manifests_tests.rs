use super::*;

/// (what the case shows, the text, each document's (start line, first content line, first text line)).
type SplitCase = (&'static str, &'static str, &'static [(usize, usize, &'static str)]);

const SPLITS: &[SplitCase] = &[
    ("one document, no marker", "a: 1\nb: 2\n", &[(1, 1, "a: 1")]),
    ("leading marker and comments", "# header\n---\n# about x\nkind: X\n", &[(2, 4, "---")]),
    ("two documents", "---\na: 1\n---\nb: 2\n", &[(1, 2, "---"), (3, 4, "---")]),
    ("empty documents are left out", "---\n---\n# only a comment\n---\na: 1\n", &[(4, 5, "---")]),
    ("the end marker closes a document", "a: 1\n...\n# trailer\nb: 2\n", &[(1, 1, "a: 1"), (3, 4, "# trailer")]),
    ("content after the marker", "--- |\n  text\n", &[(1, 1, "--- |")]),
    ("marker with a comment", "--- # first\na: 1\n", &[(1, 2, "--- # first")]),
    ("a block scalar holding --- indented", "a: |\n  x\n  ---\n  y\nb: 2\n", &[(1, 1, "a: |")]),
    ("---foo is a scalar, not a marker", "---foo\n", &[(1, 1, "---foo")]),
    ("a commented marker is a comment", "a: 1\n# ---\nb: 2\n", &[(1, 1, "a: 1")]),
    ("CRLF line ends", "---\r\na: 1\r\n---\r\nb: 2\r\n", &[(1, 2, "---"), (3, 4, "---")]),
    ("a byte order mark", "\u{feff}a: 1\n", &[(1, 1, "a: 1")]),
    ("a directive is no content", "%YAML 1.2\n---\na: 1\n", &[(2, 3, "---")]),
];

#[test]
fn split_documents_keeps_lines() {
    for (what, text, want) in SPLITS {
        let got: Vec<(usize, usize, &str)> = split_documents(text)
            .iter()
            .map(|d| (d.start_line, d.line, d.text.lines().next().unwrap_or_default()))
            .collect();
        assert_eq!(&got, want, "{what}");
    }
}

#[test]
fn each_document_keeps_its_text() {
    let docs = split_documents("a: |\n  ---\n---\nb: 2\n...\n");
    assert_eq!(docs.iter().map(|d| d.text).collect::<Vec<_>>(), ["a: |\n  ---\n", "---\nb: 2\n"]);
    let value: Value = serde_saphyr::from_str(docs[0].text).unwrap();
    assert_eq!(value["a"], "---\n");
}

const MR: &str = "apiVersion: ec2.aws.upbound.io/v1beta1\nkind: VPC\nmetadata:\n  name: {}\nspec:\n  forProvider:\n    region: us-east-1\n";

#[test]
fn read_yaml_gives_each_object_its_line_and_goes_on_after_a_syntax_error() {
    let text =
        format!("# repo header\n---\n{}---\nkind: [broken\n---\n{}", MR.replace("{}", "a"), MR.replace("{}", "b"));
    let read = read_yaml(&text);
    let names: Vec<(usize, &str)> =
        read.objects.iter().map(|o| (o.line, o.value["metadata"]["name"].as_str().unwrap())).collect();
    assert_eq!(names, [(3, "a"), (13, "b")]);
    assert_eq!(read.errors.len(), 1);
    assert_eq!(read.errors[0].line, 11, "{:?}", read.errors);
    assert_eq!(read.errors[0].message, "unclosed bracket '['", "{:?}", read.errors);
}

#[test]
fn read_yaml_unpacks_lists_with_each_items_line() {
    let text = "---\napiVersion: v1\nkind: List\nitems:\n- kind: A\n  metadata: {name: a}\n- kind: B\n  metadata:\n    name: b\n";
    let read = read_yaml(text);
    let lines: Vec<(usize, &str)> = read.objects.iter().map(|o| (o.line, o.value["kind"].as_str().unwrap())).collect();
    assert_eq!(lines, [(5, "A"), (7, "B")]);
}

#[test]
fn read_json_reports_its_own_line() {
    let read = read_json("{\n\"kind\": \"X\",\n}");
    assert_eq!(read.errors[0].line, 3);
    assert_eq!(read_json(r#"{"kind":"List","items":[{"a":1},{"b":2}]}"#).objects.len(), 2);
}

#[test]
fn shapes() {
    let of = |yaml: &str| Shape::of(&serde_saphyr::from_str::<Value>(yaml).unwrap());
    let mr = MR.replace("{}", "a");
    assert_eq!(of(&mr), Shape::Manifest);
    assert_eq!(of(&format!("{mr}status:\n  conditions: []\n")), Shape::Live);
    assert_eq!(of(&mr.replace("  name: a", "  name: a\n  uid: u1")), Shape::Live);
    assert_eq!(of("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n"), Shape::NotManaged);
    assert_eq!(of("replicas: 3\n"), Shape::NotObject);
}

#[test]
fn heads() {
    let mr = MR.replace("{}", "a");
    assert!(!head_looks_live(&mr));
    assert!(!head_looks_live(&format!("{mr}    versioning:\n      status: Enabled\n")), "a cloud field named status");
    assert!(!head_looks_live("metadata:\n  creationTimestamp: null\n"));
    assert!(head_looks_live("metadata:\n  resourceVersion: \"7\"\n"));
    assert!(head_looks_live("items:\n- apiVersion: x\n  status:\n"));
    assert!(head_looks_live(r#"{"kind":"List","items":[{"metadata":{"uid":"u"}}]}"#));
    assert!(!head_looks_live(r#"{"kind":"VPC","metadata":{"name":"a"}}"#));
}

#[test]
fn references_name_mrs_at_any_depth_but_not_secrets() {
    let yaml = "spec:\n  forProvider:\n    vpcIdRef: {name: main}\n    subnetIdRefs:\n    - name: a\n    - name: b\n      namespace: net\n    passwordSecretRef: {name: s, key: k}\n    rule:\n    - targetRef: {name: t}\n  initProvider:\n    zoneIdRef: {name: z}\n  providerConfigRef: {name: default}\n";
    let refs = references(&serde_saphyr::from_str(yaml).unwrap());
    let got: Vec<(&str, &str, Option<&str>)> =
        refs.iter().map(|r| (r.field.as_str(), r.name.as_str(), r.namespace.as_deref())).collect();
    assert_eq!(
        got,
        [
            ("spec.forProvider.rule[0].targetRef", "t", None),
            ("spec.forProvider.subnetIdRefs[0]", "a", None),
            ("spec.forProvider.subnetIdRefs[1]", "b", Some("net")),
            ("spec.forProvider.vpcIdRef", "main", None),
            ("spec.initProvider.zoneIdRef", "z", None),
        ]
    );
}

/// Each manifest judged with what the set shows it: nine manifests agree on
/// `{forProvider.region}/{name}` (a supermajority of ten), the tenth is off it and names a
/// manifest that is not there; two VPCs act on one object.
#[test]
fn a_lint_judges_each_manifest_with_what_the_set_shows() {
    use upjet_core::finding::Code;
    use upjet_core::testing::Mr;
    let mut set = upjet_core::testing::zones_one_off_format();
    set.extend([
        Mr::new("Vpc", "v").policies(&["Observe"]).manifest(&[]),
        Mr::new("Vpc", "w").policies(&["Observe", "Create", "Update", "Delete"]).external_name("vpc-1").manifest(&[]),
        Mr::new("Vpc", "x").external_name("vpc-1").manifest(&[]),
    ]);
    let lint = lint(&set, GoTime::parse_rfc3339("2024-11-30T12:00:00Z").unwrap());
    let codes: Vec<Vec<&str>> = lint.findings.iter().map(|fs| fs.iter().map(|f| f.code.as_str()).collect()).collect();
    assert!(codes[..9].iter().all(Vec::is_empty), "{codes:?}");
    assert_eq!(
        codes[9..],
        [
            vec!["ExternalNameOffFormat", "ReferenceOutsideManifests"],
            vec!["ObserveOnlyWithoutExternalName"],
            vec!["LateInitializeMissing", "ExternalNameShared"],
            vec!["ExternalNameShared"],
        ]
    );
    assert_eq!(lint.findings[9][0].suggested_id.as_deref(), Some("eu/j"));
    assert!(lint.findings[9][1].message.contains("spec.forProvider.peerRef → zz"), "{:?}", lint.findings[9][1]);
    assert!(lint.ran.contains(&Code::LateInitializeMissing) && !lint.ran.contains(&Code::CreateIncomplete));
    assert!(lint.need_cluster.contains(&Code::CreateIncomplete));
    assert_eq!(lint.ran.len() + lint.need_cluster.len(), Code::ALL.len());
}
