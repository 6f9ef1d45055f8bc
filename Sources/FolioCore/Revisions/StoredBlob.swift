/// An `.externalStorage` property's bytes as one state of the store holds them: the
/// `<UUID>.<property>.bin` file beside the record's document, named by git's id for its
/// content, so two states hold the same bytes exactly when the ids are equal.
public struct StoredBlob: Sendable, Hashable {
    /// Git's id for the bytes, as `git hash-object` prints it for the file.
    public var object: String
    /// How many bytes the file holds; nil where git lacks the object (a partial clone).
    public var size: Int?

    /// A blob file's bytes, by git's id and size.
    public init(object: String, size: Int?) {
        (self.object, self.size) = (object, size)
    }

    /// The blob git names `object`, its size from `sizes`; nil where there is no object.
    init?(_ object: String?, sizes: [String: Int]) {
        guard let object else { return nil }
        self.init(object: object, size: sizes[object])
    }
}
