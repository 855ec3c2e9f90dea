//! The files of one pick or drop as the browser reads them, one at a time and in any order: the
//! web layer keeps the batch while its readers run and hands the files to the log reader's
//! worker once all are read, so their bytes never pass through the page's state. A file that
//! cannot be read abandons its batch (a late one of it is not opened).

/// The files of a pick or drop being read.
#[derive(Debug, Default)]
pub struct FileBatch {
    /// Files still to be read; none once the batch is complete or abandoned.
    pending: usize,
    read: Vec<(String, Vec<u8>)>,
}

/// What a file's arrival did to its batch.
#[derive(Debug, PartialEq)]
pub enum BatchStep {
    /// More files are to come (or the batch was abandoned already).
    Waiting,
    /// The last file arrived: every file, named, for the log reader.
    Complete(Vec<(String, Vec<u8>)>),
    /// A file could not be read: the batch is abandoned, and why.
    Unreadable(String),
}

impl FileBatch {
    /// A batch of `files` files, none read yet (a new pick or drop drops the last batch).
    pub fn new(files: usize) -> FileBatch {
        FileBatch { pending: files, read: Vec::new() }
    }

    /// File `name` was read (its bytes) or could not be (why).
    pub fn arrived(&mut self, name: String, bytes: Result<Vec<u8>, String>) -> BatchStep {
        if self.pending == 0 {
            return BatchStep::Waiting;
        }
        match bytes {
            Ok(bytes) => {
                self.read.push((name, bytes));
                self.pending -= 1;
                if self.pending > 0 {
                    return BatchStep::Waiting;
                }
                BatchStep::Complete(std::mem::take(&mut self.read))
            }
            Err(error) => {
                self.pending = 0;
                self.read.clear();
                BatchStep::Unreadable(format!("Cannot read {name}: {error}"))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{BatchStep, FileBatch};

    #[test]
    fn a_batch_completes_with_its_last_file_and_a_failure_abandons_it() {
        let mut batch = FileBatch::new(2);
        assert_eq!(batch.arrived("b.log".into(), Ok(vec![2])), BatchStep::Waiting);
        let all = vec![("b.log".to_string(), vec![2]), ("a.checkpoint".to_string(), vec![1])];
        assert_eq!(batch.arrived("a.checkpoint".into(), Ok(vec![1])), BatchStep::Complete(all));
        assert_eq!(batch.arrived("late.log".into(), Ok(vec![3])), BatchStep::Waiting, "complete: ignored");

        let mut batch = FileBatch::new(2);
        let failed = batch.arrived("a.log".into(), Err("NotReadableError".into()));
        assert_eq!(failed, BatchStep::Unreadable("Cannot read a.log: NotReadableError".into()));
        assert_eq!(batch.arrived("b.log".into(), Ok(vec![1])), BatchStep::Waiting, "abandoned: not opened");
        assert_eq!(FileBatch::new(0).arrived("x".into(), Ok(Vec::new())), BatchStep::Waiting);
    }
}
