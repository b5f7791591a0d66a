//! client-go's jsonpath test cases (util/jsonpath/jsonpath_test.go), rewritten as tables over
//! JSON input: kubectl hands the engine unstructured JSON, where maps print with sorted keys.

use super::Template;
use serde_json::{Value, json};

fn run(template: &str, input: &Value, allow_missing: bool) -> Result<String, String> {
    let mut t = Template::parse(template).map_err(|e| e.0)?;
    t.allow_missing_keys = allow_missing;
    t.execute(input).map_err(|e| e.0)
}

/// (template, expected output, or None when client-go rejects it at parse or run time).
fn check(cases: &[(&str, Option<&str>)], input: &Value, allow_missing: bool) {
    for (template, expected) in cases {
        let got = run(template, input, allow_missing);
        match expected {
            Some(want) => assert_eq!(got.as_deref(), Ok(*want), "template {template}"),
            None => assert!(got.is_err(), "template {template} should fail, printed {got:?}"),
        }
    }
}

fn types() -> Value {
    json!({
        "bools": [true, false, true, false],
        "integers": [1, 2, 3, 4],
        "floats": [1.0, 2.2, 3.3, 4.0],
        "strings": ["one", "two", "three", "four"],
        "interfaces": [true, "one", 1, 1.1],
        "maps": [{"name": "one", "value": 1}, {"name": "two", "value": 2.02},
                 {"name": "three", "value": 3.03}, {"name": "four", "value": 4.04}],
    })
}

#[test]
fn slices_of_every_type() {
    check(
        &[
            ("{ .bools }", Some("[true,false,true,false]")),
            ("{ .bools[0] }", Some("true")),
            ("{ .bools[-1] }", Some("false")),
            ("{ .bools[0:2] }", Some("true false")),
            ("{ .bools[:2] }", Some("true false")),
            ("{ .bools[:4:2] }", Some("true true")),
            ("{ .integers }", Some("[1,2,3,4]")),
            ("{ .integers[-2] }", Some("3")),
            ("{ .integers[:4:2] }", Some("1 3")),
            ("{ .floats }", Some("[1,2.2,3.3,4]")),
            ("{ .floats[0] }", Some("1")),
            ("{ .floats[-2] }", Some("3.3")),
            ("{ .floats[:4:2] }", Some("1 3.3")),
            ("{ .strings }", Some(r#"["one","two","three","four"]"#)),
            ("{ .strings[-2] }", Some("three")),
            ("{ .strings[:4:2] }", Some("one three")),
            ("{ .interfaces }", Some(r#"[true,"one",1,1.1]"#)),
            ("{ .interfaces[0:2] }", Some("true one")),
            ("{ .interfaces[:4:2] }", Some("true 1")),
            ("{ .maps[0] }", Some(r#"{"name":"one","value":1}"#)),
            ("{ .maps[-2] }", Some(r#"{"name":"three","value":3.03}"#)),
            ("{ .maps[::2] }", Some(r#"{"name":"one","value":1} {"name":"three","value":3.03}"#)),
            ("{ .maps[1::2] }", Some(r#"{"name":"two","value":2.02} {"name":"four","value":4.04}"#)),
        ],
        &types(),
        false,
    );
}

fn store() -> Value {
    json!({
        "Name": "jsonpath",
        "Book": [
            {"Category": "reference", "Author": "Nigel Rees", "Title": "Sayings of the Centurey", "Price": 8.95},
            {"Category": "fiction", "Author": "Evelyn Waugh", "Title": "Sword of Honour", "Price": 12.99},
            {"Category": "fiction", "Author": "Herman Melville", "Title": "Moby Dick", "Price": 8.99},
        ],
        "Bicycle": [
            {"Color": "red", "Price": 19.95, "IsNew": true},
            {"Color": "green", "Price": 20.01, "IsNew": false},
        ],
        "Labels": {"engieer": 10, "web/html": 15, "k8s-app": 20},
        "Employees": {"jason": "manager", "dan": "clerk"},
    })
}

#[test]
fn store_cases() {
    check(&[("hello jsonpath", Some("hello jsonpath")), (r#"{"{"}"#, Some("{"))], &Value::Null, false);
    check(&[("{..}", Some("[1,2,3]"))], &json!([1, 2, 3]), false);
    check(&[("{[?(@<5)]}", Some("2 3"))], &json!([2, 6, 3, 7]), false);
    check(&[("{[1,3,4]}", Some("1 3 4"))], &json!([0, 1, 2, 3, 4]), false);
    check(&[("{[0:2]}", Some("Monday Tudesday"))], &json!(["Monday", "Tudesday"]), false);
    let bike_red = r#"{"Color":"red","IsNew":true,"Price":19.95}"#;
    let bike_green = r#"{"Color":"green","IsNew":false,"Price":20.01}"#;
    let moby = r#"{"Author":"Herman Melville","Category":"fiction","Price":8.99,"Title":"Moby Dick"}"#;
    let both = format!("{bike_red} {bike_green}");
    let both_listed = format!("[{bike_red},{bike_green}]");
    let both_ranged = format!("{bike_red} {bike_green} ");
    check(
        &[
            ("hello {.Name}", Some("hello jsonpath")),
            ("{$.Labels.web/html}", Some("15")),
            ("{$.Employees.jason}", Some("manager")),
            ("{$.Employees.dan}", Some("clerk")),
            ("{.Labels.k8s-app}", Some("20")),
            ("{.Bicycle[*].Color}", Some("red green")),
            ("{.Book[*].Author}", Some("Nigel Rees Evelyn Waugh Herman Melville")),
            (r#"{range .Bicycle[*]}{ "{" }{ @.* }{ "} " }{end}"#, Some("{red true 19.95} {green false 20.01} ")),
            // client-go's input is a struct (Book before Bicycle); JSON maps are visited sorted.
            ("{..Price}", Some("19.95 20.01 8.95 12.99 8.99")),
            ("{...Price}", Some("19.95 20.01 8.95 12.99 8.99")),
            ("{............................................................Price}", None),
            ("{.Bicycle}", Some(&both_listed)),
            (r#"{range .Bicycle[*]}{ @ }{ " " }{end}"#, Some(&both_ranged)),
            ("{.Book[-1:]}", Some(moby)),
            ("{..Book[2]}", Some(moby)),
            ("{.Bicycle[?(@.IsNew==true)]}", Some(bike_red)),
            ("{.Bicycle[?(@.Color=~'.*ed.*')]}", Some(bike_red)),
            ("{.Bicycle[?(@.Color=~'^g.*en.*')]}", Some(bike_green)),
            ("{.Bicycle[?(@.Color=~'.*e.*')]}", Some(&both)),
            ("{.Bicycle[?(@.IsNew=~'.*ue')]}", None),
            ("{.Bicycle[?(@.Price=~'.*95')]}", None),
        ],
        &store(),
        false,
    );
    check(&[("{.hello}", Some("")), ("before-{.hello}after", Some("before-after"))], &store(), true);
}

#[test]
fn store_errors_carry_client_go_messages() {
    let cases = [
        ("{hello}", "unrecognized identifier hello"),
        ("{.hello}", "hello is not found"),
        ("{.Labels[0]}", "map[string]interface {} is not array or slice"),
        ("{.Book[?(@.Price<>10)]}", "unrecognized filter operator <>"),
        ("{range .Labels.*}{@}{end}{end}", "not in range, nothing to end"),
        ("{.a", "unclosed action"),
        ("{.a[0}", "unterminated array"),
        ("{.a[x]}", "invalid array index x"),
    ];
    for (template, message) in cases {
        assert_eq!(run(template, &store(), false), Err(message.to_string()), "{template}");
    }
}

#[test]
fn json_input_filters_and_bracket_keys() {
    let points = json!([
        {"id": "i1", "x": 4, "y": -5}, {"id": "i2", "x": -2, "y": -5, "z": 1},
        {"id": "i3", "x": 8, "y": 3}, {"id": "i4", "x": -6, "y": -1},
        {"id": "i5", "x": 0, "y": 2, "z": 1}, {"id": "i6", "x": 1, "y": 4},
    ]);
    check(&[("{[?(@.z)].id}", Some("i2 i5")), ("{[0]['id']}", Some("i1"))], &points, false);
}

fn nodes() -> Value {
    json!({
        "kind": "List",
        "items": [
            {"kind": "None", "metadata": {"name": "127.0.0.1", "labels": {"kubernetes.io/hostname": "127.0.0.1"}},
             "status": {"capacity": {"cpu": "4"}, "ready": true,
                        "addresses": [{"type": "LegacyHostIP", "address": "127.0.0.1"}]}},
            {"kind": "None", "metadata": {"name": "127.0.0.2", "labels": {"kubernetes.io/hostname": "127.0.0.2"}},
             "status": {"capacity": {"cpu": "8"}, "ready": false,
                        "addresses": [{"type": "LegacyHostIP", "address": "127.0.0.2"},
                                      {"type": "another", "address": "127.0.0.3"}]}},
        ],
        "users": [{"name": "myself", "user": {}}, {"name": "e2e", "user": {"username": "admin", "password": "secret"}}],
    })
}

#[test]
fn kubernetes_cases() {
    check(
        &[
            ("{range .items[*]}{.metadata.name}, {end}{.kind}", Some("127.0.0.1, 127.0.0.2, List")),
            (r#"{range .items[*]}{.metadata.name}{"\t"}{end}"#, Some("127.0.0.1\t127.0.0.2\t")),
            ("{.items[*].status.addresses[*].address}", Some("127.0.0.1 127.0.0.2 127.0.0.3")),
            (
                "{range .items[*]}{range .status.addresses[*]}{.address}, {end}{end}",
                Some("127.0.0.1, 127.0.0.2, 127.0.0.3, "),
            ),
            ("{.items[*].metadata.name}", Some("127.0.0.1 127.0.0.2")),
            ("{.items[*]['metadata.name', 'status.capacity']}", Some(r#"127.0.0.1 127.0.0.2 {"cpu":"4"} {"cpu":"8"}"#)),
            (
                "{range .items[*]}[{.metadata.name}, {.status.capacity}] {end}",
                Some(r#"[127.0.0.1, {"cpu":"4"}] [127.0.0.2, {"cpu":"8"}] "#),
            ),
            (r#"{.users[?(@.name=="e2e")].user.password}"#, Some("secret")),
            (r"{.items[0].metadata.labels.kubernetes\.io/hostname}", Some("127.0.0.1")),
            (r#"{.items[?(@.metadata.labels.kubernetes\.io/hostname=="127.0.0.1")].kind}"#, Some("None")),
            ("{.items[?(@..ready==true)].metadata.name}", Some("127.0.0.1")),
        ],
        &nodes(),
        false,
    );
    let mut names: Vec<String> = run("{..name}", &nodes(), false).unwrap().split(' ').map(String::from).collect();
    names.sort();
    assert_eq!(names, ["127.0.0.1", "127.0.0.2", "e2e", "myself"]);
}

#[test]
fn empty_and_nested_ranges() {
    let empty = json!({"items": []});
    check(
        &[
            ("{range .items[*]}{.metadata.name}{end}", Some("")),
            (
                r#"{range .items[*]}{.metadata.name}{":"}{range @.spec.containers[*]}{.name}{","}{end}{"+"}{end}"#,
                Some(""),
            ),
        ],
        &empty,
        true,
    );
    let pods = json!({"items": [
        {"metadata": {"name": "pod1"}, "spec": {"containers": [
            {"name": "foo", "another": [{"name": "value1"}, {"name": "value2"}]},
            {"name": "bar", "another": [{"name": "value1"}, {"name": "value2"}]}]}},
        {"metadata": {"name": "pod2"}, "spec": {"containers": [
            {"name": "baz", "another": [{"name": "value1"}, {"name": "value2"}]}]}},
    ]});
    check(
        &[
            (
                r#"{range .items[*]}{.metadata.name}{":"}{range @.spec.containers[*]}{.name}{","}{end}{"+"}{end}"#,
                Some("pod1:foo,bar,+pod2:baz,+"),
            ),
            (
                concat!(
                    r#"{range .items[*]}{.metadata.name}{"~"}{range @.spec.containers[*]}{.name}{":"}"#,
                    r##"{range @.another[*]}{.name}{","}{end}{"+"}{end}{"#"}{end}"##
                ),
                Some("pod1~foo:value1,value2,+bar:value1,value2,+#pod2~baz:value1,value2,+#"),
            ),
            (
                concat!(
                    r#"{range .items[*]}{.metadata.name}{"\t"}{range @.spec.containers[*]}{.name}{" "}{end}"#,
                    r#"{"\t"}{range @.spec.containers[*]}{.name}{" "}{end}{"\n"}{end}"#
                ),
                Some("pod1\tfoo bar \tfoo bar \npod2\tbaz \tbaz \n"),
            ),
        ],
        &pods,
        false,
    );
}

#[test]
fn filters_tolerate_missing_keys_only_when_allowed() {
    let pods = json!({"kind": "List", "items": [
        {"kind": "Pod", "metadata": {"name": "pod1", "annotations": {"color": "blue"}}},
        {"kind": "Pod", "metadata": {"name": "pod2"}},
        {"kind": "Pod", "metadata": {"name": "pod3", "annotations": {"color": "green"}}},
        {"kind": "Pod", "metadata": {"name": "pod4", "annotations": {"color": "blue"}}},
    ]});
    let template = r#"{.items[?(@.metadata.annotations.color=="blue")].metadata.name}"#;
    check(&[(template, Some("pod1 pod4"))], &pods, true);
    check(&[(template, None)], &pods, false);
    let running = json!({"kind": "List", "items": [
        {"kind": "Pod", "metadata": {"name": "pod1"}, "status": {"phase": "Running"}},
        {"kind": "Pod", "metadata": {"name": "pod2"}, "status": {"phase": "Running"}},
        {"kind": "Pod", "metadata": {"name": "pod3"}, "status": {"phase": "Running"}},
        {"resourceVersion": ""},
    ]});
    check(
        &[(
            r#"{range .items[?(.status.phase=="Running")]}{.metadata.name}{" is Running\n"}{end}"#,
            Some("pod1 is Running\npod2 is Running\npod3 is Running\n"),
        )],
        &running,
        true,
    );
}

fn containers(n: usize) -> Value {
    let list: Vec<Value> =
        (0..n).map(|i| json!({"image": "radial/busyboxplus:curl", "name": format!("fake{i}")})).collect();
    json!({"apiVersion": "v1", "kind": "Pod", "spec": {"containers": list}})
}

#[test]
fn negative_indexes() {
    check(
        &[
            ("{.spec.containers[0].name}", Some("fake0")),
            ("{.spec.containers[0:0].name}", Some("")),
            ("{.spec.containers[0:-1].name}", Some("fake0 fake1 fake2")),
            ("{.spec.containers[-1:0].name}", None),
            ("{.spec.containers[-1].name}", Some("fake3")),
            ("{.spec.containers[-1:].name}", Some("fake3")),
            ("{.spec.containers[-2].name}", Some("fake2")),
            ("{.spec.containers[-2:].name}", Some("fake2 fake3")),
            ("{.spec.containers[-3].name}", Some("fake1")),
            ("{.spec.containers[-4].name}", Some("fake0")),
            ("{.spec.containers[-4:].name}", Some("fake0 fake1 fake2 fake3")),
            ("{.spec.containers[-5].name}", None),
            ("{.spec.containers[5:5].name}", Some("")),
            ("{.spec.containers[-5:-5].name}", Some("")),
            ("{.spec.containers[3:1].name}", None),
            ("{.spec.containers[-1:-2].name}", None),
        ],
        &containers(4),
        false,
    );
}

#[test]
fn steps() {
    check(
        &[
            ("{.spec.containers[0:].name}", Some("fake0 fake1 fake2 fake3 fake4 fake5")),
            ("{.spec.containers[0:6:].name}", Some("fake0 fake1 fake2 fake3 fake4 fake5")),
            ("{.spec.containers[0:6:1].name}", Some("fake0 fake1 fake2 fake3 fake4 fake5")),
            ("{.spec.containers[0:6:0].name}", None),
            ("{.spec.containers[0:6:-1].name}", None),
            ("{.spec.containers[1:4:2].name}", Some("fake1 fake3")),
            ("{.spec.containers[1:4:3].name}", Some("fake1")),
            ("{.spec.containers[1:4:4].name}", Some("fake1")),
            ("{.spec.containers[0:6:2].name}", Some("fake0 fake2 fake4")),
            ("{.spec.containers[0:6:3].name}", Some("fake0 fake3")),
            ("{.spec.containers[0:6:5].name}", Some("fake0 fake5")),
            ("{.spec.containers[0:6:6].name}", Some("fake0")),
        ],
        &containers(6),
        false,
    );
}

#[test]
fn go_printing_of_numbers_and_json() {
    use super::text::{go_float, sprint, to_json_indented};
    assert_eq!(go_float(1e6), "1e+06");
    assert_eq!(go_float(123456789.0), "1.23456789e+08");
    assert_eq!(go_float(0.0001), "0.0001");
    assert_eq!(go_float(0.00001), "1e-05");
    assert_eq!(go_float(19.95), "19.95");
    assert_eq!(sprint(&json!({"b": [1, "x"], "a": null})), "map[a:<nil> b:[1 x]]");
    assert_eq!(to_json_indented(&json!({"a": [1], "b": {}})), "{\n    \"a\": [\n        1\n    ],\n    \"b\": {}\n}");
    assert_eq!(super::text::to_json(&json!("<&>")), r#""\u003c\u0026\u003e""#);
}
