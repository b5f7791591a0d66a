//! The one way a black-box test runs the binary, under one environment policy, with what it
//! expects of the run said before it runs and checked in one place.
//!
//! `upjet()` runs offline from the repository root (so bundled `examples/` print as relative
//! paths); [`Cluster::upjet`](super::Cluster::upjet) runs against a test API server. Both start
//! from [`Upjet::with_home`], which is the policy: the environment is cleared (no developer
//! kubeconfig, colour setting or log filter leaks in), then `PATH` is kept, `HOME` points at a
//! scratch folder (the discovery cache lands there), `NO_COLOR` is set and "now" is pinned to
//! [`NOW`]. A test that needs something else says so with `.env(..)` or `.env_remove(..)`.
//!
//! A run is expected to exit 0 with nothing on stderr; a test says otherwise with
//! [`status`](Upjet::status) and [`stderr`](Upjet::stderr) (the exact text) or
//! [`stderr_contains`](Upjet::stderr_contains) (a part of it), and may pin stdout the same way.
//! [`run`](Upjet::run) checks them all at once and hands back what was printed:
//!
//! ```ignore
//! let run = upjet().args(["doctor"]).from("examples/fleet").json().status(1).run();
//! let orphan = run.report().finding("InventoryOrphan", "team-b-vpc");
//! ```

use serde_json::Value;
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::process::Output;

/// "Now" for every run (`UPJET_NOW`): ages, deadlines and backup names are judged against it, so
/// outputs do not depend on the day the tests run.
pub const NOW: &str = "2024-11-30T12:00:00Z";

/// The note doctor prints on stderr when the API server serves no ValidatingAdmissionPolicies,
/// as the test API server does unless a test serves them: the guard is not checked.
pub const NO_GUARD: &str = "the API server serves no ValidatingAdmissionPolicies (admissionregistration.k8s.io/v1, Kubernetes v1.30 or later): kubectl upjet guard cannot run on this cluster, and is not checked";

/// Doctor's summary line (stderr) over the bundled `examples/fleet`, with every finding kept.
pub const FLEET_SUMMARY: &str = "24 kinds scanned, 51 managed resources, 14 errors, 23 warnings, 5 info, 7 would be created again by a provider restart";

/// The repository root, where offline runs start.
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The binary, offline, from the repository root, with a scratch `HOME` of its own.
pub fn upjet() -> Upjet {
    let home = tempfile::tempdir().expect("a scratch HOME");
    let mut run = Upjet::with_home(home.path());
    run.home = Some(home);
    run
}

impl super::Cluster {
    /// The binary under the policy, pointed at this cluster (its scratch folder is `HOME`).
    pub fn upjet(&self) -> Upjet {
        let mut run = Upjet::with_home(self.dir());
        run.env("KUBECONFIG", self.kubeconfig());
        run
    }
}

/// A run of the binary being built: arguments, environment, stdin, and what it must end with.
pub struct Upjet {
    cmd: assert_cmd::Command,
    /// The exit codes it may end with: `[0]` unless said.
    status: Vec<i32>,
    /// What stdout must be (anything unless said).
    stdout: Vec<Expect>,
    /// What stderr must be: empty unless said.
    stderr: Vec<Expect>,
    /// The scratch `HOME` of an offline run, removed when the run is dropped.
    home: Option<tempfile::TempDir>,
}

/// One expectation on a stream.
#[derive(Clone, Debug)]
enum Expect {
    /// The whole text.
    Is(String),
    /// A part of it.
    Contains(String),
    /// A regular expression it matches somewhere.
    Matches(regex::Regex),
}

impl Expect {
    fn holds(&self, text: &str) -> bool {
        match self {
            Expect::Is(want) => text == want,
            Expect::Contains(part) => text.contains(part.as_str()),
            Expect::Matches(re) => re.is_match(text),
        }
    }
}

/// The expectations on one stream that `text` breaks, as lines for a failure message.
fn broken(stream: &str, expects: &[Expect], text: &str) -> Vec<String> {
    expects
        .iter()
        .filter(|e| !e.holds(text))
        .map(|e| match e {
            Expect::Is(want) => format!("{stream} is not exactly {want:?}"),
            Expect::Contains(part) => format!("{stream} does not contain {part:?}"),
            Expect::Matches(re) => format!("{stream} does not match /{re}/"),
        })
        .collect()
}

impl Upjet {
    /// The environment policy (see the module's doc), with `HOME` at `home`.
    pub fn with_home(home: &Path) -> Upjet {
        let mut cmd = assert_cmd::Command::cargo_bin("kubectl-upjet").expect("the binary is built");
        cmd.env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", home)
            .env("UPJET_NOW", NOW)
            .env("NO_COLOR", "1")
            .current_dir(root());
        Upjet { cmd, status: vec![0], stdout: Vec::new(), stderr: vec![Expect::Is(String::new())], home: None }
    }

    /// Appends one argument.
    pub fn arg(&mut self, arg: impl AsRef<OsStr>) -> &mut Upjet {
        self.cmd.arg(arg);
        self
    }

    /// Appends arguments.
    pub fn args<I, S>(&mut self, args: I) -> &mut Upjet
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        self.cmd.args(args);
        self
    }

    /// `--from PATH`: the snapshot, folder or backup a command reads instead of a cluster.
    pub fn from(&mut self, path: impl AsRef<OsStr>) -> &mut Upjet {
        self.cmd.arg("--from").arg(path);
        self
    }

    /// `-o json`.
    pub fn json(&mut self) -> &mut Upjet {
        self.cmd.args(["-o", "json"]);
        self
    }

    /// Sets (or overrides) one environment variable.
    pub fn env(&mut self, key: impl AsRef<OsStr>, value: impl AsRef<OsStr>) -> &mut Upjet {
        self.cmd.env(key, value);
        self
    }

    /// Removes one variable the policy sets (e.g. `NO_COLOR`, to see what a pipe gets).
    pub fn env_remove(&mut self, key: impl AsRef<OsStr>) -> &mut Upjet {
        self.cmd.env_remove(key);
        self
    }

    /// Runs in `dir` instead of the repository root.
    pub fn current_dir(&mut self, dir: impl AsRef<Path>) -> &mut Upjet {
        self.cmd.current_dir(dir);
        self
    }

    /// Bytes on standard input (otherwise stdin is empty).
    pub fn stdin(&mut self, bytes: impl Into<Vec<u8>>) -> &mut Upjet {
        self.cmd.write_stdin(bytes.into());
        self
    }

    /// The exit code the run must end with (0 unless said).
    pub fn status(&mut self, code: i32) -> &mut Upjet {
        self.status = vec![code];
        self
    }

    /// The exit codes the run may end with, for a run whose outcome the test does not fix: random
    /// faults, or one loop over inputs with and without error findings.
    pub fn status_one_of(&mut self, codes: &[i32]) -> &mut Upjet {
        self.status = codes.to_vec();
        self
    }

    /// Stdout must be exactly `text`.
    pub fn stdout(&mut self, text: impl Into<String>) -> &mut Upjet {
        self.stdout.push(Expect::Is(text.into()));
        self
    }

    /// Stdout must contain `part` (each call adds one part).
    pub fn stdout_contains(&mut self, part: impl Into<String>) -> &mut Upjet {
        self.stdout.push(Expect::Contains(part.into()));
        self
    }

    /// Stderr must be exactly `text` (instead of empty).
    pub fn stderr(&mut self, text: impl Into<String>) -> &mut Upjet {
        self.stderr_expect(Expect::Is(text.into()))
    }

    /// Stderr must contain `part` (instead of being empty; each call adds one part).
    pub fn stderr_contains(&mut self, part: impl Into<String>) -> &mut Upjet {
        self.stderr_expect(Expect::Contains(part.into()))
    }

    /// Stderr must match the regular expression `re` somewhere (instead of being empty), for
    /// lines that hold a duration or a port.
    pub fn stderr_matches(&mut self, re: &str) -> &mut Upjet {
        let re = regex::Regex::new(re).unwrap_or_else(|e| panic!("bad expectation /{re}/: {e}"));
        self.stderr_expect(Expect::Matches(re))
    }

    /// Adds an expectation on stderr, dropping the default "empty".
    fn stderr_expect(&mut self, expect: Expect) -> &mut Upjet {
        self.stderr.retain(|e| !matches!(e, Expect::Is(t) if t.is_empty()));
        self.stderr.push(expect);
        self
    }

    /// Runs to the end, checks the exit code and both streams against what the test said, and
    /// returns what the run printed; on a difference it panics with all of them.
    #[track_caller]
    pub fn run(&mut self) -> Run {
        let out = self.cmd.output().expect("the binary runs");
        let run = Run::from(out.clone());
        let mut wrong = Vec::new();
        if !out.status.code().is_some_and(|code| self.status.contains(&code)) {
            wrong.push(format!("exit status {:?}, expected one of {:?}", out.status.code(), self.status));
        }
        wrong.extend(broken("stdout", &self.stdout, &run.stdout));
        wrong.extend(broken("stderr", &self.stderr, &run.stderr));
        if !wrong.is_empty() {
            panic!(
                "kubectl-upjet {}\n{}\n--- stdout ---\n{}\n--- stderr ---\n{}",
                self.describe().join(" "),
                wrong.join("\n"),
                run.stdout,
                run.stderr
            );
        }
        run
    }

    /// The same program, arguments, environment and folder as a plain `std::process::Command`,
    /// for runs a test spawns, signals or kills (keep `self` alive while it runs: it owns `HOME`).
    pub fn to_std(&self) -> std::process::Command {
        let mut cmd = std::process::Command::new(self.cmd.get_program());
        cmd.env_clear().args(self.cmd.get_args()).envs(self.envs());
        if let Some(dir) = self.cmd.get_current_dir() {
            cmd.current_dir(dir);
        }
        cmd
    }

    /// The variables the run gets (its whole environment: the policy clears the rest), for a
    /// program that passes them on to the plugin (kubectl).
    pub fn envs(&self) -> Vec<(OsString, OsString)> {
        self.cmd.get_envs().filter_map(|(k, v)| Some((k.to_owned(), v?.to_owned()))).collect()
    }

    /// The environment as `export K='v' …` for a shell script (values must not hold a quote).
    pub fn shell_exports(&self) -> String {
        let pairs: Vec<String> =
            self.envs().iter().map(|(k, v)| format!("{}='{}'", k.to_string_lossy(), v.to_string_lossy())).collect();
        format!("export {}", pairs.join(" "))
    }

    /// The program path.
    pub fn program(&self) -> PathBuf {
        PathBuf::from(self.cmd.get_program())
    }

    fn describe(&self) -> Vec<String> {
        self.cmd.get_args().map(|a| a.to_string_lossy().into_owned()).collect()
    }
}

/// What a finished run printed, as text (its exit code was checked by [`Upjet::run`]).
pub struct Run {
    /// Standard output (a run whose stdout is not UTF-8 panics: the plugin prints text).
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
}

impl From<Output> for Run {
    fn from(out: Output) -> Run {
        Run {
            stdout: String::from_utf8(out.stdout).expect("stdout is UTF-8"),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }
}

impl Run {
    /// Standard output parsed as JSON (panics with both streams when it is not).
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {}\nstderr: {}", self.stdout, self.stderr))
    }

    /// Standard output as a doctor report.
    pub fn report(&self) -> Report {
        Report(self.json())
    }
}

/// A doctor JSON report (indexes like the JSON it is: `report["summary"]["byCode"]`).
pub struct Report(pub Value);

impl std::ops::Deref for Report {
    type Target = Value;
    fn deref(&self) -> &Value {
        &self.0
    }
}

impl Report {
    /// The finding of `code` about the MR `name`, if there is one.
    pub fn find(&self, code: &str, name: &str) -> Option<&Value> {
        find(&self.0, code, name)
    }

    /// The finding of `code` about the MR `name` (panics with the report's pairs when missing).
    pub fn finding(&self, code: &str, name: &str) -> &Value {
        self.find(code, name).unwrap_or_else(|| panic!("no {code} for {name} in {:?}", codes(&self.0)))
    }

    /// `(code, name)` pairs, sorted.
    pub fn codes(&self) -> Vec<(String, String)> {
        codes(&self.0)
    }
}

/// Bytes a program printed, as text (lossy), for the programs a test drives besides the builder's
/// runs (tmux, a spawned run of the plugin).
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// The finding of `code` about the MR `name` in a doctor report, if there is one.
pub fn find<'a>(report: &'a Value, code: &str, name: &str) -> Option<&'a Value> {
    report["findings"].as_array()?.iter().find(|f| f["code"] == code && f["resource"]["name"] == name)
}

/// `(code, name)` pairs of a report, sorted.
pub fn codes(report: &Value) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["code"].as_str().unwrap().to_string(), f["resource"]["name"].as_str().unwrap().to_string()))
        .collect();
    v.sort();
    v
}
