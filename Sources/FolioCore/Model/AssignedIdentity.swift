import Foundation

/// Where Folio takes the identity it gives a model that declares no `id: UUID` of its own
/// (the UUID that names its document and is stored as `"$id"`). Folio's addition, for
/// reproducible fixtures and tests: SwiftData has no such setting.
///
/// Outside `$source.withValue`, each such model gets a random `UUID()`, as always. Within
/// it, the source is asked instead, once per model, when the model's identity is first
/// needed (at its insert at the latest). Models with their own `id` are unaffected.
///
/// ```swift
/// final class Counter: Sendable {
///     private let count = Mutex(0)
///     func next() -> UUID {
///         count.withLock { $0 += 1; return UUID(uuidString: String(format: "00000000-0000-4000-8000-%012X", $0))! }
///     }
/// }
/// let counter = Counter()
/// try AssignedIdentity.$source.withValue({ counter.next() }) {
///     context.insert(AuditEventRecord(eventType: "launch", timestamp: start, detailJSON: "{}"))
///     try context.save()  // AuditEventRecord/…/00000000-0000-4000-8000-000000000001.json
/// }
/// ```
public enum AssignedIdentity {
    /// The identities to hand out in the current task and the tasks it starts (as task-local
    /// values go: child tasks and `Task { }`, not `Task.detached`); `nil` (the default)
    /// means random ones. The closure may be called from any of those tasks at once, so it
    /// guards its own state (a `Mutex`, as above).
    @TaskLocal public static var source: (@Sendable () -> UUID)?

    /// The next identity to assign: the source's, else a random one.
    static func next() -> UUID { source?() ?? UUID() }
}
