import FolioJSON

extension StoredSchema {
    /// One entity as the manifest's schema records it.
    package struct Entity: Sendable, Equatable {
        /// The entity's name: its key in `"entities"`, which names its folder.
        package let name: String
        /// The entity its class inherits from (`"superentity"`), when that is a name.
        package let superentity: String?
        /// Whether the entity has a `"superentity"` at all, even one that is not a name.
        // Kept apart from `superentity` because the folders a store is made with (and an
        // erase empties) have always been those of the entities without the key, whatever
        // it holds, while queries need a name; `check` reports one that is not.
        package let hasSuperentity: Bool
        /// Every element of `"properties"`, in declaration order (inherited ones first); an
        /// element that is not an object reads as a property with nothing known about it.
        package let properties: [Property]
        /// The uniqueness constraints (`"unique"`): the names each list holds. A list that
        /// names no property stays, empty, so `folio schema` shows what the file says.
        package let uniquenessConstraints: [[String]]
        /// The indexes (`"indices"`), read as `uniquenessConstraints` is.
        package let indices: [[String]]

        /// The entity `name` of a schema, as its JSON describes it.
        init(name: String, json: JSONValue) {
            /// The lists of names under a key; what is not a list is left out.
            func lists(_ key: String) -> [[String]] {
                (json[key]?.arrayValue ?? []).compactMap { $0.arrayValue?.compactMap(\.stringValue) }
            }
            self.name = name
            superentity = json["superentity"]?.stringValue
            hasSuperentity = json["superentity"] != nil
            properties = (json["properties"]?.arrayValue ?? []).map(Property.init)
            uniquenessConstraints = lists("unique")
            indices = lists("indices")
        }

        /// The first property of this name (a hand-edited schema may list two).
        package func property(named name: String) -> Property? { properties.first { $0.name == name } }
    }
}
