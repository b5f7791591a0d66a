//! The wrapping objects an export's records come in and the paging tokens they end with, as an
//! export declares them (`Export::envelopes`, `Export::tokens`) and the reader listens for them
//! (`record::keys`).

/// A key of a wrapping object whose array holds one export's records (an AWS page's
/// `ResourceTagMappingList`), streamed one by one.
pub(crate) struct Envelope {
    /// The key.
    pub key: &'static str,
    /// What a document wrapped so is called in the file's note (`AWS get-resources`).
    pub name: &'static str,
    /// When the key may hold a table instead of an array (`{"columns": [...], "rows": [[...]]}`,
    /// read whole, each row through `Export::table_row`): what the value is called in the error
    /// about one that is neither.
    pub table: Option<&'static str>,
}

/// A key of a wrapping object whose non-empty string says the export was cut short. A key several
/// exports declare (the AWS CLI's `NextToken`) means one thing: the first one's hint is given.
pub(crate) struct Token {
    /// The key (`NextToken`).
    pub key: &'static str,
    /// What it means and what to do, for the warning that names it.
    pub hint: &'static str,
}
