import Folio
import Foundation
import Observation
import Synchronization
import Testing

@testable import SeedApps

/// The Timer app's models as `@Model` declares them: the entity read from the
/// declaration, and properties that behave as stored ones and are observed.
struct TimerAppModelTests {
    @Test func entityIsReadFromTheDeclaration() throws {
        let entity = Timer.schemaEntity
        #expect(entity.name == "Timer")
        #expect(
            entity.attributes.map(\.name) == [
                "id", "name", "durationInSeconds", "icon", "colorHex", "createdAt", "updatedAt", "notes",
            ])
        let notes = try #require(entity.attributes.first { $0.name == "notes" })
        #expect(notes.valueType == "String" && notes.isOptional)
        let id = try #require(entity.attributes.first { $0.name == "id" })
        #expect(id.valueType == "UUID" && id.isUnique && !id.isOptional)
        #expect(entity.uniquenessConstraints == [["id"]])
    }

    @Test func computedPropertiesAreNotStored() {
        let names = Timer.schemaEntity.attributes.map(\.name) + Timer.schemaEntity.relationships.map(\.name)
        #expect(!names.contains("hours") && !names.contains("formattedDuration"))
    }

    @Test func relationshipsAreDeclaredOrInferredFromTheType() throws {
        let todoItems = try #require(Timer.schemaEntity.relationships.first)
        #expect(
            todoItems
                == Schema.Relationship(
                    name: "todoItems", destination: "TodoItem", isToMany: true, isOptional: false, deleteRule: .cascade,
                    inverseName: "timer"))
        // `var timer: Timer?` has no `@Relationship`: its type makes it one, as in SwiftData.
        let timer = try #require(TodoItem.schemaEntity.relationships.first)
        #expect(
            timer.name == "timer" && timer.destination == "Timer" && !timer.isToMany && timer.isOptional
                && timer.deleteRule == .nullify)
        #expect(!TodoItem.schemaEntity.attributes.contains { $0.name == "timer" })
    }

    @Test func propertiesKeepTheirValuesAndRecordChangesOnceRegistered() throws {
        let timer = Timer(name: "Tea", durationInSeconds: 240, notes: "green")
        #expect(
            timer.name == "Tea" && timer.formattedDuration == "04:00" && timer.notes == "green"
                && timer.todoItems.isEmpty)
        let context = ModelContext(
            try ModelContainer(for: Timer.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true)))
        context.insert(timer)
        #expect(
            timer.persistentBackingData.changedProperties.isEmpty,
            "what init sets is the model's first state, not a change")
        timer.name = "Coffee"
        timer.notes = nil
        #expect(timer.name == "Coffee" && timer.notes == nil)
        #expect(timer.persistentBackingData.changedProperties == ["name", "notes"])
    }

    @Test func readingAPropertyIsObservedAndWritingItNotifies() {
        let timer = Timer(name: "Tea", durationInSeconds: 240)
        let changed = Mutex(0)
        withObservationTracking {
            _ = timer.name
        } onChange: {
            changed.withLock { $0 += 1 }
        }
        timer.durationInSeconds = 300  // not read inside the tracking: no notification
        #expect(changed.withLock { $0 } == 0)
        timer.name = "Coffee"
        #expect(changed.withLock { $0 } == 1)
    }

    @Test func aModelCanBeMadeAroundStoredValuesWithoutItsInitializer() {
        let data = ModelBackingData()
        data.setInitialValue("Loaded", forKey: "text")
        data.setInitialValue(true, forKey: "isCompleted")
        let item = TodoItem(backingData: data)
        #expect(item.text == "Loaded" && item.isCompleted)
        #expect(item.persistentBackingData === data)
    }
}
