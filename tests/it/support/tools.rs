//! Programs a test drives besides the plugin: promtool (Debian's `prometheus`) and headless
//! Chromium (Debian's `chromium`). `.ci/run` installs both, so on CI (`CI` set) a missing one
//! fails the test that needs it instead of letting it pass having checked nothing; on a
//! developer's machine that test prints a note and checks what it can without the program.

use std::process::Command;

/// Whether `program` starts (`program --version`). When it does not: panics on CI, otherwise
/// prints a note naming the Debian `package` that provides it and returns false, so the caller
/// skips what needs it.
pub fn installed(program: &str, package: &str) -> bool {
    if Command::new(program).arg("--version").output().is_ok() {
        return true;
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "{program} is not installed; CI must have it (.ci/run runs apt-get install -y {package})"
    );
    eprintln!("note: {program} is not installed (apt-get install -y {package}); skipping the checks that run it");
    false
}
