//! Load errors and warnings shared by every format.
//!
//! An error refuses the file; a warning is a spec violation the file survives. Both carry enough to point a
//! user at the problem: the file, where in it (byte offset or line), and what was expected. Warnings carry a
//! stable rule id (`iqm.align`, `iqm.framerate.zero`, …) so `check` and the UI can group and filter them.

use std::fmt;

/// Where in a file a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Location {
    /// A byte offset from the start of a binary file.
    Offset(u64),
    /// A 1-based line of a text file.
    Line(u64),
    /// The file as a whole.
    File,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Offset(o) => write!(f, "@{o}"),
            Location::Line(l) => write!(f, "line {l}"),
            Location::File => Ok(()),
        }
    }
}

/// A file that could not be loaded.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{file}{}: {message}", fmt_location(.location))]
pub struct LoadError {
    /// The file's name as the user gave it (empty when loading from memory without a name).
    pub file: String,
    pub location: Location,
    /// What is wrong and what was expected, in the user's words.
    pub message: String,
}

fn fmt_location(location: &Location) -> String {
    match location {
        Location::File => String::new(),
        Location::Offset(o) => format!(" @{o}"),
        Location::Line(l) => format!(":{l}"),
    }
}

impl LoadError {
    pub fn at(offset: u64, message: impl Into<String>) -> Self {
        LoadError { file: String::new(), location: Location::Offset(offset), message: message.into() }
    }

    pub fn whole(message: impl Into<String>) -> Self {
        LoadError { file: String::new(), location: Location::File, message: message.into() }
    }

    /// Names the file, for errors raised by code that only saw bytes.
    pub fn in_file(mut self, file: &str) -> Self {
        self.file = file.to_string();
        self
    }
}

/// A spec violation the file survives.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Warning {
    /// Stable rule id, `format.topic[.detail]`.
    pub rule: &'static str,
    pub location: Location,
    pub message: String,
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.location {
            Location::File => write!(f, "{} [{}]", self.message, self.rule),
            loc => write!(f, "{loc}: {} [{}]", self.message, self.rule),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_names_file_and_offset() {
        let e = LoadError::at(36, "meshes end past end of file").in_file("a.iqm");
        assert_eq!(e.to_string(), "a.iqm @36: meshes end past end of file");
        let e = LoadError { file: "a.iqe".into(), location: Location::Line(40), message: "bad".into() };
        assert_eq!(e.to_string(), "a.iqe:40: bad");
    }
}
