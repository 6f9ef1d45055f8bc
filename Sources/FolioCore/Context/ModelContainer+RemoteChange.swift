import Foundation

extension ModelContainer {
    /// Posted on `NotificationCenter.default`, with the container as its object, when the
    /// container finds its stores changed on disk: another process's save, the `folio`
    /// tool, a hand edit, `git pull`. SwiftData's `remoteChange`, which `HistoryObserver`
    /// listens for. The container's own saves post `ModelContext.didSave` instead.
    ///
    /// It comes from the file watcher's thread (or the thread that called `refresh()`):
    /// hand the work to your own actor.
    public static let remoteChange = Notification.Name("Folio.ModelContainer.remoteChange")
}
