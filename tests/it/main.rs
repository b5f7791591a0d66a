//! Every black-box test of the plugin, linked into one binary (`cargo test --test it`): the real
//! `kubectl-upjet` binary through [`support::upjet`] or [`support::Cluster::upjet`], the real kube
//! client against the in-process test API server, and the shipped files read as users read them.
//!
//! One binary links once instead of once per file; run one file's tests with
//! `cargo test --test it adopt_parallel::` (or any name filter). How a new file joins: see
//! `tests/README.md`.

mod support;

mod adopt;
mod adopt_interactive;
mod adopt_interrupt;
mod adopt_parallel;
mod audit_cluster;
mod audit_log;
mod ci_formats;
mod cloud_audit;
mod cloud_audit_cluster;
mod completions;
mod composition_repairs;
mod compositions;
mod create_in_flight;
mod crossplane_v2;
mod deploy;
mod discovery_cache;
mod docs;
mod doctor_cluster;
mod evidence_cluster;
mod examples;
mod fault_schedules;
mod faults;
mod faults_evidence;
mod fleet_summary;
mod formats;
mod guard;
mod guard_cluster;
mod guard_declare;
mod guard_findings;
mod guard_lock;
mod guard_manifests;
mod guard_repairs;
mod guard_rules;
mod health;
mod help;
mod history_create_loop;
mod history_log_runs;
mod html;
mod identity;
mod inventory;
mod inventory_cloud_output;
mod inventory_in_flight;
mod journal;
mod k9s;
mod kind_going;
mod krew;
mod kubectl_completion;
mod late_initialize_clients;
mod lint;
mod log_fixtures;
mod migrate;
mod migrate_doctor;
mod migrate_kill;
mod misplaced_inputs;
mod multi_cluster;
mod output_forms;
mod promote;
mod properties;
mod rbac;
mod rbac_migrate;
mod reapplied;
mod runtime_reads;
mod security;
mod shell;
mod velero;
mod watch;
mod watch_contexts;
mod watch_events;
mod watch_kinds;
mod watch_providers;
