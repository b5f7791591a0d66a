use super::*;

#[test]
fn ordinary_arguments_print_as_they_are() {
    let c = ShellCommand::upjet("adopt")
        .target("vpc.ec2.aws.upbound.io/main", Some("team-a"))
        .opt("--id", "vpc-0a1b2c")
        .word("--import");
    assert_eq!(c.to_string(), "kubectl upjet adopt vpc.ec2.aws.upbound.io/main -n team-a --id vpc-0a1b2c --import");
    let arn = "arn:aws:iam::111122223333:role/app@x,y=z+1";
    assert_eq!(word(arn), arn, "ARNs, emails and key=value pairs need no quotes");
    let annotate = ShellCommand::kubectl("annotate")
        .args(["bucket.s3.aws.upbound.io", "b"])
        .arg_then("crossplane.io/paused", "-")
        .comment("in the source cluster");
    assert_eq!(
        annotate.to_string(),
        "kubectl annotate bucket.s3.aws.upbound.io b crossplane.io/paused-   # in the source cluster"
    );
    let chain = ShellCommand::upjet("guard").pipe("kubectl").word("apply").word("-f").word("-");
    assert_eq!(chain.to_string(), "kubectl upjet guard | kubectl apply -f -");
}

#[test]
fn each_argument_is_quoted_as_it_needs() {
    let cases: &[(&str, &str, &str)] = &[
        ("the issue's hostile ID", "vpc-0a b'c\"d$(touch /tmp/x)`id`;e", r#""vpc-0a b'c\"d"'$(touch /tmp/x)`id`;e'"#),
        ("a space", "a b", "'a b'"),
        ("empty", "", "''"),
        ("a leading =, which zsh expands", "=ls", "'=ls'"),
        ("a leading ~", "~root", "'~root'"),
        ("a glob", "vpc-*", "'vpc-*'"),
        ("history expansion", "a!b", "'a!b'"),
        ("a newline stays inside quotes", "a\nb", "'a\nb'"),
        ("ESC through printf", "a\u{1b}[2Jb", r#"a"$(printf '\033')"'[2Jb'"#),
        ("Ctrl-C and CR", "x\u{3}\ry", r#"x"$(printf '\003\015')"y"#),
        ("a C1 control as its UTF-8 bytes", "a\u{85}", r#"a"$(printf '\302\205')""#),
        ("unicode is quoted", "é", "'é'"),
    ];
    for (name, value, want) in cases {
        assert_eq!(word(value), *want, "{name}");
    }
}

#[test]
fn a_value_starting_with_a_dash_is_joined_to_its_flag() {
    let c = ShellCommand::upjet("adopt").arg("k.g/n").opt("--id", "--yes").word("--import");
    assert_eq!(c.to_string(), "kubectl upjet adopt k.g/n --id=--yes --import");
    assert_eq!(ShellCommand::upjet("adopt").opt("--id", "-a b").to_string(), "kubectl upjet adopt --id='-a b'");
}

#[test]
fn a_nul_byte_prints_no_command() {
    let c = ShellCommand::upjet("adopt").arg("k.g/n").opt("--id", "a\0;touch x");
    assert!(!c.passable());
    assert_eq!(c.to_string(), UNPASSABLE);
    let joined = ShellCommand::upjet("doctor").and_then(c);
    assert_eq!(joined.to_string(), UNPASSABLE, "a chain with such a command is not printed either");
    assert_eq!(word("a\0b"), r"a'\0'b", "a sentence shows it as \\0");
}

#[test]
fn sentences_keep_double_quotes_unless_the_value_needs_more() {
    assert_eq!(quoted("vpc-1"), "\"vpc-1\"");
    assert_eq!(quoted("it's a b"), "\"it's a b\"");
    assert_eq!(quoted(""), "\"\"");
    assert_eq!(quoted("a$(id)"), "'a$(id)'");
    assert_eq!(quoted("a\"b"), "'a\"b'");
    assert_eq!(quoted("a`id`"), "'a`id`'");
    assert_eq!(
        quoted("a\\b"),
        "\"a\\\\b\"",
        "a backslash is escaped inside double quotes (fish reads it in single ones)"
    );
}
