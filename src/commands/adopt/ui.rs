//! Where questions and progress go: the terminal, or a scripted prompter and a buffer in tests.

use super::AdoptEnv;
use super::error::{AdoptError, Unchanged};
use super::interrupt::Interrupt;
use std::io::Write;
use upjet_local::prompt::{Prompter, TerminalPrompter};

/// Where questions and progress go; tests substitute a scripted prompter and a buffer.
pub struct Ui {
    /// Asks the user.
    pub prompter: Box<dyn Prompter>,
    /// Whether there is a terminal to ask on.
    pub interactive: bool,
    /// Progress and messages (stderr).
    pub err: Box<dyn Write + Send>,
    /// Ctrl-C.
    pub interrupt: Interrupt,
}

impl Ui {
    /// The real terminal: dialoguer prompts on stderr when stdin and stderr are terminals.
    pub fn terminal(env: &AdoptEnv) -> Ui {
        Ui {
            prompter: Box::new(TerminalPrompter::new(env.color)),
            interactive: env.interactive,
            err: Box::new(std::io::stderr()),
            interrupt: Interrupt::default(),
        }
    }

    /// One line of progress.
    pub(super) fn say(&mut self, line: impl AsRef<str>) {
        let _ = writeln!(self.err, "{}", line.as_ref());
        let _ = self.err.flush();
    }

    /// Asks for a confirmation before a change: refused without a terminal (`what` is changed;
    /// `preview` is what --dry-run shows), and "no" cancels with nothing changed.
    pub(crate) fn confirm_change(
        &mut self,
        question: &str,
        what: String,
        preview: &'static str,
    ) -> Result<(), AdoptError> {
        if !self.interactive {
            return Err(AdoptError::NoTerminal { what, preview });
        }
        if self.prompter.confirm(question)? { Ok(()) } else { Err(Unchanged::Cancelled.into()) }
    }
}
