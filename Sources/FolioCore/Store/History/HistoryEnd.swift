import Synchronization

/// Where a store's history ends, as this store last wrote or read it: the segment and size
/// the next record is appended at, and the token it takes.
///
/// The one owner of the history's tail. Every record takes its token here (`stamped`: a
/// commit's, an import's, and one of changes found on disk), and the end moves on once the
/// record is appended; a refresh and a walk ask it whether the files still end there, so
/// that they need not read them. Another process may append at any time, so what it knows
/// is checked against the files (`current(in:)`) before it is trusted.
final class HistoryEnd: Sendable {
    private let tail = Mutex<HistoryLog.Tail?>(nil)

    /// The tail as last known: `nil` before the store first settled its history under the
    /// write lock, and after a history was set aside.
    var known: HistoryLog.Tail? { tail.withLock { $0 } }

    /// The known tail when the files still end there, `nil` when another process appended
    /// since or none is known. Call holding a lock.
    func current(in folder: OpenFolder) throws(FolioError) -> HistoryLog.Tail? {
        guard let known else { return nil }
        return try HistoryLog.isCurrent(known, in: folder) ? known : nil
    }

    /// Moves the end to `tail` (`nil`: unknown, read from the files when next needed).
    func move(to tail: HistoryLog.Tail?) {
        self.tail.withLock { $0 = tail }
    }

    /// `record` with the token after the end's, the one place a record is stamped;
    /// `nil` when no end is known, as in a store without history.
    func stamped(_ record: HistoryRecord?) -> HistoryRecord? {
        guard var record, let known else { return nil }
        record.token = known.lastToken + 1
        return record
    }

    /// Records that the transaction whose record ends the history at `tail` passed its commit
    /// point: the record is settled. Returns whether the record began a new segment, after
    /// which the history is trimmed to its limit.
    func landed(_ tail: HistoryLog.Tail) -> (settled: HistoryLog.Tail, beganSegment: Bool) {
        var settled = tail
        settled.unsettled = nil
        let before = self.tail.withLock { known in
            defer { known = settled }
            return known?.segment
        }
        return (settled, settled.segment != before)
    }
}
