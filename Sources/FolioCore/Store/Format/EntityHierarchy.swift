/// Models whose classes inherit from other models, as entities: which entities a fetch
/// of one stands for. The model layer's schema and the manifest's (`QuerySchema`)
/// both ask it, each with its own record of who inherits from whom.
enum EntityHierarchy {
    /// An entity and every entity inheriting from it, directly or not, breadth first and
    /// in name order at each level; `superentity` names the entity one inherits from.
    static func names(from root: String, among entities: some Collection<String>, superentity: (String) -> String?)
        -> [String]
    {
        var names = [root]
        var index = 0
        while index < names.count, names.count <= entities.count {
            let parent = names[index]
            names += entities.filter { superentity($0) == parent && !names.contains($0) }.sorted()
            index += 1
        }
        return names
    }
}
