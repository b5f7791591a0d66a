//! I/O on the user's own machine, as opposed to the API server's (`cluster/`): adopt's backup
//! files, written before any change and read back by `restore`, and the questions asked on the
//! terminal, and the ID journal `watch` writes and the other commands read.

pub mod backup;
pub mod journal;
pub mod prompt;
