//! Errors that decide the exit code, and the exit codes themselves (a documented contract).
//!
//! Each error keeps what caused it as its `source`, so the shell prints the whole chain on one
//! line (`error: cannot read kubeconfig x: permission denied`), the way ripgrep prints `{:#}`.

/// Process exit codes. Scripts depend on them; see README "Exit codes".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Exit {
    /// Nothing at or above `--fail-on`, everything scanned; or the command succeeded.
    Ok = 0,
    /// Findings at or above `--fail-on`.
    Findings = 1,
    /// Bad usage or bad input (unknown kind or MR, unreadable file, invalid ID).
    Usage = 2,
    /// Cannot reach, authenticate to or get permission from the API server; bad kubeconfig.
    Cluster = 3,
    /// The scan could not read part of the fleet (kinds skipped, objects unreadable).
    Incomplete = 4,
    /// A write command was refused or failed (adopt, restore; a repair of an identity field a
    /// composition sets is refused with it); nothing was left half-done.
    Failed = 5,
}

/// Whatever caused an [`Error`], kept for the printed chain.
pub(crate) type Cause = Box<dyn std::error::Error + Send + Sync + 'static>;

/// Which exit code an [`Error`] maps to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The user asked for something that does not exist or cannot be parsed.
    Usage,
    /// The cluster could not be used at all.
    Cluster,
    /// A write was refused or failed.
    Failed,
}

/// An error the shell knows how to explain in one line and map to an exit code.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct Error {
    /// Which exit code it maps to.
    pub kind: Kind,
    /// What went wrong, in the user's terms (the cause is printed after it).
    pub message: String,
    /// Whether the command stopped before writing anything: the printer says so, because for
    /// a write command that is the first thing a user needs to know.
    pub nothing_changed: bool,
    /// What caused it.
    #[source]
    pub source: Option<Cause>,
}

impl Error {
    fn new(kind: Kind, message: impl Into<String>) -> Error {
        Error { kind, message: message.into(), nothing_changed: false, source: None }
    }

    /// Bad usage or input (exit 2).
    pub fn usage(message: impl Into<String>) -> Error {
        Error::new(Kind::Usage, message)
    }

    /// The cluster cannot be used (exit 3).
    pub fn cluster(message: impl Into<String>) -> Error {
        Error::new(Kind::Cluster, message)
    }

    /// A refused or failed write, or any other failure (exit 5).
    pub fn failed(message: impl Into<String>) -> Error {
        Error::new(Kind::Failed, message)
    }

    /// Keeps `cause` as the source; the message should then not repeat it.
    pub fn because(mut self, cause: impl Into<Cause>) -> Error {
        self.source = Some(cause.into());
        self
    }

    /// Marks that nothing was written before the command stopped.
    pub fn nothing_changed(mut self) -> Error {
        self.nothing_changed = true;
        self
    }

    /// The exit code this error maps to.
    pub fn exit(&self) -> Exit {
        match self.kind {
            Kind::Usage => Exit::Usage,
            Kind::Cluster => Exit::Cluster,
            Kind::Failed => Exit::Failed,
        }
    }
}
