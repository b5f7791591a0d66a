//! testapi's own tests, linked into one binary (`cargo test -p testapi --test it`): the server
//! over real HTTP (`api`), server-side apply and managed fields through the kube client (`apply`), its watch streams (`watch`) and pod exec over websocket (`exec`),
//! kubectl against it when kubectl is installed (`kubectl`), and a printed performance figure
//! (`perf`). `common` is the small HTTP client they share. Run one module's tests with a module
//! path: `cargo test -p testapi --test it watch::`.

mod common;

mod api;
mod apply;
mod exec;
mod kubectl;
mod perf;
mod watch;
