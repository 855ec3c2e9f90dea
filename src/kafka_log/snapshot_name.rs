//! Snapshot and segment file names (`Snapshots.filenameFromSnapshotId` and `SnapshotPath`:
//! `<20-digit end offset>-<10-digit epoch>.checkpoint`; `LogFileUtils.logFile`:
//! `<20-digit base offset>.log`).

/// A snapshot's file name.
pub(crate) fn snapshot_file_name(end_offset: u64, epoch: u32) -> String {
    format!("{end_offset:020}-{epoch:010}.checkpoint")
}

/// A segment's file name.
pub(crate) fn segment_file_name(base_offset: u64) -> String {
    format!("{base_offset:020}.log")
}

/// The end offset a snapshot's name gives (`bootstrap.checkpoint` ends at 0,
/// `Snapshots.BOOTSTRAP_SNAPSHOT_ID`).
pub(crate) fn snapshot_end_offset(name: &str) -> Option<i64> {
    let base = name.rsplit(['/', '\\']).next()?;
    if base == "bootstrap.checkpoint" {
        return Some(0);
    }
    let stem = base.strip_suffix(".checkpoint")?;
    let (offset, epoch) = stem.split_once('-')?;
    epoch.parse::<u32>().ok()?;
    offset.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_kafka() {
        assert_eq!(snapshot_file_name(42, 3), "00000000000000000042-0000000003.checkpoint");
        assert_eq!(segment_file_name(0), "00000000000000000000.log");
        assert_eq!(snapshot_end_offset("dir/00000000000000000042-0000000003.checkpoint"), Some(42));
        assert_eq!(snapshot_end_offset("bootstrap.checkpoint"), Some(0));
        assert_eq!(snapshot_end_offset("x.checkpoint"), None);
    }
}
