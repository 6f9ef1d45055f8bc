// ModelContext: what its undo manager records, and how each change is undone.

extension ModelContext {
    /// Records how to undo a property set: setting the previous value back through the
    /// property's setter, which records the redo in turn.
    ///
    /// Only the property the app set is recorded: the other sides a relationship keeps
    /// current are set again by its setter when it is undone.
    func registerUndo<Value, Model: PersistentModel>(
        ofSetting key: String, on model: Model, from previous: Any?, as type: Value.Type
    ) {
        guard let undoManager, undoManager.isUndoRegistrationEnabled,
            let keyPath = ModelEntities.entity(of: Model.self).properties.first(where: { $0.name == key })?.keyPath
                as? ReferenceWritableKeyPath<Model, Value>,
            let previous = previous as? Value ?? (Value.self as? any OptionalValue.Type)?.noValue as? Value
        else { return }
        undoManager.registerUndo(withTarget: model) { model in model[keyPath: keyPath] = previous }
    }

    /// Records how to undo an insert: a model not saved yet is forgotten, a saved one deleted.
    func registerUndo(ofInserting model: any PersistentModel) {
        undoManager?.registerUndo(withTarget: self) { context in context.undoInsert(of: model) }
    }

    /// Records how to undo a delete: a model whose delete is not saved yet stays.
    func registerUndo(ofDeleting model: some PersistentModel) {
        undoManager?.registerUndo(withTarget: self) { context in context.undoDelete(of: model) }
    }

    private func undoInsert(of model: any PersistentModel) {
        let identifier = model.persistentModelID
        guard let position = inserted.firstIndex(of: identifier) else {
            delete(model)
            return
        }
        inserted.remove(at: position)
        changed.remove(identifier)
        registered[identifier] = nil
        model.persistentBackingData.context = nil
        undoManager?.registerUndo(withTarget: self) { context in context.insert(model) }
    }

    /// Keeps a model whose delete is pending; a delete already saved is not undone, since
    /// the model's document is gone.
    private func undoDelete(of model: some PersistentModel) {
        let identifier = model.persistentModelID
        guard let position = deleted.firstIndex(of: identifier) else { return }
        deleted.remove(at: position)
        undoManager?.registerUndo(withTarget: self) { context in context.delete(model) }
    }
}
