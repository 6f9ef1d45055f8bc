#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which model class, if any, this thread is making from a document right now.
///
/// Swift applies a class's initial property values at the start of every initializer,
/// `init(backingData:)` included, before its body hands the model its backing data. A
/// model made from a document would otherwise make a second backing data for those
/// values and throw it away, once per fetched model; while this names the class, its
/// init accessors skip them (the document's values win anyway). Per thread, because
/// contexts on other threads keep making models by their initializers meanwhile.
enum ModelLoading {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        guard pthread_key_create(&key, nil) == 0 else { preconditionFailure("no thread-specific key left for Folio") }
        return key
    }()

    /// Runs `body` (which calls `init(backingData:)` of `type`) with `type` marked as loading.
    static func loading<Result>(_ type: any PersistentModel.Type, _ body: () -> Result) -> Result {
        let previous = pthread_getspecific(key)
        pthread_setspecific(key, unsafeBitCast(type as Any.Type, to: UnsafeRawPointer.self))
        defer { pthread_setspecific(key, previous) }
        return body()
    }

    /// Whether `type` is the class this thread is making from a document.
    static func isLoading(_ type: Any.Type) -> Bool {
        guard let loading = pthread_getspecific(key) else { return false }
        return UnsafeRawPointer(loading) == unsafeBitCast(type, to: UnsafeRawPointer.self)
    }
}
