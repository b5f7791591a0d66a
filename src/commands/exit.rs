//! From any error chain to what the shell prints and the exit code it returns: the first
//! [`Error`] in the chain decides (the contract lives with the type, in `upjet_core::error`), and
//! `anyhow` is how the commands carry context up to here.

use upjet_core::error::{Error, Exit};

/// Finds the exit code for any error chain: the first [`Error`] in it decides, a closed pipe
/// (`| head`) is success, anything else is `Failed`.
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

/// The line the shell prints for an error: the chain joined by `: `, without repeating a cause
/// that a message already quotes, ending in "; nothing changed" when the command wrote nothing.
pub fn one_line(err: &anyhow::Error) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut nothing_changed = false;
    for cause in err.chain() {
        nothing_changed |= cause.downcast_ref::<Error>().is_some_and(|e| e.nothing_changed);
        let text = cause.to_string();
        if !parts.iter().any(|p| p.contains(&text)) {
            parts.push(text);
        }
    }
    let line = parts.join(": ");
    if nothing_changed { format!("{line}; nothing changed") } else { line }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_map_to_exit_codes_through_any_chain() {
        let wrapped = |e: Error| anyhow::Error::new(e).context("while doing a thing");
        assert_eq!(exit_for(&wrapped(Error::usage("x"))), Exit::Usage);
        assert_eq!(exit_for(&wrapped(Error::cluster("x"))), Exit::Cluster);
        assert_eq!(exit_for(&wrapped(Error::failed("x"))), Exit::Failed);
        let pipe = anyhow::Error::new(std::io::Error::from(std::io::ErrorKind::BrokenPipe));
        assert_eq!(exit_for(&pipe), Exit::Ok);
        assert_eq!(exit_for(&anyhow::anyhow!("other")), Exit::Failed);
    }

    #[test]
    fn the_printed_line_carries_the_chain_and_says_nothing_changed() {
        let io = std::io::Error::new(std::io::ErrorKind::PermissionDenied, "permission denied");
        let err = anyhow::Error::new(Error::failed("cannot write backup /b").because(io).nothing_changed());
        assert_eq!(one_line(&err), "cannot write backup /b: permission denied; nothing changed");
        let quoted = anyhow::Error::new(Error::usage("bad: boom").because(std::io::Error::other("boom")));
        assert_eq!(one_line(&quoted), "bad: boom", "a cause the message quotes is not repeated");
    }
}
