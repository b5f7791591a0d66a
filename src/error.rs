//! Errors that decide the exit code, and the exit codes themselves (a documented contract).

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
    /// A write command was refused or failed (adopt, restore); nothing was left half-done.
    Failed = 5,
}

/// An error the shell knows how to explain in one line and map to an exit code.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The user asked for something that does not exist or cannot be parsed.
    #[error("{0}")]
    Usage(String),
    /// The cluster could not be used at all.
    #[error("{0}")]
    Cluster(String),
    /// A write was refused or failed.
    #[error("{0}")]
    Failed(String),
}

impl Error {
    /// The exit code this error maps to.
    pub fn exit(&self) -> Exit {
        match self {
            Error::Usage(_) => Exit::Usage,
            Error::Cluster(_) => Exit::Cluster,
            Error::Failed(_) => Exit::Failed,
        }
    }
}

/// Finds the exit code for any error chain: the first [`Error`] in it decides, else `Failed`.
pub fn exit_for(err: &anyhow::Error) -> Exit {
    for cause in err.chain() {
        if let Some(e) = cause.downcast_ref::<Error>() {
            return e.exit();
        }
        if let Some(io) = cause.downcast_ref::<std::io::Error>()
            && io.kind() == std::io::ErrorKind::BrokenPipe
        {
            return Exit::Ok;
        }
    }
    Exit::Failed
}
