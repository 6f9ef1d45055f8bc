extension QuerySchema {
    /// A query of an entity whose class inherits from another model, as the query of its
    /// hierarchy's folder that keeps the documents of it and of the entities inheriting from it.
    func inFolder(_ query: DocumentQuery) -> DocumentQuery {
        let (folder, kinds) = folder(of: query.entity)
        guard let kinds else { return query }
        let isOneOf = QueryExpression.entity(of: .root, isOneOf: kinds)
        var inFolder = query
        inFolder.entity = folder
        inFolder.filter = query.filter.map { .and(isOneOf, $0) } ?? isOneOf
        return inFolder
    }

    /// The folders whose documents a query of `entity` may read: the entity's own and those
    /// of every relationship the expressions could follow, through any number of hops, so a
    /// store loads these before the query runs and no other. A relationship is followed
    /// when its name appears as a member anywhere in the expressions, whatever the base (an
    /// over-estimate, never an under-one); a document named by a constant adds its folder.
    func folders(readBy expressions: [QueryExpression], of entity: String) -> Set<String> {
        relatedFolders(readBy: expressions, of: entity).union([folder(of: entity).folder])
    }

    /// The folders a query of `entity` may read other than for the documents it tests: those
    /// of constants and of every relationship the expressions could follow (the entity's own
    /// folder too, when a relationship can lead back into it). See `folders(readBy:of:)`.
    func relatedFolders(readBy expressions: [QueryExpression], of entity: String) -> Set<String> {
        // One walk gathers both the members named and the documents named (every fetch asks).
        var names: Set<String> = []
        var folders: Set<String> = []
        var pending = expressions
        while let expression = pending.popLast() {
            switch expression {
            case .member(_, let name): names.insert(name)
            case .value(.document(let entity, _)): folders.insert(folder(of: entity).folder)
            default: break
            }
            pending += expression.children
        }
        var reached: Set<String> = []
        var frontier = [entity]
        while let next = frontier.popLast() {
            guard let described = entities[next] else { continue }
            for name in names {
                guard case .relationship(let destination, _, _)? = described.property(named: name) else { continue }
                folders.insert(folder(of: destination).folder)
                if reached.insert(destination).inserted { frontier.append(destination) }
            }
        }
        return folders
    }

    /// The folders checking a document of `entity`'s folder reads: that folder, and those
    /// its hierarchy's relationships point into (a reference must name a document there).
    func folders(checkedWith entity: String) -> Set<String> {
        let home = folder(of: entity).folder
        var folders: Set<String> = [home]
        for described in entities.values where described.storageName == home {
            for case (_, .relationship(let destination, _, _)) in described.properties + described.subentityProperties {
                folders.insert(folder(of: destination).folder)
            }
        }
        return folders
    }
}
