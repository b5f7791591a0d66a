//! `-o` values: a command's own formats (a `ValueEnum`) plus kubectl's object forms, which
//! carry text (`jsonpath=TEMPLATE`) and so cannot be enum values. The forms are only split here;
//! the command reads their files and compiles them (a bad template is a usage error, exit 2).

use clap::ValueEnum;
use clap::builder::{PossibleValue, TypedValueParser};
use std::ffi::OsStr;
use std::path::PathBuf;

/// kubectl's object output forms, as typed after `-o`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FormSpec {
    /// `name`: `kind.group/name` per object.
    Name,
    /// `jsonpath=TEMPLATE`.
    JsonPath(String),
    /// `jsonpath-file=FILE`.
    JsonPathFile(PathBuf),
    /// `jsonpath-as-json=TEMPLATE`: every selected value as indented JSON.
    JsonPathAsJson(String),
    /// `custom-columns=HEADER:PATH,…`.
    CustomColumns(String),
    /// `custom-columns-file=FILE`.
    CustomColumnsFile(PathBuf),
}

/// The forms' names, for help and completion.
const FORMS: [(&str, &str); 6] = [
    ("name", "kind.group/name of each MR (kubectl's -o name)"),
    ("jsonpath=TEMPLATE", "kubectl's JSONPath template over the JSON document"),
    ("jsonpath-file=FILE", "the same, the template read from FILE"),
    ("jsonpath-as-json=TEMPLATE", "the selected values as JSON"),
    ("custom-columns=HEADER:PATH,...", "one row per item (finding or timeline event)"),
    ("custom-columns-file=FILE", "headers on the first line, paths on the second"),
];

impl FormSpec {
    /// The form `value` names, if it is one.
    pub fn parse(value: &str) -> Option<FormSpec> {
        if value == "name" {
            return Some(FormSpec::Name);
        }
        let (form, arg) = value.split_once('=')?;
        Some(match form {
            "jsonpath" => FormSpec::JsonPath(arg.to_string()),
            "jsonpath-file" => FormSpec::JsonPathFile(arg.into()),
            "jsonpath-as-json" => FormSpec::JsonPathAsJson(arg.to_string()),
            "custom-columns" => FormSpec::CustomColumns(arg.to_string()),
            "custom-columns-file" => FormSpec::CustomColumnsFile(arg.into()),
            _ => return None,
        })
    }
}

/// A parsed `-o`: the command's own format, or one of kubectl's forms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Output<F> {
    /// One of the command's formats.
    Format(F),
    /// One of kubectl's forms.
    Form(FormSpec),
}

/// The value parser of `-o` for a command whose formats are `F`.
#[derive(Clone)]
pub(crate) struct OutputParser<F>(std::marker::PhantomData<F>);

impl<F> OutputParser<F> {
    /// The parser (for `value_parser = OutputParser::<F>::new()`).
    pub fn new() -> Self {
        OutputParser(std::marker::PhantomData)
    }
}

impl<F> Default for OutputParser<F> {
    fn default() -> Self {
        Self::new()
    }
}

impl<F: ValueEnum + Clone + Send + Sync + 'static> TypedValueParser for OutputParser<F> {
    type Value = Output<F>;

    fn parse_ref(&self, cmd: &clap::Command, arg: Option<&clap::Arg>, value: &OsStr) -> Result<Output<F>, clap::Error> {
        let text = value.to_string_lossy();
        if let Some(form) = FormSpec::parse(&text) {
            return Ok(Output::Form(form));
        }
        if let Ok(format) = F::from_str(&text, false) {
            return Ok(Output::Format(format));
        }
        let mut err = clap::Error::new(clap::error::ErrorKind::InvalidValue).with_cmd(cmd);
        use clap::error::{ContextKind, ContextValue};
        let name = arg.map(|a| a.to_string()).unwrap_or_else(|| "-o".into());
        err.insert(ContextKind::InvalidArg, ContextValue::String(name));
        err.insert(ContextKind::InvalidValue, ContextValue::String(text.into_owned()));
        let valid = self.possible_values().into_iter().flatten().map(|p| p.get_name().to_string()).collect();
        err.insert(ContextKind::ValidValue, ContextValue::Strings(valid));
        Err(err)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        let own = F::value_variants().iter().filter_map(|v| v.to_possible_value());
        let forms = FORMS.iter().map(|(name, help)| PossibleValue::new(*name).help(*help));
        Some(Box::new(own.chain(forms)))
    }
}
