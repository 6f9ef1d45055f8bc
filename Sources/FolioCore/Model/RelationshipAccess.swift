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

    /// A required to-one (`var owner: Owner`): it always holds one model. A value of no model
    /// (what losing its inverse, or a reference to nothing, asks for) has no form of the
    /// property's type: it is `nil`, and assigning it changes nothing, so the model keeps the
    /// one it had (a save refuses to leave it pointing at a deleted one).
    static func requiredToOne<Owner: PersistentModel, Related: PersistentModel>(
        _ keyPath: ReferenceWritableKeyPath<Owner, Related>
    ) -> RelationshipAccess {
        RelationshipAccess(
            destination: Related.self,
            models: { value in (value as? Related).map { [$0] } ?? [] },
            value: { models in models.first.map { $0 as! Related as Any } ?? (Related?.none as Any) },
            assign: { owner, value in
                if let related = value as? Related { (owner as! Owner)[keyPath: keyPath] = related }
            })
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
