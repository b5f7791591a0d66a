//! Interactive questions behind a small trait, so the adopt flow can be driven by a terminal
//! user (dialoguer, on stderr) or by a script in tests.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use upjet_core::adopt::{Candidate, validate_id};
use upjet_output::style::sanitize;

/// Why a question got no answer.
#[derive(Debug, thiserror::Error)]
pub enum PromptError {
    /// The terminal failed or the user interrupted the prompt (Ctrl-C, closed input).
    #[error("the prompt was interrupted: {0}")]
    Terminal(String),
    /// A scripted prompter was asked more questions than it has answers.
    #[error("no scripted answer left for {0:?}")]
    Exhausted(String),
}

/// The questions `adopt` asks.
pub trait Prompter: Send {
    /// Lets the user pick one of `candidates` or type an ID; `Ok(None)` when they cancel.
    fn choose_id(&mut self, candidates: &[Candidate]) -> Result<Option<String>, PromptError>;
    /// A yes/no question; the safe answer (no) is the default.
    fn confirm(&mut self, question: &str) -> Result<bool, PromptError>;
}

/// One menu line for a candidate: the ID, where it came from, and the evidence.
pub fn candidate_line(c: &Candidate) -> String {
    format!("{}  [{}] {}", sanitize(&c.id), sanitize(&c.source), sanitize(&c.evidence))
}

/// A short menu entry: the ID and where it came from (the evidence is printed above the menu).
pub(crate) fn menu_line(c: &Candidate) -> String {
    format!("{}  [{}]", sanitize(&c.id), sanitize(&c.source))
}

/// Prompts on the terminal's stderr with dialoguer.
pub struct TerminalPrompter {
    color: bool,
}

impl TerminalPrompter {
    /// A prompter; `color` picks the colourful theme.
    pub fn new(color: bool) -> TerminalPrompter {
        TerminalPrompter { color }
    }

    fn theme(&self) -> Box<dyn dialoguer::theme::Theme> {
        if self.color {
            Box::new(dialoguer::theme::ColorfulTheme::default())
        } else {
            Box::new(dialoguer::theme::SimpleTheme)
        }
    }
}

fn terminal_error(e: dialoguer::Error) -> PromptError {
    PromptError::Terminal(e.to_string())
}

impl Prompter for TerminalPrompter {
    fn choose_id(&mut self, candidates: &[Candidate]) -> Result<Option<String>, PromptError> {
        let theme = self.theme();
        let mut items: Vec<String> = candidates.iter().map(menu_line).collect();
        items.push("type an ID".to_string());
        items.push("cancel".to_string());
        let picked = dialoguer::Select::with_theme(theme.as_ref())
            .with_prompt("Which cloud object should this MR track? (Esc cancels)")
            .items(&items)
            .default(0)
            .max_length(12)
            .interact_opt()
            .map_err(terminal_error)?;
        match picked {
            Some(i) if i < candidates.len() => Ok(Some(candidates[i].id.clone())),
            Some(i) if i == candidates.len() => {
                let typed: String = dialoguer::Input::with_theme(theme.as_ref())
                    .with_prompt("Cloud ID (in the provider's external-name format)")
                    .validate_with(|s: &String| validate_id(s).map_err(|e| e.to_string()))
                    .interact_text()
                    .map_err(terminal_error)?;
                Ok(Some(typed))
            }
            _ => Ok(None),
        }
    }

    fn confirm(&mut self, question: &str) -> Result<bool, PromptError> {
        let theme = self.theme();
        let answer = dialoguer::Confirm::with_theme(theme.as_ref())
            .with_prompt(question)
            .default(false)
            .interact_opt()
            .map_err(terminal_error)?;
        Ok(answer.unwrap_or(false))
    }
}

/// One scripted answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Pick the candidate at this index.
    Pick(usize),
    /// Type this ID.
    Type(String),
    /// Cancel the choice.
    Cancel,
    /// Answer a confirmation.
    Confirm(bool),
}

/// Answers from a list, recording every question and answer (a transcript tests can print).
#[derive(Clone, Debug, Default)]
pub struct ScriptedPrompter {
    answers: Arc<Mutex<VecDeque<Answer>>>,
    transcript: Arc<Mutex<Vec<String>>>,
}

impl ScriptedPrompter {
    /// A prompter that gives these answers in order.
    pub fn new(answers: impl IntoIterator<Item = Answer>) -> ScriptedPrompter {
        ScriptedPrompter {
            answers: Arc::new(Mutex::new(answers.into_iter().collect())),
            transcript: Arc::new(Mutex::new(Vec::new())),
        }
    }

    /// The questions asked and the answers given so far (clones share it).
    pub fn transcript(&self) -> Vec<String> {
        self.transcript.lock().map(|t| t.clone()).unwrap_or_default()
    }

    /// Answers not used yet.
    pub fn remaining(&self) -> usize {
        self.answers.lock().map(|a| a.len()).unwrap_or(0)
    }

    fn next(&self, question: &str) -> Result<Answer, PromptError> {
        self.answers
            .lock()
            .ok()
            .and_then(|mut a| a.pop_front())
            .ok_or_else(|| PromptError::Exhausted(question.to_string()))
    }

    fn log(&self, line: String) {
        if let Ok(mut t) = self.transcript.lock() {
            t.push(line);
        }
    }
}

impl Prompter for ScriptedPrompter {
    fn choose_id(&mut self, candidates: &[Candidate]) -> Result<Option<String>, PromptError> {
        self.log("? Which cloud object should this MR track?".to_string());
        for (i, c) in candidates.iter().enumerate() {
            self.log(format!("  {i}) {}", candidate_line(c)));
        }
        let answer = self.next("choose an ID")?;
        let chosen = match answer {
            Answer::Pick(i) => candidates.get(i).map(|c| c.id.clone()),
            Answer::Type(s) => Some(s),
            Answer::Cancel | Answer::Confirm(_) => None,
        };
        self.log(format!("> {}", chosen.as_deref().unwrap_or("(cancelled)")));
        Ok(chosen)
    }

    fn confirm(&mut self, question: &str) -> Result<bool, PromptError> {
        self.log(format!("? {question} [y/N]"));
        let yes = matches!(self.next(question)?, Answer::Confirm(true));
        self.log(format!("> {}", if yes { "yes" } else { "no" }));
        Ok(yes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use upjet_core::adopt::Confidence;

    fn c(id: &str) -> Candidate {
        Candidate {
            id: id.into(),
            source: "status.atProvider.id".into(),
            confidence: Confidence::High,
            evidence: "seen\x1b[2J".into(),
        }
    }

    #[test]
    fn scripted_answers_and_transcript() {
        let mut p = ScriptedPrompter::new([
            Answer::Pick(1),
            Answer::Type("typed".into()),
            Answer::Cancel,
            Answer::Pick(9),
            Answer::Confirm(true),
            Answer::Pick(0),
        ]);
        let cands = [c("a"), c("b")];
        assert_eq!(p.choose_id(&cands).unwrap().as_deref(), Some("b"));
        assert_eq!(p.choose_id(&cands).unwrap().as_deref(), Some("typed"));
        assert_eq!(p.choose_id(&cands).unwrap(), None);
        assert_eq!(p.choose_id(&cands).unwrap(), None, "out of range is a cancel");
        assert!(p.confirm("go?").unwrap());
        assert!(!p.confirm("again?").unwrap(), "a non-confirm answer is no");
        assert!(matches!(p.confirm("more?"), Err(PromptError::Exhausted(_))));
        let t = p.transcript().join("\n");
        assert!(t.contains("  1) b  [status.atProvider.id] seen\\u{1b}[2J"), "sanitized: {t}");
        assert!(t.contains("? go? [y/N]\n> yes"), "{t}");
        assert_eq!(p.remaining(), 0);
    }
}
