import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// Every expansion and diagnostic of `@Model`, pinned.
struct ModelMacroTests {
    @Test func storedPropertiesAreTrackedAndDescribed() {
        expectExpansion(
            """
            @Model
            final class Note {
                @Attribute(.unique) var id: UUID
                var text: String = ""
                var pinned: Bool?
                var length: Int { text.count }
                @Transient var draft = ""
                static let kind = "note"
                init(id: UUID) { self.id = id }
            }
            """,
            expandsTo: """
                final class Note {
                    var id: UUID {
                        @storageRestrictions(initializes: _id, accesses: _$backingData)
                        init(initialValue) {
                            Folio.ModelBackingData.setInitialValue(initialValue, forKey: "id", in: &_$backingData, of: Self.self)
                            _id = Folio.PersistedValueSlot()
                        }
                        get {
                            access(keyPath: \\.id)
                            return persistentBackingData.value(forKey: "id")
                        }
                        set {
                            withMutation(keyPath: \\.id) {
                                persistentBackingData.setValue(newValue, forKey: "id", of: self)
                            }
                        }
                    }

                    private var _id: Folio.PersistedValueSlot
                    var text: String {
                        @storageRestrictions(initializes: _text, accesses: _$backingData)
                        init(initialValue) {
                            Folio.ModelBackingData.setInitialValue(initialValue, forKey: "text", in: &_$backingData, of: Self.self)
                            _text = Folio.PersistedValueSlot()
                        }
                        get {
                            access(keyPath: \\.text)
                            return persistentBackingData.value(forKey: "text")
                        }
                        set {
                            withMutation(keyPath: \\.text) {
                                persistentBackingData.setValue(newValue, forKey: "text", of: self)
                            }
                        }
                    }

                    private var _text: Folio.PersistedValueSlot
                    var pinned: Bool? {
                        @storageRestrictions(accesses: _$backingData)
                        init(initialValue) {
                            Folio.ModelBackingData.setInitialValue(initialValue, forKey: "pinned", in: &_$backingData, of: Self.self)
                        }
                        get {
                            access(keyPath: \\.pinned)
                            return persistentBackingData.value(forKey: "pinned")
                        }
                        set {
                            withMutation(keyPath: \\.pinned) {
                                persistentBackingData.setValue(newValue, forKey: "pinned", of: self)
                            }
                        }
                    }
                    var length: Int { text.count }
                    var draft = ""
                    static let kind = "note"
                    init(id: UUID) { self.id = id }

                    private var _$backingData: Folio.ModelBackingData?

                    public var persistentBackingData: Folio.ModelBackingData {
                        Folio.ModelBackingData.ensured(&_$backingData, of: Self.self)
                    }

                    public static var schemaEntity: Folio.Schema.Entity {
                        Folio.Schema.Entity(
                            name: "Note",
                            properties: [
                                .describe("id", \\Note.id, defaultValue: nil, options: [.unique]),
                                .describe("text", \\Note.text, defaultValue: {
                                        ""
                                    }, options: [], initial: .constant),
                                .describe("pinned", \\Note.pinned, defaultValue: nil, options: [])
                            ],
                            uniquenessConstraints: [],
                            indices: [])
                    }

                    public required init(backingData: Folio.ModelBackingData) {
                        _$backingData = backingData
                        _id = Folio.PersistedValueSlot()
                        _text = Folio.PersistedValueSlot()
                    }

                    private let _$observationRegistrar = Observation.ObservationRegistrar()

                    internal nonisolated func access<_Member>(keyPath: KeyPath<Note, _Member>) {
                        _$observationRegistrar.access(self, keyPath: keyPath)
                    }

                    internal nonisolated func withMutation<_Member, _Result>(
                        keyPath: KeyPath<Note, _Member>, _ mutation: () throws -> _Result
                    ) rethrows -> _Result {
                        try _$observationRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
                    }

                    public nonisolated func _$notifyObservers(_ change: Folio.ObservedChange, of names: Swift.Set<Swift.String>) {
                        if names.contains("id") {
                            change.send(to: _$observationRegistrar, of: self, at: \\.id)
                        }
                        if names.contains("text") {
                            change.send(to: _$observationRegistrar, of: self, at: \\.text)
                        }
                        if names.contains("pinned") {
                            change.send(to: _$observationRegistrar, of: self, at: \\.pinned)
                        }
                    }
                }

                extension Note: Folio.PersistentModel, Observation.Observable {
                }
                """)
    }

    @Test func relationshipsAndConstraintsAreDescribed() {
        expectExpansion(
            """
            @Model
            class Timer {
                #Unique<Timer>([\\.name, \\.createdAt])
                #Index<Timer>([\\.name])
                var name: String
                var createdAt: Date
                @Attribute(.indexed, originalName: "colour") var color: String
                @Relationship(deleteRule: .cascade, inverse: \\TodoItem.timer)
                var todoItems: [TodoItem] = []
                init() { name = ""; createdAt = .now; color = "" }
            }
            """,
            expandsTo: """
                class Timer {
                    var name: String {
                        @storageRestrictions(initializes: _name, accesses: _$backingData)
                        init(initialValue) {
                            Folio.ModelBackingData.setInitialValue(initialValue, forKey: "name", in: &_$backingData, of: Self.self)
                            _name = Folio.PersistedValueSlot()
                        }
                        get {
                            access(keyPath: \\.name)
                            return persistentBackingData.value(forKey: "name")
                        }
                        set {
                            withMutation(keyPath: \\.name) {
                                persistentBackingData.setValue(newValue, forKey: "name", of: self)
                            }
                        }
                    }

                    private var _name: Folio.PersistedValueSlot
                    var createdAt: Date {
                        @storageRestrictions(initializes: _createdAt, accesses: _$backingData)
                        init(initialValue) {
                            Folio.ModelBackingData.setInitialValue(initialValue, forKey: "createdAt", in: &_$backingData, of: Self.self)
                            _createdAt = Folio.PersistedValueSlot()
                        }
                        get {
                            access(keyPath: \\.createdAt)
                            return persistentBackingData.value(forKey: "createdAt")
                        }
                        set {
                            withMutation(keyPath: \\.createdAt) {
                                persistentBackingData.setValue(newValue, forKey: "createdAt", of: self)
                            }
                        }
                    }

                    private var _createdAt: Folio.PersistedValueSlot
                    var color: String {
                        @storageRestrictions(initializes: _color, accesses: _$backingData)
                        init(initialValue) {
                            Folio.ModelBackingData.setInitialValue(initialValue, forKey: "color", in: &_$backingData, of: Self.self)
                            _color = Folio.PersistedValueSlot()
                        }
                        get {
                            access(keyPath: \\.color)
                            return persistentBackingData.value(forKey: "color")
                        }
                        set {
                            withMutation(keyPath: \\.color) {
                                persistentBackingData.setValue(newValue, forKey: "color", of: self)
                            }
                        }
                    }

                    private var _color: Folio.PersistedValueSlot
                    var todoItems: [TodoItem] {
                        @storageRestrictions(initializes: _todoItems, accesses: _$backingData)
                        init(initialValue) {
                            Folio.ModelBackingData.setInitialValue(initialValue, forKey: "todoItems", in: &_$backingData, of: Self.self)
                            _todoItems = Folio.PersistedValueSlot()
                        }
                        get {
                            access(keyPath: \\.todoItems)
                            return persistentBackingData.value(forKey: "todoItems")
                        }
                        set {
                            withMutation(keyPath: \\.todoItems) {
                                persistentBackingData.setValue(newValue, forKey: "todoItems", of: self)
                            }
                        }
                    }

                    private var _todoItems: Folio.PersistedValueSlot
                    init() { name = ""; createdAt = .now; color = "" }

                    private var _$backingData: Folio.ModelBackingData?

                    public var persistentBackingData: Folio.ModelBackingData {
                        Folio.ModelBackingData.ensured(&_$backingData, of: Self.self)
                    }

                    public static func _$keyPaths<_Root: Timer>(rootedAt root: _Root.Type) -> [String: Swift.AnyKeyPath] {
                        var keyPaths: [String: Swift.AnyKeyPath] = [:]
                        keyPaths["name"] = \\_Root.name
                        keyPaths["createdAt"] = \\_Root.createdAt
                        keyPaths["color"] = \\_Root.color
                        keyPaths["todoItems"] = \\_Root.todoItems
                        return keyPaths
                    }

                    public class var schemaEntity: Folio.Schema.Entity {
                        Folio.Schema.Entity(
                            name: "Timer",
                            properties: [
                                .describe("name", \\Timer.name, defaultValue: nil, options: []),
                                .describe("createdAt", \\Timer.createdAt, defaultValue: nil, options: []),
                                .describe("color", \\Timer.color, defaultValue: nil, options: [.indexed, .originalName("colour")]),
                                .relationship("todoItems", \\Timer.todoItems, deleteRule: .cascade, inverseName: "timer")
                            ],
                            uniquenessConstraints: [["name", "createdAt"]],
                            indices: [["name"]])
                    }

                    public required init(backingData: Folio.ModelBackingData) {
                        _$backingData = backingData
                        _name = Folio.PersistedValueSlot()
                        _createdAt = Folio.PersistedValueSlot()
                        _color = Folio.PersistedValueSlot()
                        _todoItems = Folio.PersistedValueSlot()
                    }

                    private let _$observationRegistrar = Observation.ObservationRegistrar()

                    internal nonisolated func access<_Member>(keyPath: KeyPath<Timer, _Member>) {
                        _$observationRegistrar.access(self, keyPath: keyPath)
                    }

                    internal nonisolated func withMutation<_Member, _Result>(
                        keyPath: KeyPath<Timer, _Member>, _ mutation: () throws -> _Result
                    ) rethrows -> _Result {
                        try _$observationRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
                    }

                    public nonisolated func _$notifyObservers(_ change: Folio.ObservedChange, of names: Swift.Set<Swift.String>) {
                        if names.contains("name") {
                            change.send(to: _$observationRegistrar, of: self, at: \\.name)
                        }
                        if names.contains("createdAt") {
                            change.send(to: _$observationRegistrar, of: self, at: \\.createdAt)
                        }
                        if names.contains("color") {
                            change.send(to: _$observationRegistrar, of: self, at: \\.color)
                        }
                        if names.contains("todoItems") {
                            change.send(to: _$observationRegistrar, of: self, at: \\.todoItems)
                        }
                    }
                }

                extension Timer: Folio.PersistentModel, Observation.Observable {
                }
                """)
    }

    @Test func aSubclassOfAModelOverridesItsSuperclassMembersAndCallsSuperInit() {
        expectExpansion(
            """
            @Model
            final class BusinessTrip: Trip {
                var perDiem: Double = 0
                init(name: String) { super.init(name: name) }
            }
            """,
            expandsTo: """
                final class BusinessTrip: Trip {
                    var perDiem: Double {
                        @storageRestrictions(initializes: _perDiem, accesses: _$backingData)
                        init(initialValue) {
                            Folio.ModelBackingData.setInitialValue(initialValue, forKey: "perDiem", in: &_$backingData, of: Self.self)
                            _perDiem = Folio.PersistedValueSlot()
                        }
                        get {
                            access(keyPath: \\.perDiem)
                            return persistentBackingData.value(forKey: "perDiem")
                        }
                        set {
                            withMutation(keyPath: \\.perDiem) {
                                persistentBackingData.setValue(newValue, forKey: "perDiem", of: self)
                            }
                        }
                    }

                    private var _perDiem: Folio.PersistedValueSlot
                    init(name: String) { super.init(name: name) }

                    private var _$backingData: Folio.ModelBackingData?

                    public override var persistentBackingData: Folio.ModelBackingData {
                        Folio.ModelBackingData.adopting(&_$backingData, into: super.persistentBackingData)
                    }

                    public override class var schemaEntity: Folio.Schema.Entity {
                        Folio.Schema.Entity(
                            name: "BusinessTrip",
                            inheritingFrom: Trip.self, keyPaths: Trip._$keyPaths(rootedAt: BusinessTrip.self),
                            properties: [
                                .describe("perDiem", \\BusinessTrip.perDiem, defaultValue: {
                                        0
                                    }, options: [], initial: .constant)
                            ],
                            uniquenessConstraints: [],
                            indices: [])
                    }

                    public required init(backingData: Folio.ModelBackingData) {
                        _$backingData = nil
                        _perDiem = Folio.PersistedValueSlot()
                        super.init(backingData: backingData)
                    }

                    private let _$observationRegistrar = Observation.ObservationRegistrar()

                    internal nonisolated func access<_Member>(keyPath: KeyPath<BusinessTrip, _Member>) {
                        _$observationRegistrar.access(self, keyPath: keyPath)
                    }

                    internal nonisolated func withMutation<_Member, _Result>(
                        keyPath: KeyPath<BusinessTrip, _Member>, _ mutation: () throws -> _Result
                    ) rethrows -> _Result {
                        try _$observationRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
                    }

                    public override nonisolated func _$notifyObservers(_ change: Folio.ObservedChange, of names: Swift.Set<Swift.String>) {
                        if names.contains("perDiem") {
                            change.send(to: _$observationRegistrar, of: self, at: \\.perDiem)
                        }
                        super._$notifyObservers(change, of: names)
                    }
                }
                """,
            conformances: [])
    }

    @Test func aStructGetsAnErrorAndAFixIt() {
        expectExpansion(
            """
            @Model
            struct Note {
                var text: String
            }
            """,
            expandsTo: """
                struct Note {
                    var text: String
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "@Model applies to a class: a model has an identity that every reference shares", line: 1,
                    column: 1,
                    fixIts: [FixItSpec(message: "make it a class")])
            ],
            fixedSource: """
                @Model
                class Note {
                    var text: String
                }
                """)
    }

    @Test func aLetWithAnInitialValueGetsAnErrorAndAFixIt() {
        expectExpansion(
            """
            @Model
            final class Note {
                let text: String = "x"
            }
            """,
            expandsTo: """
                final class Note {
                    let text: String = "x"
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "a stored 'let' with an initial value cannot take its stored value when a model is fetched; declare it with 'var', or set it in init",
                    line: 3, column: 5, fixIts: [FixItSpec(message: "use 'var'")])
            ],
            fixedSource: """
                @Model
                final class Note {
                    var text: String = "x"
                }
                """)
    }

    @Test func aTransientWithoutAValueGetsAnError() {
        expectExpansion(
            """
            @Model
            final class Note {
                @Transient var cache: [String]
            }
            """,
            expandsTo: """
                final class Note {
                    var cache: [String]
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "a @Transient property needs an initial value: models loaded from documents are made without running init",
                    line: 3, column: 20)
            ])
    }

    @Test func aTransientOptionalVarWithoutAValueGetsNoError() {
        expectExpansion(
            """
            @Model
            final class Note {
                @Transient private var cache: [String]?
            }
            """,
            expandsTo: """
                final class Note {
                    private var cache: [String]?

                    private var _$backingData: Folio.ModelBackingData?

                    public var persistentBackingData: Folio.ModelBackingData {
                        Folio.ModelBackingData.ensured(&_$backingData, of: Self.self)
                    }

                    public static var schemaEntity: Folio.Schema.Entity {
                        Folio.Schema.Entity(
                            name: "Note",
                            properties: [],
                            uniquenessConstraints: [],
                            indices: [])
                    }

                    public required init(backingData: Folio.ModelBackingData) {
                        _$backingData = backingData
                    }

                    private let _$observationRegistrar = Observation.ObservationRegistrar()

                    internal nonisolated func access<_Member>(keyPath: KeyPath<Note, _Member>) {
                        _$observationRegistrar.access(self, keyPath: keyPath)
                    }

                    internal nonisolated func withMutation<_Member, _Result>(
                        keyPath: KeyPath<Note, _Member>, _ mutation: () throws -> _Result
                    ) rethrows -> _Result {
                        try _$observationRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
                    }

                    public nonisolated func _$notifyObservers(_ change: Folio.ObservedChange, of names: Swift.Set<Swift.String>) {

                    }
                }

                extension Note: Folio.PersistentModel, Observation.Observable {
                }
                """)
    }

    @Test func propertiesInsideAnIfGetNoDiagnosticsSinceABuildMayLeaveThemOut() {
        expectExpansion(
            """
            @Model
            final class Note {
                #if os(iOS)
                    let madeOn = "iPhone"
                    var onTap: () -> Void = {}
                #endif
            }
            """,
            expandsTo: """
                final class Note {
                    #if os(iOS)
                        let madeOn = "iPhone"
                        var onTap: () -> Void = {}
                    #endif

                    private var _$backingData: Folio.ModelBackingData?

                    public var persistentBackingData: Folio.ModelBackingData {
                        Folio.ModelBackingData.ensured(&_$backingData, of: Self.self)
                    }

                    public static var schemaEntity: Folio.Schema.Entity {
                        var properties: [Folio.Schema.Property] = []
                        #if os(iOS)
                        properties.append(.describe("madeOn", \\Note.madeOn, defaultValue: {
                                    "iPhone"
                                }, options: [], initial: .constant))
                        properties.append(.describe("onTap", \\Note.onTap, defaultValue: {
                                    {
                                    }
                                }, options: []))
                        #endif
                        return Folio.Schema.Entity(name: "Note", properties: properties, uniquenessConstraints: [], indices: [])
                    }

                    public required init(backingData: Folio.ModelBackingData) {
                        _$backingData = backingData
                        #if os(iOS)
                        self.madeOn = backingData.value(forKey: "madeOn")
                        _onTap = Folio.PersistedValueSlot()
                        #endif
                    }

                    private let _$observationRegistrar = Observation.ObservationRegistrar()

                    internal nonisolated func access<_Member>(keyPath: KeyPath<Note, _Member>) {
                        _$observationRegistrar.access(self, keyPath: keyPath)
                    }

                    internal nonisolated func withMutation<_Member, _Result>(
                        keyPath: KeyPath<Note, _Member>, _ mutation: () throws -> _Result
                    ) rethrows -> _Result {
                        try _$observationRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
                    }

                    public nonisolated func _$notifyObservers(_ change: Folio.ObservedChange, of names: Swift.Set<Swift.String>) {
                        #if os(iOS)
                        if names.contains("onTap") {
                            change.send(to: _$observationRegistrar, of: self, at: \\.onTap)
                        }
                        #endif
                    }
                }

                extension Note: Folio.PersistentModel, Observation.Observable {
                }
                """)
    }

    @Test func anUnstorableTypeGetsAnErrorAndAFixItWhenItHasAValue() {
        expectExpansion(
            """
            @Model
            final class Note {
                var onChange: (() -> Void)? = nil
                var anything: Any
            }
            """,
            expandsTo: """
                final class Note {
                    var onChange: (() -> Void)? = nil
                    var anything: Any
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "a @Model cannot store this type (a function, a tuple, or an existential has no JSON form); store a Codable type, or mark the property @Transient",
                    line: 3, column: 19, fixIts: [FixItSpec(message: "mark it @Transient")]),
                DiagnosticSpec(
                    message:
                        "a @Model cannot store this type (a function, a tuple, or an existential has no JSON form); store a Codable type, or mark the property @Transient",
                    line: 4, column: 19),
            ],
            fixedSource: """
                @Model
                final class Note {
                    @Transient var onChange: (() -> Void)? = nil
                    var anything: Any
                }
                """)
    }

    @Test func aModelActorGetsItsOwnContext() {
        expectExpansion(
            """
            @ModelActor
            actor Importer {
            }
            """,
            expandsTo: """
                actor Importer {

                    public nonisolated let modelExecutor: any Folio.ModelExecutor

                    public nonisolated let modelContainer: Folio.ModelContainer

                    public init(modelContainer: Folio.ModelContainer) {
                        self.modelExecutor = Folio.DefaultSerialModelExecutor(modelContext: Folio.ModelContext(modelContainer))
                        self.modelContainer = modelContainer
                    }
                }

                extension Importer: Folio.ModelActor {
                }
                """)
    }

    @Test func aModelActorOnAClassGetsAnError() {
        expectExpansion(
            """
            @ModelActor
            final class Importer {
            }
            """,
            expandsTo: """
                final class Importer {
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "@ModelActor applies to an actor, which keeps its model context to itself", line: 1,
                    column: 1)
            ])
    }
}
