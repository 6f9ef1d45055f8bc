import Folio
import Foundation
import Testing

/// What code reads of a `Schema` as SwiftData describes it: entities by name, their
/// superentity and subentities, attributes' initial values, relationships' key paths.
struct SchemaIntrospection {
    @Test func anEntityAnswersWithItsPropertiesByNameAndItsPlaceInAClassHierarchy() throws {
        let schema = Schema([Journey.self, BusinessJourney.self, PersonalJourney.self, FamilyJourney.self, Leg.self])
        let journey = try #require(schema.entitiesByName["Journey"])
        #expect(journey.superentity == nil)
        #expect(Set(journey.subentities.map(\.name)) == ["BusinessJourney", "PersonalJourney"])
        let personal = try #require(journey.subentities.first { $0.name == "PersonalJourney" })
        #expect(personal.subentities.map(\.name) == ["FamilyJourney"], "each subentity has its own")
        let family = try #require(schema.entitiesByName["FamilyJourney"])
        #expect(family.superentity?.name == "PersonalJourney")
        #expect(family.superentity?.superentity?.name == "Journey")
        #expect(family.subentities.isEmpty)

        #expect(Set(journey.attributesByName.keys) == ["name", "start"])
        #expect(journey.relationshipsByName["legs"]?.isToOneRelationship == false)
        #expect(journey.relationshipsByName["legs"]?.keypath == (\Journey.legs as AnyKeyPath))
        let leg = try #require(schema.entitiesByName["Leg"])
        #expect(leg.relationshipsByName["journey"]?.isToOneRelationship == true)

        let business = try #require(schema.entitiesByName["BusinessJourney"])
        #expect(business.attributesByName["perDiem"]?.defaultValue as? Double == 0)
        #expect(business.attributesByName["company"]?.defaultValue == nil, "no initial value")
        #expect(business.attributesByName["company"]?.isTransformable == false)
    }

    @Test func anEntityIsFoundByItsModelClass() throws {
        let schema = Schema([Journey.self, BusinessJourney.self, Leg.self])
        #expect(Schema.entityName(for: BusinessJourney.self) == "BusinessJourney")
        #expect(schema.entity(for: BusinessJourney.self)?.superentity?.name == "Journey")
        #expect(schema.entity(for: Leg.self)?.relationshipsByName["journey"] != nil)
        #expect(schema.entity(for: FamilyJourney.self) == nil, "a class the schema does not hold")
    }

    @Test func aTransformableAttributeSaysSo() throws {
        let entity = try #require(Schema([Artwork.self]).entitiesByName["Artwork"])
        #expect(entity.attributesByName["palette"]?.isTransformable == true)
        #expect(entity.attributesByName["alternate"]?.isTransformable == true)
    }

    @Test func anEntityDescribedByHandHasNoClassToAskAbout() {
        let entity = Schema.Entity(
            name: "Note",
            properties: [
                .attribute(
                    .init(name: "text", valueType: "String", isOptional: false, hasDefaultValue: false, options: []))
            ])
        #expect(entity.superentity == nil && entity.subentities.isEmpty)
        #expect(entity.attributesByName["text"]?.defaultValue == nil)
    }
}
