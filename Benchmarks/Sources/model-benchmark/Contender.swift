/// One side of the comparison, Folio or GRDB: the same operations on the same values,
/// each side written as its users would write it.
///
/// Every operation works in a folder nothing else uses, and times only what its name
/// says; checks that the work was all done happen outside the clock. Operations that
/// save write every dirty page back (`sync`) just before their clock starts, so that
/// their syncs flush only what they write themselves (their own untimed set-up included).
protocol Contender {
    /// "Folio" or "GRDB", for the progress lines.
    var name: String { get }

    /// Creates a store in `folder`, then inserts every session and saves them all in one
    /// transaction. Returns the time of the inserts and the save.
    func insertAndSave(_ sessions: [SessionValues], in folder: String, durability: DurabilityPair) throws -> Duration

    /// Opens the store in `folder` again and fetches every session, each made into a
    /// model or record. Returns the time, from opening to the last session made, and
    /// what was fetched.
    func reopenAndFetchAll(in folder: String) throws -> (time: Duration, fetched: SessionDigest)

    /// Saves `registered` in `folder`, opens the store again and fetches them all (so a
    /// context holds them), then inserts and saves each of `new` on its own. Returns
    /// the time of each insert and save.
    func singleSaves(registered: [SessionValues], new: [SessionValues], in folder: String, durability: DurabilityPair)
        throws -> [Duration]

    /// Saves a rowing session in `folder`, then each stroke on its own, referring to the
    /// session. Returns the time of each stroke's insert and save.
    func strokeSaves(
        session: StrokeValues.Session, strokes: [StrokeValues], in folder: String, durability: DurabilityPair
    ) throws -> [Duration]

    /// In a child process of its own: warms up on the store in `warmUp` (opens it and
    /// fetches all, then lets go), then opens the store in `folder` and fetches every
    /// session. Returns the heap and the resident memory grown, in KiB, after the open and
    /// after the fetch.
    func memoryGrowth(warmUp: String, folder: String) throws -> (afterOpen: HeapUse, afterFetch: HeapUse)
}
