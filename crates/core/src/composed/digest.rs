//! The hex SHA-256 digests the composite reconciler names things with: its server-side-apply
//! field manager for a composed resource (`apiextensions.crossplane.io/composed/` plus the digest
//! of the XR's name and GroupKind) and a composed resource's name suffix (the first twelve hex
//! digits of the digest of its XR's UID and composition-resource-name). Telling which XR's
//! manager owns an MR's external-name means computing the same digest (`sha2`: pure, no I/O).

use sha2::{Digest, Sha256};

/// The lowercase hex SHA-256 of `data`, as Go's `fmt.Sprintf("%x", sha256.Sum256(data))`.
pub fn hex(data: &[u8]) -> String {
    use std::fmt::Write;
    Sha256::digest(data).iter().fold(String::with_capacity(64), |mut out, b| {
        let _ = write!(out, "{b:02x}");
        out
    })
}

#[cfg(test)]
mod tests {
    use super::hex;

    /// A FIPS 180-4 example: the digest is Go's `%x` of the whole sum.
    #[test]
    fn known_digest() {
        assert_eq!(hex(b"abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }
}
