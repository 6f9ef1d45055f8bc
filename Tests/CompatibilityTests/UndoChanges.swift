import Folio
import FolioTestSupport
import Foundation
import Testing

/// `ModelContext.undoManager`, as SwiftData has it: changes, inserts and deletes undone
/// and redone, on Folio's `UndoManager` where Foundation on Linux has none.
struct UndoChanges {
    let folder: TemporaryDirectory
    init() throws { folder = try TemporaryDirectory() }

    func container() throws -> ModelContainer {
        try ModelContainer(
            for: Expedition.self, configurations: ModelConfiguration(url: folder.url, durability: .none))
    }

    /// A context holding one saved expedition, with an undo manager from then on, as an editor opens a document.
    func editing() throws -> (ModelContext, Expedition, UndoManager) {
        let context = ModelContext(try container())
        let everest = Expedition(name: "Everest", base: Camp(name: "South Base"))
        context.insert(everest)
        try context.save()
        let undoManager = UndoManager()
        context.undoManager = undoManager
        return (context, everest, undoManager)
    }

    @Test func aContextHasNoUndoManagerUnlessGivenOne() throws {
        #expect(ModelContext(try container()).undoManager == nil)
    }

    @Test func undoSetsAPropertyBackAndRedoSetsItAgainAndTheSaveWritesWhatIsLeft() throws {
        let (context, everest, undoManager) = try editing()
        everest.name = "Everest 2027"
        #expect(undoManager.canUndo)
        undoManager.undo()
        #expect(everest.name == "Everest")
        #expect(undoManager.canRedo)
        undoManager.redo()
        #expect(everest.name == "Everest 2027")
        try context.save()
        let again = try #require(try ModelContext(try container()).fetch(FetchDescriptor<Expedition>()).first)
        #expect(again.name == "Everest 2027")
    }

    @Test func undoOfARelationshipChangeRestoresBothSidesAndTakesOutTheModelItBroughtIn() throws {
        let (context, everest, undoManager) = try editing()
        let summit = Waypoint(place: "Summit")
        summit.expedition = everest
        #expect(everest.stops.map(\.place) == ["Summit"] && summit.modelContext === context)

        undoManager.undo()
        #expect(summit.expedition == nil && everest.stops.isEmpty)
        #expect(!context.hasChanges, "the waypoint the relationship inserted is taken out again")
        undoManager.redo()
        #expect(summit.expedition === everest && everest.stops.map(\.place) == ["Summit"])
        #expect(context.insertedModelsArray.count == 1)
    }

    @Test func undoTakesBackAnInsertOrADeleteNotSavedYet() throws {
        let (context, everest, undoManager) = try editing()
        undoManager.groupsByEvent = false
        let k2 = Expedition(name: "K2", base: Camp(name: "Concordia"))
        undoManager.beginUndoGrouping()
        context.insert(k2)
        undoManager.endUndoGrouping()
        undoManager.beginUndoGrouping()
        context.delete(everest)
        undoManager.endUndoGrouping()
        #expect(everest.isDeleted)

        undoManager.undo()
        #expect(!everest.isDeleted && context.deletedModelsArray.isEmpty)
        undoManager.undo()
        #expect(context.insertedModelsArray.isEmpty && k2.modelContext == nil, "with the camp it brought in")
        undoManager.redo()
        #expect(context.insertedModelsArray.count == 2 && k2.modelContext === context)
        try context.save()
        let names = try ModelContext(try container()).fetch(FetchDescriptor<Expedition>()).map(\.name).sorted()
        #expect(names == ["Everest", "K2"])
    }

    @Test func changesInOneGroupAreUndoneTogetherUnderTheGroupsName() throws {
        let (context, everest, undoManager) = try editing()
        undoManager.groupsByEvent = false
        undoManager.beginUndoGrouping()
        everest.name = "Everest North"
        everest.budget = 9_000
        undoManager.setActionName("Plan North Route")
        undoManager.endUndoGrouping()
        undoManager.beginUndoGrouping()
        everest.budget = 11_000
        undoManager.endUndoGrouping()

        undoManager.undo()
        #expect(everest.budget == 9_000 && everest.name == "Everest North")
        #expect(undoManager.undoActionName == "Plan North Route")
        undoManager.undo()
        #expect(everest.budget == 0 && everest.name == "Everest")
        #expect(!undoManager.canUndo && undoManager.redoActionName == "Plan North Route")
        undoManager.beginUndoGrouping()
        everest.budget = 1
        undoManager.endUndoGrouping()
        #expect(undoManager.undoActionName == "", "a new group has no name until given one")
        #expect(everest.modelContext === context, "the context, which holds the undo manager, lives on")
    }

    @Test func rollbackForgetsWhatTheUndoManagerRecorded() throws {
        let (context, everest, undoManager) = try editing()
        everest.budget = 500
        context.rollback()
        #expect(everest.budget == 0)
        #expect(!undoManager.canUndo && !undoManager.canRedo)
    }

    @Test func theUndoManagerKeepsAtMostItsLevelsAndRecordsNothingWhileDisabled() throws {
        let (context, everest, undoManager) = try editing()
        undoManager.groupsByEvent = false
        undoManager.levelsOfUndo = 2
        for budget in [100.0, 200, 300] {
            undoManager.beginUndoGrouping()
            everest.budget = budget
            undoManager.endUndoGrouping()
        }
        undoManager.disableUndoRegistration()
        everest.name = "Everest Unrecorded"
        undoManager.enableUndoRegistration()

        undoManager.undo()
        undoManager.undo()
        #expect(everest.budget == 100 && !undoManager.canUndo, "the oldest group is gone")
        #expect(everest.name == "Everest Unrecorded" && context.hasChanges)
    }

    @Test func aContextWithAnUndoManagerIsReleasedWhenTheAppLetsGoOfIt() throws {
        weak var released: ModelContext?
        do {
            let (context, everest, _) = try editing()
            everest.budget = 700
            context.insert(Waypoint(place: "Col"))
            released = context
        }
        #expect(released == nil, "the actions recorded do not keep the context")
    }

    @Test func whatASaveDoesToApplyDeleteRulesIsNotUndone() throws {
        let (context, everest, undoManager) = try editing()
        undoManager.groupsByEvent = false
        let summit = Waypoint(place: "Summit")
        undoManager.beginUndoGrouping()
        summit.expedition = everest
        undoManager.endUndoGrouping()
        try context.save()
        undoManager.beginUndoGrouping()
        context.delete(everest)
        undoManager.endUndoGrouping()
        try context.save()
        #expect(summit.expedition == nil, "the save nullified it")

        undoManager.undo()
        #expect(summit.expedition == nil, "the delete is saved: undo does not give the waypoint a deleted expedition")
        undoManager.undo()
        #expect(summit.isDeleted, "undoing the saved insert of the waypoint deletes it")
        try context.save()
        #expect(try ModelContext(try container()).fetchCount(FetchDescriptor<Waypoint>()) == 0)
    }
}
