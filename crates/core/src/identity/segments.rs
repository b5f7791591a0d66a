//! Whether an external-name and a Terraform ID name the same cloud object.
//!
//! upjet derives the external-name from the Terraform ID with `GetExternalNameFromTemplated`
//! (`pkg/config/externalname.go`): it finds `{{ .external_name }}` in the resource's ID template,
//! takes the single character on each side of it as separators, and cuts the ID at those
//! separators. So for a templated identifier the external-name is a whole, separator-bounded
//! part of the ID, never an arbitrary substring: `vnet-hub` is not the name inside
//! `…/virtualNetworks/vnet-hub-old`, and `vpc-0abc` is not `vpc-0abcdef…`. The template itself
//! is provider configuration we cannot see, so the separators are those real upjet templates put
//! around `{{ .external_name }}`.

/// Characters real upjet templates put on either side of `{{ .external_name }}`: `/` (GCP, Azure
/// resource paths), `:` (`aws_guardduty_filter`, `github_branch`), `,`
/// (`aws_controltower_control`, `aws_apprunner_custom_domain_association`), `|`
/// (`aws_cloudwatch_log_subscription_filter`), `_` (`aws_lightsail_domain_entry`) and `.`
/// (`{{ .parameters.org }}.{{ .external_name }}`, `{{ .external_name }}.{{ .parameters.zone }}`
/// in community providers).
const SEPARATORS: &[char] = &['/', ':', ',', '|', '_', '.'];

/// Only ever seen *before* the external-name: `aws_appsync_datasource` is
/// `{{ .parameters.api_id }}-{{ .external_name }}`. Never after it: no template puts `-` there, and
/// names such as `vnet-hub-old` use `-` inside one name.
const LEFT_ONLY: &[char] = &['-'];

/// Only ever seen *after* the external-name: `google_service_account` is
/// `projects/…/serviceAccounts/{{ .external_name }}@….iam.gserviceaccount.com`.
const RIGHT_ONLY: &[char] = &['@'];

/// Whether `external_name` names the object whose Terraform ID is `id`: the two are equal, or the
/// external-name is a run of whole segments of the ID, preceded by the ID's start or a separator
/// and followed by a separator or the ID's end. An empty external-name names nothing.
pub(crate) fn names_object(external_name: &str, id: &str) -> bool {
    if external_name.is_empty() {
        return false;
    }
    let left_ok =
        |at: usize| id[..at].chars().next_back().is_none_or(|c| SEPARATORS.contains(&c) || LEFT_ONLY.contains(&c));
    let right_ok =
        |at: usize| id[at..].chars().next().is_none_or(|c| SEPARATORS.contains(&c) || RIGHT_ONLY.contains(&c));
    overlapping_matches(external_name, id).any(|at| left_ok(at) && right_ok(at + external_name.len()))
}

/// Every start of `needle` in `haystack`, overlapping ones included: `match_indices` skips them,
/// and the bounded occurrence can overlap an unbounded one (`a_a` in `xa_a_a`).
fn overlapping_matches<'a>(needle: &'a str, haystack: &'a str) -> impl Iterator<Item = usize> + 'a {
    haystack.char_indices().map(|(i, _)| i).filter(move |&i| haystack[i..].starts_with(needle))
}

#[cfg(test)]
mod tests {
    use super::names_object;

    /// Follows upjet `pkg/config/externalname.go` `GetExternalNameFromTemplated` and its tests
    /// (`externalname_test.go`): the name is cut out of the ID at the separators beside
    /// `{{ .external_name }}` in the template.
    const CASES: &[(&str, &str, &str, bool)] = &[
        ("equal (NameAsIdentifier, IdentifierFromProvider)", "vpc-0abc", "vpc-0abc", true),
        ("a longer ID is another object", "vpc-0abc", "vpc-0abcdef012345678", false),
        ("a prefix of an ID is another object", "vpc-0abcdef", "vpc-0abc", false),
        (
            "Azure path, last segment",
            "vnet-hub",
            "/subscriptions/0000/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/vnet-hub",
            true,
        ),
        (
            "Azure path, a name inside another name",
            "vnet-hub",
            "/subscriptions/0000/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/vnet-hub-old",
            false,
        ),
        ("GCP path, middle segment", "net-a", "projects/p/global/networks/net-a/peerings/x", true),
        ("colon template (guardduty filter)", "MyFilter", "00b00fd5aecc0ab60a708659477e9617:MyFilter", true),
        ("colon template, name in the middle", "myname", "olala:myname:omama:okaka", true),
        ("comma template", "example.com", "example.com,arn:aws:apprunner:eu-west-1:1:service/s/1", true),
        ("pipe template", "errors", "/aws/lambda/app|errors", true),
        ("underscore template", "www", "Z123_www_A", true),
        ("dot template", "www", "www.zone.example.", true),
        ("hyphen before the name (appsync datasource)", "orders", "abcdefghij-orders", true),
        ("hyphen after the name is not a boundary", "vnet-hub", "vnet-hub-old", false),
        (
            "at-sign after the name (service account)",
            "ci",
            "projects/p/serviceAccounts/ci@p.iam.gserviceaccount.com",
            true,
        ),
        ("at-sign before the name is not a boundary", "ci", "x@ci", false),
        ("a run of whole segments", "a/b", "root/a/b/c", true),
        ("a run that cuts a segment", "a/b", "root/a/bc", false),
        ("overlapping occurrences, the second one bounded", "a_a", "xa_a_a", true),
        ("the ID inside the name is not the reverse case", "Z123_www_A", "www", false),
        ("empty name names nothing", "", "vpc-1", false),
        ("non-ASCII around the name", "b", "é/b/é", true),
    ];

    #[test]
    fn whole_segments_only() {
        for (case, name, id, want) in CASES {
            assert_eq!(names_object(name, id), *want, "case: {case}");
        }
    }
}
