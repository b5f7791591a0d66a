//! history's flags, resolved once: which MR, where it is read, what evidence is read about it
//! and how the timeline is printed.

use super::shared::judged_at;
use crate::cli::output::{FormSpec, Output};
use crate::cli::{HistoryArgs, HistoryFormat};
use crate::commands::evidence::EvidenceSources;
use crate::commands::fleet_inputs::FleetFiles;
use crate::settings::Settings;
use std::path::PathBuf;
use upjet_core::error::Error;
use upjet_core::reconcile_timeout::JudgedAt;
use upjet_output::forms::Form;

/// `kubectl upjet history`, resolved.
#[derive(Debug, Clone)]
pub struct History {
    /// KIND/NAME as typed.
    pub target: String,
    /// The snapshot or backup it is read from (`--from`); `None`: the live cluster.
    pub from: Option<PathBuf>,
    /// What the highlights are judged against: now, and the providers' reconcile timeout.
    pub at: JudgedAt,
    /// What is read about it beyond the object: the live provider pods' logs unless `--no-logs`,
    /// `--log-file`, `--audit-log`, the ID journal.
    pub evidence: EvidenceSources,
    /// The fleet-wide inputs, tied to the MR and its peers: `--inventory`, the cloud's record
    /// (`--cloud-audit`).
    pub fleet: FleetFiles,
    /// `--workspace`: read the live Terraform workspace.
    pub workspace: bool,
    /// How the timeline is printed.
    pub output: HistoryOutput,
}

/// How history prints (`-o`): as resolved, a form as its spec (`F = FormSpec`); opened
/// ([`HistoryOutput::open`], before the MR is looked for), a form compiled (`F = Form`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HistoryOutput<F = FormSpec> {
    /// The timeline for a person.
    Text,
    /// One JSON document.
    Json,
    /// One HTML page.
    Html,
    /// One of kubectl's forms over the JSON document.
    Form(F),
}

impl HistoryOutput {
    /// The output the run prints with: a form's template file read and compiled now, so that a
    /// bad one is refused (exit 2) before anything is read.
    pub fn open(&self) -> Result<HistoryOutput<Form>, Error> {
        Ok(match self {
            HistoryOutput::Text => HistoryOutput::Text,
            HistoryOutput::Json => HistoryOutput::Json,
            HistoryOutput::Html => HistoryOutput::Html,
            HistoryOutput::Form(spec) => HistoryOutput::Form(crate::commands::forms::compile(spec)?),
        })
    }
}

impl History {
    /// Resolves history's flags.
    pub fn resolve(args: &HistoryArgs, settings: &Settings) -> History {
        let output = match &args.output {
            Some(Output::Form(spec)) => HistoryOutput::Form(spec.clone()),
            Some(Output::Format(HistoryFormat::Json)) => HistoryOutput::Json,
            Some(Output::Format(HistoryFormat::Html)) => HistoryOutput::Html,
            Some(Output::Format(HistoryFormat::Text)) | None => HistoryOutput::Text,
        };
        History {
            target: args.target.clone(),
            from: args.from.clone(),
            at: judged_at(settings.now, Some(&args.reconciler)),
            evidence: super::shared::evidence_sources(
                &args.log_files,
                &args.log_opts,
                !args.no_logs,
                &args.audit_logs.files,
                &args.journal,
            ),
            fleet: FleetFiles {
                inventory: args.inventory.files.clone(),
                cloud: super::shared::cloud_files(&args.cloud),
            },
            workspace: args.workspace,
            output,
        }
    }
}
