//! The commands this tool prints for an operator to paste into a shell, and the values its
//! sentences quote. Much of what a command carries comes from outside: an MR's
//! `status.atProvider.id`, an export, a provider's log line, a journal line, an audit record.
//! Whoever can write one of those must not choose what runs in the operator's shell, so every
//! printed command is built here, one argument at a time, and each argument is quoted for a
//! POSIX shell when it needs quoting (an ordinary command prints as it always did).
//!
//! The quoting of printable text is `shlex`'s (`try_quote`): tested against bash, zsh, dash,
//! Busybox ash, mksh and fish, and careful about what an interactive shell reads specially
//! (`!` history expansion, a leading `^`, a backslash inside fish's single quotes). Three things
//! it leaves to its caller are decided here:
//!
//! - A word is printed bare when every character is one no shell reads specially, which adds `=`
//!   (not first: zsh expands a leading `=cmd`) and `,` to `shlex`'s set, so `--user=jane` and
//!   `crossplane.io/paused-` stay as they were.
//! - A control character other than a newline (ESC, carriage return, tab, DEL, the C1 range) is
//!   written as `"$(printf '\ooo')"`, its bytes in octal: pasted raw, such a character could
//!   rewrite the terminal or act as a key in an interactive shell (Ctrl-C ends the quoted word
//!   early and leaves the rest to run). Only `printf` with a format written here runs. A newline
//!   stays as it is inside quotes (a command substitution would drop it), which a shell reads
//!   back exactly.
//! - A NUL byte cannot be passed to a program at all (an argument ends at it). A command with
//!   such an argument is not printed: its place holds a shell comment saying so, which names
//!   nothing the input chose, so pasting it runs nothing.

use std::borrow::Cow;
use std::fmt;

/// What a command with an unpassable argument prints instead of itself.
pub(crate) const UNPASSABLE: &str = "# no command: an argument holds a NUL byte, which no shell can pass to a program";

/// One line to paste into a shell: simple commands joined by `&&` or `|`, perhaps ending in a
/// comment. Each argument is quoted when printed; what the code itself writes between them
/// (operators, a comment, a piece of shell syntax such as `"$(date +%s)"`) is `&'static str`,
/// so that no value read at run time can reach the line unquoted.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ShellCommand {
    text: String,
    unpassable: bool,
}

impl ShellCommand {
    /// A command running `program` (`kubectl`).
    pub fn new(program: &'static str) -> ShellCommand {
        ShellCommand { text: program.to_string(), unpassable: false }
    }

    /// `kubectl upjet SUBCOMMAND`, the start of most commands this tool suggests.
    pub fn upjet(subcommand: &'static str) -> ShellCommand {
        ShellCommand::new("kubectl").word("upjet").word(subcommand)
    }

    /// `kubectl VERB`.
    pub fn kubectl(verb: &'static str) -> ShellCommand {
        ShellCommand::new("kubectl").word(verb)
    }

    /// Adds one argument, quoted as it needs.
    pub fn arg(mut self, value: impl AsRef<str>) -> ShellCommand {
        let value = value.as_ref();
        self.unpassable |= value.contains('\0');
        self.text.push(' ');
        self.text.push_str(&word(value));
        self
    }

    /// Adds each argument, quoted as it needs.
    pub fn args<I: IntoIterator<Item = S>, S: AsRef<str>>(self, values: I) -> ShellCommand {
        values.into_iter().fold(self, ShellCommand::arg)
    }

    /// Adds a flag and its value (`--id VALUE`), the value quoted as it needs. A value that
    /// starts with `-` is joined to a long flag (`--id=-x`), so that it cannot be read as
    /// another flag (`--id --yes`).
    pub fn opt(self, flag: &'static str, value: impl AsRef<str>) -> ShellCommand {
        let value = value.as_ref();
        match value.starts_with('-') && flag.starts_with("--") {
            true => self.word(flag).arg_joined("=", value),
            false => self.word(flag).arg(value),
        }
    }

    /// `=VALUE` glued to the last word.
    fn arg_joined(mut self, glue: &'static str, value: &str) -> ShellCommand {
        self.unpassable |= value.contains('\0');
        self.text.push_str(glue);
        self.text.push_str(&word(value));
        self
    }

    /// An MR as this tool's commands take it: `kind.group/name`, then `-n NAMESPACE` when it
    /// has one.
    pub fn target(self, reference: impl AsRef<str>, namespace: Option<&str>) -> ShellCommand {
        let with = self.arg(reference);
        match namespace {
            Some(ns) => with.opt("-n", ns),
            None => with,
        }
    }

    /// A word the code writes as it is: a flag, a fixed value, or a piece of shell syntax
    /// (`"$(date +%s)"`). Only a literal can be one.
    pub fn word(mut self, literal: &'static str) -> ShellCommand {
        self.text.push(' ');
        self.text.push_str(literal);
        self
    }

    /// A value followed, in the same word, by a literal: `key=` then `"$(date +%s)"`, or an
    /// annotation key then `-` (remove it).
    pub fn arg_then(mut self, value: impl AsRef<str>, literal: &'static str) -> ShellCommand {
        self = self.arg(value);
        self.text.push_str(literal);
        self
    }

    /// `&& program`: the next command runs if this one succeeded.
    pub fn and(self, program: &'static str) -> ShellCommand {
        self.word("&&").word(program)
    }

    /// `&&` then `other`, built on its own.
    pub fn and_then(mut self, other: ShellCommand) -> ShellCommand {
        self.unpassable |= other.unpassable;
        self.text.push_str(" && ");
        self.text.push_str(&other.text);
        self
    }

    /// `| program`: the next command reads this one's output.
    pub fn pipe(self, program: &'static str) -> ShellCommand {
        self.word("|").word(program)
    }

    /// A comment after the command (`# in the source cluster`).
    pub fn comment(mut self, text: &'static str) -> ShellCommand {
        debug_assert!(!text.contains('\n'), "a comment ends at a newline");
        self.text.push_str("   # ");
        self.text.push_str(text);
        self
    }

    /// A comment after the command naming a value (`# or --id-template KIND=TEMPLATE`): the
    /// value as a word, with a line break shown as `\n`, since a comment ends at one and what
    /// followed would run.
    pub(crate) fn comment_with(mut self, text: &'static str, value: &str) -> ShellCommand {
        self = self.comment(text);
        self.text.push(' ');
        self.text.push_str(&word(value).replace('\n', "\\n"));
        self
    }

    /// Whether every argument can be passed (none holds a NUL byte).
    #[cfg(test)]
    pub(crate) fn passable(&self) -> bool {
        !self.unpassable
    }
}

impl fmt::Display for ShellCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.unpassable { UNPASSABLE } else { &self.text })
    }
}

impl From<ShellCommand> for String {
    fn from(c: ShellCommand) -> String {
        c.to_string()
    }
}

/// Whether a shell reads `c` as itself wherever it stands in a word (but first, for `=`).
fn plain(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.' | '/' | ':' | '@' | '_' | ',' | '=')
}

/// Whether `c` is printed through `printf` rather than as it is.
fn escaped(c: char) -> bool {
    c.is_control() && c != '\n'
}

/// `value` as one shell word: as it is when no shell reads anything in it specially, else
/// quoted so that a POSIX shell hands the program exactly `value`. A NUL byte, which no
/// argument can hold, is written as `\0` (see [`ShellCommand`], which prints no such command).
pub fn word(value: &str) -> Cow<'_, str> {
    if !value.is_empty() && !value.starts_with('=') && value.chars().all(plain) {
        return Cow::Borrowed(value);
    }
    if value.is_empty() {
        return Cow::Borrowed("''");
    }
    let mut out = String::with_capacity(value.len() + 2);
    let mut rest = value;
    while let Some(first) = rest.chars().next() {
        let control = escaped(first);
        let (run, tail) = rest.split_at(rest.find(|c: char| escaped(c) != control).unwrap_or(rest.len()));
        if control {
            out.push_str(&printf(run));
        } else {
            // No NUL is left in `run` (NUL is a control character), so `try_quote` cannot fail.
            out.push_str(&shlex::try_quote(run).unwrap_or(Cow::Borrowed("''")));
        }
        rest = tail;
    }
    Cow::Owned(out)
}

/// Arguments as printed in a command, each quoted as it needs, one space apart: flags a caller
/// adds to a command it did not build.
pub fn words<I: IntoIterator<Item = S>, S: AsRef<str>>(values: I) -> String {
    values.into_iter().map(|v| word(v.as_ref()).into_owned()).collect::<Vec<_>>().join(" ")
}

/// A run of control characters as `"$(printf '\ooo…')"`; a NUL as the two characters `\0`
/// quoted, since no program can receive it.
fn printf(run: &str) -> String {
    let mut format = String::new();
    let mut out = String::new();
    let flush = |format: &mut String, out: &mut String| {
        if !format.is_empty() {
            out.push_str(&format!("\"$(printf '{format}')\""));
            format.clear();
        }
    };
    for c in run.chars() {
        if c == '\0' {
            flush(&mut format, &mut out);
            out.push_str("'\\0'");
            continue;
        }
        let mut bytes = [0u8; 4];
        for b in c.encode_utf8(&mut bytes).bytes() {
            format.push_str(&format!("\\{b:03o}"));
        }
    }
    flush(&mut format, &mut out);
    out
}

/// A value named in a sentence (`adopt "vpc-1"`), quoted so that copying the quoted text into a
/// shell gives back the value: in double quotes, as the messages always wrote it, when nothing
/// in it is special there; else as [`word`] quotes it, always quoted.
pub fn quoted(value: &str) -> Cow<'_, str> {
    let special = |c: char| matches!(c, '"' | '\\' | '$' | '`' | '!') || c.is_control();
    if !value.chars().any(special) {
        return Cow::Owned(format!("\"{value}\""));
    }
    word(value)
}

#[cfg(test)]
#[path = "shell_tests.rs"]
mod tests;
