//! What the file benchmarks share: writing a large input file from one chunk, and running the
//! real binary on it while watching its peak memory.

use std::io::Write;
use std::path::Path;
use std::time::Instant;

/// Writes `chunk` to `path` again and again until the file holds at least `mib` MiB.
pub fn write_repeated(path: &Path, chunk: &[u8], mib: usize) {
    write_file(path, &[], chunk, mib, false);
}

/// Writes `head` once, then `chunk` again and again until at least `mib` MiB went in; with
/// `gzip`, compressed (fast level), the size counted before compression.
pub fn write_file(path: &Path, head: &[u8], chunk: &[u8], mib: usize, gzip: bool) {
    let file = std::io::BufWriter::new(std::fs::File::create(path).expect("bench input file"));
    let mut f: Box<dyn Write> = match gzip {
        true => Box::new(flate2::write::GzEncoder::new(file, flate2::Compression::fast())),
        false => Box::new(file),
    };
    f.write_all(head).expect("write");
    let mut written = head.len();
    while written < mib * 1024 * 1024 {
        f.write_all(chunk).expect("write");
        written += chunk.len();
    }
    f.flush().expect("flush");
}

/// How one run of the binary went.
pub struct Run {
    /// It exited 0.
    pub ok: bool,
    /// Wall time.
    pub secs: f64,
    /// Peak resident memory of the process, MiB.
    pub peak_mib: f64,
}

/// Runs `cmd` (output discarded) and samples its VmHWM until it exits. getrusage(RUSAGE_CHILDREN)
/// would also count this benchmark's memory: the child is spawned with vfork, and Linux folds
/// the shared pre-exec address space's high-water mark into the child's maxrss.
pub fn run_measured(mut cmd: std::process::Command) -> Run {
    let start = Instant::now();
    let mut child =
        cmd.stdout(std::process::Stdio::null()).stderr(std::process::Stdio::null()).spawn().expect("run the binary");
    let mut hwm_kib = 0u64;
    let status = loop {
        if let Ok(text) = std::fs::read_to_string(format!("/proc/{}/status", child.id()))
            && let Some(v) = text.lines().find_map(|l| l.strip_prefix("VmHWM:"))
        {
            hwm_kib = hwm_kib.max(v.trim().trim_end_matches("kB").trim().parse().unwrap_or(0));
        }
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    };
    Run { ok: status.success(), secs: start.elapsed().as_secs_f64(), peak_mib: hwm_kib as f64 / 1024.0 }
}
