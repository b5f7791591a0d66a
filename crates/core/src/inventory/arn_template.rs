//! External-names that are not a piece of the ARN but are built from its fields, learned from
//! healthy peers. upjet keeps an SQS queue's Terraform ID, its URL
//! (`https://sqs.us-east-1.amazonaws.com/111122223333/orders`), as the external-name
//! (provider-upjet-aws `config/externalname.go`: `"aws_sqs_queue": config.IdentifierFromProvider`),
//! while the tagging API lists the queue by ARN (`arn:aws:sqs:us-east-1:111122223333:orders`): no
//! cut of the ARN gives the URL, but the URL is the ARN's region, account and resource in a fixed
//! text, which each peer shows. The text is learned, never assumed, so an emulator's URLs
//! (`http://localhost:4566/000000000000/orders`) are learned the same way.

use crate::identity::infer::occurrences;

/// One piece of a template.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Piece {
    /// Literal text.
    Text(String),
    /// The ARN's region (fourth field).
    Region,
    /// The ARN's account (fifth field).
    Account,
    /// The ARN's resource part (after the fifth `:`).
    Resource,
}

/// An external-name written as literal text around an ARN's region, account and resource.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct ArnTemplate(Vec<Piece>);

/// An ARN's fields: (region, account, resource).
fn fields(arn: &str) -> Option<(&str, &str, &str)> {
    let mut parts = arn.strip_prefix("arn:")?.splitn(5, ':');
    let (_partition, _service) = (parts.next()?, parts.next()?);
    let (region, account, resource) = (parts.next()?, parts.next()?, parts.next()?);
    (!resource.is_empty()).then_some((region, account, resource))
}

impl ArnTemplate {
    /// The template that writes `external_name` from `arn`, when the external-name holds the
    /// ARN's resource part and is not the ARN itself (that is a plain [`IdForm`](super::IdForm)).
    /// A value counts only as a whole token (not glued to letters or digits, as identity
    /// templates read them), so a queue named `a` is not read into `amazonaws`; where two values
    /// start at one place the longer wins, so a region inside a queue's name
    /// (`orders-us-east-1`) stays part of the name.
    pub fn learn(external_name: &str, arn: &str) -> Option<ArnTemplate> {
        let (region, account, resource) = fields(arn)?;
        if external_name == arn || external_name == resource {
            return None;
        }
        let mut found: Vec<(usize, usize, Piece)> =
            [(resource, Piece::Resource), (account, Piece::Account), (region, Piece::Region)]
                .into_iter()
                .flat_map(|(v, piece)| {
                    occurrences(v, external_name).into_iter().map(move |at| (at, v.len(), piece.clone()))
                })
                .collect();
        found.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
        let (mut pieces, mut done) = (Vec::new(), 0);
        for (at, len, piece) in found {
            if at < done {
                continue;
            }
            if at > done {
                pieces.push(Piece::Text(external_name[done..at].to_string()));
            }
            pieces.push(piece);
            done = at + len;
        }
        if done < external_name.len() {
            pieces.push(Piece::Text(external_name[done..].to_string()));
        }
        pieces.contains(&Piece::Resource).then_some(ArnTemplate(pieces))
    }

    /// The external-name this template writes for `arn`.
    pub fn render(&self, arn: &str) -> Option<String> {
        let (region, account, resource) = fields(arn)?;
        let mut out = String::new();
        for piece in &self.0 {
            out.push_str(match piece {
                Piece::Text(t) => t,
                Piece::Region => region,
                Piece::Account => account,
                Piece::Resource => resource,
            });
        }
        Some(out)
    }

    /// The template in words: `external-name = https://sqs.{region}.amazonaws.com/{account}/{resource} of the ARN`.
    pub fn describe(&self) -> String {
        let text: String = self
            .0
            .iter()
            .map(|p| match p {
                Piece::Text(t) => t.as_str(),
                Piece::Region => "{region}",
                Piece::Account => "{account}",
                Piece::Resource => "{resource}",
            })
            .collect();
        format!("external-name = {text} of the ARN")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Upstream: provider-upjet-aws config/externalname.go keeps `aws_sqs_queue` as
    /// `config.IdentifierFromProvider`, whose Terraform ID is the queue URL; the tagging API's
    /// `ResourceARN` is the queue's ARN. (case, peer external-name, peer ARN, other ARN, want)
    const CASES: &[(&str, &str, &str, &str, Option<&str>)] = &[
        (
            "SQS queue URL",
            "https://sqs.us-east-1.amazonaws.com/111122223333/orders",
            "arn:aws:sqs:us-east-1:111122223333:orders",
            "arn:aws:sqs:eu-west-1:444455556666:billing",
            Some("https://sqs.eu-west-1.amazonaws.com/444455556666/billing"),
        ),
        (
            "an emulator's URL",
            "http://sqs.us-east-1.localhost.localstack.cloud:4566/000000000000/orders",
            "arn:aws:sqs:us-east-1:000000000000:orders",
            "arn:aws:sqs:us-east-1:000000000000:jobs",
            Some("http://sqs.us-east-1.localhost.localstack.cloud:4566/000000000000/jobs"),
        ),
        (
            "a region inside the name stays the name",
            "https://sqs.us-east-1.amazonaws.com/1/orders-us-east-1",
            "arn:aws:sqs:us-east-1:1:orders-us-east-1",
            "arn:aws:sqs:eu-west-1:1:jobs",
            Some("https://sqs.eu-west-1.amazonaws.com/1/jobs"),
        ),
        ("the whole ARN is a plain form", "arn:aws:sqs:r:1:q", "arn:aws:sqs:r:1:q", "arn:aws:sqs:r:1:x", None),
        ("the resource alone is a plain form", "q", "arn:aws:sqs:r:1:q", "arn:aws:sqs:r:1:x", None),
        ("no resource in the name", "something-else", "arn:aws:sqs:r:1:q", "arn:aws:sqs:r:1:x", None),
        ("not an ARN", "https://x/q", "//pubsub.googleapis.com/q", "arn:aws:sqs:r:1:x", None),
    ];

    #[test]
    fn templates_learned_from_one_peer_write_another_objects_name() {
        for (name, external_name, arn, other, want) in CASES {
            let got = ArnTemplate::learn(external_name, arn).and_then(|t| t.render(other));
            assert_eq!(got.as_deref(), *want, "{name}");
        }
    }

    #[test]
    fn described_with_placeholders() {
        let t = ArnTemplate::learn(CASES[0].1, CASES[0].2).unwrap();
        assert_eq!(t.describe(), "external-name = https://sqs.{region}.amazonaws.com/{account}/{resource} of the ARN");
    }
}
