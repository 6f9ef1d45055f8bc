/// How a store answers reads, fixed when it is opened: for an app, which asks many questions
/// over its life, or for one command of a process that asks one and ends.
///
/// The two differ in what they load. An app's store loads a folder at its first use and
/// answers every later query from memory; only a query on one index key or one no index
/// serves (a scan, streamed) over a large folder is answered from the folder's cache file and
/// a walk, and the folder is loaded once such answers have read as many documents as it holds
/// (a scan reads them all). One command's store leaves a folder
/// unloaded wherever the command can do without it: a query on one index key is answered from
/// the cache file whatever the folder's size (see `answerFromCache`), a commit of new
/// documents checks their identities against a walk of their folder (see `commit`), and a
/// pass over every document reads the cache file rather than loading (see `forEachDocument`).
/// For such a command, loading a folder of 200,000 documents cost three times the walk and
/// 270 MB, for an answer that reads a few hundred.
public struct StoreReads: Sendable, Hashable {
    /// Whether the store serves one command of a process that then ends (`folio count`,
    /// `folio insert`).
    public let servesOneCommand: Bool
    /// The fewest documents a folder must have for a query on one index key to be answered
    /// from its cache file: in an app's store, below it loading the folder costs little and
    /// answers every later query from memory; any number for one command.
    public let cacheAnswerMinimum: Int

    /// An app's reads, answered from a folder's cache file when it holds `cacheAnswerMinimum`
    /// documents or more: at the usual 5,000, a load takes about 30 ms and 6 MB.
    public init(cacheAnswerMinimum: Int = 5_000) {
        servesOneCommand = false
        self.cacheAnswerMinimum = max(0, cacheAnswerMinimum)
    }

    private init(oneCommand: Void) {
        servesOneCommand = true
        cacheAnswerMinimum = 0
    }

    /// An app's, at the usual minimum.
    public static let app = StoreReads()
    /// One command's.
    public static let oneCommand = StoreReads(oneCommand: ())
}
