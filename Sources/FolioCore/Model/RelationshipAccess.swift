/// How Folio reads and writes one relationship's value without knowing its Swift type:
/// the related models in it, a value of the property's type made of models, and the
/// property's setter (so observers hear of the change and the inverse stays current).
struct RelationshipAccess {
    /// The related model's type.
    let destination: any PersistentModel.Type
    /// The models a value of the property holds (none, one, or many).
    let models: (Any) -> [any PersistentModel]
    /// A value of the property's type holding these models (the first, for a to-one).
    let value: ([any PersistentModel]) -> Any
    /// Sets the property of a model (of the owning type) to a value of the property's type.
    let assign: (any PersistentModel, Any) -> Void

    static func toOne<Owner: PersistentModel, Related: PersistentModel>(
        _ keyPath: ReferenceWritableKeyPath<Owner, Related?>
    ) -> RelationshipAccess {
        RelationshipAccess(
            destination: Related.self,
            models: { value in (value as? Related).map { [$0] } ?? [] },
            value: { models in models.first.map { $0 as! Related } as Related? as Any },
            assign: { owner, value in (owner as! Owner)[keyPath: keyPath] = value as? Related })
    }

    static func toMany<Owner: PersistentModel, Related: PersistentModel>(
        _ keyPath: ReferenceWritableKeyPath<Owner, [Related]>
    ) -> RelationshipAccess {
        RelationshipAccess(
            destination: Related.self,
            models: { value in value as! [Related] },
            value: { models in models.map { $0 as! Related } as Any },
            assign: { owner, value in (owner as! Owner)[keyPath: keyPath] = value as! [Related] })
    }

    /// An optional to-many (`[Item]? = []`, the shape CloudKit asks for): `nil` holds no models.
    static func optionalToMany<Owner: PersistentModel, Related: PersistentModel>(
        _ keyPath: ReferenceWritableKeyPath<Owner, [Related]?>
    ) -> RelationshipAccess {
        RelationshipAccess(
            destination: Related.self,
            models: { value in (value as? [Related]) ?? [] },
            value: { models in models.map { $0 as! Related } as [Related]? as Any },
            assign: { owner, value in (owner as! Owner)[keyPath: keyPath] = value as? [Related] })
    }
}
