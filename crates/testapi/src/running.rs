//! Serving: a [`TestApi`] started on its own thread and runtime, and the [`RunningServer`] a
//! test holds (its URL, kubeconfig, and stopping on drop).

use crate::{TestApi, server};
use std::net::SocketAddr;
use std::path::Path;

impl TestApi {
    /// Starts serving on `127.0.0.1:<random port>`. The server runs on its own
    /// thread and tokio runtime, so it keeps answering even while the test blocks
    /// (e.g. waiting for a `kubectl` or `assert_cmd` child process).
    pub async fn start(&self) -> anyhow::Result<RunningServer> {
        self.start_blocking()
    }

    /// Like [`TestApi::start`], for synchronous tests.
    pub fn start_blocking(&self) -> anyhow::Result<RunningServer> {
        let listener = std::net::TcpListener::bind("127.0.0.1:0")?;
        listener.set_nonblocking(true)?;
        let addr = listener.local_addr()?;
        let (tx, rx) = tokio::sync::watch::channel(false);
        let inner = self.inner.clone();
        let (ready_tx, ready_rx) = std::sync::mpsc::channel();
        let thread = std::thread::Builder::new().name(format!("testapi-{}", addr.port())).spawn(move || {
            let rt = match tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .thread_name("testapi-worker")
                .enable_all()
                .build()
            {
                Ok(rt) => rt,
                Err(e) => {
                    let _ = ready_tx.send(Err(anyhow::anyhow!("building runtime: {e}")));
                    return;
                }
            };
            rt.block_on(async move {
                match tokio::net::TcpListener::from_std(listener) {
                    Ok(l) => {
                        let _ = ready_tx.send(Ok(()));
                        server::serve(inner, l, rx).await;
                    }
                    Err(e) => {
                        let _ = ready_tx.send(Err(anyhow::anyhow!("listener: {e}")));
                    }
                }
            });
        })?;
        ready_rx.recv().map_err(|_| anyhow::anyhow!("server thread died"))??;
        Ok(RunningServer { url: format!("http://{addr}"), addr, shutdown: tx, thread: Some(thread) })
    }
}

/// A server that is serving; dropping it stops the server and closes its connections.
#[derive(Debug)]
pub struct RunningServer {
    /// Base URL, `http://127.0.0.1:PORT`.
    pub url: String,
    /// The bound address.
    pub addr: SocketAddr,
    shutdown: tokio::sync::watch::Sender<bool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl RunningServer {
    /// Writes a kubeconfig pointing at this server: context, cluster and user all
    /// named `test`, bearer token `test-token`, optional default namespace.
    pub fn write_kubeconfig(&self, path: &Path, namespace: Option<&str>) -> std::io::Result<()> {
        std::fs::write(path, self.kubeconfig(namespace))
    }

    /// The kubeconfig text that [`RunningServer::write_kubeconfig`] writes.
    pub fn kubeconfig(&self, namespace: Option<&str>) -> String {
        self.kubeconfig_with_token(namespace, "test-token")
    }

    /// A kubeconfig like [`RunningServer::kubeconfig`] whose user presents `token` (a user added
    /// with [`TestApi::add_user`]).
    pub fn kubeconfig_with_token(&self, namespace: Option<&str>, token: &str) -> String {
        let ns = namespace
            .map(|n| format!("    namespace: {}\n", serde_json::to_string(n).unwrap_or_default()))
            .unwrap_or_default();
        format!(
            "apiVersion: v1\nkind: Config\nclusters:\n- name: test\n  cluster:\n    server: {}\ncontexts:\n- name: test\n  context:\n    cluster: test\n    user: test\n{ns}current-context: test\nusers:\n- name: test\n  user:\n    token: {token}\npreferences: {{}}\n",
            self.url
        )
    }
}

impl Drop for RunningServer {
    fn drop(&mut self) {
        let _ = self.shutdown.send(true);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
