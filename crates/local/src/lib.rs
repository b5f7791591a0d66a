//! I/O on the user's own machine, as opposed to the API server's (`cluster/`): adopt's backup
//! files, written before any change and read back by `restore`, the other files the tool keeps or
//! writes (`store`: the discovery cache's entries, restore-plan's outputs, the completion script;
//! `journal`: the ID journal `watch` writes and the other commands read), and the questions asked
//! on the terminal.

pub mod backup;
pub mod journal;
pub mod prompt;
pub mod store;
