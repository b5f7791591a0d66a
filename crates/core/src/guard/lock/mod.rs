//! The lock: the IDs MRs had, kept where the API server can read them, so that an MR created
//! again under the same (group, kind, namespace, name) without its ID is refused (or, with
//! `--mutate`, given its ID back).
//!
//! It is a small cluster-scoped CRD ([`crd`]) whose objects ("shards") each hold a map from an
//! encoded key ([`key`]) to the ID, under a size budget ([`shard`]), so that none nears the 1 MiB
//! an object may take and a shard still fits the 256 KiB annotation `kubectl apply` copies it
//! into. Not ConfigMaps: on kube-apiserver v1.35/v1.36 a ConfigMap parameter store stops
//! resolving for the life of the process once the last binding that uses it is removed
//! (kubernetes/kubernetes#130887), so a reinstall of the guard would silently disable the lock.
//! [`merge`] computes the shards' new contents from what was read and what changes; [`entries`]
//! decides what is locked from the MRs and the ID journal; [`stale`] whether the lock still holds
//! every MR's identity (doctor's and the watch's `GuardLockStale`).

pub mod crd;
pub mod entries;
pub mod key;
pub mod merge;
pub mod shard;
pub mod stale;
