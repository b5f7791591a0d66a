//! krew: the manifest passes every rule of krew-index's `validate-krew-manifest` (re-implemented,
//! since krew cannot be installed here), and an archive built by `scripts/release.sh` installs the
//! way krew installs it (extract, apply `files`, link `bin`, require a LICENSE).

use serde_json::Value;
use std::path::{Path, PathBuf};

/// Every <os,arch> pair krew's validator knows (`cmd/validate-krew-manifest` `allPlatforms`).
const KNOWN_PLATFORMS: &[(&str, &str)] = &[
    ("windows", "386"),
    ("windows", "amd64"),
    ("windows", "arm64"),
    ("linux", "386"),
    ("linux", "amd64"),
    ("linux", "arm"),
    ("linux", "arm64"),
    ("linux", "ppc64le"),
    ("darwin", "386"),
    ("darwin", "amd64"),
    ("darwin", "arm64"),
];
const WINDOWS_RESERVED: &[&str] = &[
    "CON", "PRN", "AUX", "NUL", "COM1", "COM2", "COM3", "COM4", "COM5", "COM6", "COM7", "COM8", "COM9", "LPT1", "LPT2",
    "LPT3", "LPT4", "LPT5", "LPT6", "LPT7", "LPT8", "LPT9",
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn load(path: &Path) -> Value {
    serde_saphyr::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn is_semver_v(v: &str) -> bool {
    let Some(rest) = v.strip_prefix('v') else { return false };
    let core = rest.split(['-', '+']).next().unwrap_or_default();
    let parts: Vec<&str> = core.split('.').collect();
    parts.len() == 3
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()) && (p.len() == 1 || !p.starts_with('0')))
}

/// Label-selector match on {os, arch} (matchLabels AND matchExpressions with In/NotIn/Exists/DoesNotExist).
fn selector_matches(sel: &Value, os: &str, arch: &str) -> bool {
    let label = |k: &str| match k {
        "os" => Some(os),
        "arch" => Some(arch),
        _ => None,
    };
    if let Some(ml) = sel.get("matchLabels").and_then(Value::as_object)
        && !ml.iter().all(|(k, v)| label(k) == v.as_str())
    {
        return false;
    }
    if let Some(me) = sel.get("matchExpressions").and_then(Value::as_array) {
        for e in me {
            let key = e["key"].as_str().unwrap_or_default();
            let values: Vec<&str> =
                e["values"].as_array().map(|v| v.iter().filter_map(Value::as_str).collect()).unwrap_or_default();
            let ok = match e["operator"].as_str().unwrap_or_default() {
                "In" => label(key).is_some_and(|l| values.contains(&l)),
                "NotIn" => label(key).is_none_or(|l| !values.contains(&l)),
                "Exists" => label(key).is_some(),
                "DoesNotExist" => label(key).is_none(),
                _ => false,
            };
            if !ok {
                return false;
            }
        }
    }
    true
}

/// The validator's rules; returns every violation.
fn violations(m: &Value, file_name: &str, cargo_version: &str) -> Vec<String> {
    let mut v = Vec::new();
    let mut check = |ok: bool, msg: String| {
        if !ok {
            v.push(msg)
        }
    };
    check(m["apiVersion"] == "krew.googlecontainertools.github.com/v1alpha2", "apiVersion".into());
    check(m["kind"] == "Plugin", "kind".into());
    let name = m["metadata"]["name"].as_str().unwrap_or_default();
    check(
        !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-'),
        format!("name {name:?} must match ^[\\w-]+$"),
    );
    check(!WINDOWS_RESERVED.iter().any(|r| r.eq_ignore_ascii_case(name)), "name is a Windows reserved name".into());
    check(name == file_name, format!("metadata.name {name:?} must equal the index file name {file_name:?}"));
    let spec = &m["spec"];
    let short = spec["shortDescription"].as_str().unwrap_or_default();
    check(!short.is_empty() && !short.contains(['\r', '\n']), "shortDescription must be one non-empty line".into());
    check(short.len() <= 50, format!("shortDescription is {} chars; reviewers ask for at most 50", short.len()));
    let desc = spec["description"].as_str().unwrap_or_default();
    check(!desc.is_empty(), "description is required".into());
    for field in ["description", "caveats"] {
        for line in spec[field].as_str().unwrap_or_default().lines() {
            check(line.len() <= 80 || !line.trim().contains(' '), format!("{field} line over 80 columns: {line:?}"));
        }
    }
    let version = spec["version"].as_str().unwrap_or_default();
    check(is_semver_v(version), format!("version {version:?} must be v-prefixed semver"));
    check(version == format!("v{cargo_version}"), format!("version {version} must equal Cargo's v{cargo_version}"));
    let platforms = spec["platforms"].as_array().cloned().unwrap_or_default();
    check(!platforms.is_empty(), "at least one platform".into());
    for (i, p) in platforms.iter().enumerate() {
        let uri = p["uri"].as_str().unwrap_or_default();
        check(
            uri.starts_with("https://") && (uri.ends_with(".tar.gz") || uri.ends_with(".zip")),
            format!("platform {i}: uri {uri:?}"),
        );
        let sha = p["sha256"].as_str().unwrap_or_default();
        check(
            sha.len() == 64 && sha.chars().all(|c| c.is_ascii_digit() || ('a'..='f').contains(&c)),
            format!("platform {i}: sha256 must match ^[a-f0-9]{{64}}$"),
        );
        let bin = p["bin"].as_str().unwrap_or_default();
        check(!bin.is_empty(), format!("platform {i}: bin"));
        if let Some(files) = p.get("files").filter(|f| !f.is_null()) {
            let files = files.as_array().cloned().unwrap_or_default();
            check(!files.is_empty(), format!("platform {i}: files must be unspecified or non-empty"));
            for f in &files {
                check(
                    f["from"].as_str().is_some_and(|s| !s.is_empty())
                        && f["to"].as_str().is_some_and(|s| !s.is_empty()),
                    format!("platform {i}: files need from and to"),
                );
            }
        }
        let sel = &p["selector"];
        let ml = sel.get("matchLabels");
        let me = sel.get("matchExpressions");
        check(!sel.is_null() && sel.is_object(), format!("platform {i}: nil selector"));
        check(
            ml.is_some_and(|m| !m.is_null()) || me.and_then(Value::as_array).is_some_and(|a| !a.is_empty()),
            format!("platform {i}: empty selector"),
        );
        check(
            ml.is_none_or(|m| m.as_object().is_some_and(|o| !o.is_empty())),
            format!("platform {i}: matchLabels specified but empty"),
        );
        check(
            me.is_none_or(|m| m.as_array().is_some_and(|a| !a.is_empty())),
            format!("platform {i}: matchExpressions specified but empty"),
        );
        let mut keys: Vec<String> =
            ml.and_then(Value::as_object).map(|o| o.keys().cloned().collect()).unwrap_or_default();
        keys.extend(
            me.and_then(Value::as_array).into_iter().flatten().filter_map(|e| e["key"].as_str().map(String::from)),
        );
        check(keys.iter().all(|k| k == "os" || k == "arch"), format!("platform {i}: only os and arch keys: {keys:?}"));
        let matched: Vec<_> = KNOWN_PLATFORMS.iter().filter(|(os, arch)| selector_matches(sel, os, arch)).collect();
        check(!matched.is_empty(), format!("platform {i}: selector matches no supported platform"));
        if matched.iter().any(|(os, _)| *os == "windows") {
            check(bin.ends_with(".exe"), format!("platform {i}: a Windows bin must end in .exe"));
        }
    }
    for (os, arch) in KNOWN_PLATFORMS {
        let n = platforms.iter().filter(|p| selector_matches(&p["selector"], os, arch)).count();
        check(n <= 1, format!("{n} platforms overlap on {os}/{arch}"));
    }
    v
}

fn cargo_version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

#[test]
fn manifest_passes_krew_validation() {
    let m = load(&root().join("krew-manifest.yaml"));
    assert_eq!(violations(&m, "upjet", &cargo_version()), Vec::<String>::new());
    let platforms = m["spec"]["platforms"].as_array().unwrap();
    for (os, arch) in
        [("linux", "amd64"), ("linux", "arm64"), ("darwin", "amd64"), ("darwin", "arm64"), ("windows", "amd64")]
    {
        assert_eq!(platforms.iter().filter(|p| selector_matches(&p["selector"], os, arch)).count(), 1, "{os}/{arch}");
    }
    let caveats = m["spec"]["caveats"].as_str().unwrap();
    assert!(caveats.contains("completion kubectl-plugin") && caveats.contains("RBAC"));
}

#[test]
fn validator_rejects_what_krew_rejects() {
    let good = load(&root().join("krew-manifest.yaml"));
    let mutate = |f: &dyn Fn(&mut Value)| {
        let mut m = good.clone();
        f(&mut m);
        violations(&m, "upjet", &cargo_version())
    };
    let cases: Vec<(&str, Box<dyn Fn(&mut Value)>)> = vec![
        ("apiVersion", Box::new(|m| m["apiVersion"] = "krew.googlecontainertools.github.com/v1alpha1".into())),
        ("kind", Box::new(|m| m["kind"] = "Plugins".into())),
        ("name", Box::new(|m| m["metadata"]["name"] = "up jet".into())),
        ("reserved", Box::new(|m| m["metadata"]["name"] = "nul".into())),
        ("version", Box::new(|m| m["spec"]["version"] = "0.1.0".into())),
        ("semver", Box::new(|m| m["spec"]["version"] = "v0.1".into())),
        ("short", Box::new(|m| m["spec"]["shortDescription"] = "two\nlines".into())),
        (
            "sha",
            Box::new(|m| {
                m["spec"]["platforms"][0]["sha256"] = "ABCDEF".repeat(10).chars().take(64).collect::<String>().into()
            }),
        ),
        ("bin", Box::new(|m| m["spec"]["platforms"][0]["bin"] = "".into())),
        ("files", Box::new(|m| m["spec"]["platforms"][0]["files"] = serde_json::json!([]))),
        ("from", Box::new(|m| m["spec"]["platforms"][0]["files"] = serde_json::json!([{"to": "."}]))),
        ("key", Box::new(|m| m["spec"]["platforms"][0]["selector"]["matchLabels"]["libc"] = "musl".into())),
        ("nil selector", Box::new(|m| m["spec"]["platforms"][0]["selector"] = Value::Null)),
        ("empty labels", Box::new(|m| m["spec"]["platforms"][0]["selector"] = serde_json::json!({"matchLabels": {}}))),
        ("unknown platform", Box::new(|m| m["spec"]["platforms"][0]["selector"]["matchLabels"]["os"] = "plan9".into())),
        (
            "overlap",
            Box::new(|m| {
                m["spec"]["platforms"][1]["selector"] =
                    serde_json::json!({"matchExpressions": [{"key": "os", "operator": "In", "values": ["linux"]}]})
            }),
        ),
        ("exe", Box::new(|m| m["spec"]["platforms"][4]["bin"] = "kubectl-upjet".into())),
    ];
    for (name, f) in cases {
        assert!(!mutate(&*f).is_empty(), "the validator must reject: {name}");
    }
}

/// krew's `files` rule: each `from` glob is matched inside the extracted archive and copied to
/// `to` (a directory), keeping the file name.
fn apply_files(extracted: &Path, install: &Path, files: &[Value]) {
    for f in files {
        let pattern = extracted.join(f["from"].as_str().unwrap());
        let to: PathBuf = install.join(f["to"].as_str().unwrap()).components().collect();
        std::fs::create_dir_all(&to).unwrap();
        let mut n = 0;
        for entry in glob::glob(pattern.to_str().unwrap()).unwrap() {
            let src = entry.unwrap();
            std::fs::copy(&src, to.join(src.file_name().unwrap())).unwrap();
            n += 1;
        }
        assert!(n > 0, "files.from {:?} matched nothing in the archive", f["from"]);
    }
}

#[test]
fn release_archive_installs_like_krew() {
    let out = tempfile::tempdir().unwrap();
    let manifest = out.path().join("krew-manifest.yaml");
    std::fs::copy(root().join("krew-manifest.yaml"), &manifest).unwrap();
    let status = std::process::Command::new("bash")
        .arg(root().join("scripts/release.sh"))
        .args(["--out"])
        .arg(out.path())
        .arg("--binary")
        .arg(env!("CARGO_BIN_EXE_kubectl-upjet"))
        .arg("--manifest")
        .arg(&manifest)
        .current_dir(root())
        .output()
        .unwrap();
    assert!(status.status.success(), "release.sh failed: {}", String::from_utf8_lossy(&status.stderr));
    let archive = out.path().join("kubectl-upjet-x86_64-unknown-linux-musl.tar.gz");
    let bytes = std::fs::read(&archive).unwrap();
    let m = load(&manifest);
    assert_eq!(violations(&m, "upjet", &cargo_version()), Vec::<String>::new());
    assert_eq!(load(&out.path().join("plugins/upjet.yaml")), m, "the krew-index copy equals the manifest");
    let platform = m["spec"]["platforms"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| selector_matches(&p["selector"], "linux", "amd64"))
        .unwrap()
        .clone();
    // krew checks the archive's sha256 against the manifest before extracting.
    let sha = std::process::Command::new("sha256sum").arg(&archive).output().unwrap();
    let sha = String::from_utf8(sha.stdout).unwrap();
    assert_eq!(platform["sha256"].as_str().unwrap(), sha.split_whitespace().next().unwrap());
    assert!(bytes.starts_with(&[0x1f, 0x8b]), "a gzip archive");

    let extracted = out.path().join("extracted");
    std::fs::create_dir(&extracted).unwrap();
    assert!(
        std::process::Command::new("tar")
            .arg("-xzf")
            .arg(&archive)
            .arg("-C")
            .arg(&extracted)
            .status()
            .unwrap()
            .success()
    );
    let install = out.path().join("store/upjet/v0.1.0");
    apply_files(&extracted, &install, platform["files"].as_array().unwrap());
    let bin = install.join(platform["bin"].as_str().unwrap());
    use std::os::unix::fs::PermissionsExt;
    assert!(std::fs::metadata(&bin).unwrap().permissions().mode() & 0o111 != 0, "bin is executable");
    let license_like = ["license", "license.txt", "license.md", "copying", "copying.txt"];
    assert!(
        std::fs::read_dir(&install)
            .unwrap()
            .any(|e| license_like.contains(&e.unwrap().file_name().to_string_lossy().to_lowercase().as_str())),
        "krew requires a LICENSE file in the install directory"
    );
    let help = run_fresh_executable(std::process::Command::new(&bin).arg("--help"));
    assert!(help.status.success() && String::from_utf8_lossy(&help.stdout).contains("kubectl upjet"));
}

/// `release.sh --image` builds the watch's image from the same static binary through
/// deploy/watch/Dockerfile, with a build context holding only that binary (a stand-in for docker
/// records what it was asked and what the context held); without the tool it stops before
/// building anything, naming it.
#[test]
fn release_builds_the_watch_image_from_the_static_binary() {
    let out = tempfile::tempdir().unwrap();
    let manifest = out.path().join("krew-manifest.yaml");
    std::fs::copy(root().join("krew-manifest.yaml"), &manifest).unwrap();
    let record = out.path().join("docker-calls");
    let fake = out.path().join("fake-docker");
    std::fs::write(
        &fake,
        format!(
            "#!/bin/sh\necho \"$@\" >> {0}\nfor a; do last=$a; done\nls \"$last\" >> {0}\ntest -x \"$last/kubectl-upjet\"\n",
            record.display()
        ),
    )
    .unwrap();
    std::process::Command::new("chmod").arg("+x").arg(&fake).status().unwrap();
    let release = |docker: &Path| {
        std::process::Command::new("bash")
            .arg(root().join("scripts/release.sh"))
            .arg("--out")
            .arg(out.path())
            .arg("--binary")
            .arg(env!("CARGO_BIN_EXE_kubectl-upjet"))
            .arg("--manifest")
            .arg(&manifest)
            .args(["--image", "example.com/kubectl-upjet:test"])
            .env("DOCKER", docker)
            .current_dir(root())
            .output()
            .unwrap()
    };
    let done = release(&fake);
    assert!(done.status.success(), "{}", String::from_utf8_lossy(&done.stderr));
    let calls = std::fs::read_to_string(&record).unwrap();
    let mut lines = calls.lines();
    let args = lines.next().unwrap();
    assert!(
        args.starts_with(
            "build -f deploy/watch/Dockerfile --build-arg BINARY=kubectl-upjet -t example.com/kubectl-upjet:test "
        ),
        "{args}"
    );
    assert_eq!(lines.collect::<Vec<_>>(), ["kubectl-upjet"], "the context holds the binary alone");
    let dockerfile = std::fs::read_to_string(root().join("deploy/watch/Dockerfile")).unwrap();
    assert!(dockerfile.contains("COPY ${BINARY} /kubectl-upjet"), "{dockerfile}");

    let missing = release(&out.path().join("no-such-docker"));
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("no-such-docker"));
}

/// Runs a program this test just wrote. Another test's thread may fork while the file is still
/// open for writing, and the child holds that descriptor until it execs: the kernel then refuses
/// to run the file (ETXTBSY, "Text file busy") for that instant, so the run is tried again.
fn run_fresh_executable(cmd: &mut std::process::Command) -> std::process::Output {
    const ETXTBSY: i32 = 26;
    for _ in 0..50 {
        match cmd.output() {
            Err(e) if e.raw_os_error() == Some(ETXTBSY) => std::thread::sleep(std::time::Duration::from_millis(20)),
            other => return other.unwrap(),
        }
    }
    cmd.output().unwrap()
}
