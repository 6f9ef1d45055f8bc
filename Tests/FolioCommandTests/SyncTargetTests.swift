import FolioTestSupport
import Foundation
import Testing

/// `folio sync` checks that it has somewhere to push before it commits: a sync that could
/// never push commits nothing and says what is wrong and what to do.
struct SyncTargetTests {
    typealias Origin = GitSyncTests.Origin

    /// A clone of origin with the merge driver and one new, uncommitted timer in its store.
    func cloneWithAChange(of origin: Origin) throws -> (clone: GitClone, folio: FolioTool, commits: String) {
        let clone = try origin.clone("a")
        let folio = origin.folio(in: clone)
        #expect(try folio("git", "install").status == 0)
        // Whatever the install wrote is committed, so the timer is the only change.
        try clone.run("add", "--all")
        try clone.run("commit", "-q", "-m", "install")
        #expect(
            try folio("insert", "Timer", "name=New", "durationInSeconds=60", "createdAt=2026-11-20T10:00:00Z").status
                == 0)
        return (clone, folio, try clone.git("rev-parse", "HEAD"))
    }

    /// Whether the clone is as the change left it: no commit made, nothing staged, the timer still untracked.
    func nothingWasCommitted(in clone: GitClone, since commit: String) throws -> Bool {
        try clone.git("rev-parse", "HEAD") == commit && clone.run("diff", "--cached", "--quiet").status == 0
            && !clone.git("status", "--porcelain").isEmpty
    }

    @Test func syncToANonBareCloneWithTheBranchCheckedOutCommitsNothingAndSaysWhatToDo() throws {
        let origin = try Origin()
        let (clone, folio, commit) = try cloneWithAChange(of: origin)
        let refused = try folio("sync")
        #expect(refused.status == 65, "\(refused.errors)")
        #expect(
            refused.errors.contains(
                "is a repository with a work tree, and main is the branch checked out there: git refuses a push into it (receive.denyCurrentBranch), so the sync could never push; nothing was committed"
            ), "\(refused.errors)")
        #expect(refused.errors.contains("git clone --bare"), "\(refused.errors)")
        #expect(refused.errors.contains("config receive.denyCurrentBranch updateInstead"), "\(refused.errors)")
        #expect(try nothingWasCommitted(in: clone, since: commit))
        // The same again: still nothing committed, never a commit that the next run cannot push.
        #expect(try folio("sync").status == 65)
        #expect(try nothingWasCommitted(in: clone, since: commit))

        // Done as the hint says, the sync goes through.
        try origin.origin.git("config", "receive.denyCurrentBranch", "updateInstead")
        let synced = try folio("sync")
        #expect(synced.status == 0, "\(synced.errors)")
        #expect(synced.output.hasSuffix("Pushed; the store is in sync\n"))
        #expect(try origin.origin.git("rev-parse", "HEAD") == (try clone.git("rev-parse", "HEAD")))
    }

    @Test func syncToABareRepositoryOrAnotherBranchIsNotRefused() throws {
        let origin = try Origin()
        try GitClone(path: origin.folder.path, environment: origin.environment).git(
            "clone", "-q", "--bare", origin.folder("origin"), origin.folder("shared.git"))
        let (clone, folio, _) = try cloneWithAChange(of: origin)
        try clone.git("remote", "set-url", "origin", origin.folder("shared.git"))
        let synced = try folio("sync")
        #expect(synced.status == 0, "\(synced.errors)")
    }

    @Test func syncWithoutAnUpstreamOrARemoteCommitsNothingAndSaysHowToSetOne() throws {
        let origin = try Origin(bare: true)
        let (clone, folio, commit) = try cloneWithAChange(of: origin)
        try clone.git("branch", "--unset-upstream")
        let unset = try folio("sync")
        #expect(unset.status == 65, "\(unset.errors)")
        #expect(
            unset.errors.contains(
                "the branch main has no upstream, so there is nowhere to pull from or push to; nothing was committed"),
            "\(unset.errors)")
        #expect(unset.errors.contains("git push -u origin main"), "\(unset.errors)")
        #expect(try nothingWasCommitted(in: clone, since: commit))

        let unknown = try folio("sync", "upstream")
        #expect(unknown.status == 65)
        #expect(unknown.errors.contains("this clone has no remote named \"upstream\"; nothing was committed"))
        // A remote that reads as an option never reaches git (git pull hands it on to fetch without a --).
        let option = try folio("sync", "--", "--upload-pack=touch pwned")
        #expect(option.status == 65)
        #expect(option.errors.contains("is not a remote"), "\(option.errors)")
        #expect(!FileManager.default.fileExists(atPath: clone.path + "/Store/pwned"))
        #expect(try nothingWasCommitted(in: clone, since: commit))

        try clone.git("remote", "remove", "origin")
        let none = try folio("sync")
        #expect(none.status == 65)
        #expect(none.errors.contains("git remote add origin <url>"), "\(none.errors)")
        #expect(try nothingWasCommitted(in: clone, since: commit))

        // A remote without the branch yet: nothing to pull, so nothing is committed either.
        try GitClone(path: origin.folder.path, environment: origin.environment).git(
            "init", "-q", "--bare", origin.folder("empty.git"))
        try clone.git("remote", "add", "empty", origin.folder("empty.git"))
        let empty = try folio("sync", "empty")
        #expect(empty.status == 65)
        #expect(empty.errors.contains("has no branch main yet"), "\(empty.errors)")
        #expect(empty.errors.contains("git push -u empty main"), "\(empty.errors)")
        #expect(try nothingWasCommitted(in: clone, since: commit))
    }
}
