import Foundation
import Glibc
import Testing

@testable import FolioCore

/// When a file's stamp may vouch for its content: once the file system's clock has surely
/// moved on since its change time, at the granularity that change time shows.
struct FileStampTests {
    func stamp(changed: Int64) -> FileStamp {
        FileStamp(size: 10, modified: changed, changed: changed, inode: 7, device: 1)
    }

    func time(_ nanoseconds: Int64) -> timespec {
        timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
    }

    @Test func aStampOfAFileSystemThatKeepsNanosecondsIsTrustedAfterFiftyMilliseconds() {
        let changed: Int64 = 1_795_852_491_812_319_134
        #expect(stamp(changed: changed).isRacy(now: time(changed + 40_000_000)))
        #expect(!stamp(changed: changed).isRacy(now: time(changed + 60_000_000)))
    }

    /// ext4 with small inodes, NFS and SMB keep whole seconds, FAT two: a change half a
    /// second after another in the same second gives the same stamp.
    @Test func aStampOfWholeSecondsIsTrustedOnlyAfterTwoSeconds() {
        let changed: Int64 = 1_795_852_491_000_000_000
        #expect(stamp(changed: changed).isRacy(now: time(changed + 900_000_000)))
        #expect(stamp(changed: changed).isRacy(now: time(changed + 1_900_000_000)))
        #expect(!stamp(changed: changed).isRacy(now: time(changed + 2_100_000_000)))
    }

    @Test func aClockBeforeTheChangeTimeNeverTrustsTheStamp() {
        let changed: Int64 = 1_795_852_491_812_319_134
        #expect(stamp(changed: changed).isRacy(now: time(changed - 5_000_000_000)))
    }

    /// `touch -r` puts the modification time back; the change time it cannot.
    @Test func stampsDifferingOnlyInChangeTimeAreDifferent() {
        var touched = stamp(changed: 1_000_000_001)
        touched.changed += 1
        #expect(touched != stamp(changed: 1_000_000_001))
    }

    /// A journal's plan from before change times were recorded matches on the rest.
    @Test func aStampRecordedWithoutChangeTimeMatchesOnTheRest() {
        let now = stamp(changed: 1_000_000_001)
        let recorded = FileStamp(size: 10, modifiedSeconds: 1, modifiedNanoseconds: 1, inode: 7)
        #expect(now.isStill(recorded))
        #expect(!FileStamp(size: 11, modified: 1_000_000_001, changed: 5, inode: 7, device: 1).isStill(recorded))
        #expect(!now.isStill(FileStamp(size: 10, modified: 1_000_000_001, changed: 2, inode: 7, device: 1)))
    }
}
