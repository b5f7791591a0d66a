//! Why `adopt` or `restore` stopped, typed, with the exit-code mapping at the command boundary.

use upjet_core::adopt::Refusal;
use upjet_core::error::Error;
use upjet_local::backup::BackupError;
use upjet_local::prompt::PromptError;

/// Why a command stopped before changing anything; rendered with "; nothing changed".
#[derive(Debug, thiserror::Error)]
pub(crate) enum Unchanged {
    /// The user said no, or cancelled the choice.
    #[error("cancelled")]
    Cancelled,
    /// The question could not be asked.
    #[error("{0}")]
    Prompt(#[source] PromptError),
    /// The backup could not be written (no change is made without one).
    #[error("{0}")]
    Backup(#[source] BackupError),
    /// There is no default backup folder (no home folder) and none was given.
    #[error("{0}")]
    NoBackupDir(String),
}

/// Why `adopt` or `restore` did not complete.
#[derive(Debug, thiserror::Error)]
pub(crate) enum AdoptError {
    /// Stopped before the first change.
    #[error("{reason}; nothing changed")]
    NothingChanged {
        /// Why.
        #[source]
        reason: Unchanged,
    },
    /// The domain refused the adoption.
    #[error("{0}")]
    Refused(#[source] Refusal),
    /// A change needs a confirmation and there is no terminal to ask on.
    #[error(
        "refusing to {what} without confirmation: there is no terminal to ask on; pass --yes (or --dry-run to only see the {preview})"
    )]
    NoTerminal {
        /// `change X` or `adopt N MRs`.
        what: String,
        /// `plan`, `plans` or `patch`.
        preview: &'static str,
    },
    /// Already classified for its exit code (usage, cluster, or a failed write with the state
    /// the MR is left in).
    #[error(transparent)]
    Shell(#[from] Error),
    /// Printing failed (a closed pipe ends the command quietly).
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

impl From<Refusal> for AdoptError {
    fn from(r: Refusal) -> AdoptError {
        AdoptError::Refused(r)
    }
}

impl From<Unchanged> for AdoptError {
    fn from(reason: Unchanged) -> AdoptError {
        AdoptError::NothingChanged { reason }
    }
}

impl From<PromptError> for AdoptError {
    fn from(e: PromptError) -> AdoptError {
        Unchanged::Prompt(e).into()
    }
}

impl From<BackupError> for AdoptError {
    fn from(e: BackupError) -> AdoptError {
        Unchanged::Backup(e).into()
    }
}

impl AdoptError {
    /// The boundary: every adopt error becomes the shell's [`Error`] with its exit code (a bad
    /// ID or a missing terminal is usage, 2; a refusal or a stop is a failed write, 5), except
    /// printing errors, kept as they are so a closed pipe exits quietly.
    pub(crate) fn into_anyhow(self) -> anyhow::Error {
        let shell = match self {
            AdoptError::Io(io) => return anyhow::Error::new(io),
            AdoptError::Shell(e) => e,
            AdoptError::Refused(r) if r.is_bad_input() => Error::usage(r.to_string()),
            AdoptError::Refused(r) => Error::failed(format!("refused: {r}")),
            e @ AdoptError::NoTerminal { .. } => Error::usage(e.to_string()),
            AdoptError::NothingChanged { reason } => Error::failed(reason.to_string()).nothing_changed(),
        };
        anyhow::Error::new(shell)
    }
}
