import Foundation

#if !canImport(Darwin)
    /// Foundation's `UndoManager`, which Foundation on Linux lacks: a stack of undo groups
    /// and one of redo groups, as on Darwin, so that `ModelContext.undoManager` can record changes.
    ///
    /// Registrations while undoing go to the redo stack, others to the undo stack (clearing
    /// the redo stack, unless redoing). With `groupsByEvent` (the default), registrations
    /// outside an explicit group are grouped until the current run loop turn ends, as
    /// Darwin groups them by event; `undo()` closes that group first. The manager does not
    /// keep its targets (Darwin's keeps them unowned): an action whose target is gone does
    /// nothing. Not thread-safe: use it on one thread.
    open class UndoManager: NSObject {
        /// One registered action: what to run, bound to its target.
        private typealias Action = () -> Void
        /// A closed group of actions, run last to first, with its name.
        private struct Group {
            var actions: [Action]
            var name: String
        }

        private var undoStack: [Group] = []
        private var redoStack: [Group] = []
        /// The open groups, innermost last; each collects the actions registered in it.
        private var openGroups: [[Action]] = []
        /// The name given to the innermost open group, or to the last one closed.
        private var pendingName = ""
        /// Whether the outermost open group was opened by a registration (`groupsByEvent`), not by the app.
        private var isGroupOpenedByEvent = false
        private var disabledCount = 0

        /// Whether `undo()` is running its group's actions.
        public private(set) var isUndoing = false
        /// Whether `redo()` is running its group's actions.
        public private(set) var isRedoing = false
        /// Whether registrations outside an explicit group are grouped by run loop turn; true by default.
        open var groupsByEvent = true
        /// The most undo groups kept (0, the default: no limit); the oldest go first.
        open var levelsOfUndo = 0 {
            didSet { trim() }
        }

        /// An undo manager with empty stacks.
        public override init() { super.init() }

        /// Whether there is a group to undo (an open group by event counts: `undo()` closes it).
        open var canUndo: Bool { !undoStack.isEmpty || (isGroupOpenedByEvent && openGroups.first?.isEmpty == false) }
        /// Whether there is a group to redo.
        open var canRedo: Bool { !redoStack.isEmpty }
        /// How many groups are open.
        open var groupingLevel: Int { openGroups.count }
        /// Whether registrations are recorded: false between `disableUndoRegistration()` and
        /// as many `enableUndoRegistration()` calls.
        open var isUndoRegistrationEnabled: Bool { disabledCount == 0 }

        /// Opens a group: the actions registered until the matching `endUndoGrouping()` are undone together.
        open func beginUndoGrouping() {
            openGroups.append([])
        }

        /// Closes the innermost group; a nested group's actions join the enclosing one.
        open func endUndoGrouping() {
            guard let actions = openGroups.popLast() else {
                preconditionFailure("endUndoGrouping() without a matching beginUndoGrouping()")
            }
            if openGroups.isEmpty {
                isGroupOpenedByEvent = false
                if !actions.isEmpty { push(Group(actions: actions, name: pendingName)) }
            } else {
                openGroups[openGroups.count - 1].append(contentsOf: actions)
            }
        }

        /// Records how to undo a change: `handler` runs with `target` when its group is undone.
        open func registerUndo<Target: AnyObject>(withTarget target: Target, handler: @escaping (Target) -> Void) {
            guard isUndoRegistrationEnabled else { return }
            // Weak, so that a context whose manager holds its actions is not kept by them.
            let action: Action = { [weak target] in if let target { handler(target) } }
            if openGroups.isEmpty {
                if isUndoing || isRedoing || !groupsByEvent {
                    push(Group(actions: [action], name: pendingName))
                    return
                }
                beginUndoGrouping()
                isGroupOpenedByEvent = true
                let closing = GroupClosing(manager: self)
                RunLoop.current.perform { closing.close() }
            }
            openGroups[openGroups.count - 1].append(action)
        }

        /// Undoes the last group: its actions run last to first, and what they register becomes the redo group.
        open func undo() {
            closeGroupOpenedByEvent()
            precondition(openGroups.isEmpty, "undo() inside an open group; call endUndoGrouping() first")
            guard let group = undoStack.popLast() else { return }
            run(group, undoing: true)
        }

        /// Redoes the last group undone.
        open func redo() {
            precondition(openGroups.isEmpty, "redo() inside an open group; call endUndoGrouping() first")
            guard let group = redoStack.popLast() else { return }
            run(group, undoing: false)
        }

        /// Forgets every group on both stacks.
        open func removeAllActions() {
            undoStack = []
            redoStack = []
            openGroups = openGroups.map { _ in [] }
        }

        /// Stops recording registrations, until as many `enableUndoRegistration()` calls.
        open func disableUndoRegistration() { disabledCount += 1 }
        /// Records registrations again, once every `disableUndoRegistration()` has its match.
        open func enableUndoRegistration() {
            precondition(disabledCount > 0, "enableUndoRegistration() without a matching disableUndoRegistration()")
            disabledCount -= 1
        }

        /// Names the group being recorded (or the one last closed), for a menu's "Undo <name>".
        open func setActionName(_ actionName: String) {
            if openGroups.isEmpty, !isUndoing, !isRedoing, !undoStack.isEmpty {
                undoStack[undoStack.count - 1].name = actionName
            } else {
                pendingName = actionName
            }
        }
        /// The name of the group `undo()` would undo.
        open var undoActionName: String { undoStack.last?.name ?? (canUndo ? pendingName : "") }
        /// The name of the group `redo()` would redo.
        open var redoActionName: String { redoStack.last?.name ?? "" }

        /// The close of a group opened by event at the end of the run loop turn, which must not keep the manager.
        private final class GroupClosing: @unchecked Sendable {
            // Unchecked: the run loop runs the block on the thread that registered, the manager's.
            weak var manager: UndoManager?
            init(manager: UndoManager) { self.manager = manager }
            func close() { manager?.closeGroupOpenedByEvent() }
        }

        fileprivate func closeGroupOpenedByEvent() {
            guard isGroupOpenedByEvent, openGroups.count == 1 else { return }
            endUndoGrouping()
        }

        /// Runs a group's actions last to first, recording what they register as one group on the other stack.
        private func run(_ group: Group, undoing: Bool) {
            if undoing { isUndoing = true } else { isRedoing = true }
            openGroups.append([])
            for action in group.actions.reversed() { action() }
            let registered = openGroups.removeLast()
            if undoing { isUndoing = false } else { isRedoing = false }
            pendingName = ""
            guard !registered.isEmpty else { return }
            let reverse = Group(actions: registered, name: group.name)
            if undoing { redoStack.append(reverse) } else { undoStack.append(reverse) }
            trim()
        }

        /// Puts a group the app recorded on the undo stack, which ends what could be redone.
        private func push(_ group: Group) {
            if isUndoing {
                redoStack.append(group)
            } else {
                undoStack.append(group)
                if !isRedoing { redoStack = [] }
            }
            pendingName = ""
            trim()
        }

        private func trim() {
            if levelsOfUndo > 0, undoStack.count > levelsOfUndo {
                undoStack.removeFirst(undoStack.count - levelsOfUndo)
            }
        }
    }
#endif
