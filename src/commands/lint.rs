//! `doctor --from DIR|FILE|-` over GitOps manifests (`--from` once or several times: one lint
//! over all of them, each file read once): the files (or stdin) read, every document
//! parsed on its own with its line (`evidence::manifests`), the managed resources judged by the
//! rules that need no cluster (`evidence::manifests::lint` over `domain::lint`'s facts), and the report told which rules ran, what was
//! skipped and where each finding's manifest is. See docs/lint.md.

use crate::settings::Settings;
use std::io::Read;
use std::path::{Path, PathBuf};
use upjet_cluster::snapshot;
use upjet_core::error::Error;
use upjet_core::finding::SourceLocation;
use upjet_core::lint::Manifest;
use upjet_core::managed::ManagedResource;
use upjet_core::report::{LintSummary, Report, ReportBuilder};
use upjet_evidence::manifests::{self, FileRead, Shape};

/// How much of a `--from` input's first file is looked at to tell manifests from a snapshot.
const HEAD_BYTES: usize = 64 * 1024;

/// Whether a `--from` path holds manifests rather than a snapshot: stdin always (kustomize and
/// helm print desired state); a file or folder when its first file is YAML and its head shows
/// nothing the API server writes ([`manifests::head_looks_live`]). A first file in JSON is a
/// snapshot (`kubectl get -o json`) or another input the snapshot reader names; a path that
/// cannot be read is left to the snapshot reader too, whose error says why.
pub(crate) fn is_manifests(path: &Path) -> bool {
    if path.as_os_str() == "-" {
        return true;
    }
    let Ok((files, _)) = snapshot::files(path) else { return false };
    let Some(first) = files.first().filter(|f| f.extension().is_some_and(|e| e == "yaml" || e == "yml")) else {
        return false;
    };
    let Ok(file) = std::fs::File::open(first) else { return false };
    let mut head = Vec::with_capacity(HEAD_BYTES);
    if file.take(HEAD_BYTES as u64).read_to_end(&mut head).is_err() {
        return false;
    }
    !manifests::head_looks_live(&String::from_utf8_lossy(&head))
}

/// A file as a finding names it: relative to the working folder when it lies below it.
fn shown(file: &Path, cwd: Option<&Path>) -> String {
    let relative = cwd.and_then(|c| file.strip_prefix(c).ok()).unwrap_or(file);
    relative.to_string_lossy().into_owned()
}

/// The files to lint below `paths`, in the order given, each once (`--from repo --from
/// repo/net.yaml` reads `net.yaml` once: twice, its manifests would share their own
/// external-names); stdin is `-`, read once too.
fn files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, Error> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for path in paths {
        let found = if path.as_os_str() == "-" { vec![path.clone()] } else { snapshot::files(path)?.0 };
        for file in found {
            let same = std::fs::canonicalize(&file).unwrap_or_else(|_| file.clone());
            if seen.insert(same) {
                out.push(file);
            }
        }
    }
    Ok(out)
}

/// The texts to lint: stdin, and every `.yaml`, `.yml` and `.json` file below the paths, each
/// with the name findings give it. A file that cannot be read is an unreadable input.
fn texts(
    paths: &[PathBuf],
    cwd: Option<&Path>,
    builder: &mut ReportBuilder,
) -> Result<Vec<(String, bool, String)>, Error> {
    let files = files(paths)?;
    let mut out = Vec::with_capacity(files.len());
    for file in files {
        if file.as_os_str() == "-" {
            let mut text = String::new();
            std::io::stdin().read_to_string(&mut text).map_err(|e| Error::usage(format!("cannot read stdin: {e}")))?;
            out.push(("-".to_string(), false, text));
            continue;
        }
        let json = file.extension().is_some_and(|e| e == "json");
        match std::fs::read_to_string(&file) {
            Ok(text) => out.push((shown(&file, cwd), json, text)),
            Err(e) => builder.unreadable(format!("{}: cannot read: {e}", file.display())),
        }
    }
    Ok(out)
}

/// What the files held, sorted out: the managed resources with their places, and the counts.
#[derive(Default)]
struct Collected {
    manifests: Vec<Manifest>,
    places: Vec<SourceLocation>,
    summary: LintSummary,
}

impl Collected {
    fn take(
        &mut self,
        name: &str,
        read: FileRead,
        keep: &impl Fn(&ManagedResource) -> bool,
        builder: &mut ReportBuilder,
    ) {
        self.summary.files += 1;
        self.summary.syntax_errors += read.errors.len();
        for e in read.errors {
            builder.unreadable(format!("{name}:{}: {}", e.line, e.message));
        }
        for object in read.objects {
            let shape = Shape::of(&object.value);
            match shape {
                Shape::NotObject => self.summary.skipped_not_objects += 1,
                Shape::NotManaged => self.summary.skipped_not_managed += 1,
                Shape::Manifest | Shape::Live => match ManagedResource::from_value(&object.value) {
                    Ok(mr) if !keep(&mr) => {}
                    Ok(mr) => {
                        self.summary.live_objects += usize::from(shape == Shape::Live);
                        let refs = manifests::references(&object.value);
                        let provider_annotations = manifests::provider_annotations(&object.value);
                        self.manifests.push(Manifest { mr, refs, provider_annotations });
                        self.places.push(SourceLocation { file: name.to_string(), line: object.line });
                    }
                    Err(e) => builder.unreadable(format!("{name}:{}: {e}", object.line)),
                },
            }
        }
    }
}

/// Lints the manifests at `paths` (`-`: stdin), all as one set, into a report; `keep` says which
/// managed resources are asked for (`--kind`).
pub fn run(
    paths: &[PathBuf],
    keep: impl Fn(&ManagedResource) -> bool,
    settings: &Settings,
    filter: upjet_core::report::Filter,
) -> anyhow::Result<Report> {
    let mut builder = ReportBuilder::new(filter);
    let mut collected = Collected::default();
    for (name, json, text) in texts(paths, settings.current_dir.as_deref(), &mut builder)? {
        let read = if json { manifests::read_json(&text) } else { manifests::read_yaml(&text) };
        collected.take(&name, read, &keep, &mut builder);
    }
    let Collected { manifests, places, mut summary } = collected;
    let judged = upjet_evidence::manifests::lint(&manifests, settings.now);
    let kinds: std::collections::BTreeSet<(&str, &str)> =
        manifests.iter().map(|m| (m.mr.group(), m.mr.kind.as_str())).collect();
    for _ in &kinds {
        builder.kind_scanned();
    }
    builder.scanned(manifests.len());
    for ((m, findings), place) in manifests.iter().zip(judged.findings).zip(places) {
        builder.add_at(&m.mr, findings, place);
    }
    summary.manifests = manifests.len();
    summary.rules_run = judged.ran;
    summary.rules_need_cluster = judged.need_cluster;
    builder.note(note(&summary));
    builder.lint(summary);
    Ok(builder.finish())
}

/// The one line a lint adds to the report's notes.
fn note(s: &LintSummary) -> String {
    let mut note = format!(
        "linted {} managed resources from {} files with {} rules ({} need a cluster)",
        s.manifests,
        s.files,
        s.rules_run.len(),
        s.rules_need_cluster.len()
    );
    if s.skipped_not_managed + s.skipped_not_objects > 0 {
        note.push_str(&format!(
            "; skipped {} objects of other kinds and {} documents that are no Kubernetes object",
            s.skipped_not_managed, s.skipped_not_objects
        ));
    }
    if s.live_objects > 0 {
        note.push_str(&format!(
            "; {} objects were read back from a cluster (status, uid or resourceVersion) and judged as desired state only",
            s.live_objects
        ));
    }
    note
}
