//! Placeholder external-names: values a provider puts where a cloud ID belongs before the cloud
//! has assigned one, so that Terraform's validation passes. They name no cloud object.
//!
//! provider-upjet-aws (`config/externalname.go`) gives some kinds with provider-assigned IDs a
//! fixed stub: `identifierFromProviderWithDefaultStub(stub)` returns the stub as the Terraform ID
//! while the external-name is empty, upjet's `FrameworkResourceWithComputedIdentifier(attr,
//! placeholder)` writes its placeholder into the identifying attribute, and a few per-kind
//! functions (`vpcSecurityGroupRule`, `eksPodIdentityAssociation`, …) do the same by hand. When a
//! create fails after Terraform kept a partial state, the stub is read back as the external-name
//! and saved on the MR (fixed for the first family by provider-upjet-aws PR #2233, in releases
//! after September 2026; older providers still write it). A stub is therefore never an ID: the MR
//! tracks nothing, no source may offer it as a candidate, and adopt never writes it.

/// One stub a provider writes in place of a cloud ID, and where it comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placeholder {
    /// The exact value.
    pub value: &'static str,
    /// The Terraform resources that get it (`aws_bedrockagent_agent`, …).
    pub terraform: &'static [&'static str],
    /// The provider and the function that writes it.
    pub origin: &'static str,
}

const STUB_FN: &str = "provider-upjet-aws config/externalname.go identifierFromProviderWithDefaultStub";

/// Every stub the providers are known to write, read from provider-upjet-aws
/// `config/externalname.go` (the `identifierFromProviderWithDefaultStub` callers, the
/// `FrameworkResourceWithComputedIdentifier` caller and the per-kind functions that set a stub).
/// `api-gateway-account` is left out on purpose: it is the fixed, real ID of a singleton.
pub const KNOWN: &[Placeholder] = &[
    Placeholder { value: "STUB123456", terraform: &["aws_bedrockagent_agent"], origin: STUB_FN },
    Placeholder { value: "bedrock12345", terraform: &["aws_bedrock_inference_profile"], origin: STUB_FN },
    Placeholder { value: "scraper12345", terraform: &["aws_prometheus_scraper"], origin: STUB_FN },
    Placeholder {
        value: "rcfg-1234567890abcdef1",
        terraform: &["aws_vpclattice_resource_configuration"],
        origin: STUB_FN,
    },
    Placeholder { value: "rgw-055b56956a39439ba", terraform: &["aws_vpclattice_resource_gateway"], origin: STUB_FN },
    Placeholder {
        value: "snra-1234567890abcef12",
        terraform: &["aws_vpclattice_service_network_resource_association"],
        origin: STUB_FN,
    },
    Placeholder {
        value: "artix3b6dqiognkp7732wzhroi",
        terraform: &["aws_dsql_cluster"],
        origin: "provider-upjet-aws config/externalname.go FrameworkResourceWithComputedIdentifier(\"identifier\", …)",
    },
    Placeholder {
        value: "sgr-stub",
        terraform: &["aws_vpc_security_group_egress_rule", "aws_vpc_security_group_ingress_rule"],
        origin: "provider-upjet-aws config/externalname.go vpcSecurityGroupRule",
    },
    Placeholder {
        value: "stubcollection9999",
        terraform: &["aws_opensearchserverless_collection"],
        origin: "provider-upjet-aws config/externalname.go opensearchserverlessCollection",
    },
    Placeholder {
        value: "vpce-stubvpcendpoint999999",
        terraform: &["aws_opensearchserverless_vpc_endpoint"],
        origin: "provider-upjet-aws config/externalname.go opensearchserverlessVpcEndpoint",
    },
    Placeholder {
        value: "a-stubassocid123456",
        terraform: &["aws_eks_pod_identity_association"],
        origin: "provider-upjet-aws config/externalname.go eksPodIdentityAssociation",
    },
    Placeholder {
        value: "tbdeid0:tbdeid0",
        terraform: &["aws_appconfig_environment"],
        origin: "provider-upjet-aws config/externalname.go appConfigEnvironment",
    },
    Placeholder {
        value: "tbdeid0",
        terraform: &["aws_appconfig_environment"],
        origin: "provider-upjet-aws config/externalname.go appConfigEnvironment",
    },
    Placeholder {
        value: "invalidnonemptystring",
        terraform: &["aws_cognito_user_pool_client", "aws_mq_user"],
        origin: "provider-upjet-aws config/externalname.go cognitoUserPoolClient, mqUser",
    },
];

/// The stub a value is, if it is one. The match is exact: a stub is a constant the provider
/// writes verbatim, and a real ID that merely contains one (`sgr-stub0123`) is a real ID.
pub fn placeholder(value: &str) -> Option<&'static Placeholder> {
    KNOWN.iter().find(|p| p.value == value)
}

/// Whether a value is a stub rather than a cloud ID.
pub fn is_placeholder(value: &str) -> bool {
    placeholder(value).is_some()
}

impl Placeholder {
    /// How the evidence names it: the value, what it is and who writes it.
    pub fn describe(&self) -> String {
        format!(
            "{:?} is a placeholder, not a cloud ID: {} writes it for {} before the cloud assigns an ID",
            self.value,
            self.origin,
            self.terraform.join(", ")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Read from crossplane-contrib/provider-upjet-aws `config/externalname.go`: the callers of
    /// `identifierFromProviderWithDefaultStub`, of upjet's `FrameworkResourceWithComputedIdentifier`
    /// and the per-kind `GetIDFn`/`SetIdentifierArgumentFn` functions that write a stub.
    const CASES: &[(&str, bool)] = &[
        ("STUB123456", true),
        ("bedrock12345", true),
        ("scraper12345", true),
        ("rcfg-1234567890abcdef1", true),
        ("rgw-055b56956a39439ba", true),
        ("snra-1234567890abcef12", true),
        ("artix3b6dqiognkp7732wzhroi", true),
        ("sgr-stub", true),
        ("stubcollection9999", true),
        ("vpce-stubvpcendpoint999999", true),
        ("a-stubassocid123456", true),
        ("tbdeid0:tbdeid0", true),
        ("tbdeid0", true),
        ("invalidnonemptystring", true),
        // The singleton's fixed ID is real.
        ("api-gateway-account", false),
        // Real IDs of the same kinds, and near misses.
        ("sgr-0123456789abcdef0", false),
        ("stub123456", false),
        ("STUB1234567", false),
        ("", false),
        ("vpc-0abc", false),
    ];

    #[test]
    fn stubs_are_recognised_exactly() {
        for (value, want) in CASES {
            assert_eq!(is_placeholder(value), *want, "{value:?}");
        }
    }

    #[test]
    fn every_stub_is_listed_once_and_described() {
        for p in KNOWN {
            assert_eq!(KNOWN.iter().filter(|q| q.value == p.value).count(), 1, "{}", p.value);
            assert!(!p.terraform.is_empty());
            assert!(p.describe().contains(p.value) && p.describe().contains("placeholder"));
        }
    }
}
